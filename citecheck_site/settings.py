"""Citecheck settings: every value comes from the environment (see .env.example).

Nothing heavy happens at import time; the embedded Redis for local use is started by
`make run` / `make test` (see citecheck_site/embedded_redis.py), never here.
"""

from __future__ import annotations

import importlib.util
import os
import secrets
from pathlib import Path

import dj_database_url

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = Path(os.environ.get("CITECHECK_VAR_DIR", BASE_DIR / "var"))


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_int(name: str, default: int) -> int:
    value = os.environ.get(name, "")
    return int(value) if value.strip() else default


def env_float(name: str, default: float) -> float:
    value = os.environ.get(name, "")
    return float(value) if value.strip() else default


def env_list(name: str, default: str = "") -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


def _secret_key() -> str:
    """SECRET_KEY from the environment, else one generated once into var/ (never committed)."""
    if os.environ.get("SECRET_KEY"):
        return os.environ["SECRET_KEY"]
    key_file = VAR_DIR / "secret_key"
    try:
        return key_file.read_text().strip()
    except FileNotFoundError:
        VAR_DIR.mkdir(parents=True, exist_ok=True)
        key = secrets.token_urlsafe(50)
        key_file.write_text(key)
        key_file.chmod(0o600)
        return key


SECRET_KEY = _secret_key()
DEBUG = env_bool("DEBUG", False)
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "127.0.0.1,localhost,testserver")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS")

INSTALLED_APPS = [
    # The admin site: the editorial desk as its home (desk.site.DeskAdminSite), and every URL
    # field shown through the one outside-link helper (citecheck_site.admin_site).
    "desk.apps.DeskAdminConfig",
    "desk",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django_rq",
    "dispatch",
    "sources",
    "claims",
    "reviews",
    "integrations",
    "citecheck_site",  # template tags shared by every page (outside_links)
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "citecheck_site.security_headers.SecurityHeadersMiddleware",
    "citecheck_site.dbdown.DatabaseUnavailableMiddleware",
    "integrations.api.errors.ApiErrorMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]

ROOT_URLCONF = "citecheck_site.urls"

# django-ninja's Swagger UI templates and static files, found without importing the package (an
# installed "ninja" app would import it, and pydantic, in every management command).
_NINJA_DIR = Path(importlib.util.find_spec("ninja").submodule_search_locations[0])  # type: ignore[union-attr,index]
STATICFILES_DIRS = [_NINJA_DIR / "static"]

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates", _NINJA_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "desk.context.desk_banner",
            ],
        },
    },
]

WSGI_APPLICATION = "citecheck_site.wsgi.application"

_DATABASE_URL = os.environ.get("DATABASE_URL") or f"sqlite:///{VAR_DIR / 'citecheck.sqlite3'}"
DATABASES = {
    "default": dj_database_url.parse(
        _DATABASE_URL,
        # Persistent connections on a database server (PostgreSQL in production): a request does
        # not pay for a new connection (POST /answers at 4 clients: 160 ms median without, 98 ms
        # with, as issue 22 measured it); each web thread keeps one for up to this many seconds. SQLite opens a
        # file, not a connection: 0 (closed after each request) unless set.
        conn_max_age=env_int("DATABASE_CONN_MAX_AGE", 0 if _DATABASE_URL.startswith("sqlite") else 60),
        # A connection the database dropped is noticed before a request uses it, not by a 500.
        conn_health_checks=True,
    )
}
if DATABASES["default"]["ENGINE"].endswith("sqlite3"):
    # Web, worker and scheduler share one SQLite file when trying Citecheck locally:
    # wait for locks instead of failing, and use WAL so readers do not block the writer.
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {"timeout": 30, "transaction_mode": "IMMEDIATE", "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;"}
    )
    DATABASES["default"]["TEST"] = {"NAME": str(VAR_DIR / "test.sqlite3")}

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "en"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = VAR_DIR / "static"
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG or env_bool("CITECHECK_PLAIN_STATIC", False)
            else "whitenoise.storage.CompressedManifestStaticFilesStorage"
        )
    },
}

LOGIN_URL = "admin:login"

