"""manage.py bootstrap: the loaders the apps registered, in order, after the migrations with
--migrate (make run)."""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command

from lib import shipped

CALLED: list[str] = []


def record(stdout) -> None:
    CALLED.append("loaded")
    stdout.write("loader ran")


@pytest.fixture
def loaders(monkeypatch):
    """One loader of our own instead of the shipped data's (their loaders have their tests)."""
    CALLED.clear()
    monkeypatch.setattr(shipped, "_loaders", {"ours": (1, record)})
    return CALLED


def test_the_shipped_data_loads_laws_then_trees_then_cases():
    from laws.loading import bootstrap_laws
    from training.files import bootstrap_cases
    from trees.loading import bootstrap_trees

    assert shipped.loaders() == [
        ("laws", bootstrap_laws),
        ("trees", bootstrap_trees),
        ("training", bootstrap_cases),
    ]


def test_a_loader_runs_at_its_place_and_registering_again_replaces_it(monkeypatch):
    monkeypatch.setattr(shipped, "_loaders", {})
    shipped.register("late", 30, record)
    shipped.register("early", 10, print)
    shipped.register("late", 5, record)
    assert shipped.loaders() == [("late", record), ("early", print)]


@pytest.mark.django_db
def test_migrate_first_when_asked(loaders):
    out = io.StringIO()
    call_command("bootstrap", "--migrate", stdout=out)
    text = out.getvalue()
    assert "No migrations to apply." in text
    assert text.index("No migrations to apply.") < text.index("loader ran")
    assert loaders == ["loaded"]


@pytest.mark.django_db
def test_without_the_flag_only_the_loaders_run(loaders):
    out = io.StringIO()
    call_command("bootstrap", stdout=out)
    assert "migrations" not in out.getvalue().lower()
    assert "Bootstrap complete." in out.getvalue()
    assert loaders == ["loaded"]
