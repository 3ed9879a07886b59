"""One settings module, driven by environment variables (see .env.example)."""

from __future__ import annotations

import logging
import os
import sys
from pathlib import Path

import environ
from celery.schedules import crontab
from csp.constants import NONE, SELF
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

from infra import logs

from .env_config import cache_config, celery_config, channel_layers_config, database_config, email_backend

BASE_DIR = Path(__file__).resolve().parent.parent
env = environ.Env()
if (BASE_DIR / ".env").exists():
    environ.Env.read_env(BASE_DIR / ".env", overwrite=False)

DEBUG = env.bool("DEBUG", default=True)
# Development only, and public: without DEBUG the site refuses to start with no key of its own (sessions,
# password-reset links and the log-in links in emails are signed with it). Django's prefix makes
# `check --deploy` flag this key wherever it is passed on.
DEVELOPMENT_KEY = "django-insecure-development-only-key-never-use-it-in-production-0123456789"
SECRET_KEY = env("SECRET_KEY", default="") or (DEVELOPMENT_KEY if DEBUG else "")
if not DEBUG and SECRET_KEY in ("", "change-me"):
    raise ImproperlyConfigured(
        ("SECRET_KEY is not set" if not SECRET_KEY else "SECRET_KEY is the placeholder of .env.example")
        + ": with DEBUG off the site needs a secret key of its own. Set SECRET_KEY in the environment or .env "
        "(python -c 'import secrets; print(secrets.token_urlsafe(50))' makes one), or DEBUG=true for development."
    )
ALLOWED_HOSTS = env.list("ALLOWED_HOSTS", default=["127.0.0.1", "localhost", "testserver"])
CSRF_TRUSTED_ORIGINS = env.list("CSRF_TRUSTED_ORIGINS", default=[])
SITE_URL = env("SITE_URL", default="http://127.0.0.1:8000")

# Daphne serves `manage.py runserver` (HTTP and WebSockets); it is installed only for that command, since importing
# it (and Twisted) cost every other process, each web server and worker, a quarter of a second at start.
_RUNSERVER = ["daphne"] if sys.argv[1:2] == ["runserver"] else []
INSTALLED_APPS = [
    *_RUNSERVER,
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django.contrib.sites",
    "channels",
    "rest_framework",
    "rest_framework.authtoken",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "csp",
    "django_structlog",
    "allauth",
    "allauth.account",
    "accounts",
    "games",
    "moderation",
    "localmail",
    "replays",
    "ratings",
    "ops",  # its ready() connects the Celery signals behind catan_task_duration_seconds and beat's last tick
]

MIDDLEWARE = [
    "ops.middleware.http_metrics",  # catan_http_requests_total (docs/OPERATIONS.md)
    "django.middleware.security.SecurityMiddleware",
    "csp.middleware.CSPMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # Binds request_id (and the user) to every log line of the request, and logs it once finished.
    "django_structlog.middlewares.RequestMiddleware",
    "infra.logs.RequestIdHeader",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "allauth.account.middleware.AccountMiddleware",
    "accounts.middleware.UserLanguageMiddleware",
    "infra.api.fallbacks.JsonBodiesOnly",  # before any form body is read: /api/ takes JSON only
    "infra.api.text_input.RefuseNulMiddleware",
]

# No page or endpoint takes files: a file part is refused before anything is stored (infra/api/uploads.py).
FILE_UPLOAD_HANDLERS = ["infra.api.uploads.RefuseFiles"]

ROOT_URLCONF = "catan_site.urls"
TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "moderation.context_processors.notices",
                "django.contrib.messages.context_processors.messages",
                "django.template.context_processors.i18n",
            ]
        },
    }
]
WSGI_APPLICATION = None
ASGI_APPLICATION = "catan_site.asgi.application"

DATABASES = {"default": database_config(os.environ, BASE_DIR)}
# A move's lock and write are prepared once per connection on PostgreSQL (games/store/move_sql.py). "auto" (the
# default): unless a pooler or proxy stands in front of PostgreSQL, found by asking the server which address and
# port the connection reached (PgBouncer in transaction mode cannot keep them). "true" or "false" decide.
DB_PREPARED_STATEMENTS = {"true": True, "false": False}.get(
    env.str("DB_PREPARED_STATEMENTS", default="auto").lower(), "auto"
)
# PgBouncer in transaction mode cannot keep a cursor open between transactions: `.iterator()` reads in chunks
# from a client-side cursor (the few places that iterate read a game's moves, hundreds of rows).
DATABASES["default"]["DISABLE_SERVER_SIDE_CURSORS"] = True
# The browser tests run the site in a second process: it needs the test database's name spelled out. (The suite
# runs on PostgreSQL only: tests/conftest.py refuses anything else.)
DATABASES["default"]["TEST"] = {"NAME": f"test_{DATABASES['default']['NAME']}"}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
CHANNEL_LAYERS = channel_layers_config(os.environ)
CACHES = cache_config(os.environ)
REDIS_URL = env("REDIS_URL", default="")

