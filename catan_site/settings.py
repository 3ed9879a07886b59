"""One settings module, driven by environment variables (see .env.example)."""

from __future__ import annotations

import os
from pathlib import Path

import environ
from django.utils.translation import gettext_lazy as _

from .env_config import cache_config, celery_config, channel_layers_config, database_config, email_backend

BASE_DIR = Path(__file__).resolve().parent.parent
env = environ.Env()
if (BASE_DIR / ".env").exists():
    environ.Env.read_env(BASE_DIR / ".env", overwrite=False)

DEBUG = env.bool("DEBUG", default=True)
SECRET_KEY = env("SECRET_KEY", default="dev-only-insecure-key-change-me-in-production-0123456789")
ALLOWED_HOSTS = env.list("ALLOWED_HOSTS", default=["127.0.0.1", "localhost", "testserver"])
CSRF_TRUSTED_ORIGINS = env.list("CSRF_TRUSTED_ORIGINS", default=[])
SITE_URL = env("SITE_URL", default="http://127.0.0.1:8000")

INSTALLED_APPS = [
    "daphne",
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
    "allauth",
    "allauth.account",
    "accounts",
    "games",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "allauth.account.middleware.AccountMiddleware",
    "accounts.middleware.UserLanguageMiddleware",
]

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
                "django.contrib.messages.context_processors.messages",
                "django.template.context_processors.i18n",
            ]
        },
    }
]
WSGI_APPLICATION = None
ASGI_APPLICATION = "catan_site.asgi.application"

DATABASES = {"default": database_config(os.environ, BASE_DIR)}
# A move's statements are prepared once per connection on PostgreSQL (games/rows.py). Turn off behind a pooler
# that cannot keep prepared statements (PgBouncer in transaction mode before 1.21).
DB_PREPARED_STATEMENTS = env.bool("DB_PREPARED_STATEMENTS", default=True)
# The browser tests run the site in a second process: it needs the test database's name spelled out (and, with
# SQLite, a file rather than memory).
if DATABASES["default"]["ENGINE"].endswith("sqlite3"):
    # One file per test process, so two test runs on one machine never share it.
    DATABASES["default"]["TEST"] = {"NAME": str(BASE_DIR / f"test-db-{os.getpid()}.sqlite3")}
else:
    DATABASES["default"]["TEST"] = {"NAME": f"test_{DATABASES['default']['NAME']}"}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
CHANNEL_LAYERS = channel_layers_config(os.environ)
CACHES = cache_config(os.environ)
REDIS_URL = env("REDIS_URL", default="")

_celery = celery_config(os.environ)
CELERY_BROKER_URL = _celery["broker_url"]
CELERY_RESULT_BACKEND = _celery["result_backend"]
CELERY_TASK_ALWAYS_EAGER = _celery["task_always_eager"]
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_BROKER_CONNECTION_TIMEOUT = 2
CELERY_BROKER_TRANSPORT_OPTIONS = {"socket_connect_timeout": 2, "socket_timeout": 5}
CELERY_TASK_ACKS_LATE = True
CELERY_TIMEZONE = "UTC"
BOT_LIVE_DELAY_SECONDS = env.float("BOT_LIVE_DELAY_SECONDS", default=0.8)
# Seconds a hard bot may think per decision (the engine caps it at 2). Without a broker, bots play inside the
# request that woke them, so they think briefly.
BOT_HARD_SECONDS = env.float("BOT_HARD_SECONDS", default=0.3 if CELERY_TASK_ALWAYS_EAGER else 1.5)
CELERY_BEAT_SCHEDULE = {
    "clocks": {"task": "games.clocks_tick", "schedule": 60.0},
    "outbox": {"task": "games.notifications_flush", "schedule": 60.0},
    "digest": {"task": "games.notifications_digest", "schedule": 86400.0},
}
LOGIN_LINK_MAX_AGE = env.int("LOGIN_LINK_MAX_AGE", default=14 * 86400)  # seconds a link in an email stays valid
VACATION_LIMIT_DAYS = env.int("VACATION_LIMIT_DAYS", default=14)  # per player and game
MAX_GAMES_PER_USER = env.int("MAX_GAMES_PER_USER", default=50)  # waiting, active or paused games at once
# Per user and minute, counted in the cache so that every server process shares the budget.
RATE_LIMITS = {"moves": env.int("RATE_LIMIT_MOVES", default=240), "chat": env.int("RATE_LIMIT_CHAT", default=20)}

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
ACCOUNT_LOGIN_METHODS = {"username", "email"}
ACCOUNT_SIGNUP_FIELDS = ["email*", "username*", "password1*", "password2*"]
ACCOUNT_EMAIL_VERIFICATION = env("ACCOUNT_EMAIL_VERIFICATION", default="mandatory")
ACCOUNT_CONFIRM_EMAIL_ON_GET = True
ACCOUNT_LOGIN_ON_EMAIL_CONFIRMATION = True
ACCOUNT_LOGOUT_ON_GET = False
ACCOUNT_RATE_LIMITS = {"login_failed": "10/m/ip,5/5m/key"}
ACCOUNT_DEFAULT_HTTP_PROTOCOL = "https" if SITE_URL.startswith("https") else "http"

EMAIL_BACKEND = email_backend(os.environ)
EMAIL_HOST = env("EMAIL_HOST", default="localhost")
EMAIL_PORT = env.int("EMAIL_PORT", default=25)
EMAIL_HOST_USER = env("EMAIL_HOST_USER", default="")
EMAIL_HOST_PASSWORD = env("EMAIL_HOST_PASSWORD", default="")
EMAIL_USE_TLS = env.bool("EMAIL_USE_TLS", default=False)
DEFAULT_FROM_EMAIL = env("DEFAULT_FROM_EMAIL", default="Catan <noreply@catan.localhost>")

LANGUAGE_CODE = "en"
LANGUAGES = [("en", _("English")), ("fr", _("French"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
USE_I18N = True
TIME_ZONE = "UTC"
USE_TZ = True

STATIC_URL = "/static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
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
        "rest_framework.authentication.SessionAuthentication",
        "rest_framework.authentication.TokenAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticatedOrReadOnly"],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "EXCEPTION_HANDLER": "catan_site.api_errors.exception_handler",
    "DEFAULT_THROTTLE_RATES": {"moves": "600/min", "chat": "30/min"},
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Catan API",
    "DESCRIPTION": "Create, join and play games of Catan (base game and Seafarers).",
    "VERSION": "1.0.0",
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "SERVE_INCLUDE_SCHEMA": False,
    "ENUM_NAME_OVERRIDES": {"BotLevelEnum": "games.models.Seat.Bot"},
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

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env("LOG_LEVEL", default="INFO")},
}
