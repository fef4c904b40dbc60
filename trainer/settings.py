"""Settings for the blackjack trainer, driven by environment variables (see .env.example).

Local development needs none of them: DJANGO_DEBUG defaults to on and the database to
SQLite at BASE_DIR/db.sqlite3. Production sets DJANGO_DEBUG=0, DJANGO_SECRET_KEY,
DJANGO_ALLOWED_HOSTS and DATABASE_URL.
"""

from __future__ import annotations

import os
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured
from django.utils.csp import CSP
from django.utils.translation import gettext_lazy as _

BASE_DIR = Path(__file__).resolve().parent.parent

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off"}


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name, "").strip().lower()
    if not value:
        return default
    if value in _TRUE:
        return True
    if value in _FALSE:
        return False
    raise ImproperlyConfigured(f"{name} must be one of 1/0, true/false, yes/no, on/off.")


def env_int(name: str, default: int) -> int:
    value = os.environ.get(name, "").strip()
    if not value:
        return default
    try:
        return int(value)
    except ValueError:
        raise ImproperlyConfigured(f"{name} must be an integer, not {value!r}.") from None


def env_list(name: str) -> list[str]:
    return [item.strip() for item in os.environ.get(name, "").split(",") if item.strip()]


# Core

DEBUG = env_bool("DJANGO_DEBUG", True)

SECRET_KEY = os.environ.get("DJANGO_SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured("DJANGO_SECRET_KEY must be set when DJANGO_DEBUG is off.")
    SECRET_KEY = "django-insecure-local-development-only-never-use-in-production"

# With DEBUG on and this empty, Django still accepts localhost, 127.0.0.1 and [::1].
ALLOWED_HOSTS = env_list("DJANGO_ALLOWED_HOSTS")
CSRF_TRUSTED_ORIGINS = env_list("DJANGO_CSRF_TRUSTED_ORIGINS")
#: A refused form's page in the site's layout (Django's own is unstyled under the CSP).
CSRF_FAILURE_VIEW = "trainer.home.views.csrf_failure"

INSTALLED_APPS = [
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    # Before staticfiles so that runserver serves static files the way production does.
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django_htmx",
    "trainer",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # HTML compressed (a live table's part to a fifth), with Django's BREACH mitigation:
    # random bytes in each answer's gzip header. After WhiteNoise, which serves static
    # files compressed ahead of time (brotli or gzip) itself. Event streams go through
    # it too: it flushes each event.
    "django.middleware.gzip.GZipMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django.middleware.csp.ContentSecurityPolicyMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
]

ROOT_URLCONF = "trainer.urls"
WSGI_APPLICATION = "trainer.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

# Database

DATABASES = {
    "default": dj_database_url.parse(
        os.environ.get("DATABASE_URL") or f"sqlite:///{BASE_DIR / 'db.sqlite3'}"
    ),
}
# Reusing connections: on PostgreSQL a 5-10x throughput difference; on SQLite it saves
# opening the file and setting it up again for every request. PostgreSQL's come from
# psycopg's pool (Django's built-in), which keeps them itself: Django then must not
# (CONN_MAX_AGE 0). The pool discards a connection that comes back broken, so none is
# checked before use, which would cost a round trip on every request; after a database
# restart each stale connection fails one request. DJANGO_DB_POOL=0 goes back to
# persistent connections, each checked at the start of a request.
_POSTGRESQL = DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql"
_POOLED = _POSTGRESQL and env_bool("DJANGO_DB_POOL", True)
DATABASES["default"]["CONN_MAX_AGE"] = env_int("DJANGO_CONN_MAX_AGE", 0 if _POOLED else 60)
if _POSTGRESQL:
    DATABASES["default"]["CONN_HEALTH_CHECKS"] = env_bool("DJANGO_CONN_HEALTH_CHECKS", not _POOLED)
    # Each statement sent with its parameters bound server-side, and prepared once a
    # connection has run it 5 times (psycopg's default): the pool's connections last, so
    # the server parses and plans the drill answer's statements once per connection, not
    # once per request: 40% less server CPU per answer (docs/performance.md). A
    # transaction-mode PgBouncer before 1.21 cannot keep prepared statements:
    # DJANGO_DB_PREPARED=0 there.
    if env_bool("DJANGO_DB_PREPARED", True):
        DATABASES["default"].setdefault("OPTIONS", {}).update(
            server_side_binding=True, prepare_threshold=5
        )
if _POSTGRESQL:
    # No JIT compilation: the planner's estimates for one player's history (the whole table
    # of answers) make it compile the progress page's queries, which then take several
    # times as long as they run (docs/performance.md, "Years of history").
    DATABASES["default"].setdefault("OPTIONS", {})["options"] = "-c jit=off"
if _POOLED:
    # A worker's threads that reach the database (Django's for the views and the live
    # streams' reads, trainer/gunicorn.conf.py) each hold at most one connection at a
    # time: with 4 kept open, no request waits for one.
    _pool_size = env_int("DJANGO_DB_POOL_SIZE", 4)
    DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
        "min_size": _pool_size,
        "max_size": _pool_size,
    }