# --- Production hardening (`manage.py check --deploy` is clean with DEBUG off and HTTPS on) ---
SECURE_HTTPS = env_bool("CITECHECK_HTTPS", False)
SESSION_COOKIE_SECURE = SECURE_HTTPS
CSRF_COOKIE_SECURE = SECURE_HTTPS
SECURE_SSL_REDIRECT = SECURE_HTTPS
SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 31536000 if SECURE_HTTPS else 0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = SECURE_HTTPS
SECURE_HSTS_PRELOAD = SECURE_HTTPS
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https") if SECURE_HTTPS else None
SECURE_CONTENT_TYPE_NOSNIFF = True
# Sent on every response by citecheck_site.security_headers (scripts only from our static files).
CITECHECK_CSP = {
    "default-src": "'self'",
    "script-src": "'self'",
    "style-src": "'self' 'unsafe-inline'",
    "img-src": "'self' data:",
    "font-src": "'self'",
    "connect-src": "'self'",
    "object-src": "'none'",
    "base-uri": "'self'",
    "form-action": "'self'",
    "frame-ancestors": "'none'",
}
CITECHECK_PERMISSIONS_POLICY = (
    "accelerometer=(), camera=(), geolocation=(), gyroscope=(), magnetometer=(), microphone=(), payment=(), usb=()"
)
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"

# --- Redis and RQ ---
# Default: the embedded Redis that `make run` / `make test` start on a unix socket under var/.
REDIS_URL = os.environ.get("REDIS_URL") or f"unix://{VAR_DIR / 'redis' / 'redis.sock'}"
RQ_QUEUE_TIMEOUTS = {
    "default": env_int("CITECHECK_QUEUE_TIMEOUT_DEFAULT", 300),
    "fetch": env_int("CITECHECK_QUEUE_TIMEOUT_FETCH", 600),
    "extract": env_int("CITECHECK_QUEUE_TIMEOUT_EXTRACT", 120),
    "judge": env_int("CITECHECK_QUEUE_TIMEOUT_JUDGE", 900),
}
RQ_QUEUES = {
    name: {"URL": REDIS_URL, "DEFAULT_TIMEOUT": timeout} for name, timeout in RQ_QUEUE_TIMEOUTS.items()
}
RQ_SHOW_ADMIN_LINK = True
# Enqueueing from a request never waits longer than this for Redis (seconds); the outbox relay
# sends what did not get through.
CITECHECK_REDIS_SEND_TIMEOUT = env_float("CITECHECK_REDIS_SEND_TIMEOUT", 0.5)
# RQ heartbeat interval of a running job; a job whose worker died is noticed this + 60 s later.
CITECHECK_JOB_MONITORING_INTERVAL = env_int("CITECHECK_JOB_MONITORING_INTERVAL", 30)
CITECHECK_HEARTBEAT_GRACE = env_int("CITECHECK_HEARTBEAT_GRACE", 60)
# How long a claimed due check keeps the source off the scheduler's list if the fetch never ends.
# A queued job Redis no longer has (it restarted empty) is sent again after this many seconds.
CITECHECK_LOST_AFTER_SECONDS = env_int("CITECHECK_LOST_AFTER_SECONDS", 5)
# Work whose worker died this many times (e.g. out of memory) is failed with that reason.
CITECHECK_WORK_MAX_DEATHS = env_int("CITECHECK_WORK_MAX_DEATHS", 3)
# A job that lost its database connection tries this many times (1 s apart) to put itself back.
CITECHECK_DB_RECONNECT_TRIES = env_int("CITECHECK_DB_RECONNECT_TRIES", 10)
CITECHECK_SCHEDULE_LEASE_SECONDS = env_int("CITECHECK_SCHEDULE_LEASE_SECONDS", 900)

