from django.apps import AppConfig


class LocalmailConfig(AppConfig):
    name = "localmail"
    verbose_name = "Local mailbox (make run)"
