"""Load the shipped laws, trees and cases once per test process, then copy their rows.

``bootstrap_laws`` + ``load_trees`` take about half a second per test (reading and validating
every YAML file) and write the same rows every time. ``load_once(name, build)`` runs ``build``
for real the first time (in that test's transaction, like before) and records the rows it
added; a later test with the same starting point gets those rows inserted again (same
primary keys, same values; the INSERT statements and their values prepared once, when
recorded; columns set at saving time, ``auto_now``, get the time of the copy), which takes
a few milliseconds.

The copy is only used when it is exact, otherwise ``build`` simply runs every time:

- the starting point must match: the recording is keyed by ``name`` and by the row count of
  every table of the apps the shipped data lives in (``SHIPPED_APPS``; the loaders read and
  write nothing else) before ``build`` ran;
- ``build`` may only add rows, to tables of those apps that were empty before;
- every foreign key in the recorded rows must point into the recorded rows (never to a club or
  user the test made, whose id differs between tests on PostgreSQL).

The loaders themselves stay tested: their own tests call them directly, and the first test
of each process that needs the shipped data runs them. ``build`` must not have effects
outside the database that later tests rely on.
"""

from __future__ import annotations

import io
import os
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime

from django.apps import apps
from django.core.management.color import no_style
from django.db import connection, models, transaction

from laws.loading import bootstrap_laws
from tests.support.factories import make_tree
from training.files import load_cases
from trees.loading import load_trees
from trees.models import Tree

Row = tuple[object, ...]


@dataclass(frozen=True)
class Recording:
    tables: list[tuple[type[models.Model], list[str], list[Row]]]
    # Per table: the INSERT statement and its rows as the database takes them (converted
    # once, when recorded), with the columns that are set at saving time (auto_now).
    inserts: list[tuple[str, list[Row], list[tuple[int, models.Field]]]]


SHIPPED_APPS = ("laws", "trees", "training")

# RECORDED_CHECK=1: never copy; run ``build`` every time and assert it wrote the same rows.
CHECK = os.environ.get("RECORDED_CHECK") == "1"

# (name, row counts of SHIPPED_APPS before) -> the rows ``build`` added, or None when they
# cannot be copied.
_recordings: dict[tuple[str, tuple[int, ...]], Recording | None] = {}


def _models() -> list[type[models.Model]]:
    return [
        model
        for model in apps.get_models(include_auto_created=True)
        if model._meta.managed and not model._meta.proxy
    ]


def _table(model: type[models.Model]) -> str:
    return connection.ops.quote_name(model._meta.db_table)


def _counts(all_models: list[type[models.Model]]) -> tuple[int, ...]:
    # One query for all tables (their rows, as ``_base_manager.count()`` counts them): 38
    # separate counts took longer than the copy itself.
    counts = [f"(SELECT COUNT(*) FROM {_table(model)})" for model in all_models]  # noqa: S608
    with connection.cursor() as cursor:
        cursor.execute("SELECT " + ", ".join(counts))
        return tuple(cursor.fetchone())


