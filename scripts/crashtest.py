#!/usr/bin/env python3
"""Crash safety: kill the server with SIGKILL in the middle of saves, restart it, check.

Directors (threads, as in ``scripts/loadtest.py``) make rulings against gunicorn on 127.0.0.1
with SQLite in a temporary folder: most are saved (some after editing the context first),
some are deferred and some left unfinished half-way. In each round the whole server (master
and workers, one process group) is killed with SIGKILL at a moment when at least one save is
in flight. With the server down the database is checked:

- SQLite's ``integrity_check`` passes and ``manage.py verify_audit`` passes;
- no half-written ruling: the answers that count are exactly the steps not superseded, every
  step ever recorded has its audit event (answered / answer changed) and counts in the
  revision, the audit head matches the last event, a final ruling has its outcome, date of
  play, board, time of saving and a ``saved`` event as its last event;
- every save the server acknowledged (a redirect) is final: nothing acknowledged is lost.

Then the server is restarted. At the end every unfinished ruling is resumed by its own director
(the session survived the crashes): its page answers 200 and shows the current question (or the
outcome, or the resume button), and the ruling is answered to its end and saved. Finally every
ruling is final and the audit log verifies. Exit status 0 only if all of that holds.
"""

from __future__ import annotations

import argparse
import os
import random
import re
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from loadtest import (  # the scripts folder is not a package: found through sys.path
    CHOICE,
    CHOICE_FORM,
    HIDDEN,
    SAVE,
    TREE_LINK,
    Browser,
    FlowError,
    Stats,
    django_setup,
    free_port,
    login,
    prepare,
    run_verify_audit,
    start_gunicorn,
)

RULING_URL = re.compile(r"/arbitrage/([0-9a-f-]{36})/")


class Crash(threading.Event):
    """Set when the server was killed: flows stop and wait for the restart."""


class Driver:
    """One director making rulings until told to stop."""

    def __init__(self, index: int, port: int, stats: Stats, shared: Shared) -> None:
        self.index = index
        self.rng = random.Random(index)  # noqa: S311 (a reproducible walk, not a secret)
        self.browser = Browser(port, stats)
        self.shared = shared

    def post(self, path: str, form: dict[str, str]) -> str:
        saving = path.endswith("/opslaan/")
        if saving:
            with self.shared.lock:
                self.shared.saves_in_flight += 1
        try:
            return self.browser.post(path, form)
        finally:
            if saving:
                with self.shared.lock:
                    self.shared.saves_in_flight -= 1

    def ruling(self) -> None:
        start = self.browser.get("/arbitrage/nieuw/")
        link = self.rng.choice(TREE_LINK.findall(start)).replace("&amp;", "&")
        path, page = self.browser.follow(link)
        uuid = None
        plan = self.rng.random()
        for number in range(1, 41):
            form = CHOICE_FORM.search(page)
            if form is None:
                break
            if uuid and number > 2 and plan < 0.10:
                return  # walked away half-way: an unfinished ruling
            if uuid and number > 2 and plan < 0.20:
                self.post(f"/arbitrage/{uuid}/uitstellen/", {})
                return  # deferred, to decide at the end of the session
            action, inner = form.groups()
            fields = dict(HIDDEN.findall(inner))
            fields["choice"] = self.rng.choice(CHOICE.findall(inner))
            path, page = self.browser.follow(self.post(action, fields))
            uuid = uuid or RULING_URL.search(path).group(1)
        context = {
            "played_on": "2026-11-03",
            "board": str(self.rng.randint(1, 36)),
            # A psyche ruling records the offending pair: the form asks its seat and the pairs.
            "offender_seat": "N",
            "pair_ns": "3",
            "pair_ew": "12",
        }
        if plan < 0.5:
            context["notes"] = "Eerst de gegevens bewaard."
            self.post(f"/arbitrage/{uuid}/gegevens/", {**context, "table": "3"})
        self.post(SAVE.search(page).group(1), context)
        with self.shared.lock:
            self.shared.acknowledged.add(uuid)

    def run(self, crash: Crash, stop: threading.Event) -> None:
        while not stop.is_set():
            if crash.is_set():
                time.sleep(0.05)
                continue
            try:
                self.ruling()
            except FlowError:
                pass  # the server went down under this flow; the checks judge what is left
            except (AttributeError, IndexError) as error:  # a page without what we expect
                if not crash.is_set():
                    self.shared.problems.append(f"director {self.index}: {error!r}")


# Events the final save itself writes after 'saved' (rulings.wizard.plan_save).
SAVE_WRITES_AFTER = ("pair_recorded",)


