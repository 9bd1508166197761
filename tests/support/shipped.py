"""The shipped laws, trees and training cases in every test database, as ``manage.py
bootstrap`` leaves a real installation.

``load()`` runs the registered loaders (:mod:`lib.shipped`) once per test database, that is
once per test process (``django_db_setup`` in tests/conftest.py; each pytest-xdist worker has
its own database), and keeps a copy of every table they filled in the same database
(``shipped_copy_<table>``, tables Django does not know). Tests run in a transaction rolled back
at their end, so the rows stay for the next one.

A transactional test (``live_server``, ``transactional_db``) ends with a flush that empties
every table Django knows. ``ensure()``, run before every test that uses the database and by the
module-wide worlds, puts the shipped rows back from the copy when they are gone: one
``INSERT … SELECT`` a table.

A test of the loaders themselves starts from empty shipped tables (``empty()``, inside its own
transaction, so the next test has them again).
"""

from __future__ import annotations

import io

from django.apps import apps
from django.core.management.base import OutputWrapper
from django.core.management.color import no_style
from django.db import connection, models, transaction

from lib import shipped as loaders

__all__ = ["SHIPPED_APPS", "empty", "ensure", "load"]

# The apps the loaders write to (and nothing else: a loader reads and writes only these).
SHIPPED_APPS = ("laws", "trees", "training")
COPY_PREFIX = "shipped_copy_"

# Filled by ``load()``: the tables that hold shipped rows, with their models.
_filled: list[type[models.Model]] = []


def _models() -> list[type[models.Model]]:
    return [
        model
        for model in apps.get_models(include_auto_created=True)
        if model._meta.app_label in SHIPPED_APPS and model._meta.managed and not model._meta.proxy
    ]


def _quoted(name: str) -> str:
    return connection.ops.quote_name(name)


def load() -> None:
    """Run every shipped-data loader, then copy the tables they filled."""
    for _name, loader in loaders.loaders():
        loader(OutputWrapper(io.StringIO()))
    _filled.clear()
    with connection.cursor() as cursor:
        for model in _models():
            table = model._meta.db_table
            copy = _quoted(COPY_PREFIX + table)
            cursor.execute(f"DROP TABLE IF EXISTS {copy}")
            cursor.execute(f"CREATE TABLE {copy} AS SELECT * FROM {_quoted(table)}")  # noqa: S608
            if model._base_manager.exists():
                _filled.append(model)


def _present() -> bool:
    # A flush empties every table at once: one filled table answers for all.
    return not _filled or _filled[0]._base_manager.exists()


def ensure() -> None:
    """Put the shipped rows back if a flush took them (one query when they are there)."""
    if _present():
        return
    with transaction.atomic(), connection.cursor() as cursor:
        # Foreign keys are checked at the end of the transaction (Django makes them deferred
        # on SQLite and PostgreSQL), so the table order does not matter.
        for model in _filled:
            table = _quoted(model._meta.db_table)
            copy = _quoted(COPY_PREFIX + model._meta.db_table)
            cursor.execute(f"INSERT INTO {table} SELECT * FROM {copy}")  # noqa: S608
        # PostgreSQL: the next id after the copied ones (SQLite does this itself).
        for statement in connection.ops.sequence_reset_sql(no_style(), _filled):
            cursor.execute(statement)


def empty() -> None:
    """Delete the shipped rows inside the current transaction, for a test of the loaders
    that starts where a new installation does (rolled back with the test)."""
    with connection.cursor() as cursor:
        for model in reversed(_models()):
            cursor.execute(f"DELETE FROM {_quoted(model._meta.db_table)}")  # noqa: S608
