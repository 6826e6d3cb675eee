"""The one settings module of the site; every value comes from the environment.

`.env.example` lists every variable. With none set the site runs embedded: an SQLite file
database and Celery tasks executed eagerly in the web process, so `make demo` works on a fresh
machine. `DATABASE_URL` (postgres://…, through psycopg 3) and `CELERY_BROKER_URL` (redis://…)
select the production services. A malformed value stops start-up with a clear message
(ddz_site.env).
"""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path
from typing import Any

import dj_database_url
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

from ddz_site.env import env_bool, env_choice, env_int, env_list, env_str, env_url

BASE_DIR = Path(__file__).resolve().parent.parent

DEBUG = env_bool("DJANGO_DEBUG", True)

_DEV_SECRET_KEY = "dev-only-insecure-key-do-not-use-in-production"
SECRET_KEY = env_str("DJANGO_SECRET_KEY", _DEV_SECRET_KEY if DEBUG else "")
if not SECRET_KEY:
    raise ImproperlyConfigured("DJANGO_SECRET_KEY must be set when DJANGO_DEBUG is false")
if not DEBUG and SECRET_KEY == _DEV_SECRET_KEY:
    raise ImproperlyConfigured("DJANGO_SECRET_KEY is the development key; set a real secret")

ALLOWED_HOSTS = env_list(
    "DJANGO_ALLOWED_HOSTS", ["127.0.0.1", "localhost", "[::1]"] if DEBUG else []
)
# Without its host names a production site would start and answer 400 to every request.
if not ALLOWED_HOSTS and not DEBUG:
    raise ImproperlyConfigured(
        "DJANGO_ALLOWED_HOSTS must be set when DJANGO_DEBUG is false "
        "(the site's host names, comma-separated: ddz.example.org)"
    )
CSRF_TRUSTED_ORIGINS = env_list("DJANGO_CSRF_TRUSTED_ORIGINS", [])

INSTALLED_APPS = [
    # Daphne first: `manage.py runserver` then serves the ASGI application (pages and the
    # live tables' WebSockets) as the production ASGI server does.
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "knox",
    "axes",
    # Accounts of players (django-allauth): sign-up by e-mail address, its confirmation,
    # password reset; officials keep signing in with their user names (ddz_site.web.accounts).
    "allauth",
    "allauth.account",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "simple_history",
    "channels",
    "games",
    "tournaments",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    # Static files served by the site itself, DEBUG or not (collectstatic's hashed copies
    # with DEBUG off, the apps' own with it on).
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    # A method no page takes answers 405 in the reader's language, before the CSRF check
    # would call it an expired page (ddz_site.web.middleware); the API keeps DRF's answers.
    "ddz_site.web.middleware.page_methods_only",
    # A body too large answers 413 in the reader's language before anything reads it.
    "ddz_site.web.middleware.refuse_too_big",
    # A form's bytes that are not UTF-8 read as U+FFFD, never as Latin-1 text.
    "ddz_site.web.middleware.utf8_forms",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    # django-allauth's: the login stages (e-mail confirmation) of the request's session.
    "allauth.account.middleware.AccountMiddleware",
    # An address holding NUL never reaches a view (ddz_site.web.middleware); after the language
    # and the user, so its 404 is the site's own page in the reader's language.
    "ddz_site.web.middleware.refuse_nul",
    # An address too long answers 414 before any view, in the reader's language and with his
    # name in the header (ddz_site.web.middleware).
    "ddz_site.web.middleware.refuse_too_long",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    # The user of each row history (simple_history): the admin and every other door.
    "simple_history.middleware.HistoryRequestMiddleware",
    # A view that loses the database answers 503 "try again" (ddz_site.web.middleware).
    "ddz_site.web.middleware.DatabaseUnavailableMiddleware",
    # Last, as django-axes asks: it turns a locked-out sign-in into the lockout page.
    "axes.middleware.AxesMiddleware",
]
# A row is never written back from its history: that would go around the services.
SIMPLE_HISTORY_REVERT_DISABLED = True

