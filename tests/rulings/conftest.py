"""Fixtures for the rulings tests: small trees in the database."""

import io
from types import SimpleNamespace

import pytest
from django.db import connection

from laws.loading import bootstrap_laws
from laws.models import Tree
from laws.tree_loading import load_trees

from .factories import make_tree


@pytest.fixture
def proef_tree(db):
    return make_tree()


@pytest.fixture
def shipped(db) -> dict[str, Tree]:
    """The shipped trees (laws/trees/*.yaml) on the seed law text, loaded as bootstrap does."""
    bootstrap_laws(io.StringIO())
    load_trees(stdout=io.StringIO())
    return {tree.slug: tree for tree in Tree.objects.select_related("edition")}


@pytest.fixture
def statements_editor():
    """Stands in for a schema editor in a migration's RunPython: runs each statement in the
    test's transaction (Django's SQLite schema editor cannot be opened inside one)."""
    with connection.cursor() as cursor:
        yield SimpleNamespace(
            connection=connection, execute=lambda sql, params: cursor.execute(sql)
        )
