from django.urls import path

from . import audit_views, views

urlpatterns = [
    path("", views.queue, name="moderation"),
    path("games/", views.games, name="moderation-games"),
    path("games/<int:game_id>/", views.game, name="moderation-game"),
    path("users/<int:user_id>/", views.person, name="moderation-user"),
    path("audit/", audit_views.audit_log, name="moderation-audit"),
    path("record/", audit_views.my_record, name="moderation-record"),
    path("record/<str:token>/", audit_views.record_by_token, name="moderation-record-token"),
]
