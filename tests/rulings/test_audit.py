"""The hash-chained audit log: appending, verifying, tampering and verify_audit."""

from datetime import UTC, datetime, timedelta, timezone
from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from django.db import connection

from rulings import audit
from rulings.models import AuditEvent, Ruling
from tests.support.audit import append


def new_ruling(club, director, **extra) -> Ruling:
    return Ruling.objects.create(
        club=club,
        director=director,
        tree_slug="proef",
        tree_title="Proef",
        edition_code="1997",
        tree_version="v1",
        current_node_key="onbedoeld",
        **extra,
    )


@pytest.fixture
def ruling(club_a, director_a) -> Ruling:
    return new_ruling(club_a, director_a)


@pytest.fixture
def chained(ruling, director_a) -> Ruling:
    append(ruling, audit.Action.STARTED, director_a, {"tree": "proef"})
    append(ruling, audit.Action.ANSWERED, director_a, {"step": 1, "choice": "ja"})
    append(ruling, audit.Action.SAVED, None, {"outcome": "straf"})
    return ruling


def raw(sql: str, params: list) -> None:
    table = AuditEvent._meta.db_table
    with connection.cursor() as cursor:
        cursor.execute(sql.format(table=table), params)


def test_it_chains_events_with_sequence_and_hash(chained, director_a):
    events = list(chained.audit_events.order_by("sequence"))
    assert [e.sequence for e in events] == [1, 2, 3]
    assert events[0].prev_hash == audit.GENESIS
    assert events[1].prev_hash == events[0].hash
    assert events[2].prev_hash == events[1].hash
    assert events[0].actor == director_a
    assert events[0].actor_name == "anna"
    assert events[2].actor is None
    assert events[2].actor_name == audit.SYSTEM
    recomputed = audit.compute_hash(
        chained.uuid,
        2,
        events[1].at,
        "anna",
        "answered",
        {"step": 1, "choice": "ja"},
        events[0].hash,
    )
    assert events[1].hash == recomputed
    chained.refresh_from_db()
    assert (chained.audit_sequence, chained.audit_head) == (3, events[2].hash)
    assert audit.verify(chained) == []


def test_the_hash_covers_every_field(ruling):
    at = datetime(2024, 5, 1, 20, 15, tzinfo=UTC)
    base = (ruling.uuid, 1, at, "anna", "answered", {"choice": "ja"}, audit.GENESIS)
    reference = audit.compute_hash(*base)
    variants = [
        ("00000000-0000-0000-0000-000000000000", *base[1:]),
        (base[0], 2, *base[2:]),
        (*base[:2], at + timedelta(microseconds=1), *base[3:]),
        (*base[:3], "bert", *base[4:]),
        (*base[:4], "saved", *base[5:]),
        (*base[:5], {"choice": "nee"}, base[6]),
        (*base[:6], "f" * 64),
    ]
    assert len({audit.compute_hash(*variant) for variant in variants} | {reference}) == 8


def test_the_time_zone_of_the_timestamp_does_not_matter(ruling, director_a):
    amsterdam = timezone(timedelta(hours=2))
    append(ruling, "answered", director_a, {}, at=datetime(2024, 5, 1, 22, 0, tzinfo=amsterdam))
    event = ruling.audit_events.get()
    assert event.at == datetime(2024, 5, 1, 20, 0, tzinfo=UTC)
    assert audit.verify(ruling) == []


def test_data_is_stored_as_json_and_still_verifies(ruling, director_a):
    data = {"played_on": datetime(2024, 5, 1, tzinfo=UTC).date(), "seats": ("N", "E"), "ü": "é"}
    event = append(ruling, "context_edited", director_a, data)
    assert event.data == {"played_on": "2024-05-01", "seats": ["N", "E"], "ü": "é"}
    assert audit.verify(ruling) == []


def test_the_orm_refuses_to_change_or_delete_events(chained):
    event = chained.audit_events.first()
    event.action = "forged"
    with pytest.raises(PermissionError):
        event.save()
    with pytest.raises(PermissionError):
        event.delete()
    with pytest.raises(PermissionError):
        AuditEvent.objects.filter(ruling=chained).update(action="forged")
    with pytest.raises(PermissionError):
        AuditEvent.objects.filter(ruling=chained).delete()
    assert list(chained.audit_events.values_list("action", flat=True)) == [
        "started",
        "answered",
        "saved",
    ]


def test_append_follows_a_head_moved_by_someone_else(chained, director_a):
    stale = Ruling.objects.get(pk=chained.pk)
    append(chained, "viewed", director_a, {})
    assert stale.audit_sequence == 3
    event = append(stale, "exported", director_a, {})
    assert event.sequence == 5
    assert audit.verify(chained) == []


def test_changed_data_is_detected(chained):
    raw(
        "UPDATE {table} SET data = %s WHERE ruling_id = %s AND sequence = 2",
        ['{"step": 1, "choice": "nee"}', chained.pk],
    )
    assert audit.verify(chained) == ["event 2 (answered): content changed (hash does not match)"]


def test_a_changed_actor_or_time_is_detected(chained):
    raw(
        "UPDATE {table} SET actor_name = %s WHERE ruling_id = %s AND sequence = 1",
        ["bert", chained.pk],
    )
    event3 = chained.audit_events.get(sequence=3)
    raw(
        "UPDATE {table} SET at = %s WHERE ruling_id = %s AND sequence = 3",
        [event3.at - timedelta(hours=1), chained.pk],
    )
    problems = audit.verify(chained)
    assert problems == [
        "event 1 (started): content changed (hash does not match)",
        "event 3 (saved): content changed (hash does not match)",
    ]


