"""The compare-and-swap write of a transition (``rulings.transitions``), as SQL compiled once
per process: every wizard answer passes here.

The ORM compiles every query anew; for the wide ``Ruling`` row, its update and the two
inserts that follow cost about a tenth of a wizard step (``make bench``: the step went from
3.6 to 3.9 times a bare view with them in the ORM). :func:`update_then_insert` builds its
statements once per model and shape and runs them with values prepared by the model's own
fields, exactly as ``update``/``save`` would store them. Only quoted names from the models'
metadata go into the statements' text; every value is a parameter. It sends no signals and
skips ``save()`` overrides (the fields' own pre_save, such as auto_now_add, still runs): use it
only for models that rely on neither.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cache
from typing import Any

from django.db import connection, models, transaction


def _quote(name: str) -> str:
    return connection.ops.quote_name(name)


def _field(model: type[models.Model], name: str) -> models.Field:
    """The stored field ``name`` of ``model`` (a column, not a reverse relation)."""
    field = model._meta.get_field(name)
    if not isinstance(field, models.Field) or not field.column:
        raise TypeError(f"{model.__name__}.{name} is not stored in a column")
    return field


def _column(model: type[models.Model], name: str) -> str:
    return _quote(_field(model, name).column or "")


def _table(model: type[models.Model]) -> str:
    return _quote(model._meta.db_table)


@cache
def _insert_sql(model: type[models.Model], rows: int) -> tuple[str, tuple[models.Field, ...]]:
    meta = model._meta
    fields = tuple(f for f in meta.concrete_fields if f is not meta.auto_field)
    names = ", ".join(_quote(f.column) for f in fields)
    row = f"({', '.join(['%s'] * len(fields))})"
    values = ", ".join([row] * rows)
    return f"INSERT INTO {_table(model)} ({names}) VALUES {values}", fields  # noqa: S608


def _insert_params(objs: Sequence[models.Model], fields: tuple[models.Field, ...]) -> list[Any]:
    """The values of new rows as ``save`` would store them (auto_now and the like applied)."""
    return [
        field.get_db_prep_save(field.pre_save(obj, add=True), connection)
        for obj in objs
        for field in fields
    ]


def _insert(objs: Sequence[models.Model]) -> None:
    sql, fields = _insert_sql(type(objs[0]), len(objs))
    with connection.cursor() as cursor:
        cursor.execute(sql, _insert_params(objs, fields))


@cache
def _update_sql(
    model: type[models.Model], names: tuple[str, ...], where: tuple[str, ...]
) -> tuple[str, tuple[models.Field, ...], tuple[models.Field, ...]]:
    setting = tuple(_field(model, name) for name in names)
    matching = tuple(_field(model, name) for name in where)
    assignments = ", ".join(f"{_column(model, f.name)} = %s" for f in setting)
    conditions = " AND ".join(f"{_column(model, f.name)} = %s" for f in matching)
    sql = f"UPDATE {_table(model)} SET {assignments} WHERE {conditions}"  # noqa: S608
    return sql, setting, matching


def _update_rows(model: type[models.Model], values: Mapping[str, object], **where: object) -> int:
    sql, params = _update(model, values, where)
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.rowcount


def _update(
    model: type[models.Model], values: Mapping[str, object], where: Mapping[str, object]
) -> tuple[str, list[Any]]:
    sql, setting, matching = _update_sql(model, tuple(values), tuple(where))
    params = [
        field.get_db_prep_save(value, connection)
        for field, value in zip(setting, values.values(), strict=True)
    ]
    params += [
        field.get_db_prep_value(value, connection)
        for field, value in zip(matching, where.values(), strict=True)
    ]
    return sql, params


@cache
def _then_insert_sql(
    model: type[models.Model], rows: int, source: str
) -> tuple[str, tuple[models.Field, ...]]:
    """PostgreSQL: an INSERT of ``rows`` rows that writes only when the CTE ``source`` of the
    same statement has a row. Each value is cast to its column's type: in a VALUES list
    PostgreSQL would read a bare parameter as text."""
    meta = model._meta
    fields = tuple(f for f in meta.concrete_fields if f is not meta.auto_field)
    names = ", ".join(_quote(f.column) for f in fields)
    casts = ", ".join(f"CAST(%s AS {f.db_type(connection)})" for f in fields)
    values = ", ".join([f"({casts})"] * rows)
    # Only quoted names from the models' metadata and the caller's CTE name go into the text.
    select = f"SELECT * FROM (VALUES {values}) AS new WHERE EXISTS (SELECT 1 FROM {source})"  # noqa: S608
    return f"INSERT INTO {_table(model)} ({names}) {select}", fields


def _children(groups: Sequence[Sequence[models.Model]], source: str) -> tuple[list[str], list[Any]]:
    parts, params = [], []
    for number, group in enumerate(groups):
        insert_sql, fields = _then_insert_sql(type(group[0]), len(group), source)
        parts.append(f", new_{number} AS ({insert_sql})")
        params += _insert_params(group, fields)
    return parts, params


def update_then_insert(
    model: type[models.Model],
    values: Mapping[str, object],
    where: Mapping[str, object],
    new: Sequence[Sequence[models.Model]],
) -> int:
    """``model.objects.filter(**where).update(**values)`` (equality filters) and, only if it
    changed a row, an INSERT of each group of ``new`` objects (one model per group, new rows,
    their automatic keys not read back), all or nothing; the number of rows updated. On
    PostgreSQL this is one statement (a data-modifying WITH), which outside a transaction
    commits by itself: a wizard answer costs one round trip to the server instead of five
    (BEGIN, UPDATE, two INSERTs, COMMIT). Elsewhere the statements run in one transaction."""
    groups = [group for group in new if group]
    if connection.vendor != "postgresql":
        with transaction.atomic(savepoint=False):
            moved = _update_rows(model, values, **where)
            if moved:
                for group in groups:
                    _insert(group)
        return moved
    sql, params = _update(model, values, where)
    parts, child_params = _children(groups, "moved")
    with connection.cursor() as cursor:
        cursor.execute(
            " ".join([f"WITH moved AS ({sql} RETURNING 1)", *parts, "SELECT count(*) FROM moved"]),
            params + child_params,
        )
        return int(cursor.fetchone()[0])
