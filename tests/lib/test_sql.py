"""lib.sql: the compare-and-swap writes of a transition store exactly what the ORM would."""

import uuid
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


def test_insert_unless_taken_writes_the_row_and_its_children_at_once(
    ruling, django_assert_num_queries
):
    """A new ruling with its first step and events: on PostgreSQL one statement, elsewhere
    three; the children point at the new row; a taken uuid writes none of them, without an
    error (the database decides which of two first answers makes the ruling)."""
    copy = Ruling.objects.get(pk=ruling.pk)
    copy.pk, copy.uuid = None, uuid.uuid4()
    children = [[_step(copy, 1)], [_event(copy, 1), _event(copy, 2)]]
    with django_assert_num_queries(1 if connection.vendor == "postgresql" else 3):
        assert sql.insert_unless_taken(copy, "uuid", "ruling", children)
    assert copy.pk is not None
    assert copy.pk != ruling.pk
    assert not copy._state.adding
    assert children[0][0].ruling_id == copy.pk
    stored = Ruling.objects.get(uuid=copy.uuid)
    for field in Ruling._meta.concrete_fields:
        if field.name not in {"id", "uuid", "created_at", "updated_at"}:
            assert getattr(stored, field.attname) == getattr(ruling, field.attname), field.name
    assert list(Step.objects.filter(ruling=copy).values_list("order", flat=True)) == [1]
    events = AuditEvent.objects.filter(ruling=copy).order_by("sequence")
    assert [(e.sequence, e.data) for e in events] == [
        (1, {"n": 1, "tekst": "Ä"}),
        (2, {"n": 2, "tekst": "Ä"}),
    ]
    again = Ruling.objects.get(pk=ruling.pk)
    again.pk = None  # the same uuid as ``ruling``
    counts = (Ruling.objects.count(), Step.objects.count(), AuditEvent.objects.count())
    taken = [[_step(again, 1)], [_event(again, 1)]]
    assert not sql.insert_unless_taken(again, "uuid", "ruling", taken)
    assert again.pk is None
    assert (Ruling.objects.count(), Step.objects.count(), AuditEvent.objects.count()) == counts
