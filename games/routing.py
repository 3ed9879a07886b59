from django.urls import path

from .consumers import GameConsumer, PingConsumer

websocket_urlpatterns = [
    path("ws/ping/", PingConsumer.as_asgi()),
    path("ws/games/<int:game_id>/", GameConsumer.as_asgi()),
]
