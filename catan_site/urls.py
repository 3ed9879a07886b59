from allauth.account.decorators import secure_admin_login
from csp.constants import UNSAFE_INLINE
from csp.decorators import csp_update
from django.contrib import admin
from django.urls import include, path
from django.views.i18n import JavaScriptCatalog, set_language
from drf_spectacular.views import SpectacularSwaggerSplitView

from infra.api.schema_view import SchemaView

from .health import healthz, healthz_live, healthz_ready

# Under /api/ the JSON error envelope, elsewhere the site's own pages (infra/api/fallbacks.py).
handler400 = "infra.api.fallbacks.handler400"
handler403 = "infra.api.fallbacks.handler403"
handler404 = "infra.api.fallbacks.handler404"
handler500 = "infra.api.fallbacks.handler500"

# The admin has no log-in form of its own: it sends to the site's, which counts failed attempts.
admin.site.login = secure_admin_login(admin.site.login)

urlpatterns = [
    path("healthz", healthz, name="healthz"),
    path("healthz/live", healthz_live, name="healthz-live"),
    path("healthz/ready", healthz_ready, name="healthz-ready"),
    path("i18n/setlang/", set_language, name="set_language"),
    path("jsi18n/", JavaScriptCatalog.as_view(), name="javascript-catalog"),
    path("admin/", admin.site.urls),
    path("accounts/", include("allauth.urls")),
    path("accounts/", include("accounts.urls")),
    path("api/", include("games.api.urls")),
    path("api/moderation/", include("moderation.api.urls")),
    path("api/", include("accounts.api_urls")),
    path("api/", include("replays.api_urls")),
    path("api/", include("ratings.api_urls")),
    path("api/schema/", SchemaView.as_view(), name="schema"),
    # The split view loads its start-up script as a file; only its page's own <style> block needs leave.
    path(
        "api/docs/",
        csp_update({"style-src": [UNSAFE_INLINE]})(SpectacularSwaggerSplitView.as_view(url_name="schema")),
        name="api-docs",
    ),
    # make run's local mailbox: answers 404 unless LOCAL_MAILBOX_DIR is set (never in production).
    path("local/mail/", include("localmail.urls")),
    path("moderation/", include("moderation.urls")),
    path("", include("ops.urls")),  # /metrics and /ops/ (docs/OPERATIONS.md)
    path("", include("replays.urls")),
    path("", include("ratings.urls")),
    path("", include("games.urls")),
]
