from typing import Any
from urllib.parse import urlsplit

from django.apps import AppConfig
from django.conf import settings
from django.db.models.signals import post_migrate


def name_a_default_site(using: str = "default", **kwargs: Any) -> None:
    """django.contrib.sites creates the Site as example.com after every migrate, and again after a database is
    flushed (a transactional test): allauth's emails would name example.com. A Site still called so is named
    from SITE_URL, as migration 0003 does once; a Site edited in the admin is left alone."""
    from django.contrib.sites.models import Site  # the app registry is ready only once signals are sent

    Site.objects.using(using).filter(pk=settings.SITE_ID, domain="example.com").update(
        domain=urlsplit(settings.SITE_URL).netloc, name="Catan"
    )
    Site.objects.clear_cache()


class AccountsConfig(AppConfig):
    name = "accounts"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from . import tokens  # noqa: F401  (connects the token rotation on a password change)

        # Sent for each app in INSTALLED_APPS order: for this one, after django.contrib.sites made its Site.
        post_migrate.connect(name_a_default_site, sender=self)
