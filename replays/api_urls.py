from django.urls import path

from . import api

urlpatterns = [
    path("games/<int:game_id>/stats/", api.GameStatistics.as_view(), name="api-game-stats"),
    path("games/<int:game_id>/replay/", api.GameReplay.as_view(), name="api-game-replay"),
]
