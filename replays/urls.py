from django.urls import path

from . import replay_page, views

urlpatterns = [
    path("games/<int:game_id>/stats/", views.game_statistics, name="game-stats"),
    path("games/<int:game_id>/replay/", replay_page.replay_page, name="game-replay"),
]