ROOT_URLCONF = "ddz_site.urls"
# A POST without its CSRF token: the site's 403 page ("reload the page"), JSON on JSON doors.
CSRF_FAILURE_VIEW = "ddz_site.web.middleware.csrf_failure"
# One sign-in page for everyone (django-allauth's, ddz_site.web.accounts.SignInView): players by
# their e-mail address, officials (organizers, referees; no staff status needed) by user name.
LOGIN_URL = "account_login"
# After signing in without ?next=: the user's own events (each with his roles and pages);
# after signing out: the public events list.
LOGIN_REDIRECT_URL = "organizer:home"
LOGOUT_REDIRECT_URL = "public:events"
WSGI_APPLICATION = "ddz_site.wsgi.application"
ASGI_APPLICATION = "ddz_site.asgi.application"

# The live tables (tournaments.web.live_socket): every device of a table listens on one
# channel group. DDZ_CHANNEL_LAYER_URL (redis://…) shares the groups between the web
# processes and machines of a site (channels-redis); without it the embedded default keeps
# them in the one process's memory (the demo's single server).
_channel_layer_url = env_url("DDZ_CHANNEL_LAYER_URL", ("redis", "rediss"))
CHANNEL_LAYERS: dict[str, Any] = {
    "default": (
        {
            "BACKEND": "channels_redis.core.RedisChannelLayer",
            "CONFIG": {
                # No client-side read timeout: a device's socket waits on a blocking read
                # of Redis while its table thinks (redis-py 8 times out after 5 s by
                # default, which closed every quiet socket).
                "hosts": [{"address": _channel_layer_url, "socket_timeout": None}],
                "prefix": env_str("DDZ_CHANNEL_LAYER_PREFIX", "ddz"),
                # A device's socket holds a few messages at most: one per step of its table.
                "capacity": 200,
                "expiry": 30,
            },
        }
        if _channel_layer_url
        else {"BACKEND": "channels.layers.InMemoryChannelLayer"}
    )
}

# Two caches. "default" is each process's own memory: the pages kept whole
# (tournaments.web.public) are keyed by the standings' version, so a process never serves a
# page older than another's. "shared" is the cache every web process of the site shares,
# DDZ_CACHE_URL (redis://…, Django's own Redis backend): the API's throttles count there
# (ddz_site.api.throttling), so a limit holds whichever process a balancer chose. Without it
# the process's memory (the embedded default's one server: each process would count alone).
# A Redis that does not answer is given up on within a second (the throttles then let the
# request through: the sign-in lockouts are counted in the database).
_cache_url = env_url("DDZ_CACHE_URL", ("redis", "rediss"))
# Whether "shared" is one cache for every process (ddz_site.web.visitors keeps copies there
# that any process must be able to delete).
DDZ_SHARED_CACHE = _cache_url is not None
CACHES: dict[str, Any] = {
    "default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "pages"},
    "shared": (
        {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": _cache_url,
            "KEY_PREFIX": env_str("DDZ_CACHE_PREFIX", "ddz"),
            "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 1},
        }
        if _cache_url
        else {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "shared"}
    ),
}

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

# Database: SQLite file by default (embedded); DATABASE_URL=postgres://… in production and tests.
_database_url = env_url("DATABASE_URL", ("postgres", "postgresql", "sqlite"))
if _database_url is None:
    _sqlite_path = env_str("DDZ_SQLITE_PATH", str(BASE_DIR / "db.sqlite3"))
    DATABASES: dict[str, Any] = {
        "default": {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": _sqlite_path,
            # WAL lets the web process read while a command writes; NORMAL syncs at checkpoints,
            # which is safe with WAL and spares a disk flush per game in the demo.
            # SQLite lets one writer in at a time: a transaction takes the write lock when it
            # begins (IMMEDIATE) and waits up to `timeout` seconds for it, instead of reading
            # first and failing at its first write ("database is locked") when a referee at
            # another table submits at the same moment.
            "OPTIONS": {
                "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
                "transaction_mode": "IMMEDIATE",
                "timeout": 20,
            },
        }
    }
