from django.urls import path

from .api import Me, ObtainToken

urlpatterns = [
    path("me/", Me.as_view(), name="api-me"),
    path("token/", ObtainToken.as_view(), name="api-token"),
]
