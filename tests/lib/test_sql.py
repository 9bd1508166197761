"""lib.sql and clubs.access (get_by_member, memberships): the once-compiled statements store
and read exactly what the ORM would."""

import uuid
from datetime import timedelta

import pytest
from django.db import IntegrityError, connection, transaction
from django.http import Http404
from django.test import RequestFactory
from django.utils import timezone

from clubs.access import get_by_member, memberships
from clubs.models import Club, Membership, Role
from lib import sql
from rulings.models import AuditEvent, Ruling, Step
from tests.support.rulings import begin_proef


@pytest.fixture
def ruling(proef_tree, club_a, director_a) -> Ruling:
    return begin_proef(club_a, director_a)


def test_insert_stores_what_save_would(ruling):
    at = timezone.now()
    fields = {
        "ruling": ruling,
        "node_key": "vraag",
        "question": {"nl": "Vraag?", "en": "Question?"},
        "choice_key": "ja",
        "answer": {"nl": "Ja"},
        "citations": [{"key": "64A1"}],
        "answered_at": at,
    }
    sql.insert([Step(order=8, **fields), Step(order=9, superseded=True, **fields)])
    Step(order=10, **fields).save()
    stored = list(
        Step.objects.filter(ruling=ruling, order__gte=8)
        .order_by("order")
        .values("node_key", "question", "citations", "answered_at", "superseded")
    )
    assert stored[0] == {**stored[2], "superseded": False}
    assert stored[1]["superseded"] is True
    assert stored[0]["question"] == {"nl": "Vraag?", "en": "Question?"}
    assert stored[0]["answered_at"] == at


def test_insert_of_nothing_writes_nothing(ruling):
    before = AuditEvent.objects.count()
    sql.insert([])
    assert AuditEvent.objects.count() == before


def test_update_changes_only_the_matching_row(ruling, club_a, director_a):
    other = begin_proef(club_a, director_a)
    later = timezone.now() + timedelta(minutes=5)
    values = {"path": [["a", "b"]], "outcome": {"title": {"nl": "Ä"}}, "updated_at": later}
    wrong = sql.update(Ruling, values, id=ruling.pk, audit_sequence=ruling.audit_sequence + 1)
    assert wrong == 0
    assert sql.update(Ruling, values, id=ruling.pk, audit_sequence=ruling.audit_sequence) == 1
    ruling.refresh_from_db()
    other.refresh_from_db()
    assert (ruling.path, ruling.outcome, ruling.updated_at) == (
        [["a", "b"]],
        {"title": {"nl": "Ä"}},
        later,
    )
    assert other.path != [["a", "b"]]


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


def test_get_by_member_reads_the_same_ruling_as_the_orm(ruling, director_a, director_b):
    request = RequestFactory().get("/")
    request.user = director_a
    found = get_by_member(request, Ruling, "uuid", ruling.uuid)
    expected = Ruling.objects.get(pk=ruling.pk)
    for field in Ruling._meta.concrete_fields:
        assert getattr(found, field.attname) == getattr(expected, field.attname), field.name
    request.user = director_b  # another club's member: as if it did not exist
    with pytest.raises(Http404):
        get_by_member(request, Ruling, "uuid", ruling.uuid)
    request.user = director_a
    with pytest.raises(Http404):
        get_by_member(request, Ruling, "uuid", uuid.uuid4())


def test_insert_one_sets_the_key_and_stores_what_save_would(ruling, club_a, director_a):
    copy = Ruling.objects.get(pk=ruling.pk)
    copy.pk, copy.uuid = None, uuid.uuid4()
    sql.insert_one(copy)
    assert copy.pk is not None
    assert copy.pk != ruling.pk
    assert not copy._state.adding
    stored = Ruling.objects.get(uuid=copy.uuid)
    assert stored.pk == copy.pk
    for field in Ruling._meta.concrete_fields:
        if field.name not in {"id", "uuid", "created_at", "updated_at"}:
            assert getattr(stored, field.attname) == getattr(ruling, field.attname), field.name


def test_insert_with_children_writes_the_row_and_its_children_at_once(
    ruling, django_assert_num_queries
):
    """A new ruling with its first step and events: on PostgreSQL one statement, elsewhere
    three; the children point at the new row; a taken uuid writes none of them."""
    copy = Ruling.objects.get(pk=ruling.pk)
    copy.pk, copy.uuid = None, uuid.uuid4()
    children = [[_step(copy, 1)], [_event(copy, 1), _event(copy, 2)]]
    with django_assert_num_queries(1 if connection.vendor == "postgresql" else 3):
        sql.insert_with_children(copy, "ruling", children)
    assert copy.pk is not None
    assert copy.pk != ruling.pk
    assert not copy._state.adding
    assert children[0][0].ruling_id == copy.pk
    assert list(Step.objects.filter(ruling=copy).values_list("order", flat=True)) == [1]
    events = AuditEvent.objects.filter(ruling=copy).order_by("sequence")
    assert [(e.sequence, e.data) for e in events] == [
        (1, {"n": 1, "tekst": "Ä"}),
        (2, {"n": 2, "tekst": "Ä"}),
    ]
    again = Ruling.objects.get(pk=ruling.pk)
    again.pk = None  # the same uuid as ``ruling``
    steps_before, events_before = Step.objects.count(), AuditEvent.objects.count()
    with pytest.raises(IntegrityError), transaction.atomic():
        sql.insert_with_children(again, "ruling", [[_step(again, 1)], [_event(again, 1)]])
    assert (Step.objects.count(), AuditEvent.objects.count()) == (steps_before, events_before)


def test_from_row_converts_as_the_orm_does(ruling):
    with connection.cursor() as cursor:
        whole_row = f"SELECT {sql.columns(Ruling)} FROM {sql.table(Ruling)} WHERE id = %s"  # noqa: S608
        cursor.execute(whole_row, [ruling.pk])
        row = cursor.fetchone()
    found = sql.from_row(Ruling, row)
    expected = Ruling.objects.get(pk=ruling.pk)
    for field in Ruling._meta.concrete_fields:
        assert getattr(found, field.attname) == getattr(expected, field.attname), field.name
    assert timezone.is_aware(found.created_at)  # SQLite hands back a naive datetime
    assert isinstance(found.path, list)  # JSON decoded


def test_memberships_are_those_the_orm_reads(director_a, admin_a, club_a, club_b):
    Membership.objects.create(user=director_a, club=club_b, role=Role.REVIEWER)
    for user in (director_a, admin_a):
        request = RequestFactory().get("/")
        request.user = user
        found = memberships(request)
        expected = list(Membership.objects.filter(user=user).select_related("club").order_by("id"))
        assert [(m.pk, m.role, m.club_id) for m in found] == [
            (m.pk, m.role, m.club_id) for m in expected
        ]
        for mine, theirs in zip(found, expected, strict=True):
            for field in Club._meta.concrete_fields:
                assert getattr(mine.club, field.attname) == getattr(theirs.club, field.attname)
    assert {m.club.slug for m in memberships(request)} == {club_a.slug}  # admin_a: one club