_celery = celery_config(os.environ)
CELERY_BROKER_URL = _celery["broker_url"]
# Nothing reads a task's return value: no result backend (none stored in Redis, no connection for them).
CELERY_RESULT_BACKEND = None
CELERY_TASK_ALWAYS_EAGER = _celery["task_always_eager"]
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_BROKER_CONNECTION_TIMEOUT = 2
# The visibility timeout is how long a task taken by a worker that died stays invisible before another worker
# gets it: it must exceed the longest task (a hard bot thinks at most 2 s; an email waits EMAIL_TIMEOUT), and
# the bot sweep re-queues a lost bot turn long before it anyway.
# `max_retries` 0: a publish with the broker down fails at once (kombu otherwise sleeps about 2 s reconnecting
# inside the request); the worker's own connection retries as `broker_connection_max_retries` says.
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "socket_connect_timeout": 2,
    "socket_timeout": 5,
    "visibility_timeout": 300,
    "max_retries": 0,
}
# One publish attempt per task: a broker outage must not hold a request (the sweeps re-queue what was lost).
CELERY_TASK_PUBLISH_RETRY = False
CELERY_TASK_IGNORE_RESULT = True
CELERY_TASK_ACKS_LATE = True
CELERY_TIMEZONE = "UTC"
BOT_LIVE_DELAY_SECONDS = env.float("BOT_LIVE_DELAY_SECONDS", default=0.8)
# Seconds a hard bot may think per decision (the engine caps it at 2). Without a broker, bots play inside the
# request that woke them, so they think briefly.
BOT_HARD_SECONDS = env.float("BOT_HARD_SECONDS", default=0.3 if CELERY_TASK_ALWAYS_EAGER else 1.5)
# A bot turn waiting this long with no move was lost (broker down at commit, worker killed): the sweep
# re-queues it.
BOT_SWEEP_AFTER_SECONDS = env.float("BOT_SWEEP_AFTER_SECONDS", default=10.0)
# Live games with a turn clock: once the player who owes a decision has closed their last socket, the table
# waits this long for them to come back (not the rest of their turn), then the timeout policy plays.
LIVE_DISCONNECT_GRACE_SECONDS = env.int("LIVE_DISCONNECT_GRACE_SECONDS", default=30)
# Notices (turn, offer, reminder mail) wait while their reader has the game open, and this long after they leave
# (games/mail/holding.py, issue 42).
NOTICE_GRACE_SECONDS = env.int("NOTICE_GRACE_SECONDS", default=120)
# Each web process renews its open game sockets' presence this often, for PRESENCE_TTL_SECONDS: a node that dies
# with sockets open stops counting its players at the table within PRESENCE_TTL_SECONDS (games/live/presence.py).
PRESENCE_HEARTBEAT_SECONDS = env.float("PRESENCE_HEARTBEAT_SECONDS", default=20.0)
PRESENCE_TTL_SECONDS = env.float("PRESENCE_TTL_SECONDS", default=60.0)
if not 0 < PRESENCE_HEARTBEAT_SECONDS <= PRESENCE_TTL_SECONDS / 2:
    # One late renewal (a busy loop, a Redis hiccup) must not make a player at the table count as gone.
    raise ImproperlyConfigured(
        "PRESENCE_HEARTBEAT_SECONDS must be above 0 and at most half of PRESENCE_TTL_SECONDS "
        f"({PRESENCE_HEARTBEAT_SECONDS} and {PRESENCE_TTL_SECONDS} given)"
    )
