"""Database triggers that keep ``archive_rulingtally`` (see ``archive.models.RulingTally``).

The SQL is frozen here, as it stood when this migration was written: a migration must create
the same schema whenever it runs, whatever later code says. A change to the triggers is a new
migration. ``tests/archive/test_stats.py`` checks that these triggers keep the tally right.
"""

from django.db import migrations

SQLITE = ['DELETE FROM archive_rulingtally',
 'INSERT INTO archive_rulingtally (club_id, mode, status, tree_slug, edition_code, '
 'outcome_key, month, director_id, cited_articles, review_verdict, appeal_status, count) '
 'SELECT club_id, mode, status, tree_slug, edition_code, outcome_key, '
 "coalesce(substr(rulings_ruling.played_on, 1, 7), ''), director_id, cited_articles, "
 'review_verdict, appeal_status, COUNT(*) FROM rulings_ruling GROUP BY club_id, mode, status, '
 "tree_slug, edition_code, outcome_key, coalesce(substr(rulings_ruling.played_on, 1, 7), ''), "
 'director_id, cited_articles, review_verdict, appeal_status',
 'CREATE TRIGGER ruling_tally_insert AFTER INSERT ON rulings_ruling BEGIN INSERT INTO '
 'archive_rulingtally (club_id, mode, status, tree_slug, edition_code, outcome_key, month, '
 'director_id, cited_articles, review_verdict, appeal_status, count) VALUES (NEW.club_id, '
 'NEW.mode, NEW.status, NEW.tree_slug, NEW.edition_code, NEW.outcome_key, '
 "coalesce(substr(NEW.played_on, 1, 7), ''), NEW.director_id, NEW.cited_articles, "
 'NEW.review_verdict, NEW.appeal_status, 1) ON CONFLICT (club_id, mode, status, tree_slug, '
 'edition_code, outcome_key, month, director_id, cited_articles, review_verdict, '
 'appeal_status) DO UPDATE SET count = archive_rulingtally.count + 1; END;',
 'CREATE TRIGGER ruling_tally_delete AFTER DELETE ON rulings_ruling BEGIN UPDATE '
 'archive_rulingtally SET count = count - 1 WHERE club_id = OLD.club_id AND mode = OLD.mode '
 'AND status = OLD.status AND tree_slug = OLD.tree_slug AND edition_code = OLD.edition_code '
 "AND outcome_key = OLD.outcome_key AND month = coalesce(substr(OLD.played_on, 1, 7), '') AND "
 'director_id = OLD.director_id AND cited_articles = OLD.cited_articles AND review_verdict = '
 'OLD.review_verdict AND appeal_status = OLD.appeal_status; DELETE FROM archive_rulingtally '
 'WHERE count <= 0 AND club_id = OLD.club_id AND mode = OLD.mode AND status = OLD.status AND '
 'tree_slug = OLD.tree_slug AND edition_code = OLD.edition_code AND outcome_key = '
 "OLD.outcome_key AND month = coalesce(substr(OLD.played_on, 1, 7), '') AND director_id = "
 'OLD.director_id AND cited_articles = OLD.cited_articles AND review_verdict = '
 'OLD.review_verdict AND appeal_status = OLD.appeal_status; END;',
 'CREATE TRIGGER ruling_tally_update AFTER UPDATE ON rulings_ruling WHEN OLD.club_id IS NOT '
 'NEW.club_id OR OLD.mode IS NOT NEW.mode OR OLD.status IS NOT NEW.status OR OLD.tree_slug IS '
 'NOT NEW.tree_slug OR OLD.edition_code IS NOT NEW.edition_code OR OLD.outcome_key IS NOT '
 'NEW.outcome_key OR OLD.director_id IS NOT NEW.director_id OR OLD.cited_articles IS NOT '
 'NEW.cited_articles OR OLD.review_verdict IS NOT NEW.review_verdict OR OLD.appeal_status IS '
 'NOT NEW.appeal_status OR OLD.played_on IS NOT NEW.played_on BEGIN UPDATE archive_rulingtally '
 'SET count = count - 1 WHERE club_id = OLD.club_id AND mode = OLD.mode AND status = '
 'OLD.status AND tree_slug = OLD.tree_slug AND edition_code = OLD.edition_code AND outcome_key '
 "= OLD.outcome_key AND month = coalesce(substr(OLD.played_on, 1, 7), '') AND director_id = "
 'OLD.director_id AND cited_articles = OLD.cited_articles AND review_verdict = '
 'OLD.review_verdict AND appeal_status = OLD.appeal_status; DELETE FROM archive_rulingtally '
 'WHERE count <= 0 AND club_id = OLD.club_id AND mode = OLD.mode AND status = OLD.status AND '
 'tree_slug = OLD.tree_slug AND edition_code = OLD.edition_code AND outcome_key = '
 "OLD.outcome_key AND month = coalesce(substr(OLD.played_on, 1, 7), '') AND director_id = "
 'OLD.director_id AND cited_articles = OLD.cited_articles AND review_verdict = '
 'OLD.review_verdict AND appeal_status = OLD.appeal_status; INSERT INTO archive_rulingtally '
 '(club_id, mode, status, tree_slug, edition_code, outcome_key, month, director_id, '
 'cited_articles, review_verdict, appeal_status, count) VALUES (NEW.club_id, NEW.mode, '
 'NEW.status, NEW.tree_slug, NEW.edition_code, NEW.outcome_key, coalesce(substr(NEW.played_on, '
 "1, 7), ''), NEW.director_id, NEW.cited_articles, NEW.review_verdict, NEW.appeal_status, 1) "
 'ON CONFLICT (club_id, mode, status, tree_slug, edition_code, outcome_key, month, '
 'director_id, cited_articles, review_verdict, appeal_status) DO UPDATE SET count = '
 'archive_rulingtally.count + 1; END;']
