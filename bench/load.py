"""Throughput under gunicorn (2 sync workers on 127.0.0.1) with a small, bounded load script.

The load script is plain ``http.client`` in a few threads of this process: each thread sends
one request at a time for a fixed number of seconds, so the load is bounded by construction
(``threads`` requests in flight at most). Only the loopback address is ever used. The same
script drives the bare view and the wizard, one after the other, so their ratio compares like
with like (the load script's own CPU use is the same for both).

The two alternate in five rounds of a fifth of the time each, so that a change of the machine's
load during the test hits both alike (measured on a shared machine, back-to-back phases gave
ratios a factor of three apart).

A wizard "request" is one answer POST with htmx headers, exactly as the browser sends it: the
first answer of a ruling (which creates it) and every answer after it, until an outcome; then
the thread starts the next ruling. Every response is checked (200, a step fragment, no error).
"""

# ruff: noqa: S311, S603

from __future__ import annotations

import http.client
import os
import random
import secrets
import socket
import string
import subprocess
import threading
import time
import uuid as uuid_lib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import urlencode

from django.conf import settings
from django.utils import timezone

if TYPE_CHECKING:
    from trees.spec import Snapshot

from bench.measure import BenchError
from bench.report import p50, p95

HOST = "127.0.0.1"  # loopback only, always


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind((HOST, 0))
        return sock.getsockname()[1]


def csrf_secret() -> str:
    """A CSRF cookie value: the same 32 characters go in the header (Django accepts the
    unmasked secret)."""
    alphabet = string.ascii_letters + string.digits
    return "".join(secrets.choice(alphabet) for _ in range(32))


@dataclass
class Session:
    """What a logged-in browser sends: the session cookie and a CSRF token."""

    sessionid: str
    csrf: str = field(default_factory=csrf_secret)

    def headers(self, htmx: bool = True) -> dict[str, str]:
        headers = {
            "Cookie": f"{settings.SESSION_COOKIE_NAME}={self.sessionid}; "
            f"{settings.CSRF_COOKIE_NAME}={self.csrf}",
            "X-CSRFToken": self.csrf,
            "Content-Type": "application/x-www-form-urlencoded",
            "Connection": "close",
        }
        if htmx:
            headers |= {"HX-Request": "true", "HX-Target": "wizard"}
        return headers


def request(port: int, method: str, path: str, session: Session, body: dict | None = None):
    connection = http.client.HTTPConnection(HOST, port, timeout=30)
    try:
        payload = urlencode(body or {})
        connection.request(
            method, path, body=payload if method == "POST" else None, headers=session.headers()
        )
        response = connection.getresponse()
        content = response.read()
        return response.status, dict(response.getheaders()), content
    finally:
        connection.close()


class Gunicorn:
    """``gunicorn config.wsgi --workers 2`` with the benchmark's settings, on loopback."""

    def __init__(self, root: Path, log: Path, workers: int = 2) -> None:
        self.port = free_port()
        self.log = log
        env = {**os.environ, "DJANGO_SETTINGS_MODULE": "bench.settings"}
        self.process = subprocess.Popen(
            [
                str(root / ".venv" / "bin" / "gunicorn"),
                "config.wsgi:application",
                "--workers",
                str(workers),
                "--bind",
                f"{HOST}:{self.port}",
                "--chdir",
                str(root),
                "--timeout",
                "60",
                "--no-control-socket",
            ],
            cwd=root,
            env=env,
            stdout=log.open("wb"),
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )

    def wait_ready(self, session: Session, timeout: float = 60) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise BenchError(f"gunicorn exited; see {self.log}")
            try:
                status, _, _ = request(self.port, "GET", "/bench/bare/", session)
                if status == 200:
                    return
            except OSError:
                pass
            time.sleep(0.1)
        raise BenchError(f"gunicorn did not answer within {timeout:.0f} s; see {self.log}")

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()  # the master stops its workers
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, 9)
                self.process.wait()


@dataclass
class LoadResult:
    requests: int
    seconds: float
    latencies: list[float]
    errors: list[str]

    @property
    def per_second(self) -> float:
        return self.requests / self.seconds if self.seconds else 0.0

    @property
    def p50(self) -> float:
        return p50(self.latencies)

    @property
    def p95(self) -> float:
        return p95(self.latencies)


def merged(results: list[LoadResult]) -> LoadResult:
    return LoadResult(
        sum(r.requests for r in results),
        sum(r.seconds for r in results),
        [value for r in results for value in r.latencies],
        [error for r in results for error in r.errors],
    )


def alternating(
    phases: dict[str, Callable[[float], LoadResult]], seconds: float, rounds: int
) -> dict[str, LoadResult]:
    """Run each phase (a function of the seconds to run) ``rounds`` times in turn, so that a
    change in the machine's load hits every phase alike; the results are summed per phase."""
    results: dict[str, list[LoadResult]] = {name: [] for name in phases}
    for _ in range(rounds):
        for name, phase in phases.items():
            results[name].append(phase(seconds / rounds))
    return {name: merged(parts) for name, parts in results.items()}


def _run_threads(worker, threads: int, seconds: float) -> LoadResult:
    deadline = time.monotonic() + seconds
    latencies: list[list[float]] = [[] for _ in range(threads)]
    errors: list[str] = []
    started = time.monotonic()
    pool = [
        threading.Thread(target=worker, args=(index, deadline, latencies[index], errors))
        for index in range(threads)
    ]
    for thread in pool:
        thread.start()
    for thread in pool:
        thread.join()
    elapsed = time.monotonic() - started
    merged = [value for values in latencies for value in values]
    return LoadResult(len(merged), elapsed, merged, errors)


def bare_load(port: int, session: Session, threads: int, seconds: float) -> LoadResult:
    def worker(index: int, deadline: float, latencies: list[float], errors: list[str]) -> None:
        while time.monotonic() < deadline and not errors:
            started = time.perf_counter()
            status, _, _ = request(port, "POST", "/bench/bare/", session, {"choice": "k1"})
            if status != 200:
                errors.append(f"bare view: HTTP {status}")
                return
            latencies.append(time.perf_counter() - started)

    return _run_threads(worker, threads, seconds)


def wizard_load(
    port: int, session: Session, tree: Snapshot, club_slug: str, threads: int, seconds: float
) -> LoadResult:
    def worker(index: int, deadline: float, latencies: list[float], errors: list[str]) -> None:
        rng = random.Random(1000 + index)
        while time.monotonic() < deadline and not errors:
            ruling = uuid_lib.uuid4()
            node, step = tree.start, 1
            while time.monotonic() < deadline:
                choice = rng.choice(tree.node(node).choices)
                body = {
                    "node": node,
                    "step": str(step),
                    "revision": str(step - 1),
                    "choice": choice.key,
                }
                if step == 1:
                    path = f"/arbitrage/nieuw/{tree.slug}/{ruling}/"
                    body |= {
                        "snapshot": tree.digest,
                        "club": club_slug,
                        "played_on": timezone.localdate().isoformat(),
                    }
                else:
                    path = f"/arbitrage/{ruling}/antwoord/"
                started = time.perf_counter()
                status, headers, content = request(port, "POST", path, session, body)
                elapsed = time.perf_counter() - started
                if status != 200 or "HX-Push-Url" not in headers or b"data-wizard-error" in content:
                    errors.append(f"wizard answer {path} {body}: HTTP {status}")
                    return
                latencies.append(elapsed)
                if tree.is_outcome(choice.target):
                    break
                node, step = choice.target, step + 1

    return _run_threads(worker, threads, seconds)
