"""Faster free-text search at 200,000 rulings (make bench), frozen like 0003:

- SQLite: the FTS5 table is rebuilt with prefix indexes for two and three letters, so a short
  or common word ("de", typed as the start of a word) is matched from the index instead of by
  walking every word that starts with it.
- PostgreSQL: the searched text becomes a stored generated ``tsvector`` column with its own GIN
  index (replacing the expression index of 0003). The archive then filters on the ruling row
  itself (``search_vector @@ query``), which the planner can combine with the club and mode
  filters and the capped count; checking a stored vector is cheap even where it scans rows.
"""

import importlib

from django.db import migrations

_0003 = importlib.import_module("archive.migrations.0003_free_text_search")

PREFIXED = (
    "CREATE VIRTUAL TABLE rulings_ruling_search USING fts5(body, content='', "
    "tokenize='unicode61 remove_diacritics 2', prefix='2 3')"
)
SQLITE = [*_0003.DROP_SQLITE, PREFIXED, *_0003.SQLITE[1:]]
DROP_SQLITE = [*_0003.DROP_SQLITE, *_0003.SQLITE]

DOCUMENT = (
    "notes || ' ' || event || ' ' || coalesce(outcome #>> '{title,nl}', '') || ' ' || "
    "coalesce(outcome #>> '{title,en}', '') || ' ' || coalesce(outcome #>> '{ruling,nl}', '') "
    "|| ' ' || coalesce(outcome #>> '{ruling,en}', '') || ' ' || "
    "coalesce(outcome #>> '{announce,nl}', '') || ' ' || coalesce(outcome #>> '{announce,en}', '')"
)
POSTGRESQL = [
    "ALTER TABLE rulings_ruling ADD COLUMN search_vector tsvector "
    f"GENERATED ALWAYS AS (to_tsvector('simple', {DOCUMENT})) STORED",
    "CREATE INDEX ruling_search_vector ON rulings_ruling USING gin (search_vector)",
    *_0003.DROP_POSTGRESQL,
]
DROP_POSTGRESQL = [
    "DROP INDEX IF EXISTS ruling_search_vector",
    "ALTER TABLE rulings_ruling DROP COLUMN IF EXISTS search_vector",
    *_0003.POSTGRESQL,
]


def _run(statements: dict[str, list[str]]):
    def run(apps, schema_editor) -> None:
        vendor = schema_editor.connection.vendor
        if vendor not in statements:
            raise NotImplementedError(f"{__name__} for {vendor}")
        for statement in statements[vendor]:
            schema_editor.execute(statement, params=None)

    return run


class Migration(migrations.Migration):
    dependencies = [("archive", "0003_free_text_search")]

    operations = [
        migrations.RunPython(
            _run({"sqlite": SQLITE, "postgresql": POSTGRESQL}),
            _run({"sqlite": DROP_SQLITE, "postgresql": DROP_POSTGRESQL}),
        )
    ]