POSTGRESQL = ['DELETE FROM archive_rulingtally',
 'INSERT INTO archive_rulingtally (club_id, mode, status, tree_slug, edition_code, '
 'outcome_key, month, director_id, cited_articles, review_verdict, appeal_status, count) '
 'SELECT club_id, mode, status, tree_slug, edition_code, outcome_key, '
 "coalesce(to_char(rulings_ruling.played_on, 'YYYY-MM'), ''), director_id, cited_articles, "
 'review_verdict, appeal_status, COUNT(*) FROM rulings_ruling GROUP BY club_id, mode, status, '
 "tree_slug, edition_code, outcome_key, coalesce(to_char(rulings_ruling.played_on, 'YYYY-MM'), "
 "''), director_id, cited_articles, review_verdict, appeal_status",
 'CREATE FUNCTION ruling_tally() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN IF TG_OP <> '
 "'INSERT' THEN UPDATE archive_rulingtally SET count = count - 1 WHERE club_id = OLD.club_id "
 'AND mode = OLD.mode AND status = OLD.status AND tree_slug = OLD.tree_slug AND edition_code = '
 'OLD.edition_code AND outcome_key = OLD.outcome_key AND month = '
 "coalesce(to_char(OLD.played_on, 'YYYY-MM'), '') AND director_id = OLD.director_id AND "
 'cited_articles = OLD.cited_articles AND review_verdict = OLD.review_verdict AND '
 'appeal_status = OLD.appeal_status; DELETE FROM archive_rulingtally WHERE count <= 0 AND '
 'club_id = OLD.club_id AND mode = OLD.mode AND status = OLD.status AND tree_slug = '
 'OLD.tree_slug AND edition_code = OLD.edition_code AND outcome_key = OLD.outcome_key AND '
 "month = coalesce(to_char(OLD.played_on, 'YYYY-MM'), '') AND director_id = OLD.director_id "
 'AND cited_articles = OLD.cited_articles AND review_verdict = OLD.review_verdict AND '
 "appeal_status = OLD.appeal_status; END IF; IF TG_OP <> 'DELETE' THEN INSERT INTO "
 'archive_rulingtally (club_id, mode, status, tree_slug, edition_code, outcome_key, month, '
 'director_id, cited_articles, review_verdict, appeal_status, count) VALUES (NEW.club_id, '
 'NEW.mode, NEW.status, NEW.tree_slug, NEW.edition_code, NEW.outcome_key, '
 "coalesce(to_char(NEW.played_on, 'YYYY-MM'), ''), NEW.director_id, NEW.cited_articles, "
 'NEW.review_verdict, NEW.appeal_status, 1) ON CONFLICT (club_id, mode, status, tree_slug, '
 'edition_code, outcome_key, month, director_id, cited_articles, review_verdict, '
 'appeal_status) DO UPDATE SET count = archive_rulingtally.count + 1; END IF; RETURN NULL; END '
 '$$;',
 'CREATE TRIGGER ruling_tally_insert_delete AFTER INSERT OR DELETE ON rulings_ruling FOR EACH '
 'ROW EXECUTE FUNCTION ruling_tally();',
 'CREATE TRIGGER ruling_tally_update AFTER UPDATE ON rulings_ruling FOR EACH ROW WHEN '
 '(OLD.club_id IS DISTINCT FROM NEW.club_id OR OLD.mode IS DISTINCT FROM NEW.mode OR '
 'OLD.status IS DISTINCT FROM NEW.status OR OLD.tree_slug IS DISTINCT FROM NEW.tree_slug OR '
 'OLD.edition_code IS DISTINCT FROM NEW.edition_code OR OLD.outcome_key IS DISTINCT FROM '
 'NEW.outcome_key OR OLD.director_id IS DISTINCT FROM NEW.director_id OR OLD.cited_articles IS '
 'DISTINCT FROM NEW.cited_articles OR OLD.review_verdict IS DISTINCT FROM NEW.review_verdict '
 'OR OLD.appeal_status IS DISTINCT FROM NEW.appeal_status OR OLD.played_on IS DISTINCT FROM '
 'NEW.played_on) EXECUTE FUNCTION ruling_tally();']
DROP_SQLITE = ['DROP TRIGGER IF EXISTS ruling_tally_insert',
 'DROP TRIGGER IF EXISTS ruling_tally_delete',
 'DROP TRIGGER IF EXISTS ruling_tally_update']
DROP_POSTGRESQL = ['DROP TRIGGER IF EXISTS ruling_tally_insert_delete ON rulings_ruling',
 'DROP TRIGGER IF EXISTS ruling_tally_update ON rulings_ruling',
 'DROP FUNCTION IF EXISTS ruling_tally()']


def _run(statements: dict[str, list[str]]):
    def run(apps, schema_editor) -> None:
        vendor = schema_editor.connection.vendor
        if vendor not in statements:
            raise NotImplementedError(f"{__name__} for {vendor}")
        for statement in statements[vendor]:
            schema_editor.execute(statement, params=None)

    return run


class Migration(migrations.Migration):
    dependencies = [("archive", "0001_initial"), ("rulings", "0002_training_links")]

    operations = [
        migrations.RunPython(
            _run({"sqlite": SQLITE, "postgresql": POSTGRESQL}),
            _run({"sqlite": DROP_SQLITE, "postgresql": DROP_POSTGRESQL}),
        )
    ]