# Web Push (games/mail/push.py): the site's VAPID key pair (RFC 8292; base64url, the private key's 32 raw bytes and
# the public key's 65-byte uncompressed point); unset, nothing is pushed. `make run` makes its own pair.
VAPID_PRIVATE_KEY = env("VAPID_PRIVATE_KEY", default="")
VAPID_PUBLIC_KEY = env("VAPID_PUBLIC_KEY", default="")
VAPID_SUBJECT = env("VAPID_SUBJECT", default="mailto:noreply@catan.localhost")
PUSH_TIMEOUT = env.int("PUSH_TIMEOUT", default=10)  # seconds a push service may take to answer
PUSH_TTL_SECONDS = env.int("PUSH_TTL_SECONDS", default=86400)  # how long a push service keeps an undelivered notice
# The leaderboard lists people with at least this many rated games (docs/RATINGS.md).
RATINGS_LEADERBOARD_MIN_GAMES = env.int("RATINGS_LEADERBOARD_MIN_GAMES", default=5)
# Every beat started sends only while it holds a lease in the broker's Redis: one beat ticks, whatever is started
# (infra/beat_lease.py; BEAT_LEASE_SECONDS, 15 by default, is how soon a standby takes over from a dead one).
CELERY_BEAT_SCHEDULER = "infra.beat_lease:LeasedScheduler"
CELERY_BEAT_SCHEDULE = {
    "clocks": {"task": "games.clocks_tick", "schedule": env.float("CLOCKS_TICK_SECONDS", default=60.0)},
    "bots": {"task": "games.bots_sweep", "schedule": 15.0},
    # A suspension ends within a minute of its time (checked twice a minute).
    "suspensions": {"task": "moderation.lift_expired_suspensions", "schedule": 30.0},
    "outbox": {"task": "games.notifications_flush", "schedule": 60.0},
    # Every hour on the hour: each digest reader gets theirs at the local hour they chose.
    "digest": {"task": "games.notifications_digest", "schedule": crontab(minute=0)},
}
LOGIN_LINK_MAX_AGE = env.int("LOGIN_LINK_MAX_AGE", default=14 * 86400)  # seconds a link in an email stays valid
# The shortest time per move of a play-by-email game. `make run` lowers it so that a newcomer sees a clock run out.
ASYNC_MIN_MOVE_SECONDS = env.int("ASYNC_MIN_MOVE_SECONDS", default=3600)
VACATION_LIMIT_DAYS = env.int("VACATION_LIMIT_DAYS", default=14)  # per player and game
MAX_GAMES_PER_USER = env.int("MAX_GAMES_PER_USER", default=50)  # waiting, active or paused games at once
# Per user and minute, counted in the cache so that every server process shares the budget.
RATE_LIMITS = {
    "moves": env.int("RATE_LIMIT_MOVES", default=240),
    "chat": env.int("RATE_LIMIT_CHAT", default=20),
    "invites": env.int("RATE_LIMIT_INVITES", default=10),
}
# Per user and hour: reports filed, games created.
RATE_LIMITS_HOURLY = {
    "reports": env.int("RATE_LIMIT_REPORTS_PER_HOUR", default=10),
    "games": env.int("RATE_LIMIT_GAMES_PER_HOUR", default=20),
}
# The bot workers (docker/compose.yml: the `bots` service's concurrency, from the same variable) give
# BOT_WORKERS x 60 s of thinking a minute. One game creator's bots may think BOT_USER_SHARE of it (by default
# 2 x 60 s x 0.25 = 30 s a minute, twenty full hard decisions); past it, their hard bots play as medium ones (no
# search, ~1 ms) for the rest of the minute: they still move, and everyone else's bots keep their thinking time.
BOT_WORKERS = env.int("BOT_WORKERS", default=2)
BOT_USER_SHARE = env.float("BOT_USER_SHARE", default=0.25)
# Bots play on a queue of their own, served by workers of their own (docker/compose.yml: `bots`, bounded
# concurrency): however many bot turns are queued, emails and clocks never wait behind them.
BOT_QUEUE = env("BOT_QUEUE", default="bots")
CELERY_TASK_ROUTES = {"games.bot_play": {"queue": BOT_QUEUE}}
# Waiting games (not started) one player may have created at once: one account cannot fill the lobby.
MAX_WAITING_GAMES_PER_USER = env.int("MAX_WAITING_GAMES_PER_USER", default=3)
# Invitations (by username or email address) one member may send in 24 hours: the mail leaves from the site.
INVITE_EMAILS_PER_DAY = env.int("INVITE_EMAILS_PER_DAY", default=20)

