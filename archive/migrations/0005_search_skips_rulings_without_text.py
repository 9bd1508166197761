"""SQLite: the free-text index holds only rulings that have text to find, frozen like 0003/0004.

A ruling is stored at its first answer, before it has notes, an event or an outcome. The
triggers of 0003 gave every such ruling an FTS5 document with no words, on every first answer
(make bench: a fifth of the ruling's INSERT and its commit). A ruling now has a document once
its notes, event or outcome are filled in; the update and delete triggers remove a document
only where one was written, as a contentless FTS5 table needs. The index is rebuilt so that
existing rulings follow the same rule. PostgreSQL (a generated column, 0004) is unchanged.
"""

import importlib

from django.db import migrations

_0003 = importlib.import_module("archive.migrations.0003_free_text_search")
_0004 = importlib.import_module("archive.migrations.0004_search_prefixes_and_vector")


def _body(row: str) -> str:
    fields = [
        f"coalesce(json_extract({row}.outcome, '$.{name}'), '')"
        for name in ("title.nl", "title.en", "ruling.nl", "ruling.en", "announce.nl", "announce.en")
    ]
    return " || ' ' || ".join([f"{row}.notes", f"{row}.event", *fields])


def _has_text(row: str) -> str:
    return f"({row}.notes != '' OR {row}.event != '' OR {row}.outcome != '{{}}')"


_ADD = "INSERT INTO rulings_ruling_search(rowid, body)"
_REMOVE = "INSERT INTO rulings_ruling_search(rulings_ruling_search, rowid, body)"

SQLITE = [
    *_0003.DROP_SQLITE,
    _0004.PREFIXED,
    f"{_ADD} SELECT id, {_body('rulings_ruling')} FROM rulings_ruling "
    f"WHERE {_has_text('rulings_ruling')}",
    "CREATE TRIGGER ruling_search_insert AFTER INSERT ON rulings_ruling "
    f"WHEN {_has_text('NEW')} BEGIN {_ADD} VALUES (NEW.id, {_body('NEW')}); END",
    "CREATE TRIGGER ruling_search_delete AFTER DELETE ON rulings_ruling "
    f"WHEN {_has_text('OLD')} BEGIN {_REMOVE} VALUES ('delete', OLD.id, {_body('OLD')}); END",
    "CREATE TRIGGER ruling_search_update AFTER UPDATE ON rulings_ruling WHEN OLD.notes IS NOT "
    "NEW.notes OR OLD.event IS NOT NEW.event OR OLD.outcome IS NOT NEW.outcome BEGIN "
    f"{_REMOVE} SELECT 'delete', OLD.id, {_body('OLD')} WHERE {_has_text('OLD')}; "
    f"{_ADD} SELECT NEW.id, {_body('NEW')} WHERE {_has_text('NEW')}; END",
]
DROP_SQLITE = _0004.SQLITE


def _sqlite_only(statements: list[str]):
    def run(apps, schema_editor) -> None:
        if schema_editor.connection.vendor != "sqlite":
            return  # PostgreSQL keeps 0004's generated column
        for statement in statements:
            schema_editor.execute(statement, params=None)

    return run


class Migration(migrations.Migration):
    dependencies = [("archive", "0004_search_prefixes_and_vector")]

    operations = [migrations.RunPython(_sqlite_only(SQLITE), _sqlite_only(DROP_SQLITE))]
