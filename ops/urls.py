from django.urls import path

from . import views

urlpatterns = [
    path("metrics", views.metrics_view, name="metrics"),
    path("ops/", views.ops_page, name="ops"),
]