def test_a_rehashed_event_still_breaks_the_link_to_the_next(chained):
    # A forger who recomputes the hash of the event they changed breaks the next link instead.
    first = chained.audit_events.get(sequence=1)
    forged = audit.compute_hash(
        chained.uuid, 1, first.at, "anna", "started", {"tree": "andere"}, audit.GENESIS
    )
    raw(
        "UPDATE {table} SET data = %s, hash = %s WHERE ruling_id = %s AND sequence = 1",
        ['{"tree": "andere"}', forged, chained.pk],
    )
    assert audit.verify(chained) == [
        "event 2: prev_hash does not match the hash of the event before it"
    ]


def test_a_deleted_event_is_detected(chained):
    raw("DELETE FROM {table} WHERE ruling_id = %s AND sequence = 2", [chained.pk])
    problems = audit.verify(chained)
    assert problems[0] == "event 3: events 2–2 missing"
    assert "event 3: prev_hash does not match the hash of the event before it" in problems


def test_a_deleted_tail_is_detected_by_the_head(chained):
    raw("DELETE FROM {table} WHERE ruling_id = %s AND sequence = 3", [chained.pk])
    (problem,) = audit.verify(chained)
    assert problem.startswith("head: the ruling records 3 event(s)")
    assert "the log ends at event 2" in problem


def test_an_event_written_past_the_chain_is_detected(chained, director_a):
    AuditEvent.objects.create(
        ruling=chained,
        sequence=4,
        at=datetime.now(UTC),
        actor=director_a,
        actor_name="anna",
        action="answered",
        data={},
        prev_hash="0" * 64,
        hash="1" * 64,
    )
    problems = audit.verify(chained)
    assert "event 4: prev_hash does not match the hash of the event before it" in problems
    assert "event 4 (answered): content changed (hash does not match)" in problems
    assert any(p.startswith("head: the ruling records 3 event(s)") for p in problems)


def test_a_ruling_without_events_is_intact(ruling):
    assert audit.verify(ruling) == []


def test_verify_all_streams_every_ruling_across_chunks(monkeypatch, club_a, director_a, chained):
    monkeypatch.setattr(audit, "CHUNK", 2)
    others = [new_ruling(club_a, director_a) for _ in range(4)]
    for index, other in enumerate(others):
        for step in range(index + 1):
            append(other, "answered", director_a, {"step": step})
    raw(
        "UPDATE {table} SET action = %s WHERE ruling_id = %s AND sequence = 2",
        ["saved", others[2].pk],
    )
    results = {check.pk: check for check in audit.verify_all()}
    assert set(results) == {chained.pk, *(o.pk for o in others)}
    assert results[chained.pk].events == 3
    assert results[chained.pk].problems == []
    assert [results[o.pk].events for o in others] == [1, 2, 3, 4]
    assert results[others[2].pk].problems == [
        "event 2 (saved): content changed (hash does not match)"
    ]
    assert all(results[o.pk].problems == [] for o in others if o != others[2])


def test_verify_all_reads_a_constant_number_of_queries(
    club_a, director_a, django_assert_max_num_queries
):
    for _ in range(30):
        ruling = new_ruling(club_a, director_a)
        append(ruling, "answered", director_a, {})
    with django_assert_max_num_queries(2):
        checks = list(audit.verify_all())
    assert len(checks) == 30


# --- manage.py verify_audit -------------------------------------------------------------------


def test_verify_audit_reports_an_intact_log(chained):
    out = StringIO()
    call_command("verify_audit", stdout=out, stderr=StringIO())
    assert "Audit log intact: 1 rulings, 3 events checked" in out.getvalue()


def test_verify_audit_exits_1_naming_each_break(chained, club_a, director_a):
    other = new_ruling(club_a, director_a)
    append(other, "started", director_a, {})
    raw(
        "UPDATE {table} SET data = %s WHERE ruling_id = %s AND sequence = 1",
        ['{"x": 1}', chained.pk],
    )
    raw("DELETE FROM {table} WHERE ruling_id = %s", [other.pk])
    err = StringIO()
    with pytest.raises(CommandError) as excinfo:
        call_command("verify_audit", stdout=StringIO(), stderr=err)
    assert excinfo.value.returncode == 1
    assert "Audit log BROKEN: 2 problem(s) in 2 of 2 rulings" in str(excinfo.value)
    lines = err.getvalue().splitlines()
    assert (
        f"ruling {chained.uuid}: event 1 (started): content changed (hash does not match)" in lines
    )
    assert any(line.startswith(f"ruling {other.uuid}: head:") for line in lines)


def test_verify_audit_checks_one_ruling(chained, club_a, director_a):
    other = new_ruling(club_a, director_a)
    append(other, "started", director_a, {})
    raw("DELETE FROM {table} WHERE ruling_id = %s", [other.pk])
    out = StringIO()
    call_command("verify_audit", "--ruling", str(chained.uuid), stdout=out)
    assert "1 rulings, 3 events" in out.getvalue()
    with pytest.raises(CommandError):
        call_command(
            "verify_audit", "--ruling", str(other.uuid), stdout=StringIO(), stderr=StringIO()
        )


def test_verify_audit_refuses_an_unknown_ruling(db):
    with pytest.raises(CommandError, match="no ruling with uuid"):
        call_command("verify_audit", "--ruling", "not-a-uuid")
