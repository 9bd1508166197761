"""Leidraad settings: one module, driven by environment variables with safe defaults.

Laptop mode (the default): SQLite in data/, a secret key generated once and kept in
data/secret_key. Server mode: PRODUCTION=true switches on the secure cookie, HSTS and SSL
settings and requires SECRET_KEY and ALLOWED_HOSTS from the environment.
"""

import os
import secrets
import warnings
from datetime import timedelta
from ipaddress import ip_network
from pathlib import Path

import dj_database_url
import django_stubs_ext
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

# Generic classes such as ``admin.ModelAdmin[Tree]`` (for mypy) subscriptable at run time.
django_stubs_ext.monkeypatch()

BASE_DIR = Path(__file__).resolve().parent.parent
DATA_DIR = Path(os.environ.get("LEIDRAAD_DATA_DIR", BASE_DIR / "data"))


def resource_dir(name: str) -> Path:
    """``templates``, ``static`` or ``locale``: top-level folders in a checkout; inside the
    ``config`` package (``config/site_<name>``) when installed as a wheel (pyproject.toml)."""
    checkout = BASE_DIR / name
    return checkout if checkout.is_dir() else Path(__file__).resolve().parent / f"site_{name}"


def env_bool(name: str, default: bool = False) -> bool:
    return os.environ.get(name, str(default)).strip().lower() in {"1", "true", "yes", "on"}


def env_list(name: str, default: str = "") -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


def laptop_secret_key() -> str:
    """Generate the key once and keep it, so sessions survive a restart of the laptop."""
    path = DATA_DIR / "secret_key"
    if not path.exists():
        DATA_DIR.mkdir(parents=True, exist_ok=True)
        path.write_text(secrets.token_urlsafe(50))
        path.chmod(0o600)
    return path.read_text().strip()


PRODUCTION = env_bool("PRODUCTION")
DEBUG = env_bool("DEBUG") and not PRODUCTION

if PRODUCTION:
    SECRET_KEY = os.environ.get("SECRET_KEY", "")
    if len(SECRET_KEY) < 50:
        raise ImproperlyConfigured("PRODUCTION=true needs SECRET_KEY (50 characters or more).")
else:
    SECRET_KEY = os.environ.get("SECRET_KEY") or laptop_secret_key()

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "" if PRODUCTION else "127.0.0.1,localhost,[::1]")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django.forms",
    "django_htmx",
    "template_partials",
    "crispy_forms",
    "crispy_bootstrap5",
    "django_filters",
    "axes",
    "lib",
    "laws",
    "trees",
    "clubs",
    "rulings",
    "archive",
    "training",
    "transfer",
    "scores",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "config.security.SecurityHeadersMiddleware",
    "config.security.RejectNulMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "clubs.middleware.FirstRunMiddleware",
    "django.contrib.auth.middleware.LoginRequiredMiddleware",
    "clubs.middleware.UserLanguageMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [resource_dir("templates")],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "clubs.context_processors.memberships",
            ],
        },
    }
]

# SQLite is opened in WAL mode with a busy timeout so that a laptop can save a ruling while
# another tab reads; IMMEDIATE transactions avoid lock upgrades that fail under contention.
SQLITE_PATH = DATA_DIR / "leidraad.sqlite3"
DATABASE_URL = os.environ.get("DATABASE_URL", "")
if DATABASE_URL:
    DATABASES = {"default": dj_database_url.parse(DATABASE_URL, conn_max_age=60)}