else:
    DATABASES = {
        "default": dj_database_url.parse(
            _database_url,
            conn_max_age=env_int("DATABASE_CONN_MAX_AGE", 0),
            # A kept connection is tested before a request reuses it, so one that PostgreSQL
            # dropped (a restart) is replaced instead of failing the request.
            conn_health_checks=True,
        )
    }
    # A pool of connections shared by the process's threads (psycopg's, through Django):
    # under an ASGI server every request and socket runs in a thread of its own, and a
    # connection kept per thread would soon exceed PostgreSQL's max_connections, while a new
    # connection per request costs more than the request. Its size is per process.
    _pool_size = env_int("DATABASE_POOL_SIZE", 0, minimum=0)
    if _pool_size:
        if DATABASES["default"].get("CONN_MAX_AGE"):
            raise ImproperlyConfigured(
                "DATABASE_POOL_SIZE and DATABASE_CONN_MAX_AGE exclude each other"
            )
        DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
            "min_size": 1,
            "max_size": _pool_size,
            "timeout": 10,
        }
    # Behind PgBouncer in transaction pooling (many worker machines, README "Beyond one
    # machine"): each transaction may get another server session, so nothing may outlive one:
    # no server-side cursors (Django) and no prepared statements (psycopg). The advisory
    # locks the site takes are transaction-scoped (pg_advisory_xact_lock), so they hold.
    if env_choice("DATABASE_POOLER", "none", ("none", "transaction")) == "transaction":
        DATABASES["default"]["DISABLE_SERVER_SIDE_CURSORS"] = True
        DATABASES["default"].setdefault("OPTIONS", {})["prepare_threshold"] = None
    else:
        # No JIT compilation: the site's queries are short, and compiling one estimated above
        # jit_above_cost takes longer than running it (the open boards' query of every
        # standings recomputation of a large event, for one). PgBouncer
        # takes no session options: behind it, set jit = off on the database (README).
        options = DATABASES["default"].setdefault("OPTIONS", {})
        options["options"] = " ".join(filter(None, [options.get("options"), "-c jit=off"]))
_test_database_name = env_str("DDZ_TEST_DATABASE_NAME", "")
if _test_database_name:
    DATABASES["default"]["TEST"] = {"NAME": _test_database_name}

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# Wrong passwords are counted per account and client address (django-axes, in the database so
# that every process counts together): at DDZ_LOGIN_FAILURE_LIMIT failures that account is
# locked at that address, on the sign-in page, the admin's and the API's token door alike,
# for DDZ_LOGIN_LOCKOUT_MINUTES; a sign-in that succeeds clears its count. The demo's
# passwords are public, so this holds with DEBUG on too.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    # Django's ModelBackend that also takes an e-mail address for the user name.
    "allauth.account.auth_backends.AuthenticationBackend",
]
AXES_FAILURE_LIMIT = env_int("DDZ_LOGIN_FAILURE_LIMIT", 5, minimum=1)
AXES_COOLOFF_TIME = timedelta(minutes=env_int("DDZ_LOGIN_LOCKOUT_MINUTES", 15, minimum=1))
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_CLIENT_IP_CALLABLE = "ddz_site.web.security.client_address"
# The user name an attempt named, cut to the longest an account can have (a longer one broke
# the attempt's row on PostgreSQL: a 500; SQLite stored megabytes).
AXES_USERNAME_CALLABLE = "ddz_site.web.security.attempted_username"
AXES_LOCKOUT_TEMPLATE = "organizer/locked_out.html"

