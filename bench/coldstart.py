"""Cold start: seconds from ``make run`` (existing ``.venv``) to the first page served.

``make run PORT=<free port>`` is started in a process group of its own with a temporary
``LEIDRAAD_DATA_DIR`` and polled on ``/`` until a page is served (on a data folder without users
``/`` redirects to the first-run page ``/setup/``, which must answer 200); then the group (make,
runserver and its autoreloader child) is stopped. It always runs the laptop
setup (SQLite in the data folder), also when the benchmark itself runs on PostgreSQL.

Two starts: the first on an empty data folder (creates the database, migrates, loads laws,
trees and cases), the second on the data it left (what a director sees every evening). The
reference is the bare cost of starting Python and Django (``django.setup()``).
The catalogue ``django.mo`` is treated as up to date (``make -o``), so the benchmark never
rebuilds a committed file.
"""

# ruff: noqa: S603, S607

from __future__ import annotations

import http.client
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from bench.load import HOST, free_port
from bench.measure import BenchError

MO = "locale/en/LC_MESSAGES/django.mo"
STRIPPED = ("DATABASE_URL", "DJANGO_SETTINGS_MODULE", "BENCH_RUN", "DEBUG", "PRODUCTION")


def _environment(data_dir: Path) -> dict[str, str]:
    env = {key: value for key, value in os.environ.items() if key not in STRIPPED}
    env["LEIDRAAD_DATA_DIR"] = str(data_dir)
    return env


def _get(port: int, path: str) -> tuple[int, str]:
    connection = http.client.HTTPConnection(HOST, port, timeout=5)
    try:
        connection.request("GET", path)
        response = connection.getresponse()
        response.read()
        return response.status, response.getheader("Location", "")
    finally:
        connection.close()


def _served(port: int) -> bool:
    """Whether ``/`` is served: a fresh install redirects every page to the first-run page
    (``/setup/``), which must then answer 200 as well."""
    try:
        status, location = _get(port, "/")
        if status in (301, 302) and location.startswith("/"):
            status, _ = _get(port, location)
        return status == 200
    except OSError:
        return False


def make_run(root: Path, data_dir: Path, log: Path, timeout: float = 120) -> float:
    port = free_port()
    started = time.perf_counter()
    process = subprocess.Popen(
        ["make", "--no-print-directory", "-o", MO, "run", f"HOST={HOST}", f"PORT={port}"],
        cwd=root,
        env=_environment(data_dir),
        stdout=log.open("ab"),
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    try:
        while True:
            if _served(port):
                return time.perf_counter() - started
            if process.poll() is not None:
                raise BenchError(f"make run exited with {process.returncode}; see {log}")
            if time.perf_counter() - started > timeout:
                raise BenchError(f"make run served nothing within {timeout:.0f} s; see {log}")
            time.sleep(0.05)
    finally:
        # Our own process group only: make, runserver and its autoreloader child.
        try:
            os.killpg(process.pid, signal.SIGTERM)
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
        except ProcessLookupError:
            pass


def django_setup_floor(root: Path, data_dir: Path) -> float:
    """Seconds to start Python and ``django.setup()`` with the project's settings."""
    env = _environment(data_dir) | {"DJANGO_SETTINGS_MODULE": "config.settings"}
    started = time.perf_counter()
    subprocess.run(
        [str(root / ".venv" / "bin" / "python"), "-c", "import django; django.setup()"],
        cwd=root,
        env=env,
        check=True,
    )
    return time.perf_counter() - started


if __name__ == "__main__":  # a quick manual check: python -m bench.coldstart DIR
    print(make_run(Path.cwd(), Path(sys.argv[1]), Path(sys.argv[1]) / "run.log"))
