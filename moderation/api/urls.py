from django.urls import path

from . import views

urlpatterns = [
    path("games/", views.GameSearch.as_view(), name="api-mod-games"),
    path("games/<int:game_id>/actions/", views.GameAction.as_view(), name="api-mod-game-action"),
    path("games/<int:game_id>/position/", views.GamePosition.as_view(), name="api-mod-game-position"),
    path("users/<int:user_id>/", views.UserAction.as_view(), name="api-mod-user"),
    path("reports/", views.ReportQueue.as_view(), name="api-mod-reports"),
    path("reports/<int:report_id>/", views.ReportAction.as_view(), name="api-mod-report"),
    path("reports/bulk/", views.ReportBulk.as_view(), name="api-mod-reports-bulk"),
    path("audit/", views.AuditLog.as_view(), name="api-mod-audit"),
]