# Accounts (django-allauth; ddz_site.web.accounts): a player signs up with an e-mail address and
# a password (the user name is made from the address), confirms the address before signing in
# (accounts made by an administrator, officials with user names, have none to confirm), and
# signs in with the address or a user name. Its mails go through the site's outbox
# (tournaments.core.mail), sent by the workers.
ACCOUNT_ADAPTER = "ddz_site.web.accounts.AccountAdapter"
ACCOUNT_FORMS = {
    "login": "ddz_site.web.accounts.SignInForm",
    "signup": "ddz_site.web.accounts.SignUpForm",
    "add_email": "ddz_site.web.accounts.AddAddressForm",
}
ACCOUNT_LOGIN_METHODS = {"email", "username"}
ACCOUNT_SIGNUP_FIELDS = ["email*", "password1*", "password2*"]
ACCOUNT_EMAIL_VERIFICATION = "mandatory"
ACCOUNT_UNIQUE_EMAIL = True
ACCOUNT_EMAIL_SUBJECT_PREFIX = ""
# A confirmation link signs the account in (the link proves the address), and so does a reset
# password: one step fewer on a phone.
ACCOUNT_LOGIN_ON_EMAIL_CONFIRMATION = True
ACCOUNT_LOGIN_ON_PASSWORD_RESET = True
# Wrong passwords are django-axes' to count (above: per account and address, in the database
# every process shares); allauth's own count (in each process's memory) would refuse sooner,
# without the lockout page.
ACCOUNT_RATE_LIMITS = {"login_failed": None}
# Reverse proxies in front of the site that append the client's address to X-Forwarded-For
# (ddz_site.web.security); 0: the address the site sees is the client's.
_trusted_proxies = env_int("DDZ_TRUSTED_PROXIES", 0)

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    # Django's own rule, said in the site's catalogue (ddz_site.web.security).
    {"NAME": "ddz_site.web.security.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = env_choice("DJANGO_LANGUAGE_CODE", "en", ("en", "zh-hans", "zh-hant"))
# Browsers asking for zh-TW, zh-HK or zh-MO get zh-hant, zh-CN and zh-SG get zh-hans: Django's
# LANG_INFO gives those codes their script as fallback (tests/site/test_locale.py).
LANGUAGES = [
    ("en", _("English")),
    ("zh-hans", _("Simplified Chinese")),
    ("zh-hant", _("Traditional Chinese")),
]
LOCALE_PATHS = [BASE_DIR / "ddz_site" / "locale"]
TIME_ZONE = env_str("DJANGO_TIME_ZONE", "UTC")
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = env_str("DJANGO_STATIC_ROOT", str(BASE_DIR / "var" / "static"))
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    # Production serves collectstatic's compressed copies under content-hashed names (cached
    # for ever by browsers); `manage.py collectstatic` must run before the site starts.
    "staticfiles": {
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
        if DEBUG
        else "whitenoise.storage.CompressedManifestStaticFilesStorage"
    },
}
# With DEBUG on, WhiteNoise serves the apps' files as they change; fixed here from the
# environment's DEBUG, since the test runner turns settings.DEBUG off after loading.
WHITENOISE_AUTOREFRESH = DEBUG
# Files browsers ask for at the site's root (/favicon.ico), served by WhiteNoise as they are.
WHITENOISE_ROOT = BASE_DIR / "ddz_site" / "root"
WHITENOISE_USE_FINDERS = DEBUG

