"""manage.py bootstrap: the loaders in order, after the migrations with --migrate (make run)."""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command

from clubs.management.commands import bootstrap

CALLED: list[str] = []


def record(stdout) -> None:
    CALLED.append("loaded")
    stdout.write("loader ran")


@pytest.fixture
def loaders(monkeypatch):
    """One loader of our own instead of the shipped data's (their loaders have their tests)."""
    CALLED.clear()
    monkeypatch.setattr(bootstrap, "LOADERS", ["tests.clubs.test_bootstrap:record"])
    return CALLED


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