# --- Fetching and link health ---
CITECHECK_FETCH_ALLOW_NETWORKS = env_list("CITECHECK_FETCH_ALLOW_NETWORKS")
# The per-host limit holds for the whole fleet (a semaphore in Redis), not per worker process.
CITECHECK_FETCH_SHARED_LIMIT = env_bool("CITECHECK_FETCH_SHARED_LIMIT", True)
CITECHECK_FETCH_ALLOWED_PORTS = [int(p) for p in env_list("CITECHECK_FETCH_ALLOWED_PORTS", "80,443")]
CITECHECK_FETCH_MAX_BYTES = env_int("CITECHECK_FETCH_MAX_BYTES", 10 * 1024 * 1024)
CITECHECK_FETCH_TIMEOUT = env_float("CITECHECK_FETCH_TIMEOUT", 20.0)
CITECHECK_FETCH_MAX_REDIRECTS = env_int("CITECHECK_FETCH_MAX_REDIRECTS", 10)
CITECHECK_FETCH_CONCURRENCY = env_int("CITECHECK_FETCH_CONCURRENCY", 64)
CITECHECK_FETCH_HOST_CONCURRENCY = env_int("CITECHECK_FETCH_HOST_CONCURRENCY", 8)
CITECHECK_FETCH_MAX_ATTEMPTS = env_int("CITECHECK_FETCH_MAX_ATTEMPTS", 4)
CITECHECK_RETRY_AFTER_CAP = env_int("CITECHECK_RETRY_AFTER_CAP", 3600)
CITECHECK_RETRY_BASE_SECONDS = env_float("CITECHECK_RETRY_BASE_SECONDS", 60.0)
CITECHECK_DEAD_AFTER_FAILURES = env_int("CITECHECK_DEAD_AFTER_FAILURES", 3)
CITECHECK_DEAD_AFTER_HOURS = env_float("CITECHECK_DEAD_AFTER_HOURS", 48.0)
# Re-fetch interval per risk level, in hours.
CITECHECK_RECHECK_HOURS = {
    "high": env_float("CITECHECK_RECHECK_HOURS_HIGH", 24.0),
    "normal": env_float("CITECHECK_RECHECK_HOURS_NORMAL", 24.0 * 7),
    "low": env_float("CITECHECK_RECHECK_HOURS_LOW", 24.0 * 30),
}
# Evidence older than this many days (per risk level) makes an answer `outdated`.
CITECHECK_FRESHNESS_DAYS = {
    "high": env_int("CITECHECK_FRESHNESS_DAYS_HIGH", 30),
    "normal": env_int("CITECHECK_FRESHNESS_DAYS_NORMAL", 180),
    "low": env_int("CITECHECK_FRESHNESS_DAYS_LOW", 365),
}

# --- Extraction ---
CITECHECK_PASSAGE_MAX_CHARS = env_int("CITECHECK_PASSAGE_MAX_CHARS", 1200)
CITECHECK_EXTRACT_DEADLINE = env_float("CITECHECK_EXTRACT_DEADLINE", 60.0)
# How much memory one extraction may take (MB beyond the worker's own); over it: a recorded error.
CITECHECK_EXTRACT_MEMORY_MB = env_int("CITECHECK_EXTRACT_MEMORY_MB", 1024)
# Pages one extract job may do in a row, taking queued extractions along so that its extractor
# process works on the next page while this one is stored (1: one page per job).
CITECHECK_EXTRACT_BATCH = max(1, env_int("CITECHECK_EXTRACT_BATCH", 50))

# --- Judges ---
CITECHECK_JUDGE = os.environ.get("CITECHECK_JUDGE", "builtin")
OPENAI_BASE_URL = os.environ.get("OPENAI_BASE_URL", "")
OPENAI_API_KEY = os.environ.get("OPENAI_API_KEY", "")
CITECHECK_JUDGE_MODEL = os.environ.get("CITECHECK_JUDGE_MODEL", "")
CITECHECK_JUDGE_TIMEOUT = env_float("CITECHECK_JUDGE_TIMEOUT", 60.0)
CITECHECK_JUDGE_CONCURRENCY = env_int("CITECHECK_JUDGE_CONCURRENCY", 4)
# With an LLM judge: ask it only where the built-in judge could not decide.
CITECHECK_JUDGE_CASCADE = env_bool("CITECHECK_JUDGE_CASCADE", False)
CITECHECK_MIN_VERIFICATION_RATE = env_float("CITECHECK_MIN_VERIFICATION_RATE", 0.70)
# Verification: knowledge_base (one approved primary source) or research (two independent domains)
CITECHECK_VERIFICATION_MODE = os.environ.get("CITECHECK_VERIFICATION_MODE", "knowledge_base").strip().lower() or "knowledge_base"
# Compound sentences split into atomic claims at intake: rules (built in), llm (the judge's split_claims) or none
CITECHECK_CLAIM_SPLITTER = os.environ.get("CITECHECK_CLAIM_SPLITTER", "rules").strip().lower() or "rules"
# A failed judge call is retried by the job with backoff; the per-endpoint circuit breaker opens after
# this many failures in a row and pauses calls (doubling from OPEN_SECONDS up to MAX_SECONDS)
CITECHECK_JUDGE_MAX_RETRIES = env_int("CITECHECK_JUDGE_MAX_RETRIES", 2)
CITECHECK_JUDGE_BREAKER_FAILURES = env_int("CITECHECK_JUDGE_BREAKER_FAILURES", 3)
CITECHECK_JUDGE_BREAKER_OPEN_SECONDS = env_float("CITECHECK_JUDGE_BREAKER_OPEN_SECONDS", 30.0)
CITECHECK_JUDGE_BREAKER_MAX_SECONDS = env_float("CITECHECK_JUDGE_BREAKER_MAX_SECONDS", 600.0)
# An answer pending (or waiting for re-verification) longer than this needs a person: the review queue lists it.
CITECHECK_PENDING_GRACE_SECONDS = env_int("CITECHECK_PENDING_GRACE_SECONDS", 900)
CITECHECK_VERIFY_RETRY_BASE_SECONDS = env_float("CITECHECK_VERIFY_RETRY_BASE_SECONDS", 15.0)
CITECHECK_VERIFY_RETRY_MAX_SECONDS = env_float("CITECHECK_VERIFY_RETRY_MAX_SECONDS", 900.0)

