from django.urls import path

from . import pwa, views

urlpatterns = [
    path("", views.home, name="home"),
    path("games/", views.my_games, name="my-games"),
    path("games/new/", views.game_new, name="game-new"),
    path("games/<int:game_id>/", views.game_page, name="game"),
    path("games/<int:game_id>/join/", views.game_join, name="game-join"),
    path("games/<int:game_id>/leave/", views.game_leave, name="game-leave"),
    path("games/<int:game_id>/start/", views.game_start, name="game-start"),
    path("games/<int:game_id>/invite/", views.game_invite, name="game-invite"),
    path("games/<int:game_id>/seats/<int:index>/bot/", views.game_seat_bot, name="game-seat-bot"),
    path("games/<int:game_id>/settings/", views.game_settings, name="game-settings"),
    path("games/<int:game_id>/verify/", views.game_verify, name="game-verify"),
    path("games/<int:game_id>/rematch/", views.game_rematch, name="game-rematch"),
    path("play/<str:token>/", views.login_link, name="game-login-link"),
    path("act/<str:code>/<str:verb>/", views.email_action, name="email-action"),
    path("unsubscribe/<str:token>/", views.unsubscribe, name="unsubscribe"),
    path("manifest.webmanifest", pwa.manifest, name="pwa-manifest"),
    path("sw.js", pwa.service_worker, name="pwa-service-worker"),
    path("offline/", pwa.offline, name="pwa-offline"),
]
