"""Crash safety: ``scripts/crashtest.py`` kills gunicorn with SIGKILL in the middle of saves,
restarts it and checks that nothing is half-written, nothing acknowledged is lost and every
unfinished ruling resumes. Here it runs in a short form (one crash, during a save, with 4
directors; ``make crashtest`` runs the long form), and its checker is shown to catch the damage
it looks for."""

from __future__ import annotations

import importlib
import os
import subprocess
import sys
import uuid
from datetime import date
from pathlib import Path

import pytest
from django.db import connection

from rulings import audit
from rulings.models import AuditEvent, Ruling, Status, Step
from tests.support.world import PATH, answer_all, begin

ROOT = Path(__file__).resolve().parent.parent.parent
SCRIPT = ROOT / "scripts" / "crashtest.py"


@pytest.fixture(scope="module")
def crashtest():
    sys.path.insert(0, str(SCRIPT.parent))
    try:
        yield importlib.import_module("crashtest")
    finally:
        sys.path.remove(str(SCRIPT.parent))


@pytest.mark.slow  # a gunicorn killed and restarted: make test-slow and .ci/run run it
def test_sigkill_during_saves_leaves_nothing_half_written():
    env = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}  # SQLite in a temp dir
    result = subprocess.run(
        [sys.executable, str(SCRIPT), "--rounds", "1", "--directors", "4", "--seconds", "1"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=150,
    )
    print(result.stdout)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    assert "crash test: passed" in result.stdout
    assert "1 crashes (1 during a save)" in result.stdout


def test_the_checker_finds_half_written_rulings(crashtest, world, db):
    """What the crash test would report: a final ruling without its board, a step without
    its audit event, a changed event, an acknowledged save that is not final."""
    anna = world.users["director_a"]
    assert crashtest.ruling_problems({str(world.final.uuid)}) == []

    no_board = answer_all(begin(world.club_a, anna), PATH[1:], anna)
    Ruling.objects.filter(pk=no_board.pk).update(
        status=Status.FINAL, played_on=date(2026, 3, 3), finalised_at=no_board.updated_at
    )
    silent_step = begin(world.club_a, anna)
    Step.objects.create(
        ruling=silent_step,
        order=2,
        node_key=silent_step.current_node_key,
        choice_key=PATH[1],
        answered_at=silent_step.updated_at,
    )
    tampered = begin(world.club_a, anna)
    event = AuditEvent.objects.filter(ruling=tampered).last()
    with connection.cursor() as cursor:  # the ORM refuses to change an event
        cursor.execute(
            "UPDATE rulings_auditevent SET data = %s WHERE id = %s", ['{"choice": "ja"}', event.pk]
        )
    lost = str(uuid.uuid4())

    problems = "\n".join(crashtest.ruling_problems({lost}))
    assert f"ruling {no_board.uuid} (final): final without ['board']" in problems
    assert f"ruling {silent_step.uuid} (in_progress): 2 steps but 1 answer events" in problems
    assert f"ruling {tampered.uuid}: event {event.sequence}" in problems
    assert "1 acknowledged save(s) lost" in problems
    assert audit.verify(world.final) == []
