"""Free texts at most so long, in the database: a ruling's notes 4,000 characters, a review's
comment and corrected ruling 4,000 each (issue 35: every edit is copied into the audit trail,
which never forgets).

A trigger rather than a CHECK constraint: it tests a text only when it is written or changed, so
a longer text saved before this migration stays, and its row can still change otherwise (a
review of an old ruling); a CHECK would refuse every later update of such a row, and adding one
on SQLite would copy and check every old row. The lengths are those of ``lib/limits.py`` as
this migration was written, frozen here like all raw SQL; a change is a new migration. The
ruling table's triggers are put back after a table rebuild by ``archive/triggers.py`` (its
part ``_lengths``), like the tally and the text index.
"""

from django.db import migrations

RULING_SQLITE = [
    "CREATE TRIGGER rulings_ruling_notes_length_insert BEFORE INSERT ON rulings_ruling WHEN "
    "length(NEW.notes) > 4000 BEGIN SELECT RAISE(ABORT, 'notes: longer than 4000 characters'); "
    "END",
    "CREATE TRIGGER rulings_ruling_notes_length_update BEFORE UPDATE OF notes ON rulings_ruling "
    "WHEN length(NEW.notes) > 4000 AND NEW.notes IS NOT OLD.notes BEGIN SELECT RAISE(ABORT, "
    "'notes: longer than 4000 characters'); END",
]
DROP_RULING_SQLITE = [
    "DROP TRIGGER IF EXISTS rulings_ruling_notes_length_insert",
    "DROP TRIGGER IF EXISTS rulings_ruling_notes_length_update",
]
RULING_POSTGRESQL = [
    "CREATE FUNCTION rulings_ruling_text_length() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN "
    "IF char_length(NEW.notes) > 4000 AND (TG_OP = 'INSERT' OR NEW.notes IS DISTINCT FROM "
    "OLD.notes) THEN RAISE EXCEPTION 'notes: longer than 4000 characters' USING ERRCODE = "
    "'check_violation'; END IF; RETURN NEW; END $$",
    "CREATE TRIGGER rulings_ruling_text_length BEFORE INSERT OR UPDATE OF notes ON "
    "rulings_ruling FOR EACH ROW EXECUTE FUNCTION rulings_ruling_text_length()",
]
DROP_RULING_POSTGRESQL = [
    "DROP TRIGGER IF EXISTS rulings_ruling_text_length ON rulings_ruling",
    "DROP FUNCTION IF EXISTS rulings_ruling_text_length()",
]
REVIEW_SQLITE = [
    "CREATE TRIGGER archive_review_comment_length_insert BEFORE INSERT ON archive_review WHEN "
    "length(NEW.comment) > 4000 BEGIN SELECT RAISE(ABORT, 'comment: longer than 4000 "
    "characters'); END",
    "CREATE TRIGGER archive_review_comment_length_update BEFORE UPDATE OF comment ON "
    "archive_review WHEN length(NEW.comment) > 4000 AND NEW.comment IS NOT OLD.comment BEGIN "
    "SELECT RAISE(ABORT, 'comment: longer than 4000 characters'); END",
    "CREATE TRIGGER archive_review_corrected_ruling_length_insert BEFORE INSERT ON "
    "archive_review WHEN length(NEW.corrected_ruling) > 4000 BEGIN SELECT RAISE(ABORT, "
    "'corrected_ruling: longer than 4000 characters'); END",
    "CREATE TRIGGER archive_review_corrected_ruling_length_update BEFORE UPDATE OF "
    "corrected_ruling ON archive_review WHEN length(NEW.corrected_ruling) > 4000 AND "
    "NEW.corrected_ruling IS NOT OLD.corrected_ruling BEGIN SELECT RAISE(ABORT, "
    "'corrected_ruling: longer than 4000 characters'); END",
]
DROP_REVIEW_SQLITE = [
    "DROP TRIGGER IF EXISTS archive_review_comment_length_insert",
    "DROP TRIGGER IF EXISTS archive_review_comment_length_update",
    "DROP TRIGGER IF EXISTS archive_review_corrected_ruling_length_insert",
    "DROP TRIGGER IF EXISTS archive_review_corrected_ruling_length_update",
]
REVIEW_POSTGRESQL = [
    "CREATE FUNCTION archive_review_text_length() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN "
    "IF char_length(NEW.comment) > 4000 AND (TG_OP = 'INSERT' OR NEW.comment IS DISTINCT FROM "
    "OLD.comment) THEN RAISE EXCEPTION 'comment: longer than 4000 characters' USING ERRCODE = "
    "'check_violation'; END IF; IF char_length(NEW.corrected_ruling) > 4000 AND (TG_OP = "
    "'INSERT' OR NEW.corrected_ruling IS DISTINCT FROM OLD.corrected_ruling) THEN RAISE "
    "EXCEPTION 'corrected_ruling: longer than 4000 characters' USING ERRCODE = "
    "'check_violation'; END IF; RETURN NEW; END $$",
    "CREATE TRIGGER archive_review_text_length BEFORE INSERT OR UPDATE OF comment, "
    "corrected_ruling ON archive_review FOR EACH ROW EXECUTE FUNCTION "
    "archive_review_text_length()",
]
DROP_REVIEW_POSTGRESQL = [
    "DROP TRIGGER IF EXISTS archive_review_text_length ON archive_review",
    "DROP FUNCTION IF EXISTS archive_review_text_length()",
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
    # Not after rulings' 0006 (whose CHECK constraints rebuild the ruling table on SQLite):
    # archive/triggers.py puts the notes trigger back after such a rebuild, as it does the
    # tally's, and the migration order of the tally stays as it was.
    dependencies = [("archive", "0006_review_text_limits")]

    operations = [
        migrations.RunPython(
            _run(
                {
                    "sqlite": [*RULING_SQLITE, *REVIEW_SQLITE],
                    "postgresql": [*RULING_POSTGRESQL, *REVIEW_POSTGRESQL],
                }
            ),
            _run(
                {
                    "sqlite": [*DROP_RULING_SQLITE, *DROP_REVIEW_SQLITE],
                    "postgresql": [*DROP_RULING_POSTGRESQL, *DROP_REVIEW_POSTGRESQL],
                }
            ),
        )
    ]