AUTH_USER_MODEL = "accounts.User"
AUTHENTICATION_BACKENDS = [
    "django.contrib.auth.backends.ModelBackend",
    "allauth.account.auth_backends.AuthenticationBackend",
]
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator", "OPTIONS": {"min_length": 8}},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
]
SITE_ID = 1
LOGIN_REDIRECT_URL = "/"
LOGOUT_REDIRECT_URL = "/"
ACCOUNT_ADAPTER = "accounts.adapter.AccountAdapter"
ACCOUNT_LOGIN_METHODS = {"username", "email"}
ACCOUNT_SIGNUP_FIELDS = ["email*", "username*", "password1*", "password2*"]
ACCOUNT_EMAIL_VERIFICATION = env("ACCOUNT_EMAIL_VERIFICATION", default="mandatory")
ACCOUNT_CONFIRM_EMAIL_ON_GET = True
ACCOUNT_LOGIN_ON_EMAIL_CONFIRMATION = True
ACCOUNT_LOGOUT_ON_GET = False
# Failed log-ins, counted per client address and per account, on the web form, the admin and /api/token/.
ACCOUNT_RATE_LIMITS = {"login_failed": "10/m/ip,5/5m/key"}
# Addresses of the proxies in front (comma-separated, "*" for any): only for connections from these does
# uvicorn take the client's address and scheme from X-Forwarded-For / X-Forwarded-Proto.
FORWARDED_ALLOW_IPS = env.list("FORWARDED_ALLOW_IPS", default=["127.0.0.1", "::1"])
# Who the client is. uvicorn already replaces the peer's address by the forwarded one for connections from
# FORWARDED_ALLOW_IPS (catan_site/serve.py), so both stay unset behind it; set one only when a server that
# does not do this sits behind proxies (docs/DEPLOY.md, "Security").
ALLAUTH_TRUSTED_PROXY_COUNT = env.int("ALLAUTH_TRUSTED_PROXY_COUNT", default=0)
ALLAUTH_TRUSTED_CLIENT_IP_HEADER = env("ALLAUTH_TRUSTED_CLIENT_IP_HEADER", default=None)
# Days an API token lives; a new password ends them all (accounts/tokens.py).
API_TOKEN_LIFETIME_DAYS = env.int("API_TOKEN_LIFETIME_DAYS", default=30)
ACCOUNT_DEFAULT_HTTP_PROTOCOL = "https" if SITE_URL.startswith("https") else "http"

EMAIL_BACKEND = email_backend(os.environ)
EMAIL_HOST = env("EMAIL_HOST", default="localhost")
EMAIL_PORT = env.int("EMAIL_PORT", default=25)
EMAIL_HOST_USER = env("EMAIL_HOST_USER", default="")
EMAIL_HOST_PASSWORD = env("EMAIL_HOST_PASSWORD", default="")
EMAIL_USE_TLS = env.bool("EMAIL_USE_TLS", default=False)
# Seconds an SMTP conversation may take: a hung mail server must not hold a worker (or anything else) for long.
EMAIL_TIMEOUT = env.int("EMAIL_TIMEOUT", default=15)
# Reply by email: the domain whose mail reaches `manage.py mail_inbound` (empty: emails offer links only).
INBOUND_EMAIL_DOMAIN = env("INBOUND_EMAIL_DOMAIN", default="")
# The local mailbox of `make run` (localmail/): the folder its SMTP catcher writes to, and where the inbound mail
# handler listens (host:port) for the replies typed there. Unset in production: the page is not mounted.
LOCAL_MAILBOX_DIR = env("LOCAL_MAILBOX_DIR", default="")
LOCAL_INBOUND_SMTP = env("LOCAL_INBOUND_SMTP", default="")
DEFAULT_FROM_EMAIL = env("DEFAULT_FROM_EMAIL", default="Catan <noreply@catan.localhost>")
# Where a sanctioned player writes to appeal (named in every sanction email and on the moderation record).
MODERATION_APPEAL_EMAIL = env("MODERATION_APPEAL_EMAIL", default="") or DEFAULT_FROM_EMAIL

