"""The archive's free-text index on ``rulings_ruling`` (see ``archive/search.py``): an FTS5
table fed by triggers on SQLite, a GIN expression index on PostgreSQL.

The SQL is frozen here, as it stood when this migration was written; ``archive/search.py``
queries the same expression (``tests/archive/test_search.py`` checks they agree). A change to
the index is a new migration.
"""

from django.db import migrations

SQLITE = ["CREATE VIRTUAL TABLE rulings_ruling_search USING fts5(body, content='', tokenize='unicode61 "
 "remove_diacritics 2')",
 "INSERT INTO rulings_ruling_search(rowid, body) SELECT id, notes || ' ' || event || ' ' || "
 "coalesce(json_extract(outcome, '$.title.nl'), '') || ' ' || coalesce(json_extract(outcome, "
 "'$.title.en'), '') || ' ' || coalesce(json_extract(outcome, '$.ruling.nl'), '') || ' ' || "
 "coalesce(json_extract(outcome, '$.ruling.en'), '') || ' ' || coalesce(json_extract(outcome, "
 "'$.announce.nl'), '') || ' ' || coalesce(json_extract(outcome, '$.announce.en'), '') FROM "
 'rulings_ruling',
 'CREATE TRIGGER ruling_search_insert AFTER INSERT ON rulings_ruling BEGIN INSERT INTO '
 "rulings_ruling_search(rowid, body) VALUES (NEW.id, NEW.notes || ' ' || NEW.event || ' ' || "
 "coalesce(json_extract(NEW.outcome, '$.title.nl'), '') || ' ' || "
 "coalesce(json_extract(NEW.outcome, '$.title.en'), '') || ' ' || "
 "coalesce(json_extract(NEW.outcome, '$.ruling.nl'), '') || ' ' || "
 "coalesce(json_extract(NEW.outcome, '$.ruling.en'), '') || ' ' || "
 "coalesce(json_extract(NEW.outcome, '$.announce.nl'), '') || ' ' || "
 "coalesce(json_extract(NEW.outcome, '$.announce.en'), '')); END",
 'CREATE TRIGGER ruling_search_delete AFTER DELETE ON rulings_ruling BEGIN INSERT INTO '
 "rulings_ruling_search(rulings_ruling_search, rowid, body) VALUES ('delete', OLD.id, "
 "OLD.notes || ' ' || OLD.event || ' ' || coalesce(json_extract(OLD.outcome, '$.title.nl'), "
 "'') || ' ' || coalesce(json_extract(OLD.outcome, '$.title.en'), '') || ' ' || "
 "coalesce(json_extract(OLD.outcome, '$.ruling.nl'), '') || ' ' || "
 "coalesce(json_extract(OLD.outcome, '$.ruling.en'), '') || ' ' || "
 "coalesce(json_extract(OLD.outcome, '$.announce.nl'), '') || ' ' || "
 "coalesce(json_extract(OLD.outcome, '$.announce.en'), '')); END",
 'CREATE TRIGGER ruling_search_update AFTER UPDATE ON rulings_ruling WHEN OLD.notes IS NOT '
 'NEW.notes OR OLD.event IS NOT NEW.event OR OLD.outcome IS NOT NEW.outcome BEGIN INSERT INTO '
 "rulings_ruling_search(rulings_ruling_search, rowid, body) VALUES ('delete', OLD.id, "
 "OLD.notes || ' ' || OLD.event || ' ' || coalesce(json_extract(OLD.outcome, '$.title.nl'), "
 "'') || ' ' || coalesce(json_extract(OLD.outcome, '$.title.en'), '') || ' ' || "
 "coalesce(json_extract(OLD.outcome, '$.ruling.nl'), '') || ' ' || "
 "coalesce(json_extract(OLD.outcome, '$.ruling.en'), '') || ' ' || "
 "coalesce(json_extract(OLD.outcome, '$.announce.nl'), '') || ' ' || "
 "coalesce(json_extract(OLD.outcome, '$.announce.en'), '')); INSERT INTO "
 "rulings_ruling_search(rowid, body) VALUES (NEW.id, NEW.notes || ' ' || NEW.event || ' ' || "
 "coalesce(json_extract(NEW.outcome, '$.title.nl'), '') || ' ' || "
 "coalesce(json_extract(NEW.outcome, '$.title.en'), '') || ' ' || "
 "coalesce(json_extract(NEW.outcome, '$.ruling.nl'), '') || ' ' || "
 "coalesce(json_extract(NEW.outcome, '$.ruling.en'), '') || ' ' || "
 "coalesce(json_extract(NEW.outcome, '$.announce.nl'), '') || ' ' || "
 "coalesce(json_extract(NEW.outcome, '$.announce.en'), '')); END"]
POSTGRESQL = ["CREATE INDEX ruling_search ON rulings_ruling USING gin (to_tsvector('simple', notes || ' ' "
 "|| event || ' ' || coalesce(outcome #>> '{title,nl}', '') || ' ' || coalesce(outcome #>> "
 "'{title,en}', '') || ' ' || coalesce(outcome #>> '{ruling,nl}', '') || ' ' || "
 "coalesce(outcome #>> '{ruling,en}', '') || ' ' || coalesce(outcome #>> '{announce,nl}', '') "
 "|| ' ' || coalesce(outcome #>> '{announce,en}', '')))"]
DROP_SQLITE = ['DROP TRIGGER IF EXISTS ruling_search_insert',
 'DROP TRIGGER IF EXISTS ruling_search_delete',
 'DROP TRIGGER IF EXISTS ruling_search_update',
 'DROP TABLE IF EXISTS rulings_ruling_search']
DROP_POSTGRESQL = ['DROP INDEX IF EXISTS ruling_search']


def _run(statements: dict[str, list[str]]):
    def run(apps, schema_editor) -> None:
        vendor = schema_editor.connection.vendor
        if vendor not in statements:
            raise NotImplementedError(f"{__name__} for {vendor}")
        for statement in statements[vendor]:
            schema_editor.execute(statement, params=None)

    return run


class Migration(migrations.Migration):
    dependencies = [("archive", "0002_tally_triggers")]

    operations = [
        migrations.RunPython(
            _run({"sqlite": SQLITE, "postgresql": POSTGRESQL}),
            _run({"sqlite": DROP_SQLITE, "postgresql": DROP_POSTGRESQL}),
        )
    ]
