"""Consistent online copies of the embedded SQLite database, and restoring one.

SQLite's online backup API copies a consistent snapshot while the app keeps running (WAL
mode lets readers and the backup proceed during writes). PostgreSQL has its own tools.
"""

import sqlite3
from collections.abc import Callable
from pathlib import Path

from django.db import connection

PG_HINT = (
    "This database is PostgreSQL: make backups with pg_dump "
    "(e.g. pg_dump --format=custom --file=leidraad.dump DBNAME) and restore them with pg_restore."
)


class BackupError(Exception):
    pass


Progress = Callable[[int, int], None]


def _require_sqlite() -> sqlite3.Connection:
    if connection.vendor != "sqlite":
        raise BackupError(PG_HINT)
    connection.ensure_connection()
    return connection.connection


def backup(target: Path, progress: Progress | None = None) -> int:
    """Copy the live database to ``target`` (which must not exist); returns its size in bytes."""
    live = _require_sqlite()
    if target.exists():
        raise BackupError(f"{target} already exists; choose a new file name.")
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_name(target.name + ".partial")
    copy = sqlite3.connect(partial)
    try:
        live.backup(copy, pages=256, progress=_pages(progress))
        copy.execute("PRAGMA journal_mode=DELETE")
    finally:
        copy.close()
    # Only a complete copy gets the requested name.
    partial.replace(target)
    return target.stat().st_size


def restore(source: Path, progress: Progress | None = None) -> int:
    """Replace the live database's content with the backup in ``source``; returns the number
    of rulings in it. The file is checked before anything is overwritten."""
    live = _require_sqlite()
    if not source.is_file():
        raise BackupError(f"{source} does not exist.")
    try:
        copy = sqlite3.connect(f"file:{source}?mode=ro", uri=True)
        (integrity,) = copy.execute("PRAGMA integrity_check").fetchone()
        (rulings,) = copy.execute("SELECT count(*) FROM rulings_ruling").fetchone()
    except sqlite3.DatabaseError as error:
        raise BackupError(f"{source} is not a Leidraad backup ({error}).") from None
    if integrity != "ok":
        copy.close()
        raise BackupError(f"{source} is damaged: {integrity}")
    try:
        copy.backup(live, pages=256, progress=_pages(progress))
    finally:
        copy.close()
    return rulings


def _pages(progress: Progress | None):
    if progress is None:
        return None
    return lambda status, remaining, total: progress(total - remaining, total)
