"""Put the tally and text-index triggers back on ``rulings_ruling`` after every ``migrate``.

The statistics tally (``archive/tally.py``) and the free-text index (``archive/search.py``) are
kept by the database itself: triggers on ``rulings_ruling`` (and on PostgreSQL a generated
column). Django's SQLite schema editor changes a table it cannot ``ALTER`` by building a new
one, copying the rows and dropping the old table, and the triggers go with the old table: an
``AlterField`` that touches what SQLite sees (null, type, a unique flag), or a CheckConstraint,
would leave a database that silently stops counting and finding new rulings.

So :func:`ensure` runs after every ``migrate`` (``ArchiveConfig.ready`` connects it to
``post_migrate``). It asks the database which triggers exist; when all are there it does
nothing (one query). When one is missing it creates them again from the statements frozen in
the migrations that made them, and recounts the tally and refills the text index from the
rulings, because rows written while the triggers were missing were neither counted nor indexed.
The migrations stay as they are; this module only repeats their latest state. A migration that
changes a trigger must also be named in ``_TALLY``/``_SEARCH`` below:
``tests/archive/test_triggers.py`` compares what a fresh ``migrate`` created with what this
module would create.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from types import ModuleType

from django.db import transaction
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.migrations.recorder import MigrationRecorder

TABLE = "rulings_ruling"


def _migration(name: str) -> ModuleType:
    return importlib.import_module(f"archive.migrations.{name}")


@dataclass(frozen=True)
class Part:
    """One database-kept structure on the ruling table, as its latest migration left it."""

    migration: str
    # What exists when the part is whole: triggers, on SQLite the FTS5 table ("table:…"), on
    # PostgreSQL the generated column and its index.
    names: dict[str, frozenset[str]]
    # Statements that drop whatever is left of it, then create it and fill it from the rulings.
    statements: dict[str, list[str]]


def _tally() -> Part:
    module = _migration("0002_tally_triggers")
    return Part(
        migration=module.__name__.rsplit(".", 1)[1],
        names={
            "sqlite": frozenset(
                {"ruling_tally_insert", "ruling_tally_delete", "ruling_tally_update"}
            ),
            "postgresql": frozenset({"ruling_tally_insert_delete", "ruling_tally_update"}),
        },
        statements={
            "sqlite": [*module.DROP_SQLITE, *module.SQLITE],
            "postgresql": [*module.DROP_POSTGRESQL, *module.POSTGRESQL],
        },
    )


def _search() -> dict[str, Part]:
    sqlite = _migration("0005_search_skips_rulings_without_text")
    postgresql = _migration("0004_search_prefixes_and_vector")
    return {
        # 0005's statements start by dropping the triggers and the FTS5 table, then refill it.
        "sqlite": Part(
            migration=sqlite.__name__.rsplit(".", 1)[1],
            names={
                "sqlite": frozenset(
                    {
                        "ruling_search_insert",
                        "ruling_search_delete",
                        "ruling_search_update",
                        "table:rulings_ruling_search",
                    }
                )
            },
            statements={"sqlite": list(sqlite.SQLITE)},
        ),
        # A stored generated column and its GIN index: the column fills itself when added.
        "postgresql": Part(
            migration=postgresql.__name__.rsplit(".", 1)[1],
            names={"postgresql": frozenset({"search_vector", "ruling_search_vector"})},
            statements={
                "postgresql": [
                    "DROP INDEX IF EXISTS ruling_search_vector",
                    "ALTER TABLE rulings_ruling DROP COLUMN IF EXISTS search_vector",
                    *postgresql.POSTGRESQL[:2],
                ]
            },
        ),
    }


def _lengths() -> Part:
    """The notes' length check (a trigger that refuses notes too long when they are written
    or changed): only its part on the ruling table; the review table is never rebuilt with
    it."""
    module = _migration("0007_text_length_triggers")
    return Part(
        migration=module.__name__.rsplit(".", 1)[1],
        names={
            "sqlite": frozenset(
                {"rulings_ruling_notes_length_insert", "rulings_ruling_notes_length_update"}
            ),
            "postgresql": frozenset({"rulings_ruling_text_length"}),
        },
        statements={
            "sqlite": [*module.DROP_RULING_SQLITE, *module.RULING_SQLITE],
            "postgresql": [*module.DROP_RULING_POSTGRESQL, *module.RULING_POSTGRESQL],
        },
    )


def parts(vendor: str) -> list[Part]:
    return [_tally(), _search()[vendor], _lengths()]


def present(connection: BaseDatabaseWrapper) -> set[str]:
    """The names of the triggers (and on PostgreSQL the search column and its index) that the
    ruling table has now."""
    with connection.cursor() as cursor:
        if connection.vendor == "sqlite":
            cursor.execute(
                "SELECT name FROM sqlite_master WHERE type = 'trigger' AND tbl_name = %s "
                "UNION ALL SELECT 'table:' || name FROM sqlite_master "
                "WHERE type = 'table' AND name = 'rulings_ruling_search'",
                [TABLE],
            )
        else:
            cursor.execute(
                "SELECT tgname FROM pg_trigger WHERE tgrelid = %s::regclass AND NOT tgisinternal "
                "UNION ALL SELECT attname FROM pg_attribute WHERE attrelid = %s::regclass "
                "AND attname = 'search_vector' AND NOT attisdropped "
                "UNION ALL SELECT indexname FROM pg_indexes WHERE tablename = %s "
                "AND indexname = 'ruling_search_vector'",
                [TABLE, TABLE, TABLE],
            )
        return {row[0] for row in cursor.fetchall()}


def missing(connection: BaseDatabaseWrapper) -> list[str]:
    """What should be on the ruling table and is not (empty when all is there)."""
    have = present(connection)
    wanted: set[str] = set()
    for part in parts(connection.vendor):
        wanted |= part.names[connection.vendor]
    return sorted(wanted - have)


def _migrated(connection: BaseDatabaseWrapper, vendor_parts: list[Part]) -> bool:
    recorder = MigrationRecorder(connection)
    if not recorder.has_table():
        return False
    applied = recorder.applied_migrations()
    return all(("archive", part.migration) in applied for part in vendor_parts)


def ensure(connection: BaseDatabaseWrapper) -> list[str]:
    """Create again whatever part of the triggers is missing, in one transaction; returns what
    was missing. Does nothing before the archive's migrations have made them (a partial
    ``migrate``, or one that unapplies them)."""
    vendor_parts = parts(connection.vendor)
    if not _migrated(connection, vendor_parts):
        return []
    gone = missing(connection)
    if not gone:
        return []
    with transaction.atomic(using=connection.alias), connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            # PostgreSQL refuses ALTER TABLE while deferred foreign-key checks are pending.
            cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
        for part in vendor_parts:
            if part.names[connection.vendor] & set(gone):
                for statement in part.statements[connection.vendor]:
                    cursor.execute(statement)
    return gone


def on_post_migrate(sender: object, using: str, verbosity: int = 1, **kwargs: object) -> None:
    """``post_migrate`` receiver (connected once, for the archive app): see the module."""
    from django.db import connections

    gone = ensure(connections[using])
    stdout = kwargs.get("stdout")
    if gone and verbosity >= 1 and stdout is not None and hasattr(stdout, "write"):
        stdout.write(f"  Re-created on {TABLE}: {', '.join(gone)} (counts and index rebuilt)\n")