# --- Integration API (limits: 413/400 beyond them; see .env.example) ---
CITECHECK_API_MAX_BODY_BYTES = env_int("CITECHECK_API_MAX_BODY_BYTES", 2 * 1024 * 1024)
DATA_UPLOAD_MAX_MEMORY_SIZE = CITECHECK_API_MAX_BODY_BYTES
CITECHECK_API_PAGE_MAX = env_int("CITECHECK_API_PAGE_MAX", 1000)
CITECHECK_API_BULK_MAX = env_int("CITECHECK_API_BULK_MAX", 500)
CITECHECK_IMPORT_MAX_ROWS = env_int("CITECHECK_IMPORT_MAX_ROWS", 10000)
# Per token: above what one bot does at full speed on a 2-core web server (POST /answers at 4
# clients: 34 answers/s at load 11-14, bench/README.md), so a bot's normal load is not refused,
# while a runaway loop is capped at 100 requests/s.
CITECHECK_API_RATE_PER_MINUTE = env_int("CITECHECK_API_RATE_PER_MINUTE", 6000)
CITECHECK_API_PERM_CACHE_SECONDS = env_int("CITECHECK_API_PERM_CACHE_SECONDS", 30)
CITECHECK_ANSWER_MAX_CHARS = env_int("CITECHECK_ANSWER_MAX_CHARS", 64 * 1024)
CITECHECK_ANSWER_MAX_CLAIMS = env_int("CITECHECK_ANSWER_MAX_CLAIMS", 200)
CITECHECK_ANSWER_MAX_SOURCES = env_int("CITECHECK_ANSWER_MAX_SOURCES", 100)
CITECHECK_ANSWER_MAX_JUDGEMENTS = env_int("CITECHECK_ANSWER_MAX_JUDGEMENTS", 1000)
# check-citations: inline sources' text at most this many characters (the answer: CITECHECK_ANSWER_MAX_CHARS).
CITECHECK_CHECK_SOURCES_MAX_CHARS = env_int("CITECHECK_CHECK_SOURCES_MAX_CHARS", 512 * 1024)
# Anonymous POST /api/v1/check-citations per client address and minute (0: no limit).
CITECHECK_ANON_RATE_PER_MINUTE = env_int("CITECHECK_ANON_RATE_PER_MINUTE", 30)
CITECHECK_AUTH_FAILURES_MAX = env_int("CITECHECK_AUTH_FAILURES_MAX", 10)
CITECHECK_AUTH_LOCKOUT_SECONDS = env_int("CITECHECK_AUTH_LOCKOUT_SECONDS", 900)
# Failures from one address, whatever account or token it tried, before the address is locked out.
CITECHECK_AUTH_ADDRESS_FAILURES_MAX = env_int("CITECHECK_AUTH_ADDRESS_FAILURES_MAX", 50)
# Reverse proxies whose X-Forwarded-For is believed (addresses or CIDRs); empty: REMOTE_ADDR only.
CITECHECK_TRUSTED_PROXIES = env_list("CITECHECK_TRUSTED_PROXIES")
CITECHECK_WEBHOOK_TIMEOUT = env_float("CITECHECK_WEBHOOK_TIMEOUT", 10.0)
CITECHECK_WEBHOOK_MAX_ATTEMPTS = env_int("CITECHECK_WEBHOOK_MAX_ATTEMPTS", 8)
CITECHECK_WEBHOOK_RETRY_BASE_SECONDS = env_float("CITECHECK_WEBHOOK_RETRY_BASE_SECONDS", 30.0)

# --- Demo ---
CITECHECK_DEMO_PORT = env_int("CITECHECK_DEMO_PORT", 8765)

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {
        "plain": {"()": "citecheck_site.logformat.FieldsFormatter", "format": "%(asctime)s %(levelname)s %(name)s %(message)s"},
    },
    "filters": {"expected_forbidden": {"()": "citecheck_site.logformat.ExpectedForbiddenFilter"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "plain"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
    "loggers": {
        "django.db.backends": {"level": "WARNING"},
        "django.request": {"filters": ["expected_forbidden"]},
    },
}
