from django.urls import path

from . import push, views

urlpatterns = [
    path("scenarios/", views.ScenarioList.as_view(), name="api-scenarios"),
    path("games/", views.GameList.as_view(), name="api-games"),
    path("games/mine/", views.MyGames.as_view(), name="api-my-games"),
    path("games/<int:game_id>/", views.GameDetail.as_view(), name="api-game"),
    path("games/<int:game_id>/join/", views.GameJoin.as_view(), name="api-game-join"),
    path("games/<int:game_id>/leave/", views.GameLeave.as_view(), name="api-game-leave"),
    path("games/<int:game_id>/start/", views.GameStart.as_view(), name="api-game-start"),
    path("games/<int:game_id>/seats/<int:index>/bot/", views.GameSeatBot.as_view(), name="api-game-seat-bot"),
    path("games/<int:game_id>/invite/", views.GameInvite.as_view(), name="api-game-invite"),
    path("games/<int:game_id>/moves/", views.GameMoves.as_view(), name="api-game-moves"),
    path("games/<int:game_id>/log/", views.GameLog.as_view(), name="api-game-log"),
    path("games/<int:game_id>/chat/", views.GameChat.as_view(), name="api-game-chat"),
    path("games/<int:game_id>/reports/", views.GameReports.as_view(), name="api-game-reports"),
    path("games/<int:game_id>/orders/", views.GameOrders.as_view(), name="api-game-orders"),
    path("games/<int:game_id>/vacation/", views.GameVacation.as_view(), name="api-game-vacation"),
    path("mutes/", views.Mutes.as_view(), name="api-mutes"),
    path("seat-offers/", views.SeatOffers.as_view(), name="api-seat-offers"),
    path("push/key/", push.PushKey.as_view(), name="api-push-key"),
    path("push/subscriptions/", push.PushSubscriptions.as_view(), name="api-push-subscriptions"),
    path("push/notify-by/", push.NotifyBy.as_view(), name="api-push-notify-by"),
    path("games/<int:game_id>/notify-by/", push.GameNotifyBy.as_view(), name="api-game-notify-by"),
]