LANGUAGE_CODE = "en"
LANGUAGES = [("en", _("English")), ("fr", _("French"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
USE_I18N = True
TIME_ZONE = "UTC"
USE_TZ = True

STATIC_URL = "/static/"
# Where `collectstatic` writes and WhiteNoise serves from (the suite gives each of its processes its own).
STATIC_ROOT = Path(env("STATIC_ROOT", default=str(BASE_DIR / "staticfiles")))
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"
        if not DEBUG
        else "django.contrib.staticfiles.storage.StaticFilesStorage"
    },
}
WHITENOISE_USE_FINDERS = DEBUG

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        # The token first: a refused request then answers 401 with `WWW-Authenticate: Token`.
        "accounts.tokens.ExpiringTokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticatedOrReadOnly"],
    # drf-spectacular's, adding each operation's error statuses with the one error envelope (infra/api/schema.py).
    "DEFAULT_SCHEMA_CLASS": "infra.api.schema.ApiAutoSchema",
    "EXCEPTION_HANDLER": "infra.api.errors.exception_handler",
    # JSON bodies only, as the schema says: forms cannot carry the API's nested objects and nulls, and any other
    # body is refused with 415 (infra/api/fallbacks.py refuses it before Django parses a form).
    "DEFAULT_PARSER_CLASSES": ["infra.api.parsers.DepthLimitedJSONParser"],
    "TEST_REQUEST_DEFAULT_FORMAT": "json",
    "DEFAULT_THROTTLE_RATES": {"moves": "600/min", "chat": "30/min", "login": "10/min", "login_name": "10/min"},
    # DRF's anonymous throttles read the same address as allauth (without it they took X-Forwarded-For whole).
    "NUM_PROXIES": ALLAUTH_TRUSTED_PROXY_COUNT,
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Catan API",
    "DESCRIPTION": "Create, join and play games of Catan (base game and Seafarers).",
    "VERSION": "1.0.0",
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "SERVE_INCLUDE_SCHEMA": False,
    "ENUM_NAME_OVERRIDES": {
        "BotLevelEnum": "games.models.Seat.Bot",
        "GameStatusEnum": "games.models.Game.Status",
        "ReportStatusEnum": "moderation.models.Report.Status",
        "ModerationGameActionEnum": "moderation.api.views.GAME_ACTIONS",
        "ModerationUserActionEnum": "moderation.api.views.USER_ACTIONS",
        "ModerationReportActionEnum": "moderation.api.views.REPORT_ACTIONS",
        "ScenarioEnum": "games.api.serializers.SCENARIOS",
        "ResourceEnum": "games.api.serializers.RESOURCES",
    },
}

SESSION_COOKIE_SECURE = env.bool("SESSION_COOKIE_SECURE", default=not DEBUG)
CSRF_COOKIE_SECURE = env.bool("CSRF_COOKIE_SECURE", default=not DEBUG)
SECURE_SSL_REDIRECT = env.bool("SECURE_SSL_REDIRECT", default=False)
SECURE_HSTS_SECONDS = env.int("SECURE_HSTS_SECONDS", default=0 if DEBUG else 31536000)
SECURE_HSTS_INCLUDE_SUBDOMAINS = not DEBUG
SECURE_HSTS_PRELOAD = not DEBUG
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https") if env.bool("BEHIND_PROXY", default=False) else None
SECURE_CONTENT_TYPE_NOSNIFF = True
X_FRAME_OPTIONS = "DENY"
# Scripts, styles and sockets from the site itself only: no inline script or handler (static/js/page.js does
# what templates need), nothing from elsewhere, no framing. Data islands (<script type="application/json">)
# are not scripts and are fine.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF],
        "img-src": [SELF, "data:"],
        "connect-src": [SELF],
        "object-src": [NONE],
        "base-uri": [NONE],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
    }
}

# /metrics answers only `Authorization: Bearer <METRICS_TOKEN>`; with no token set it is not there (404).
METRICS_TOKEN = env("METRICS_TOKEN", default="")

# One JSON line per event (LOG_FORMAT=json), or readable lines (console, what `make run` sets): infra/logs.py.
LOG_FORMAT = env("LOG_FORMAT", default="json")
LOGGING = logs.configure(LOG_FORMAT, env("LOG_LEVEL", default="INFO"))
# The request id goes with the tasks a request queues (in their headers), and the worker logs each task's run.
DJANGO_STRUCTLOG_CELERY_ENABLED = True
# An X-Request-ID from the client is taken only behind a proxy that sets it itself (HAProxy's unique-id).
DJANGO_STRUCTLOG_TRUST_UPSTREAM_REQUEST_ID = env.bool("TRUST_REQUEST_ID_HEADER", default=False)
DJANGO_STRUCTLOG_STATUS_START_LOG_LEVEL = logging.DEBUG
DJANGO_STRUCTLOG_IP_LOGGING_ENABLED = False
