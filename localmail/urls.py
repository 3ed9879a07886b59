from django.urls import path

from localmail import views

urlpatterns = [
    path("", views.inbox, name="local-mail"),
    path("<str:name>/reply/", views.reply, name="local-mail-reply"),
]
