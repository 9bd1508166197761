"""The benchmark's own data: schema, shipped laws and trees, people, demo rulings, clones.

Rulings come from ``manage.py seed_demo``, which drives the wizard's functions. That is too slow
for 200,000 rulings within the time budget (a few hundred rulings a second on two busy cores), so
:func:`multiply` clones the seeded base set: each clone is a copy of a seeded ruling with its
steps and audit events, under a new uuid and moved to another moment of the last two years. The
audit chain of every clone is recomputed with ``rulings.audit.compute_hash`` (the hash covers
the ruling's uuid and the event times), so ``verify_audit`` accepts every clone; the benchmark
checks that it does.
"""

# ruff: noqa: S311

from __future__ import annotations

import io
import json
import queue
import random
import threading
import time
import uuid
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta

from django.core.management import call_command
from django.core.management.color import no_style
from django.db import DEFAULT_DB_ALIAS, connections, models, transaction
from django.db.models import Max
from django.utils import timezone

from clubs.models import Club, Membership, Role, User
from rulings import audit
from rulings.models import AuditEvent, LegalBasis, Ruling, Step

CLUB_NAME = "Benchclub"
CLUB_SLUG = "benchclub"
USERNAME = "bench-director"
DAYS = 730
CLONE_BATCH = 1000


def prepare_database() -> float:
    """Create the schema and load the shipped laws, trees and training cases."""
    started = time.perf_counter()
    call_command("migrate", verbosity=0, interactive=False)
    call_command("bootstrap", stdout=io.StringIO())
    return time.perf_counter() - started


def create_people() -> tuple[Club, User]:
    """The club and the director the benchmark acts as (an admin, so every page is open)."""
    club, _ = Club.objects.get_or_create(slug=CLUB_SLUG, defaults={"name": CLUB_NAME})
    user, created = User.objects.get_or_create(
        username=USERNAME, defaults={"first_name": "Bench", "last_name": "Mark"}
    )
    if created:
        user.set_unusable_password()
        user.save()
    for role in (Role.ADMIN, Role.DIRECTOR):
        Membership.objects.get_or_create(user=user, club=club, role=role)
    return club, user


@dataclass(frozen=True)
class Seeded:
    first_pk: int
    last_pk: int
    count: int
    seconds: float


def seed(count: int, club: Club, seed_value: int = 1) -> Seeded:
    """``count`` rulings through ``manage.py seed_demo`` (the wizard's own functions)."""
    before = Ruling.objects.aggregate(m=Max("pk"))["m"] or 0
    started = time.perf_counter()
    call_command(
        "seed_demo",
        "--rulings",
        str(count),
        "--club",
        club.name,
        "--seed",
        str(seed_value),
        stdout=io.StringIO(),
    )
    seconds = time.perf_counter() - started
    after = Ruling.objects.aggregate(m=Max("pk"))["m"] or 0
    return Seeded(before + 1, after, count, seconds)


# --------------------------------------------------------------------------------------------
# Cloning


def _sqlite_datetime(value: datetime | None) -> str | None:
    # What Django's SQLite backend stores for an aware datetime (UTC, naive, str()).
    return None if value is None else str(value.astimezone(UTC).replace(tzinfo=None))


def _sqlite_date(value: date | None) -> str | None:
    return None if value is None else str(value)


def _sqlite_uuid(value: uuid.UUID) -> str:
    return value.hex


def _as_is(value):
    return value