elif DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    DATABASES["default"]["OPTIONS"] = {
        # WAL lets readers run beside the one writer, and synchronous=NORMAL syncs the log
        # at checkpoints instead of at every commit: a power cut may lose the last answers,
        # never corrupt the file.
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
        # Write transactions take the lock when they start, so concurrent writers queue on
        # busy_timeout instead of failing with "database is locked" half-way through.
        "transaction_mode": "IMMEDIATE",
    }

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
# An index's non-key (covering) columns are PostgreSQL's; SQLite builds the index on its
# key columns alone, which is what is meant there (trainer.models.Drill).
SILENCED_SYSTEM_CHECKS = ["models.W040"]

# "default" is for what every app server must see alike: the database, unless
# DJANGO_CACHE_BACKEND and DJANGO_CACHE_LOCATION name a shared cache server (its table is
# made by `manage.py createcachetable`). Nothing of the app's uses it today: the throttle
# counters, which did, are rows of their own (trainer.shared.throttle).
# The {% cache %} tag's fragments are keyed by everything they show, so a process keeps
# them in its own memory without any of them going stale.
CACHES = {
    "default": {
        "BACKEND": os.environ.get(
            "DJANGO_CACHE_BACKEND", "django.core.cache.backends.db.DatabaseCache"
        ),
        "LOCATION": os.environ.get("DJANGO_CACHE_LOCATION", "trainer_cache"),
    },
    "template_fragments": {
        "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
        "LOCATION": "template-fragments",
        # A preset's distinct feedbacks number a few thousand per language.
        "OPTIONS": {"MAX_ENTRIES": 20_000},
    },
    # A live table's part as its onlookers see it (trainer/live/views.py), one per table,
    # version, language and second: only the latest few are of use, each about 40 kB.
    "live_parts": {
        "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
        "LOCATION": "live-parts",
        "TIMEOUT": 5,
        "OPTIONS": {"MAX_ENTRIES": 200},
    },
}

# Game state lives in the database, so sessions do too (never in a signed cookie).
SESSION_ENGINE = "trainer.shared.sessions"
#: Days after which `manage.py expire_guests` deletes an idle guest's session, drills and
#: practice tables.
GUEST_RETENTION_DAYS = env_int("DJANGO_GUEST_RETENTION_DAYS", 30)
if GUEST_RETENTION_DAYS < 1:
    raise ImproperlyConfigured("DJANGO_GUEST_RETENTION_DAYS must be at least 1.")

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "trainer:drill"
LOGOUT_REDIRECT_URL = "trainer:home"
# Password-reset mail: printed to the console in development, sent by SMTP in production.
EMAIL_BACKEND_PATH = os.environ.get("DJANGO_EMAIL_BACKEND") or (
    "django.core.mail.backends.console.EmailBackend"
    if DEBUG
    else "django.core.mail.backends.smtp.EmailBackend"
)
MAILERS: dict[str, dict[str, object]] = {"default": {"BACKEND": EMAIL_BACKEND_PATH}}
if EMAIL_BACKEND_PATH.endswith(".smtp.EmailBackend"):
    MAILERS["default"]["OPTIONS"] = {
        "host": os.environ.get("DJANGO_EMAIL_HOST", "localhost"),
        "port": env_int("DJANGO_EMAIL_PORT", 587),
        "username": os.environ.get("DJANGO_EMAIL_USER", ""),
        "password": os.environ.get("DJANGO_EMAIL_PASSWORD", ""),
        "use_tls": env_bool("DJANGO_EMAIL_USE_TLS", True),
    }
DEFAULT_FROM_EMAIL = os.environ.get("DJANGO_DEFAULT_FROM_EMAIL", "trainer@localhost")

# Internationalisation

LANGUAGE_CODE = "en"
LANGUAGES = [
    ("en", _("English")),
    ("ar", _("Arabic")),
    ("ka", _("Georgian")),
    ("hi", _("Hindi")),
    ("pl", _("Polish")),
]
LOCALE_PATHS = [BASE_DIR / "trainer" / "locale"]
USE_I18N = True
TIME_ZONE = "UTC"
USE_TZ = True

#: Lets the practice start form take a stacked shoe ("10s 9h …"): for browser tests and
#: demos only, never in production (it would let a player choose the cards).
PRACTICE_STACKED_SHOES = env_bool("DJANGO_PRACTICE_STACKED_SHOES", False)

