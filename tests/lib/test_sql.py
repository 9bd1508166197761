"""lib.sql: the compare-and-swap write of a transition stores exactly what the ORM would."""

from datetime import timedelta

import pytest
from django.db import connection
from django.utils import timezone

from lib import sql
from rulings.models import AuditEvent, Ruling, Step
from tests.support.rulings import begin_proef


@pytest.fixture
def ruling(proef_tree, club_a, director_a) -> Ruling:
    return begin_proef(club_a, director_a)


def _step(ruling, order):
    return Step(
        ruling=ruling,
        order=order,
        node_key="vraag",
        question={"nl": "Vraag?", "en": "Question?", "help": None},
        choice_key="ja",
        answer={"nl": "Ja", "en": "Yes"},
        citations=[{"key": "64A1"}],
        answered_at=timezone.now(),
    )


def _event(ruling, sequence):
    return AuditEvent(
        ruling=ruling,
        sequence=sequence,
        at=timezone.now(),
        actor=None,
        actor_name="systeem",
        action="viewed",
        data={"n": sequence, "tekst": "Ä"},
        prev_hash="0" * 64,
        hash=f"{sequence:064d}",
    )


def test_the_rows_are_stored_as_save_would_store_them(ruling):
    at = timezone.now()
    later = at + timedelta(minutes=5)
    values = {"path": [["a", "b"]], "outcome": {"title": {"nl": "Ä"}}, "updated_at": later}
    current = {"id": ruling.pk, "audit_sequence": ruling.audit_sequence}
    written, saved = _step(ruling, 8), _step(ruling, 9)
    written.answered_at = saved.answered_at = at
    assert sql.update_then_insert(Ruling, values, current, [[written], []]) == 1
    saved.save()
    stored = list(
        Step.objects.filter(ruling=ruling, order__gte=8)
        .order_by("order")
        .values("node_key", "question", "answer", "citations", "answered_at", "superseded")
    )
    assert stored[0] == stored[1]
    assert stored[0]["question"] == {"nl": "Vraag?", "en": "Question?", "help": None}
    assert stored[0]["answered_at"] == at
    ruling.refresh_from_db()
    assert (ruling.path, ruling.outcome, ruling.updated_at) == (
        [["a", "b"]],
        {"title": {"nl": "Ä"}},
        later,
    )


def test_only_the_matching_row_changes(ruling, club_a, director_a):
    other = begin_proef(club_a, director_a)
    values = {"path": [["a", "b"]]}
    stale = {"id": ruling.pk, "audit_sequence": ruling.audit_sequence + 1}
    assert sql.update_then_insert(Ruling, values, stale, [[], []]) == 0
    current = {"id": ruling.pk, "audit_sequence": ruling.audit_sequence}
    assert sql.update_then_insert(Ruling, values, current, [[], []]) == 1
    ruling.refresh_from_db()
    other.refresh_from_db()
    assert ruling.path == [["a", "b"]]
    assert other.path != [["a", "b"]]


def test_update_then_insert_writes_all_or_nothing(ruling, django_assert_num_queries):
    """The compare-and-swap of a transition with its new rows: on PostgreSQL one statement,
    elsewhere three; nothing inserted when the UPDATE matched no row (one statement)."""
    sequence = ruling.audit_sequence
    values = {"revision": 9, "audit_sequence": sequence + 2}
    statements = 1 if connection.vendor == "postgresql" else 3
    stale = {"id": ruling.pk, "audit_sequence": sequence + 1}
    with django_assert_num_queries(1):
        moved = sql.update_then_insert(
            Ruling, values, stale, [[_step(ruling, 8)], [_event(ruling, 90)]]
        )
    assert moved == 0
    assert not Step.objects.filter(ruling=ruling, order=8).exists()
    assert not AuditEvent.objects.filter(ruling=ruling, sequence=90).exists()
    current = {"id": ruling.pk, "audit_sequence": sequence}
    new = [[_step(ruling, 8)], [_event(ruling, 90), _event(ruling, 91)]]
    with django_assert_num_queries(statements):
        assert sql.update_then_insert(Ruling, values, current, new) == 1
    ruling.refresh_from_db()
    assert (ruling.revision, ruling.audit_sequence) == (9, sequence + 2)
    step = Step.objects.get(ruling=ruling, order=8)
    assert step.question == {"nl": "Vraag?", "en": "Question?", "help": None}
    assert step.superseded is False
    events = AuditEvent.objects.filter(ruling=ruling, sequence__gte=90).order_by("sequence")
    assert [(e.sequence, e.data, e.actor_id) for e in events] == [
        (90, {"n": 90, "tekst": "Ä"}, None),
        (91, {"n": 91, "tekst": "Ä"}, None),
    ]


def test_update_then_insert_with_no_new_rows_only_updates(ruling):
    current = {"id": ruling.pk, "audit_sequence": ruling.audit_sequence}
    assert sql.update_then_insert(Ruling, {"revision": 5}, current, [[], []]) == 1
    ruling.refresh_from_db()
    assert ruling.revision == 5
