"""The database triggers that keep ``RulingTally`` (see its docstring), for SQLite and PostgreSQL.

Triggers rather than Python signals, because rulings are written in many ways — the wizard's
compare-and-swap UPDATEs, bulk inserts of an import or of ``make bench``, a restored backup —
and a count that misses one of them would be quietly wrong. In the database every write is
counted, in the writer's own transaction.
"""

# ruff: noqa: S608 - SQL built from the constant names below only, never from input.
from __future__ import annotations

from django.db.backends.base.schema import BaseDatabaseSchemaEditor

TABLE = "rulings_rulingtally"
KEY = (
    "club_id",
    "mode",
    "status",
    "tree_slug",
    "edition_code",
    "outcome_key",
    "month",
    "director_id",
    "cited_articles",
    "review_verdict",
    "appeal_status",
)
COLUMNS = ", ".join(KEY)


def _month(row: str, vendor: str) -> str:
    if vendor == "postgresql":
        return f"coalesce(to_char({row}.played_on, 'YYYY-MM'), '')"
    return f"coalesce(substr({row}.played_on, 1, 7), '')"


def _values(row: str, vendor: str) -> list[str]:
    """The tally key of ``row`` (NEW or OLD) as SQL expressions, in KEY order."""
    return [_month(row, vendor) if key == "month" else f"{row}.{key}" for key in KEY]


def _add(row: str, vendor: str) -> str:
    values = ", ".join(_values(row, vendor))
    return (
        f"INSERT INTO {TABLE} ({COLUMNS}, count) VALUES ({values}, 1) "
        f"ON CONFLICT ({COLUMNS}) DO UPDATE SET count = {TABLE}.count + 1;"
    )


def _remove(row: str, vendor: str) -> str:
    match = " AND ".join(
        f"{key} = {value}" for key, value in zip(KEY, _values(row, vendor), strict=True)
    )
    return (
        f"UPDATE {TABLE} SET count = count - 1 WHERE {match}; "
        f"DELETE FROM {TABLE} WHERE count <= 0 AND {match};"
    )


def _changed() -> str:
    """True when an UPDATE changes the tally key (the month only changes with played_on)."""
    columns = [key for key in KEY if key != "month"] + ["played_on"]
    return " OR ".join(f"OLD.{c} IS DISTINCT FROM NEW.{c}" for c in columns)


def _sqlite() -> list[str]:
    changed = _changed().replace("IS DISTINCT FROM", "IS NOT")
    return [
        f"CREATE TRIGGER ruling_tally_insert AFTER INSERT ON rulings_ruling "
        f"BEGIN {_add('NEW', 'sqlite')} END;",
        f"CREATE TRIGGER ruling_tally_delete AFTER DELETE ON rulings_ruling "
        f"BEGIN {_remove('OLD', 'sqlite')} END;",
        f"CREATE TRIGGER ruling_tally_update AFTER UPDATE ON rulings_ruling WHEN {changed} "
        f"BEGIN {_remove('OLD', 'sqlite')} {_add('NEW', 'sqlite')} END;",
    ]


def _postgresql() -> list[str]:
    return [
        "CREATE FUNCTION ruling_tally() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN "
        f"IF TG_OP <> 'INSERT' THEN {_remove('OLD', 'postgresql')} END IF; "
        f"IF TG_OP <> 'DELETE' THEN {_add('NEW', 'postgresql')} END IF; "
        "RETURN NULL; END $$;",
        "CREATE TRIGGER ruling_tally_insert_delete AFTER INSERT OR DELETE ON rulings_ruling "
        "FOR EACH ROW EXECUTE FUNCTION ruling_tally();",
        f"CREATE TRIGGER ruling_tally_update AFTER UPDATE ON rulings_ruling "
        f"FOR EACH ROW WHEN ({_changed()}) EXECUTE FUNCTION ruling_tally();",
    ]


def _backfill(vendor: str) -> str:
    """Count the rulings already stored (a database migrated with rulings in it)."""
    values = ", ".join(_month("rulings_ruling", vendor) if key == "month" else key for key in KEY)
    return (
        f"INSERT INTO {TABLE} ({COLUMNS}, count) "
        f"SELECT {values}, COUNT(*) FROM rulings_ruling GROUP BY {values}"
    )


def install(schema_editor: BaseDatabaseSchemaEditor) -> None:
    vendor = schema_editor.connection.vendor
    if vendor not in ("sqlite", "postgresql"):
        raise NotImplementedError(f"ruling tally triggers for {vendor}")
    statements = _postgresql() if vendor == "postgresql" else _sqlite()
    for statement in [f"DELETE FROM {TABLE}", _backfill(vendor), *statements]:
        schema_editor.execute(statement, params=None)


def uninstall(schema_editor: BaseDatabaseSchemaEditor) -> None:
    triggers = (
        ["ruling_tally_insert_delete", "ruling_tally_update"]
        if schema_editor.connection.vendor == "postgresql"
        else ["ruling_tally_insert", "ruling_tally_delete", "ruling_tally_update"]
    )
    for name in triggers:
        on = " ON rulings_ruling" if schema_editor.connection.vendor == "postgresql" else ""
        schema_editor.execute(f"DROP TRIGGER IF EXISTS {name}{on}", params=None)
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute("DROP FUNCTION IF EXISTS ruling_tally()", params=None)


def differences() -> list[str]:
    """Where ``RulingTally`` does not count what the rulings themselves count (empty when it
    does): for the load and crash tests, and for anyone who doubts a figure."""
    from collections import Counter

    from django.db.models import Count, Sum

    from .models import Ruling, RulingTally

    fields = [key for key in KEY if key != "month"]
    counted: Counter[tuple] = Counter()
    rulings = Ruling.objects.order_by().values_list(*fields, "played_on").annotate(n=Count("pk"))
    for *key, played_on, n in rulings:
        counted[(*key, f"{played_on:%Y-%m}" if played_on else "")] += n
    kept: Counter[tuple] = Counter()
    for *key, n in RulingTally.objects.values_list(*fields, "month").annotate(n=Sum("count")):
        kept[tuple(key)] += n
    return [
        f"{key}: {counted[key]} ruling(s), tally {kept[key]}"
        for key in sorted(set(counted) | set(kept), key=repr)
        if counted[key] != kept[key]
    ]
