"""Backups: a consistent online copy of SQLite, and a restore that finds every ruling."""

import sqlite3

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from rulings.models import Ruling


def make_rulings(club, director, count: int) -> list[str]:
    rulings = [
        Ruling(
            club=club,
            director=director,
            tree_slug="verzaking",
            tree_title="Verzaking",
            edition_code="2017",
            tree_version="v1",
            current_node_key="start",
            board=n + 1,
        )
        for n in range(count)
    ]
    return [str(r.uuid) for r in Ruling.objects.bulk_create(rulings)]


# Committed data (transaction=True): SQLite's backup API cannot copy a shared-cache in-memory
# test database while this connection holds an open write transaction; it retries forever.
@pytest.mark.django_db(transaction=True)
@pytest.mark.database("sqlite")
def test_backup_and_restore_bring_back_every_ruling(tmp_path, club_a, director_a, capsys):
    uuids = make_rulings(club_a, director_a, 25)
    target = tmp_path / "backup.sqlite3"
    call_command("backup", out=target)
    assert "Backup written" in capsys.readouterr().out
    with sqlite3.connect(target) as copy:
        assert copy.execute("SELECT count(*) FROM rulings_ruling").fetchone()[0] == 25
        assert copy.execute("PRAGMA integrity_check").fetchone()[0] == "ok"

    Ruling.objects.all().delete()
    make_rulings(club_a, director_a, 3)  # made after the backup: gone after the restore
    call_command("restore", str(target), yes=True)
    assert sorted(str(u) for u in Ruling.objects.values_list("uuid", flat=True)) == sorted(uuids)


@pytest.mark.database("sqlite")
def test_backup_refuses_to_overwrite_and_restore_refuses_junk(tmp_path, db):
    existing = tmp_path / "old.sqlite3"
    existing.write_text("keep me")
    with pytest.raises(CommandError, match="already exists") as error:
        call_command("backup", out=existing)
    assert error.value.returncode == 2
    assert existing.read_text() == "keep me"

    junk = tmp_path / "junk.sqlite3"
    junk.write_bytes(b"not a database at all" * 100)
    with pytest.raises(CommandError, match="not a Leidraad backup"):
        call_command("restore", str(junk), yes=True)


@pytest.mark.database("postgresql")
def test_on_postgresql_backup_points_to_pg_dump(tmp_path, db):
    with pytest.raises(CommandError, match="pg_dump") as error:
        call_command("backup", out=tmp_path / "x")
    assert error.value.returncode == 2
    assert not (tmp_path / "x").exists()