class Shared:
    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.saves_in_flight = 0
        self.acknowledged: set[str] = set()
        self.problems: list[str] = []


# --------------------------------------------------------------------------------------------
# Server


def start_server(port: int, env: dict[str, str], log: Path) -> subprocess.Popen:
    # Its own process group: SIGKILL takes master and workers.
    return start_gunicorn(port, 3, env, log, start_new_session=True)


def kill(server: subprocess.Popen) -> None:
    os.killpg(server.pid, signal.SIGKILL)
    server.wait()


# --------------------------------------------------------------------------------------------
# Checks (with the server down)


def half_written(database: Path, acknowledged: set[str]) -> list[str]:
    from django.db import connections

    problems = []
    with sqlite3.connect(database) as raw:
        (result,) = raw.execute("PRAGMA integrity_check").fetchone()
        if result != "ok":
            problems.append(f"integrity_check: {result}")
    problems += ruling_problems(acknowledged)
    connections.close_all()
    return problems


def ruling_problems(acknowledged: set[str]) -> list[str]:
    """Every ruling that is not in a state the wizard could have left it in (see the module
    docstring), and every acknowledged save that is not final."""
    from archive import tally
    from rulings import audit
    from rulings.models import AuditEvent, Mode, Ruling, Status, Step

    problems = []
    for check in audit.verify_all():
        problems += [f"ruling {check.uuid}: {p}" for p in check.problems]
    for ruling in Ruling.objects.all():
        where = f"ruling {ruling.uuid} ({ruling.status})"
        steps = list(Step.objects.filter(ruling=ruling).order_by("answered_at", "pk"))
        live = [[s.node_key, s.choice_key] for s in steps if not s.superseded]
        if live != ruling.path:
            problems.append(f"{where}: steps {live} but path {ruling.path}")
        if len(steps) != ruling.revision:
            problems.append(f"{where}: {len(steps)} steps, revision {ruling.revision}")
        actions = list(
            AuditEvent.objects.filter(ruling=ruling)
            .order_by("sequence")
            .values_list("action", flat=True)
        )
        answers = sum(a in ("answered", "answer_changed") for a in actions)
        if answers != len(steps):
            problems.append(f"{where}: {len(steps)} steps but {answers} answer events")
        if not actions or actions[0] != "started":
            problems.append(f"{where}: the log does not start with 'started'")
        if ruling.status == Status.FINAL:
            needed = ["outcome_key", "outcome", "finalised_at"]
            if ruling.mode == Mode.LIVE:  # a practice needs no table context
                needed += ["played_on", "board"]
            missing = [name for name in needed if getattr(ruling, name) in (None, "", {})]
            # The save writes its own last events: 'saved', then the psyche register's entry.
            closing = [a for a in actions if a not in SAVE_WRITES_AFTER]
            if missing or not closing or closing[-1] != "saved":
                problems.append(f"{where}: final without {missing or 'a saved event'}")
    final = {
        str(u) for u in Ruling.objects.filter(status=Status.FINAL).values_list("uuid", flat=True)
    }
    lost = acknowledged - final
    if lost:
        problems.append(f"{len(lost)} acknowledged save(s) lost: {sorted(lost)[:5]}")
    # The statistics tally is written by triggers in the same transactions: a crash that left
    # it counting differently from the rulings would be a half-written save too.
    problems += [f"statistics tally: {problem}" for problem in tally.differences()[:5]]
    return problems


def verify_audit(env: dict[str, str]) -> tuple[bool, str]:
    result = run_verify_audit(env)
    return result.returncode == 0, (result.stdout + result.stderr).strip()[-400:]


# --------------------------------------------------------------------------------------------
# Resuming


