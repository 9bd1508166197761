"""A training case's situation and explanation at most 20,000 characters per language, in the database.

Refused by the database too, not only by the forms and the transfer bundle reader (issue 35:
every edit is copied into the audit trail, which never forgets). A trigger rather than a CHECK
constraint: it tests a text only when it is written or changed, so a longer text saved before
this migration stays, and the row can still change otherwise (a review of an old ruling); and
SQLite adds a trigger without rebuilding the table. The lengths are those of ``lib/limits.py``
as this migration was written, frozen here like all raw SQL; a change is a new migration.
"""

from django.db import migrations

SQLITE = [
    "CREATE TRIGGER training_trainingcase_situation_nl_length_insert BEFORE INSERT ON "
    "training_trainingcase WHEN length(NEW.situation_nl) > 20000 BEGIN SELECT RAISE(ABORT, "
    "'situation_nl: longer than 20000 characters'); END",
    "CREATE TRIGGER training_trainingcase_situation_nl_length_update BEFORE UPDATE OF "
    "situation_nl ON training_trainingcase WHEN length(NEW.situation_nl) > 20000 AND "
    "NEW.situation_nl IS NOT OLD.situation_nl BEGIN SELECT RAISE(ABORT, 'situation_nl: longer "
    "than 20000 characters'); END",
    "CREATE TRIGGER training_trainingcase_situation_en_length_insert BEFORE INSERT ON "
    "training_trainingcase WHEN length(NEW.situation_en) > 20000 BEGIN SELECT RAISE(ABORT, "
    "'situation_en: longer than 20000 characters'); END",
    "CREATE TRIGGER training_trainingcase_situation_en_length_update BEFORE UPDATE OF "
    "situation_en ON training_trainingcase WHEN length(NEW.situation_en) > 20000 AND "
    "NEW.situation_en IS NOT OLD.situation_en BEGIN SELECT RAISE(ABORT, 'situation_en: longer "
    "than 20000 characters'); END",
    "CREATE TRIGGER training_trainingcase_explanation_nl_length_insert BEFORE INSERT ON "
    "training_trainingcase WHEN length(NEW.explanation_nl) > 20000 BEGIN SELECT RAISE(ABORT, "
    "'explanation_nl: longer than 20000 characters'); END",
    "CREATE TRIGGER training_trainingcase_explanation_nl_length_update BEFORE UPDATE OF "
    "explanation_nl ON training_trainingcase WHEN length(NEW.explanation_nl) > 20000 AND "
    "NEW.explanation_nl IS NOT OLD.explanation_nl BEGIN SELECT RAISE(ABORT, 'explanation_nl: "
    "longer than 20000 characters'); END",
    "CREATE TRIGGER training_trainingcase_explanation_en_length_insert BEFORE INSERT ON "
    "training_trainingcase WHEN length(NEW.explanation_en) > 20000 BEGIN SELECT RAISE(ABORT, "
    "'explanation_en: longer than 20000 characters'); END",
    "CREATE TRIGGER training_trainingcase_explanation_en_length_update BEFORE UPDATE OF "
    "explanation_en ON training_trainingcase WHEN length(NEW.explanation_en) > 20000 AND "
    "NEW.explanation_en IS NOT OLD.explanation_en BEGIN SELECT RAISE(ABORT, 'explanation_en: "
    "longer than 20000 characters'); END",
]
DROP_SQLITE = [
    "DROP TRIGGER IF EXISTS training_trainingcase_situation_nl_length_insert",
    "DROP TRIGGER IF EXISTS training_trainingcase_situation_nl_length_update",
    "DROP TRIGGER IF EXISTS training_trainingcase_situation_en_length_insert",
    "DROP TRIGGER IF EXISTS training_trainingcase_situation_en_length_update",
    "DROP TRIGGER IF EXISTS training_trainingcase_explanation_nl_length_insert",
    "DROP TRIGGER IF EXISTS training_trainingcase_explanation_nl_length_update",
    "DROP TRIGGER IF EXISTS training_trainingcase_explanation_en_length_insert",
    "DROP TRIGGER IF EXISTS training_trainingcase_explanation_en_length_update",
]
POSTGRESQL = [
    "CREATE FUNCTION training_trainingcase_text_length() RETURNS trigger LANGUAGE plpgsql AS $$ "
    "BEGIN IF char_length(NEW.situation_nl) > 20000 AND (TG_OP = 'INSERT' OR NEW.situation_nl IS "
    "DISTINCT FROM OLD.situation_nl) THEN RAISE EXCEPTION 'situation_nl: longer than 20000 "
    "characters' USING ERRCODE = 'check_violation'; END IF; IF char_length(NEW.situation_en) > "
    "20000 AND (TG_OP = 'INSERT' OR NEW.situation_en IS DISTINCT FROM OLD.situation_en) THEN "
    "RAISE EXCEPTION 'situation_en: longer than 20000 characters' USING ERRCODE = "
    "'check_violation'; END IF; IF char_length(NEW.explanation_nl) > 20000 AND (TG_OP = 'INSERT' "
    "OR NEW.explanation_nl IS DISTINCT FROM OLD.explanation_nl) THEN RAISE EXCEPTION "
    "'explanation_nl: longer than 20000 characters' USING ERRCODE = 'check_violation'; END IF; "
    "IF char_length(NEW.explanation_en) > 20000 AND (TG_OP = 'INSERT' OR NEW.explanation_en IS "
    "DISTINCT FROM OLD.explanation_en) THEN RAISE EXCEPTION 'explanation_en: longer than 20000 "
    "characters' USING ERRCODE = 'check_violation'; END IF; RETURN NEW; END $$",
    "CREATE TRIGGER training_trainingcase_text_length BEFORE INSERT OR UPDATE OF situation_nl, "
    "situation_en, explanation_nl, explanation_en ON training_trainingcase FOR EACH ROW EXECUTE "
    "FUNCTION training_trainingcase_text_length()",
]
DROP_POSTGRESQL = [
    "DROP TRIGGER IF EXISTS training_trainingcase_text_length ON training_trainingcase",
    "DROP FUNCTION IF EXISTS training_trainingcase_text_length()",
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
    dependencies = [("training", "0002_case_text_limits")]

    operations = [
        migrations.RunPython(
            _run({"sqlite": SQLITE, "postgresql": POSTGRESQL}),
            _run({"sqlite": DROP_SQLITE, "postgresql": DROP_POSTGRESQL}),
        )
    ]
