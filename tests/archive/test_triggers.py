"""The tally and text-index triggers survive a rebuild of the ruling table (archive/triggers.py).

Django's SQLite schema editor rebuilds ``rulings_ruling`` for an ``AlterField`` such as a
changed ``null``, and the rebuilt table has no triggers; ``migrate`` puts them back. On
PostgreSQL the same ``AlterField`` is an ``ALTER TABLE`` that keeps them: there the tests check
that a new ruling is counted and found all the same.
"""

from __future__ import annotations

import copy
import io

import pytest
from django.core.management import call_command
from django.db import connection
from django.db.models import Sum

from archive import search, tally, triggers
from archive.models import RulingTally
from rulings.models import Ruling
from tests.support.rulings import make_ruling


def found(text: str) -> set[int]:
    return set(search.matching(Ruling.objects.all(), text).values_list("pk", flat=True))


def counted() -> int:
    return RulingTally.objects.aggregate(n=Sum("count"))["n"] or 0


def alter_notes(*, null: bool) -> None:
    """What a migration's ``AlterField(model_name="ruling", name="notes", ...)`` that changes
    ``null`` does to the database."""
    model_field = Ruling._meta.get_field("notes")
    changed = copy.copy(model_field)
    changed.null = True
    before, after = (model_field, changed) if null else (changed, model_field)
    with connection.schema_editor() as editor:
        editor.alter_field(Ruling, before, after)


@pytest.fixture
def rebuilt(transactional_db):
    """The ruling table as a rebuild-causing migration leaves it; put back afterwards."""
    alter_notes(null=True)
    yield
    alter_notes(null=False)
    triggers.ensure(connection)
    assert triggers.missing(connection) == []


@pytest.mark.django_db
def test_a_migrated_database_has_every_part_and_ensure_then_does_nothing():
    assert triggers.missing(connection) == []
    assert triggers.ensure(connection) == []


@pytest.mark.django_db
def test_the_module_repeats_what_the_migrations_created():
    """A migration that changes a trigger without archive/triggers.py following it fails here:
    each trigger in the database is exactly the statement ensure() would run."""
    statements = [
        s for part in triggers.parts(connection.vendor) for s in part.statements[connection.vendor]
    ]
    if connection.vendor != "sqlite":
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT tgname FROM pg_trigger WHERE tgrelid = 'rulings_ruling'::regclass "
                "AND NOT tgisinternal"
            )
            names = {row[0] for row in cursor.fetchall()}
        for name in names:
            assert any(f"TRIGGER {name} " in s for s in statements), name
        return
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT name, sql FROM sqlite_master "
            "WHERE type = 'trigger' AND tbl_name = 'rulings_ruling'"
        )
        created = dict(cursor.fetchall())
    assert set(created) == {
        n for part in triggers.parts("sqlite") for n in part.names["sqlite"] if ":" not in n
    }
    for name, sql in created.items():
        assert sql.rstrip(";") in [s.rstrip(";") for s in statements], name


def test_after_a_table_rebuild_migrate_puts_the_triggers_back(rebuilt, club_a, director_a):
    before = make_ruling(club_a, director_a, ("ja", "nee"), notes="voor de verbouwing")
    if connection.vendor == "sqlite":
        # The rebuild dropped them (which is why this module exists) ...
        assert "ruling_tally_insert" in triggers.missing(connection)
        assert "ruling_search_insert" in triggers.missing(connection)
        assert tally.differences() != []  # ... so this ruling was not counted
        assert found("verbouwing") == set()  # nor indexed

    out = io.StringIO()
    call_command("migrate", verbosity=1, stdout=out)

    assert triggers.missing(connection) == []
    if connection.vendor == "sqlite":
        assert "Re-created on rulings_ruling" in out.getvalue()
    # What was written while they were missing is counted and indexed after all ...
    assert tally.differences() == []
    assert found("verbouwing") == {before.pk}
    # ... and a new ruling is counted and found by the triggers again.
    after = make_ruling(club_a, director_a, ("nee", "nee"), notes="na de verbouwing zeldzaam")
    assert counted() == 2
    assert tally.differences() == []
    assert found("zeldzaam") == {after.pk}
    assert found("verbouwing") == {before.pk, after.pk}


@pytest.mark.django_db
def test_ensure_creates_again_what_is_missing_and_recounts(club_a, director_a):
    ruling = make_ruling(club_a, director_a, ("ja", "nee"), notes="kwijtgeraakte trigger")
    with connection.cursor() as cursor:
        if connection.vendor == "sqlite":
            cursor.execute("DROP TRIGGER ruling_tally_update")
            cursor.execute("DROP TRIGGER ruling_search_insert")
            gone = ["ruling_search_insert", "ruling_tally_update"]
        else:
            cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")  # no ALTER TABLE with checks pending
            cursor.execute("DROP TRIGGER ruling_tally_update ON rulings_ruling")
            cursor.execute("ALTER TABLE rulings_ruling DROP COLUMN search_vector")
            gone = ["ruling_search_vector", "ruling_tally_update", "search_vector"]
    RulingTally.objects.all().delete()  # as if writes went uncounted meanwhile
    assert triggers.missing(connection) == gone

    assert triggers.ensure(connection) == gone

    assert triggers.missing(connection) == []
    assert counted() == 1
    assert tally.differences() == []
    assert found("kwijtgeraakte") == {ruling.pk}
