#!/usr/bin/env python3
"""A bounded load test: simulated directors complete rulings against gunicorn on 127.0.0.1.

Each director logs in through the login form, then repeatedly: opens the start page, picks a
decision tree at random, answers along a random valid path (reading the choices from each
page, exactly as a browser would post them), fills the context and saves the ruling. The load
stops by itself after ``--duration`` seconds (directors finish the ruling they are in);
the whole run is aborted if it takes longer than ``--deadline``.

Afterwards: requests per second, p50/p95 latencies, errors and completed flows are printed,
the number of rulings in the database must equal the number of completed flows (all final),
and ``manage.py verify_audit`` must pass. Exit status 0 only when all of that holds and no
request failed.

The database is a fresh SQLite file in a temporary folder, or PostgreSQL when DATABASE_URL is
set (``scripts/with-postgres.sh .venv/bin/python scripts/loadtest.py``). Only 127.0.0.1.
"""

from __future__ import annotations

import argparse
import http.client
import os
import random
import re
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from http.cookies import SimpleCookie
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PYTHON = sys.executable
HOST = "127.0.0.1"
PASSWORD = "Laad-Test-7NT-x"  # noqa: S105 (a throwaway user in a throwaway database)

CHOICE_FORM = re.compile(
    r'<form[^>]*action="([^"]+)"[^>]*class="wizard-choices">(.*?)</form>', re.S
)
HIDDEN = re.compile(r'<input type="hidden" name="(\w+)" value="([^"]*)">')
CHOICE = re.compile(r'name="choice" value="([^"]+)"')
TREE_LINK = re.compile(r'href="(/arbitrage/nieuw/[a-z0-9-]+/(?:\?[^"]*)?)"')
CSRF = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')
SAVE = re.compile(r'formaction="(/arbitrage/[0-9a-f-]+/opslaan/)"')


class FlowError(Exception):
    pass


@dataclass
class Stats:
    latencies: list[float] = field(default_factory=list)
    by_kind: dict[str, list[float]] = field(default_factory=dict)
    errors: list[str] = field(default_factory=list)
    flows: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)

    def record(self, kind: str, seconds: float) -> None:
        with self.lock:
            self.latencies.append(seconds)
            self.by_kind.setdefault(kind, []).append(seconds)

    def error(self, message: str) -> None:
        with self.lock:
            self.errors.append(message)


FORM_ERROR = re.compile(r'class="[^"]*(?:invalid-feedback|errorlist)[^"]*"[^>]*>(.*?)</', re.S)


def _errors(page: str) -> str:
    """The form's messages on a page that should have redirected, to say why it did not."""
    found = [" ".join(re.sub(r"<[^>]+>", " ", m).split()) for m in FORM_ERROR.findall(page)]
    found = [text for text in found if text]
    return f" ({'; '.join(found[:3])})" if found else ""


def kind_of(method: str, path: str) -> str:
    """The kind of request, for latencies per kind (a login hashes a password: slow)."""
    if path.startswith("/inloggen/"):
        return f"{method} login"
    if path.startswith("/arbitrage/nieuw/"):
        return "GET start" if path == "/arbitrage/nieuw/" else f"{method} first question"
    if path.endswith("/opslaan/"):
        return "POST save"
    if method == "POST":
        return "POST answer"
    return "GET step or ruling"


class Browser:
    """One director's browser: a connection to the server and its cookies."""

    def __init__(self, port: int, stats: Stats) -> None:
        self.port, self.stats = port, stats
        self.cookies: dict[str, str] = {}
        self.conn = http.client.HTTPConnection(HOST, port, timeout=30)

    def request(self, method: str, path: str, form: dict[str, str] | None = None):
        kind = kind_of(method, path)
        headers = {"Cookie": "; ".join(f"{k}={v}" for k, v in self.cookies.items())}
        body = None
        if form is not None:
            form = {**form, "csrfmiddlewaretoken": self.cookies.get("csrftoken", "")}
            body = urllib.parse.urlencode(form)
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        started = time.perf_counter()
        try:
            self.conn.request(method, path, body=body, headers=headers)
            response = self.conn.getresponse()
            content = response.read().decode("utf-8", errors="replace")
        except (OSError, http.client.HTTPException) as error:
            self.conn.close()
            self.conn = http.client.HTTPConnection(HOST, self.port, timeout=30)
            raise FlowError(f"{method} {path}: {error!r}") from None
        self.stats.record(kind, time.perf_counter() - started)
        for header in response.headers.get_all("Set-Cookie") or []:
            for name, morsel in SimpleCookie(header).items():
                self.cookies[name] = morsel.value
        if response.status >= 400:
            raise FlowError(f"{method} {path}: HTTP {response.status}")
        return response.status, response.headers.get("Location", ""), content

    def get(self, path: str) -> str:
        status, location, content = self.request("GET", path)
        if status != 200:
            raise FlowError(f"GET {path}: expected 200, got {status} → {location}")
        return content

    def post(self, path: str, form: dict[str, str]) -> str:
        status, location, content = self.request("POST", path, form)
        if status != 302 or not location:
            raise FlowError(f"POST {path}: expected a redirect, got {status}{_errors(content)}")
        return location

    def follow(self, path: str) -> tuple[str, str]:
        """GET ``path``, following redirects; returns the final path and its content."""
        for _ in range(5):
            status, location, content = self.request("GET", path)
            if status == 200:
                return path, content
            if status != 302:
                raise FlowError(f"GET {path}: {status}")
            path = location
        raise FlowError(f"too many redirects from {path}")