def _shipped(all_models: list[type[models.Model]], counts: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(
        count
        for model, count in zip(all_models, counts, strict=True)
        if model._meta.app_label in SHIPPED_APPS
    )


def _record(
    all_models: list[type[models.Model]], before: tuple[int, ...], after: tuple[int, ...]
) -> Recording | None:
    grown = [
        (model, was)
        for model, was, now in zip(all_models, before, after, strict=True)
        if now != was
    ]
    if any(was != 0 or model._meta.app_label not in SHIPPED_APPS for model, was in grown):
        return None  # rows added to a table that had rows, or outside the shipped apps
    tables = []
    keys: dict[type[models.Model], set[object]] = {}
    for model, _was in grown:
        names = [field.attname for field in model._meta.concrete_fields]
        rows = list(model._base_manager.order_by("pk").values_list(*names))
        tables.append((model, names, rows))
        keys[model] = {row[names.index(model._meta.pk.attname)] for row in rows}
    for model, names, rows in tables:
        for field in model._meta.concrete_fields:
            if not field.is_relation:
                continue
            target = field.related_model._meta.concrete_model
            index = names.index(field.attname)
            known = keys.get(target, set())
            if any(row[index] is not None and row[index] not in known for row in rows):
                return None  # points to a row the test made itself
    return Recording(tables, [_insert(model, names, rows) for model, names, rows in tables])


def _insert(
    model: type[models.Model], names: list[str], rows: list[Row]
) -> tuple[str, list[Row], list[tuple[int, models.Field]]]:
    """What ``bulk_create`` would send for these rows, prepared once: building the model
    instances and compiling the INSERTs for every copy made it take 0.2 s instead of 0.03 s."""
    # The rows were read as every stored field in order (_record): the whole row.
    fields = list(model._meta.concrete_fields)
    assert names == [field.attname for field in fields]
    # auto_now / auto_now_add: set to the moment of saving, as bulk_create's pre_save does.
    stamped = [
        (index, field)
        for index, field in enumerate(fields)
        if getattr(field, "auto_now", False) or getattr(field, "auto_now_add", False)
    ]
    marks = ", ".join(["%s"] * len(fields))
    # Quoted names from the model, values as parameters.
    columns = ", ".join(connection.ops.quote_name(field.column) for field in fields)
    statement = f"INSERT INTO {_table(model)} ({columns}) VALUES ({marks})"  # noqa: S608
    prepared = [
        tuple(
            field.get_db_prep_save(value, connection)
            for field, value in zip(fields, row, strict=True)
        )
        for row in rows
    ]
    return statement, prepared, stamped


def _replay(recording: Recording) -> None:
    with transaction.atomic():  # foreign keys are checked at the end, in any table order
        with connection.cursor() as cursor:
            for statement, rows, stamped in recording.inserts:
                if stamped:
                    now = {
                        index: field.get_db_prep_save(
                            field.pre_save(field.model(), add=True), connection
                        )
                        for index, field in stamped
                    }
                    rows = [
                        tuple(now.get(index, value) for index, value in enumerate(row))
                        for row in rows
                    ]
                cursor.executemany(statement, rows)
        reset = connection.ops.sequence_reset_sql(
            no_style(), [model for model, _names, _rows in recording.tables]
        )
        if reset:  # PostgreSQL: the next id after the copied ones (SQLite does this itself)
            with connection.cursor() as cursor:
                for sql in reset:
                    cursor.execute(sql)


def load_once(name: str, build: Callable[[], object]) -> None:
    """Run ``build`` (which loads shipped data into the database), or copy what it wrote the
    last time it ran in this process from the same starting point."""
    all_models = _models()
    before = _counts(all_models)
    key = (name, _shipped(all_models, before))
    if key in _recordings:
        recording = _recordings[key]
        if recording is not None and not CHECK:
            _replay(recording)
            return
        build()
        if recording is not None:  # CHECK: the real load must write exactly the recording
            again = _record(all_models, before, _counts(all_models))
            assert again is not None
            assert _comparable(again) == _comparable(recording), _difference(again, recording)
        return
    build()
    _recordings[key] = _record(all_models, before, _counts(all_models))


def _timeless(row: Row) -> Row:
    # The copy keeps the recorded load times (imported_at, loaded_at): a load a moment earlier.
    return tuple("<time>" if isinstance(value, datetime) else value for value in row)


def _comparable(recording: Recording) -> list[object]:
    return [
        (model.__name__, names, [_timeless(row) for row in rows])
        for model, names, rows in recording.tables
    ]


def _difference(again: Recording, recording: Recording) -> str:
    for (model, names, rows), (_m, _n, old) in zip(again.tables, recording.tables, strict=False):
        for row, was in zip(rows, old, strict=False):
            if _timeless(row) != _timeless(was):
                changed = [(n, a, b) for n, a, b in zip(names, was, row, strict=True) if a != b]
                return f"copy is not exact: {model.__name__} {changed}"
    return "copy is not exact: other tables or row counts"


# --- The shipped data, as the fixtures load it -----------------------------------------------


def shipped_laws() -> None:
    """The shipped editions (``bootstrap_laws``)."""
    load_once("laws", lambda: bootstrap_laws(io.StringIO()))


def shipped_laws_and_trees() -> None:
    """The shipped editions and trees (``bootstrap_laws`` then ``load_trees``)."""
    load_once(
        "laws+trees", lambda: (bootstrap_laws(io.StringIO()), load_trees(stdout=io.StringIO()))
    )


def shipped_cases() -> None:
    """The shipped training cases (``load_cases``)."""
    load_once("cases", load_cases)


def proef_tree() -> Tree:
    """The small ``proef`` tree (``tests.support.factories.make_tree``), built once per process
    and copied after that: the archive, review and transfer tests make it for nearly every
    test."""
    load_once("proef", make_tree)
    return Tree.objects.get(slug="proef")