# Security: strict by default whenever DEBUG is off, so `manage.py check --deploy` is clean.
SECURE_SSL_REDIRECT = env_bool("DJANGO_SECURE_SSL_REDIRECT", not DEBUG)
SECURE_HSTS_SECONDS = env_int("DJANGO_SECURE_HSTS_SECONDS", 0 if DEBUG else 31536000)
SECURE_HSTS_INCLUDE_SUBDOMAINS = SECURE_HSTS_SECONDS > 0
SECURE_HSTS_PRELOAD = env_bool("DJANGO_SECURE_HSTS_PRELOAD", not DEBUG)
# HTTPS-only cookies; the demo's server (`make demo`, DEBUG off on plain HTTP at the loopback)
# turns them off.
# How many seat results a process keeps with their points between two recomputations of the
# standings (tournaments.standings.cache): a larger event has its unchanged boards' points
# computed again each time. About 300 bytes each with their points: 3,000,000 (a 30,000-player
# event of 12 rounds) is about 1 GB of a worker's memory.
DDZ_STANDINGS_KEPT_RESULTS = env_int("DDZ_STANDINGS_KEPT_RESULTS", 3_000_000, minimum=1000)
# From how many seat results an event's standings are also kept in arrays, moved by each
# change of named games (tournaments.standings.arrays): below it the objects' way moves the
# changed boards in milliseconds anyway (a 600-player event of 13 rounds: 46,800), and the
# arrays, built again whenever that way runs, would cost more than they save.
DDZ_STANDINGS_ARRAYS_FROM = env_int("DDZ_STANDINGS_ARRAYS_FROM", 200_000, minimum=0)
# From how many rows a scope's standings (the whole event, or one stage) are published first
# in one row (tournaments.models.PublishedStandings), read by the live pages, and their Standing
# rows written behind in a second transaction (tournaments.standings.store): 100,000 rows take
# about a second to write, their published row a few milliseconds. Below it, one transaction
# stores the rows alone (a 600-player event's 600 rows: about 2 ms).
DDZ_STANDINGS_PUBLISH_FROM = env_int("DDZ_STANDINGS_PUBLISH_FROM", 20_000, minimum=0)
# Sessions: with a shared cache (DDZ_CACHE_URL) read there, written through to the database
# (a signed-in page costs no session query); without one, in the database alone, since a
# cache in each process's memory would keep a session another process ended.
SESSION_ENGINE = (
    "django.contrib.sessions.backends.cached_db"
    if _cache_url
    else "django.contrib.sessions.backends.db"
)
SESSION_CACHE_ALIAS = "shared"
SESSION_COOKIE_SECURE = env_bool("DJANGO_SECURE_COOKIES", not DEBUG)
CSRF_COOKIE_SECURE = SESSION_COOKIE_SECURE
# A load balancer or monitor asks /healthz over plain HTTP on the private network.
SECURE_REDIRECT_EXEMPT = [r"^healthz$"]
if env_bool("DJANGO_BEHIND_TLS_PROXY", False):
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {
        "django.server": {
            "()": "django.utils.log.ServerFormatter",
            "format": "[{server_time}] {message}",
            "style": "{",
        }
    },
    "filters": {
        # A refusal (403, 400) is logged as one line, without Django's traceback.
        "client_errors": {"()": "ddz_site.kernel.logs.ClientErrorsWithoutTraceback"},
    },
    "handlers": {
        "console": {"class": "logging.StreamHandler"},
        "django.server": {"class": "logging.StreamHandler", "formatter": "django.server"},
    },
    # Django's default configuration gives the "django" logger a console handler of its own;
    # its records also reached the root's handler, so every line was printed twice. One
    # handler each: the root's, and runserver's request lines ("django.server") their own.
    "loggers": {
        "django": {"handlers": [], "level": "INFO", "propagate": True},
        "django.server": {"handlers": ["django.server"], "level": "INFO", "propagate": False},
        "django.request": {"filters": ["client_errors"]},
    },
    "root": {
        "handlers": ["console"],
        "level": env_choice(
            "DJANGO_LOG_LEVEL", "WARNING", ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")
        ),
    },
}