def login(browser: Browser, username: str) -> None:
    page = browser.get("/inloggen/")
    if not CSRF.search(page):
        raise FlowError("no login form")
    location = browser.post("/inloggen/", {"username": username, "password": PASSWORD})
    if location != "/":
        raise FlowError(f"login of {username} went to {location}")


def one_ruling(browser: Browser, rng: random.Random) -> None:
    start = browser.get("/arbitrage/nieuw/")
    trees = TREE_LINK.findall(start)
    if not trees:
        raise FlowError("no decision tree on the start page")
    path, page = browser.follow(rng.choice(trees).replace("&amp;", "&"))
    for _step in range(40):
        form = CHOICE_FORM.search(page)
        if form is None:
            break
        action, inner = form.groups()
        fields = dict(HIDDEN.findall(inner))
        choices = CHOICE.findall(inner)
        if not choices:
            raise FlowError(f"{path}: a question without choices")
        fields["choice"] = rng.choice(choices)
        path, page = browser.follow(browser.post(action, fields))
    else:
        raise FlowError("no outcome after 40 answers")
    save = SAVE.search(page)
    if save is None:
        raise FlowError(f"{path}: neither a question nor an outcome with a save button")
    today = datetime.now().astimezone().date()  # this machine's date, as the server's
    played = today - timedelta(days=rng.randrange(60))
    context = {
        "played_on": played.isoformat(),
        "event": "Laadtest",
        "round": str(rng.randint(1, 8)),
        "table": str(rng.randint(1, 15)),
        "board": str(rng.randint(1, 36)),
        "offender_seat": rng.choice("NESW"),
        "declarer_seat": rng.choice("NESW"),
        # The pairs at the table: a psyche ruling records the offending pair.
        "pair_ns": str(rng.randint(1, 15)),
        "pair_ew": str(rng.randint(16, 30)),
        "contract_level": "",
        "contract_strain": "",
        "contract_doubled": "",
        "notes": "",
    }
    final = browser.post(save.group(1), context)
    final_path, content = browser.follow(final)
    if "wizard-choices" in content or SAVE.search(content):
        raise FlowError(f"{final_path}: the ruling was not saved")


def director(index: int, port: int, stats: Stats, stop_at: float, seed: int) -> None:
    rng = random.Random(seed * 1000 + index)  # noqa: S311 (a reproducible walk, not a secret)
    browser = Browser(port, stats)
    try:
        login(browser, f"laad{index:02d}")
    except FlowError as error:
        stats.error(f"director {index}: {error}")
        return
    while time.monotonic() < stop_at:
        try:
            one_ruling(browser, rng)
        except FlowError as error:
            stats.error(f"director {index}: {error}")
            continue
        with stats.lock:
            stats.flows += 1


# --------------------------------------------------------------------------------------------
# Setting up and checking the database (this process, through Django)


def django_setup(env: dict[str, str]) -> None:
    os.environ.update(env)
    sys.path.insert(0, str(ROOT))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()


def prepare(directors: int) -> None:
    from django.contrib.auth.hashers import make_password
    from django.core.management import call_command
    from django.db import connections

    from clubs.models import Club, Membership, Role, User

    call_command("migrate", verbosity=0, interactive=False)
    call_command("bootstrap", stdout=open(os.devnull, "w"))  # noqa: SIM115
    club = Club.objects.create(name="BC Laadtest", slug="laadtest")
    password = make_password(PASSWORD)
    users = User.objects.bulk_create(
        User(username=f"laad{i:02d}", password=password) for i in range(directors)
    )
    Membership.objects.bulk_create(
        Membership(user=user, club=club, role=Role.DIRECTOR) for user in users
    )
    connections.close_all()


def check(flows: int) -> list[str]:
    from django.db import connections

    from archive import tally
    from rulings.models import Ruling, Status

    problems = []
    total = Ruling.objects.count()
    final = Ruling.objects.filter(status=Status.FINAL).count()
    print(f"saved rulings: {final} final of {total} in the database")
    if final != flows or total != flows:
        problems.append(f"{flows} flows completed but {final} final / {total} rulings stored")
    tally_problems = tally.differences()
    print(f"statistics tally: {len(tally_problems) or 'no'} difference(s) from the rulings")
    problems += [f"statistics tally: {problem}" for problem in tally_problems[:5]]
    connections.close_all()
    return problems


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind((HOST, 0))
        return probe.getsockname()[1]


