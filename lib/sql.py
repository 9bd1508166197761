"""The two compare-and-swap writes of a transition (``rulings.transitions``), as SQL compiled
once per process: every wizard answer passes here.

- :func:`update_then_insert`: the ruling's update only if its audit head is where it was read,
  with the new step and events;
- :func:`insert_unless_taken`: a new ruling only if its uuid is free (a first answer sent
  twice makes one ruling, decided by the database, not by an exception), with its first step
  and events.

The ORM compiles every query anew; for the wide ``Ruling`` row these writes cost about a tenth
of a wizard step (``make bench``). Both build their statements once per model and shape and
run them with values prepared by the model's own fields, exactly as ``update``/``save`` would
store them. Only quoted names from the models'
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
    model: type[models.Model], rows: int, source: str, parent: str = ""
) -> tuple[str, tuple[models.Field, ...]]:
    """PostgreSQL: an INSERT of ``rows`` rows that writes only when the CTE ``source`` of the
    same statement has a row; the foreign key ``parent`` (if named) takes that row's ``id``.
    Each value is cast to its column's type: in a VALUES list PostgreSQL would read a bare
    parameter as text."""
    meta = model._meta
    fields = tuple(f for f in meta.concrete_fields if f is not meta.auto_field and f.name != parent)
    names = ", ".join(_quote(f.column) for f in fields)
    casts = ", ".join(f"CAST(%s AS {f.db_type(connection)})" for f in fields)
    values = ", ".join([f"({casts})"] * rows)
    # Only quoted names from the models' metadata and the caller's CTE name go into the text.
    rows_sql = f"(VALUES {values}) AS new"
    if parent:
        names = f"{_column(model, parent)}, {names}"
        select = f"SELECT {source}.id, new.* FROM {rows_sql}, {source}"  # noqa: S608
    else:
        select = f"SELECT * FROM {rows_sql} WHERE EXISTS (SELECT 1 FROM {source})"  # noqa: S608
    return f"INSERT INTO {_table(model)} ({names}) {select}", fields


def _children(
    groups: Sequence[Sequence[models.Model]], source: str, parent: str = ""
) -> tuple[list[str], list[Any]]:
    parts, params = [], []
    for number, group in enumerate(groups):
        insert_sql, fields = _then_insert_sql(type(group[0]), len(group), source, parent)
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


def insert_unless_taken(
    obj: models.Model, unique: str, parent: str, new: Sequence[Sequence[models.Model]]
) -> bool:
    """INSERT ``obj`` unless a row holds its value of the unique field ``unique`` already, and
    with it each group of ``new`` objects, whose foreign key ``parent`` is set to ``obj``: all
    or nothing. False, nothing written, when the value is taken; else True, with the key the
    database chose set on ``obj``. On PostgreSQL one statement that commits by itself (a first
    answer: one round trip instead of five); elsewhere in one transaction."""
    model = type(obj)
    key = model._meta.pk
    assert key is not None
    sql, fields = _insert_sql(model, 1)
    # The database decides which of two first writes of one uuid makes the row, no exception.
    sql += f" ON CONFLICT ({_column(model, unique)}) DO NOTHING RETURNING {_quote(key.column)}"
    params = _insert_params([obj], fields)
    groups = [group for group in new if group]
    if connection.vendor != "postgresql":
        with transaction.atomic(savepoint=False):
            with connection.cursor() as cursor:
                cursor.execute(sql, params)
                row = cursor.fetchone()
            if row is None:
                return False
            _stored(obj, row[0])
            for group in groups:
                _point_at(obj, parent, group)
                _insert(group)
        return True
    parts, child_params = _children(groups, "made", parent)
    with connection.cursor() as cursor:
        cursor.execute(
            " ".join([f"WITH made AS ({sql} AS id)", *parts, "SELECT id FROM made"]),
            params + child_params,
        )
        row = cursor.fetchone()
    if row is None:
        return False
    _stored(obj, row[0])
    for group in groups:
        _point_at(obj, parent, group)
    return True


def _stored(obj: models.Model, key: object) -> None:
    """``obj`` as ``save`` leaves it: with the key the database chose, no longer new."""
    pk = obj._meta.pk
    assert pk is not None
    setattr(obj, pk.attname, key)
    obj._state.adding = False
    obj._state.db = connection.alias


def _point_at(obj: models.Model, parent: str, children: Sequence[models.Model]) -> None:
    for child in children:
        setattr(child, parent, obj)