def resume_all(drivers: list[Driver]) -> tuple[int, list[str]]:
    """Each unfinished ruling, opened by its own director: the page shows where it stopped;
    then it is answered to its end and saved."""
    from django.db import connections

    from rulings.models import Ruling, Status

    by_user = {f"laad{d.index:02d}": d for d in drivers}
    unfinished = list(
        Ruling.objects.exclude(status=Status.FINAL).select_related("director").order_by("pk")
    )
    connections.close_all()
    problems = []
    for ruling in unfinished:
        driver = by_user[ruling.director.username]
        url = f"/arbitrage/{ruling.uuid}/"
        try:
            page = driver.browser.get(url)
            if ruling.status == Status.DEFERRED:
                if f"/arbitrage/{ruling.uuid}/hervatten/" not in page:
                    problems.append(f"{url}: deferred, but no resume button")
                    continue
                page = driver.browser.follow(driver.post(f"{url}hervatten/", {}))[1]
            form = CHOICE_FORM.search(page)
            if ruling.outcome_key:
                if SAVE.search(page) is None:
                    problems.append(f"{url}: at its outcome, but no save button")
                    continue
            elif form is None or dict(HIDDEN.findall(form.group(2))).get("node") != (
                ruling.current_node_key
            ):
                problems.append(f"{url}: does not show its current question")
                continue
            for _ in range(40):
                form = CHOICE_FORM.search(page)
                if form is None:
                    break
                fields = dict(HIDDEN.findall(form.group(2)))
                fields["choice"] = driver.rng.choice(CHOICE.findall(form.group(2)))
                page = driver.browser.follow(driver.post(form.group(1), fields))[1]
            context = {
                "played_on": "2026-11-03",
                "board": "5",
                "offender_seat": "N",
                "pair_ns": "3",
                "pair_ew": "12",
            }
            driver.browser.follow(driver.post(SAVE.search(page).group(1), context))
        except (FlowError, AttributeError) as error:
            problems.append(f"{url}: could not be resumed: {error!r}")
    return len(unfinished), problems


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--directors", type=int, default=8)
    parser.add_argument("--seconds", type=float, default=3, help="load before each kill")
    parser.add_argument("--deadline", type=float, default=170, help="abort after (seconds)")
    args = parser.parse_args()
    if os.environ.get("DATABASE_URL"):
        print("crashtest: SQLite only (unset DATABASE_URL)")
        return 2

    started = time.monotonic()
    signal.signal(signal.SIGALRM, lambda *_: sys.exit("ABORTED: the crash test overran"))
    signal.alarm(int(args.deadline))
    data_dir = Path(tempfile.mkdtemp(prefix="leidraad-crash-"))
    env = {
        "LEIDRAAD_DATA_DIR": str(data_dir),
        "DEBUG": "false",
        "PYTHONWARNINGS": "ignore:No directory at",
    }
    database = data_dir / "leidraad.sqlite3"
    log = data_dir / "gunicorn.log"
    server = None
    problems: list[str] = []
    try:
        django_setup(env)
        prepare(args.directors)
        port = free_port()
        server = start_server(port, env, log)
        stats, shared = Stats(), Shared()
        drivers = [Driver(i, port, stats, shared) for i in range(args.directors)]
        for driver in drivers:
            login(driver.browser, f"laad{driver.index:02d}")
        crash, stop = Crash(), threading.Event()
        threads = [threading.Thread(target=d.run, args=(crash, stop), daemon=True) for d in drivers]
        for thread in threads:
            thread.start()
        killed_during_save = 0
        for number in range(1, args.rounds + 1):
            time.sleep(args.seconds)
            waited = time.monotonic()
            while shared.saves_in_flight == 0 and time.monotonic() - waited < 5:
                time.sleep(0.001)
            in_flight = shared.saves_in_flight
            crash.set()
            kill(server)
            killed_during_save += in_flight > 0
            found = half_written(database, set(shared.acknowledged))
            ok, output = verify_audit(env)
            if not ok:
                found.append(f"verify_audit: {output}")
            print(
                f"round {number}: SIGKILL with {in_flight} save(s) in flight; "
                f"{len(shared.acknowledged)} saves acknowledged so far; "
                f"{'no problem found' if not found else f'{len(found)} problem(s)'}"
            )
            problems += found
            server = start_server(port, env, log)
            crash.clear()
        stop.set()
        for thread in threads:
            thread.join(timeout=30)
        resumed, resume_problems = resume_all(drivers)
        problems += resume_problems + shared.problems
        kill(server)
        server = None
        problems += half_written(database, set(shared.acknowledged))
        from rulings.models import Ruling, Status

        total = Ruling.objects.count()
        unfinished = Ruling.objects.exclude(status=Status.FINAL).count()
        if unfinished:
            problems.append(f"{unfinished} ruling(s) still unfinished after resuming")
        ok, output = verify_audit(env)
        print(f"verify_audit: {output.splitlines()[-1] if output else ''}")
        if not ok:
            problems.append(f"verify_audit: {output}")
        if killed_during_save == 0:
            problems.append("no kill happened while a save was in flight")
        print(
            f"{args.rounds} crashes ({killed_during_save} during a save), {total} rulings, "
            f"{len(shared.acknowledged)} acknowledged saves kept, {resumed} unfinished "
            f"ruling(s) resumed and saved, {time.monotonic() - started:.0f} s"
        )
        for problem in problems[:30]:
            print(f"FAIL: {problem}")
        print(f"crash test: {'FAILED' if problems else 'passed'}")
        return 1 if problems else 0
    finally:
        if server is not None and server.poll() is None:
            kill(server)
        shutil.rmtree(data_dir, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
