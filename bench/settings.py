"""Settings for the benchmark only: the project's settings plus a bare reference view.

``python -m bench`` points ``LEIDRAAD_DATA_DIR`` at a temporary folder (SQLite) or
``DATABASE_URL`` at a database of its own (PostgreSQL) before Django starts, so the benchmark
never touches the real ``data/`` folder. The bare view lives in ``bench/urls.py``, never in the
production URLconf.
"""

import os
import warnings

from django.core.exceptions import ImproperlyConfigured

if not os.environ.get("DATABASE_URL") and not os.environ.get("BENCH_RUN"):
    # Only bench.run sets BENCH_RUN, after pointing LEIDRAAD_DATA_DIR at a temporary folder.
    raise ImproperlyConfigured("bench.settings is only for `python -m bench` (make bench)")

from bench.run import with_bare_template
from config.settings import *  # noqa: F403
from config.settings import TEMPLATES

DEBUG = False
ROOT_URLCONF = "bench.urls"
# Django's test client (used in-process for server time) calls itself "testserver".
ALLOWED_HOSTS = [*ALLOWED_HOSTS, "testserver"]  # noqa: F405
TEMPLATES = with_bare_template(TEMPLATES)
# Static files are served from the source folders (no collectstatic): WhiteNoise's warning
# about the missing STATIC_ROOT would only clutter the benchmark's output.
warnings.filterwarnings("ignore", message="No directory at")