# E-mail (tournaments.core.mail, sent by the workers through tournaments.core.outbox): Django's
# SMTP backend on EMAIL_HOST; without it the console's (the demo prints its mails). Links in
# mails are absolute on DDZ_SITE_URL, the address people open the site at.
EMAIL_HOST = env_str("EMAIL_HOST", "")
EMAIL_BACKEND = (
    "django.core.mail.backends.smtp.EmailBackend"
    if EMAIL_HOST
    else "django.core.mail.backends.console.EmailBackend"
)
EMAIL_PORT = env_int("EMAIL_PORT", 25, minimum=1)
EMAIL_HOST_USER = env_str("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = env_str("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", False)
EMAIL_USE_SSL = env_bool("EMAIL_USE_SSL", False)
if EMAIL_USE_TLS and EMAIL_USE_SSL:
    raise ImproperlyConfigured(
        "EMAIL_USE_TLS (STARTTLS, port 587) and EMAIL_USE_SSL (port 465) exclude each other"
    )
# Seconds each step of a conversation with the SMTP server may take: a worker never hangs on a
# server that stopped answering, and a send ends well within the claim's lease below.
EMAIL_TIMEOUT = env_int("EMAIL_TIMEOUT", 10, minimum=1)
DEFAULT_FROM_EMAIL = env_str("DEFAULT_FROM_EMAIL", "Duplicate Dou Dizhu <noreply@localhost>")
SERVER_EMAIL = DEFAULT_FROM_EMAIL
DDZ_SITE_URL = (env_url("DDZ_SITE_URL", ("https", "http")) or "http://127.0.0.1:8000").rstrip("/")
# A worker's claim on a message (tournaments.core.outbox): a worker killed mid-send leaves it,
# and another sends it once this many seconds have passed. Attempts before a message is failed,
# and the wait before the second attempt (doubled at each one, at most an hour).
DDZ_MAIL_LEASE_SECONDS = env_int("DDZ_MAIL_LEASE_SECONDS", 60, minimum=1)
DDZ_MAIL_ATTEMPTS = env_int("DDZ_MAIL_ATTEMPTS", 8, minimum=1)
DDZ_MAIL_RETRY_SECONDS = env_int("DDZ_MAIL_RETRY_SECONDS", 30, minimum=1)

# Celery: eager in the web process unless a broker is configured (embedded default).
_broker_url = env_url("CELERY_BROKER_URL", ("redis", "rediss"))
CELERY_TASK_ALWAYS_EAGER = _broker_url is None
# Eager mode never reaches a broker; "memory://localhost//" keeps Celery from guessing one.
CELERY_BROKER_URL = _broker_url or "memory://localhost//"
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_TASK_IGNORE_RESULT = True
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
# A worker keeps its database connection between tasks as a web process does between
# requests: Django's own rule (DATABASE_CONN_MAX_AGE, health-checked before reuse) is applied
# around each task (ddz_site.celery), instead of Celery closing it after every task, which
# opened a PostgreSQL connection per message (a new server process each: most of a drain of
# 33,330 verifications). Celery still closes it every CELERY_DB_REUSE_MAX tasks.
CELERY_DB_REUSE_MAX = 1000
CELERY_TASK_DEFAULT_QUEUE = env_str("CELERY_TASK_DEFAULT_QUEUE", "ddz")
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# A task is acknowledged once done (acks late): when its worker dies (SIGKILL, a lost machine)
# Redis gives it to another worker once the visibility timeout has passed. Kombu's default is
# an hour; ours must still exceed the longest task and the longest retry countdown
# (ddz_site.kernel.dispatch.DB_TASK_OPTIONS: 60 s), which a worker also holds unacknowledged.
# A broker that cannot be reached is tried once, not for broker_connection_timeout (4 s) of
# retries, and one that does not answer (a lost machine, a firewall dropping packets) is given
# up on within a second of connecting and 5 s of a command, where the system's TCP timeouts
# held it for minutes: a request that sends a task then answers at once and leaves the task to
# the sweep (ddz_site.kernel.dispatch). Every process has a retry of its own: the sweep, beat's
# next beat, the worker's reconnection (broker_connection_max_retries). The workers' reads
# wait 1 s at a time (kombu's BRPOP), well within the 5 s.
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "visibility_timeout": env_int("CELERY_VISIBILITY_TIMEOUT", 300, minimum=90),
    "max_retries": 0,
    "socket_connect_timeout": 1,
    "socket_timeout": 5,
}
# `celery -A ddz_site beat` (one process per site) sends the sweep every DDZ_SWEEP_SECONDS: it
# sends again the verification of every game pending for two sweeps or more, whose message a
# broker outage or a dead worker lost, and the standings whose recomputation was lost
# (games.tasks.sweep_pending_games): a lost game is sent within three sweeps of the broker's
# return (15 s), lost standings within about two. A sweep costs a few indexed queries and a
# message a chunk of 100 lost games.
DDZ_SWEEP_SECONDS = env_int("DDZ_SWEEP_SECONDS", 5, minimum=1)
CELERY_BEAT_SCHEDULE = {
    "sweep-pending-games": {
        "task": "games.tasks.sweep_pending_games",
        "schedule": DDZ_SWEEP_SECONDS,
        "kwargs": {"older_than": 2 * DDZ_SWEEP_SECONDS},
        # A sweep that waited longer than an interval is superseded by the next one.
        "options": {"expires": DDZ_SWEEP_SECONDS},
    }
}