else:
    DATA_DIR.mkdir(parents=True, exist_ok=True)
    DATABASES = {
        "default": {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": str(SQLITE_PATH),
            "OPTIONS": {
                "timeout": 20,
                "transaction_mode": "IMMEDIATE",
                "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
            },
        }
    }
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
AUTH_USER_MODEL = "clubs.User"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
# Failed logins are throttled per user name and address: after AXES_FAILURE_LIMIT failures the
# pair is locked out for AXES_COOLOFF_MINUTES, with a clear page saying so.
AXES_FAILURE_LIMIT = int(os.environ.get("AXES_FAILURE_LIMIT", 5))
AXES_COOLOFF_TIME = timedelta(minutes=int(os.environ.get("AXES_COOLOFF_MINUTES", 15)))
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_TEMPLATE = "registration/locked_out.html"
AXES_VERBOSE = False
# Behind a reverse proxy every request comes from the proxy's address: name it here
# (addresses or networks, comma-separated) and the client's own address is read from the one
# header it sets (LEIDRAAD_PROXY_CLIENT_HEADER), for the lockout above and the first-run page
# (lib/client.py). From any other peer proxy headers are never believed.
LEIDRAAD_TRUSTED_PROXIES = env_list("LEIDRAAD_TRUSTED_PROXIES")
for _proxy in LEIDRAAD_TRUSTED_PROXIES:
    try:
        ip_network(_proxy, strict=False)
    except ValueError as error:
        raise ImproperlyConfigured(f"LEIDRAAD_TRUSTED_PROXIES: {error}") from error
LEIDRAAD_PROXY_CLIENT_HEADER = os.environ.get("LEIDRAAD_PROXY_CLIENT_HEADER", "X-Forwarded-For")
if LEIDRAAD_PROXY_CLIENT_HEADER.lower() not in {"x-forwarded-for", "x-real-ip", "forwarded"}:
    raise ImproperlyConfigured(
        "LEIDRAAD_PROXY_CLIENT_HEADER must be X-Forwarded-For, X-Real-IP or Forwarded."
    )
AXES_CLIENT_IP_CALLABLE = "lib.client.lockout_address"

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "login"
# Club admins hand a new director a one-time link to set a password (clubs/members.py); it
# stays valid this long (3 days by default) or until the password is set. With
# LEIDRAAD_EMAIL_ENABLED the link is also e-mailed, and "Wachtwoord vergeten?" on the login page
# sends one; without it that page says to ask the club's admin. EMAIL_* as Django reads them.
PASSWORD_RESET_TIMEOUT = int(os.environ.get("PASSWORD_RESET_TIMEOUT", 60 * 60 * 24 * 3))
LEIDRAAD_EMAIL_ENABLED = env_bool("LEIDRAAD_EMAIL_ENABLED")
if LEIDRAAD_EMAIL_ENABLED:
    EMAIL_HOST = os.environ.get("EMAIL_HOST", "localhost")
    EMAIL_PORT = int(os.environ.get("EMAIL_PORT", 25))
    EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
    EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
    EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS")
    DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "leidraad@localhost")
# A login lasts a club evening (12 hours by default); closing the browser does not end it, so a
# director whose laptop slept can resume an unfinished ruling.
SESSION_COOKIE_AGE = int(os.environ.get("SESSION_COOKIE_AGE", 60 * 60 * 12))

LANGUAGE_CODE = "nl"
LANGUAGES = [("nl", _("Nederlands")), ("en", _("Engels"))]
LOCALE_PATHS = [resource_dir("locale")]
# European day-month-year order in English too (config/formats/en/formats.py).
FORMAT_MODULE_PATH = ["config.formats"]
USE_I18N = True
TIME_ZONE = "Europe/Amsterdam"
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [resource_dir("static")]
STATIC_ROOT = BASE_DIR / "staticfiles"
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "whitenoise.storage.CompressedManifestStaticFilesStorage"
            if PRODUCTION
            else "django.contrib.staticfiles.storage.StaticFilesStorage"
        )
    },
}
# Outside production the app serves static files straight from the source folders, so a
# laptop needs no collectstatic step.
WHITENOISE_USE_FINDERS = not PRODUCTION
if not PRODUCTION:
    warnings.filterwarnings("ignore", message="No directory at", module="whitenoise.base")

CRISPY_ALLOWED_TEMPLATE_PACKS = "bootstrap5"
CRISPY_TEMPLATE_PACK = "bootstrap5"

MESSAGE_STORAGE = "django.contrib.messages.storage.session.SessionStorage"

SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"
SESSION_COOKIE_HTTPONLY = True
if PRODUCTION:
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", True)
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = int(os.environ.get("SECURE_HSTS_SECONDS", 60 * 60 * 24 * 365))
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", True)

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "WARNING")},
}

FORM_RENDERER = "config.forms.LeidraadFormRenderer"