# The exact strategy analyses live in the database, where every app server reads them
# (`manage.py analyse_presets` stores the presets' at deploy time). A player's own rules
# are analysed by a background process (`manage.py analyse_rules`), never in a request;
# see trainer/shared/analyses.py.
#: New analyses one visitor (an account, or a guest's address) may start in an hour.
BLACKJACK_ANALYSES_PER_HOUR = env_int("BLACKJACK_ANALYSES_PER_HOUR", 10)
#: Background analyses running at once across the deployment (each takes about a second
#: of one core, at the lowest priority).
BLACKJACK_ANALYSES_AT_ONCE = env_int("BLACKJACK_ANALYSES_AT_ONCE", 1)
#: Players' analyses kept (about 420 kB each), the least recently used evicted first;
#: the presets' are always kept.
BLACKJACK_STORED_ANALYSES = env_int("BLACKJACK_STORED_ANALYSES", 200)
#: A background analysis is stopped after this much CPU time, or when it asks for this
#: much more memory than the process had when it started.
BLACKJACK_ANALYSIS_CPU_SECONDS = env_int("BLACKJACK_ANALYSIS_CPU_SECONDS", 10)
BLACKJACK_ANALYSIS_MEMORY_MB = env_int("BLACKJACK_ANALYSIS_MEMORY_MB", 512)
#: An index table (`manage.py analyse_indices`, the same slots and memory cap) takes about
#: a minute of CPU for every row (docs/performance.md): it is stopped after this much.
BLACKJACK_INDICES_CPU_SECONDS = env_int("BLACKJACK_INDICES_CPU_SECONDS", 300)
#: A simulation of a player's own counting game (`manage.py simulate_game`, the same slots
#: and allowance) deals this many rounds to each of up to seven games (a perfect counter,
#: flat-betting and by the ramp, the player, and the player making each kind of mistake
#: alone), about 65,000 rounds a second of one core: 2,000,000 take about 3.5 minutes and
#: measure a cost to about ±0.13 units per 100 hands (docs/performance.md). It is stopped
#: after BLACKJACK_GAME_CPU_SECONDS.
BLACKJACK_GAME_ROUNDS = env_int("BLACKJACK_GAME_ROUNDS", 2_000_000)
BLACKJACK_GAME_CPU_SECONDS = env_int("BLACKJACK_GAME_CPU_SECONDS", 600)

#: Seconds between two polls of a live table's page, where its changes are not pushed
#: (trainer/live/push.py); where they are, a poll every 15 s or at a countdown's end.
LIVE_POLL_SECONDS = env_int("DJANGO_LIVE_POLL_SECONDS", 1)

# Static files

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG
            else "whitenoise.storage.CompressedManifestStaticFilesStorage"
        ),
    },
}

# Security: strict by default in production, each switch overridable for unusual set-ups.

SECURE_SSL_REDIRECT = env_bool("DJANGO_SECURE_SSL_REDIRECT", not DEBUG)
# Load balancers probe the health check over plain HTTP (paths as matched, without "/").
SECURE_REDIRECT_EXEMPT = [r"^healthz$"]
SESSION_COOKIE_SECURE = env_bool("DJANGO_SESSION_COOKIE_SECURE", not DEBUG)
CSRF_COOKIE_SECURE = env_bool("DJANGO_CSRF_COOKIE_SECURE", not DEBUG)
SECURE_HSTS_SECONDS = env_int("DJANGO_SECURE_HSTS_SECONDS", 0 if DEBUG else 31_536_000)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("DJANGO_SECURE_HSTS_INCLUDE_SUBDOMAINS", not DEBUG)
SECURE_HSTS_PRELOAD = env_bool("DJANGO_SECURE_HSTS_PRELOAD", not DEBUG)
# Only behind a proxy that terminates TLS and overwrites X-Forwarded-Proto; otherwise any
# client could claim to be on HTTPS.
if env_bool("DJANGO_TRUST_X_FORWARDED_PROTO", False):
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
#: Likewise: take a guest's address from X-Forwarded-For (its last entry, the one the
#: proxy added) only behind a proxy that sets it. Throttles count guests by address.
TRUST_X_FORWARDED_FOR = env_bool("DJANGO_TRUST_X_FORWARDED_FOR", False)

# Content-Security-Policy: scripts, styles, images, fonts and requests only from the site
# itself, and no inline code at all, so that markup slipped into a page cannot run or
# restyle it. htmx is configured (base.html) to need neither eval nor an inline <style>.
SECURE_CSP = {
    "default-src": [CSP.SELF],
    "script-src": [CSP.SELF],
    "style-src": [CSP.SELF],
    "img-src": [CSP.SELF],
    "object-src": [CSP.NONE],
    "base-uri": [CSP.SELF],
    "frame-ancestors": [CSP.NONE],
    "form-action": [CSP.SELF],
}

# Django only logs to the console when DEBUG is on; without this, production 500s would
# leave no trace in gunicorn's output.
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": "WARNING"},
    "loggers": {
        "django": {
            "handlers": ["console"],
            "level": os.environ.get("DJANGO_LOG_LEVEL", "INFO"),
            "propagate": False,
        },
    },
}