def wait_for(port: int, server: subprocess.Popen, seconds: float = 30) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise SystemExit("gunicorn exited before it answered")
        try:
            conn = http.client.HTTPConnection(HOST, port, timeout=2)
            conn.request("GET", "/inloggen/")
            if conn.getresponse().status == 200:
                return
        except OSError:
            time.sleep(0.2)
    raise SystemExit(f"gunicorn did not answer on {HOST}:{port} within {seconds} s")


def start_gunicorn(
    port: int, workers: int, env: dict[str, str], log: Path, *extra: str, **popen
) -> subprocess.Popen:
    """Gunicorn serving the project on ``HOST:port``, once it answers."""
    server = subprocess.Popen(
        [
            str(Path(PYTHON).parent / "gunicorn"),
            "config.wsgi:application",
            "--bind",
            f"{HOST}:{port}",
            "--workers",
            str(workers),
            "--error-logfile",
            str(log),
            *extra,
        ],
        cwd=ROOT,
        env={**os.environ, **env},
        **popen,
    )
    wait_for(port, server)
    return server


def run_verify_audit(env: dict[str, str]) -> subprocess.CompletedProcess:
    """``manage.py verify_audit`` on the run's database, its output captured."""
    return subprocess.run(
        [PYTHON, "manage.py", "verify_audit"],
        cwd=ROOT,
        env={**os.environ, **env},
        capture_output=True,
        text=True,
    )


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else 0.0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--directors", type=int, default=20)
    parser.add_argument("--workers", type=int, default=4)
    parser.add_argument("--duration", type=float, default=45, help="seconds of load")
    parser.add_argument("--deadline", type=float, default=115, help="abort after (seconds)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    started = time.monotonic()
    signal.signal(
        signal.SIGALRM, lambda *_: sys.exit("ABORTED: the load test overran its deadline")
    )
    signal.alarm(int(args.deadline))

    data_dir = Path(tempfile.mkdtemp(prefix="leidraad-load-"))
    database = "PostgreSQL" if os.environ.get("DATABASE_URL") else "SQLite"
    env = {
        "LEIDRAAD_DATA_DIR": str(data_dir),
        "DEBUG": "false",
        "LOG_LEVEL": "WARNING",
        "PYTHONWARNINGS": "ignore:No directory at",
    }
    server = None
    try:
        django_setup(env)
        prepare(args.directors)
        port = free_port()
        log = data_dir / "gunicorn.log"
        server = start_gunicorn(port, args.workers, env, log, "--graceful-timeout", "10")
        print(
            f"{database}: {args.directors} directors, gunicorn with {args.workers} workers on "
            f"{HOST}:{port}, {args.duration:.0f} s of load"
        )
        stats = Stats()
        load_started = time.monotonic()
        stop_at = load_started + args.duration
        threads = [
            threading.Thread(
                target=director, args=(i, port, stats, stop_at, args.seed), daemon=True
            )
            for i in range(args.directors)
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        elapsed = time.monotonic() - load_started
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=20)

        count = len(stats.latencies)
        print(f"requests: {count} in {elapsed:.1f} s = {count / elapsed:.1f} requests/s")
        if count:
            print(
                f"latency: p50 {percentile(stats.latencies, 0.50) * 1000:.0f} ms, "
                f"p95 {percentile(stats.latencies, 0.95) * 1000:.0f} ms, "
                f"max {max(stats.latencies) * 1000:.0f} ms, "
                f"mean {statistics.fmean(stats.latencies) * 1000:.0f} ms"
            )
            for kind, values in sorted(stats.by_kind.items()):
                print(
                    f"  {kind:<20} {len(values):>6}  p50 {percentile(values, 0.50) * 1000:>5.0f} ms"
                    f"  p95 {percentile(values, 0.95) * 1000:>5.0f} ms"
                )
        print(f"completed flows (rulings saved): {stats.flows}")
        print(f"errors: {len(stats.errors)}")
        for message in stats.errors[:20]:
            print(f"  {message}")
        problems = check(stats.flows)
        verify = run_verify_audit(env)
        print(f"verify_audit: exit {verify.returncode}: {verify.stdout.strip()[-300:]}")
        if verify.returncode != 0:
            problems.append("verify_audit failed: " + verify.stderr.strip()[-500:])
        if stats.errors:
            problems.append(f"{len(stats.errors)} request(s) failed")
        if stats.flows == 0:
            problems.append("no ruling was completed")
        if log.exists() and "Traceback" in log.read_text():
            problems.append(f"gunicorn logged a traceback:\n{log.read_text()[-2000:]}")
        print(f"total time: {time.monotonic() - started:.0f} s")
        for problem in problems:
            print(f"FAIL: {problem}")
        print(f"{database} load test: {'FAILED' if problems else 'passed'}")
        return 1 if problems else 0
    finally:
        if server is not None and server.poll() is None:
            server.kill()
        shutil.rmtree(data_dir, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