_token_requests_per_minute = env_int("DDZ_TOKEN_REQUESTS_PER_MINUTE", 10, minimum=1)
# The REST API (tournaments.api): token or session authentication, one error shape, OpenAPI schema
# served with Swagger UI and Redoc from the project's own static files (no CDN). Tokens
# (django-rest-knox) are stored hashed and expire; every view needs a signed-in user unless
# it opts out (the public reads, the token door).
REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        # Knox's, refusing a token that is not UTF-8 with a 401 (knox answered 500).
        "ddz_site.api.authentication.TokenAuthentication",
        # DRF's, with the site's words for a missing CSRF token (csrf_failed).
        "ddz_site.api.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    # Requests to the token door per client address (ddz_site.web.security), whatever the
    # accounts: a flood of guesses answers 429 before django-axes' per-account count.
    "DEFAULT_THROTTLE_RATES": {"token": f"{_token_requests_per_minute}/minute"},
    "NUM_PROXIES": _trusted_proxies,
    # drf-spectacular's, documenting the refusals every door answers (ddz_site.api.schema).
    "DEFAULT_SCHEMA_CLASS": "ddz_site.api.schema.AutoSchema",
    "EXCEPTION_HANDLER": "ddz_site.api.errors.exception_handler",
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    # The site's one reader of a JSON body (ddz_site.api.request_json): plain, translated refusals.
    "DEFAULT_PARSER_CLASSES": [
        "ddz_site.api.parsers.JSONParser",
        "rest_framework.parsers.FormParser",
        "rest_framework.parsers.MultiPartParser",
    ],
    "UNAUTHENTICATED_USER": "django.contrib.auth.models.AnonymousUser",
}
REST_KNOX = {
    "TOKEN_TTL": timedelta(hours=env_int("DDZ_API_TOKEN_HOURS", 10, minimum=1)),
    "AUTO_REFRESH": False,
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Duplicate Dou Dizhu API",
    "DESCRIPTION": "Referee entry, confirmation, rulings and table status of duplicate events.",
    "VERSION": "1",
    "SERVE_INCLUDE_SCHEMA": False,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    # Nothing from outside the site (ddz_site.api.docs): no validator badge from swagger.io, and
    # Redoc's fonts are the system's.
    "SWAGGER_UI_SETTINGS": {"deepLinking": True, "validatorUrl": None},
    "REDOC_UI_SETTINGS": {"theme": {"typography": {"fontFamily": "system-ui, sans-serif"}}},
    "COMPONENT_SPLIT_REQUEST": True,
    "ENUM_NAME_OVERRIDES": {
        "ResolutionEnum": "games.models.Resolution",
        # A game's status keeps the name it had before events had one.
        "StatusEnum": "games.models.Status",
        "EventStatusEnum": "tournaments.models.EventStatus",
    },
}

# Error reporting (sentry-sdk) for the web processes and the Celery workers, which load these
# settings too; off unless SENTRY_DSN is set. No personal data is sent (user names, addresses).
SENTRY_DSN = env_url("SENTRY_DSN", ("https", "http"))
if SENTRY_DSN:
    import sentry_sdk
    from sentry_sdk.integrations.celery import CeleryIntegration
    from sentry_sdk.integrations.django import DjangoIntegration

    sentry_sdk.init(
        dsn=SENTRY_DSN,
        integrations=[DjangoIntegration(), CeleryIntegration()],
        environment=env_str("SENTRY_ENVIRONMENT", "production"),
        traces_sample_rate=0.0,
        send_default_pii=False,
    )