class _Table:
    """Raw multi-row INSERTs for one model, with values prepared the way Django prepares them
    for this database (``Field.get_db_prep_save``): UUIDs, datetimes and JSON per backend.
    Datetimes and dates, prepared for every clone, take a short cut with the same result."""

    def __init__(self, model, connection) -> None:
        self.connection = connection
        sqlite = connection.vendor == "sqlite"
        self.datetime = _sqlite_datetime if sqlite else _as_is
        self.date = _sqlite_date if sqlite else _as_is
        self.uuid = _sqlite_uuid if sqlite else _as_is
        self.fields = list(model._meta.concrete_fields)
        self.index = {field.attname: i for i, field in enumerate(self.fields)}
        qn = connection.ops.quote_name
        columns = ", ".join(qn(field.column) for field in self.fields)
        marks = ", ".join(["%s"] * len(self.fields))
        self.sql = f"INSERT INTO {qn(model._meta.db_table)} ({columns}) VALUES ({marks})"  # noqa: S608
        self.copy_sql = f"COPY {qn(model._meta.db_table)} ({columns}) FROM STDIN"

    def prepared(self, obj) -> list:
        if self.connection.vendor == "postgresql":
            # COPY takes JSON as text: dumped once per seeded row, not once per clone.
            return [
                json.dumps(getattr(obj, field.attname), cls=field.encoder)
                if isinstance(field, models.JSONField)
                else field.get_db_prep_save(getattr(obj, field.attname), self.connection)
                for field in self.fields
            ]
        return [
            field.get_db_prep_save(getattr(obj, field.attname), self.connection)
            for field in self.fields
        ]

    def prep(self, name: str, value):
        return self.fields[self.index[name]].get_db_prep_save(value, self.connection)

    def flush(self, cursor, rows: list[list]) -> None:
        if rows and self.connection.vendor == "postgresql":
            # COPY: several times faster than executemany for wide rows on PostgreSQL.
            with cursor.cursor.copy(self.copy_sql) as copy:
                for row in rows:
                    copy.write_row(row)
        elif rows:
            cursor.executemany(self.sql, rows)


@dataclass
class _Base:
    ruling: Ruling
    row: list
    steps: list[tuple[Step, list]]
    events: list[tuple[AuditEvent, list]]
    basis: list[list] = field(default_factory=list)  # its LegalBasis rows, prepared


@dataclass(frozen=True)
class Cloned:
    rulings: int
    steps: int
    events: int
    seconds: float


def _produce(bases, tables, missing, first_ids, rng, counts):
    """Batches of (ruling rows, step rows, event rows, legal-basis rows) for ``missing``
    clones."""
    rulings_t, steps_t, events_t = tables[Ruling], tables[Step], tables[AuditEvent]
    basis_ix = tables[LegalBasis].index
    next_ruling, next_step, next_event, next_basis = first_ids
    r_ix, s_ix, e_ix = rulings_t.index, steps_t.index, events_t.index
    ev_dt, st_dt, ru_dt, ru_date = (
        events_t.datetime,
        steps_t.datetime,
        rulings_t.datetime,
        rulings_t.date,
    )
    as_uuid = rulings_t.uuid
    now = timezone.now()

    def shifted(value, delta):
        return None if value is None else value + delta

    done = 0
    while done < missing:
        batch = min(CLONE_BATCH, missing - done)
        ruling_rows, step_rows, event_rows, basis_rows = [], [], [], []
        for offset in range(batch):
            base = bases[(done + offset) % len(bases)]
            original = base.ruling
            new_start = now - timedelta(seconds=rng.uniform(3600, DAYS * 86400))
            delta = new_start - original.created_at
            new_uuid = uuid.uuid4()
            ruling_id = next_ruling
            next_ruling += 1

            # The audit chain, recomputed for the new uuid and times.
            prev = audit.GENESIS
            for event, row in base.events:
                at = event.at + delta
                digest = audit.compute_hash(
                    new_uuid, event.sequence, at, event.actor_name, event.action, event.data, prev
                )
                row = list(row)
                row[e_ix["id"]] = next_event
                row[e_ix["ruling_id"]] = ruling_id
                row[e_ix["at"]] = ev_dt(at)
                row[e_ix["prev_hash"]] = prev
                row[e_ix["hash"]] = digest
                event_rows.append(row)
                next_event += 1
                prev = digest
            counts["events"] += len(base.events)

            for step, row in base.steps:
                row = list(row)
                row[s_ix["id"]] = next_step
                row[s_ix["ruling_id"]] = ruling_id
                row[s_ix["answered_at"]] = st_dt(step.answered_at + delta)
                row[s_ix["superseded_at"]] = st_dt(shifted(step.superseded_at, delta))
                step_rows.append(row)
                next_step += 1
            counts["steps"] += len(base.steps)

            for row in base.basis:
                row = list(row)
                row[basis_ix["id"]] = next_basis
                row[basis_ix["ruling_id"]] = ruling_id
                basis_rows.append(row)
                next_basis += 1

            row = list(base.row)
            row[r_ix["id"]] = ruling_id
            row[r_ix["uuid"]] = as_uuid(new_uuid)
            row[r_ix["created_at"]] = ru_dt(original.created_at + delta)
            row[r_ix["updated_at"]] = ru_dt(original.updated_at + delta)
            row[r_ix["finalised_at"]] = ru_dt(shifted(original.finalised_at, delta))
            if original.played_on is not None:
                row[r_ix["played_on"]] = ru_date(timezone.localtime(new_start).date())
            row[r_ix["audit_head"]] = prev if base.events else original.audit_head
            ruling_rows.append(row)
        yield ruling_rows, step_rows, event_rows, basis_rows
        done += batch


