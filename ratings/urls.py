from django.urls import path

from . import views

urlpatterns = [
    path("ratings/", views.leaderboard, name="ratings"),
    path("players/<str:username>/", views.player, name="player"),
]
