"""Migrations of the rulings app whose SQL is frozen in the file (0004: the club and director
columns without indexes of their own), run on the real test database."""

import importlib

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from archive.models import RulingTally
from rulings.models import Ruling
from tests.support.world import begin

MIGRATION = importlib.import_module(
    "rulings.migrations.0004_ruling_club_director_without_own_index"
)


def ruling_indexes() -> dict[str, list[str]]:
    with connection.cursor() as cursor:
        constraints = connection.introspection.get_constraints(cursor, Ruling._meta.db_table)
    return {name: c["columns"] for name, c in constraints.items() if c["index"]}


@pytest.mark.django_db
def test_club_and_director_are_found_through_the_composite_indexes_only():
    columns = list(ruling_indexes().values())
    assert ["club_id"] not in columns
    assert ["director_id"] not in columns
    assert any(c[0] == "club_id" for c in columns)
    assert any(c[0] == "director_id" for c in columns)


@pytest.mark.django_db
def test_the_triggers_survive_the_migration(club_a, director_a, shipped):
    """0004 is SQL, not an AlterField, which on SQLite rebuilds the table without its
    triggers: a new ruling is still counted by the tally trigger. (This says something only
    because the test database gets the triggers first, as every installation does.)"""
    executor = MigrationExecutor(connection)
    plan = [
        m.app_label + "." + m.name
        for m, _ in executor.migration_plan(executor.loader.graph.leaf_nodes(), clean_start=True)
    ]
    assert plan.index("archive.0002_tally_triggers") < plan.index(
        "rulings.0004_ruling_club_director_without_own_index"
    )
    begin(club_a, director_a)
    assert RulingTally.objects.filter(club=club_a).count() == 1


@pytest.mark.django_db
def test_the_frozen_sql_drops_and_recreates_the_indexes():
    with connection.cursor() as cursor:
        for statement in MIGRATION.CREATE:
            cursor.execute(statement)
        assert ["club_id"] in ruling_indexes().values()
        assert ["director_id"] in ruling_indexes().values()
        for statement in MIGRATION.DROP:
            cursor.execute(statement)
    assert ["club_id"] not in ruling_indexes().values()