def _next_id(model) -> int:
    return (model.objects.aggregate(m=Max("pk"))["m"] or 0) + 1


def multiply(target: int, first_pk: int, last_pk: int, seed_value: int = 2) -> Cloned:
    """Clone the rulings ``first_pk``..``last_pk`` (a seed_demo base set) until the database
    holds ``target`` rulings. Explicit primary keys, a few multi-row INSERTs per batch."""
    started = time.perf_counter()
    missing = target - Ruling.objects.count()
    if missing <= 0:
        return Cloned(0, 0, 0, 0.0)
    connection = connections[DEFAULT_DB_ALIAS]  # the wrapper itself, not the proxy
    rng = random.Random(seed_value)
    models_cloned = (Ruling, Step, AuditEvent, LegalBasis)
    tables = {model: _Table(model, connection) for model in models_cloned}
    rulings_t, steps_t, events_t = tables[Ruling], tables[Step], tables[AuditEvent]
    basis_by: dict[int, list[list]] = {}
    for row in LegalBasis.objects.filter(ruling_id__gte=first_pk, ruling_id__lte=last_pk):
        basis_by.setdefault(row.ruling_id, []).append(tables[LegalBasis].prepared(row))

    base_rulings = list(Ruling.objects.filter(pk__gte=first_pk, pk__lte=last_pk).order_by("pk"))
    steps_by: dict[int, list[Step]] = {}
    for step in Step.objects.filter(ruling_id__gte=first_pk, ruling_id__lte=last_pk):
        steps_by.setdefault(step.ruling_id, []).append(step)
    events_by: dict[int, list[AuditEvent]] = {}
    events = AuditEvent.objects.filter(ruling_id__gte=first_pk, ruling_id__lte=last_pk)
    for event in events.order_by("ruling_id", "sequence"):
        events_by.setdefault(event.ruling_id, []).append(event)
    bases = [
        _Base(
            ruling,
            rulings_t.prepared(ruling),
            [(s, steps_t.prepared(s)) for s in steps_by.get(ruling.pk, [])],
            [(e, events_t.prepared(e)) for e in events_by.get(ruling.pk, [])],
            basis_by.get(ruling.pk, []),
        )
        for ruling in base_rulings
    ]
    if not bases:
        raise RuntimeError("no seeded rulings to clone")

    first_ids = tuple(_next_id(model) for model in models_cloned)
    counts = {"steps": 0, "events": 0}
    produced = _produce(bases, tables, missing, first_ids, rng, counts)
    # Building the rows (mostly hashing) runs in a thread while this one writes the previous
    # batch: both database drivers release the GIL while the database works.
    batches: queue.Queue = queue.Queue(maxsize=2)
    failure: list[BaseException] = []

    def producer() -> None:
        try:
            for batch in produced:
                batches.put(batch)
        except BaseException as error:  # handed to the writing thread
            failure.append(error)
        finally:
            batches.put(None)

    thread = threading.Thread(target=producer, name="bench-clone", daemon=True)
    thread.start()
    while (batch := batches.get()) is not None:
        with transaction.atomic(), connection.cursor() as cursor:
            for table, rows in zip(tables.values(), batch, strict=True):
                table.flush(cursor, rows)
    thread.join()
    if failure:
        raise failure[0]

    # PostgreSQL's sequences do not follow explicit keys (SQLite's AUTOINCREMENT does).
    statements = connection.ops.sequence_reset_sql(no_style(), list(models_cloned))
    if statements:
        with connection.cursor() as cursor:
            for sql in statements:
                cursor.execute(sql)
    if connection.vendor == "postgresql" and not connection.in_atomic_block:
        # (Inside a test's transaction VACUUM cannot run, and there is nothing to plan for.)
        # Autovacuum vacuums and analyses a table after many inserts (PostgreSQL 13+); do it
        # now, so the plans and the visibility map are those of a server that has been running.
        # SQLite is left as a laptop has it: never analysed.
        with connection.cursor() as cursor:
            cursor.execute("VACUUM ANALYZE")
    return Cloned(missing, counts["steps"], counts["events"], time.perf_counter() - started)
