"""Writes on the hottest path (a wizard answer) as SQL compiled once per process.

The ORM compiles every query anew: for a wide model that costs about as much as a whole bare
request (``make bench``). These helpers build the statement once per model and shape and run
it with values prepared by the model's own fields, exactly as ``save``/``update`` would store
them. Only quoted names from the models' metadata go into the statements' text; every value
is a parameter. They send no signals and skip ``save()`` overrides (the fields' own pre_save,
such as auto_now_add, still runs): use them only for models that rely on neither.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cache
from typing import Any, TypeVar

from django.db import connection, models, transaction

M = TypeVar("M", bound=models.Model)


def _quote(name: str) -> str:
    return connection.ops.quote_name(name)


def concrete_field(model: type[models.Model], name: str) -> models.Field:
    """The stored field ``name`` of ``model`` (a column, not a reverse relation)."""
    field = model._meta.get_field(name)
    if not isinstance(field, models.Field) or not field.column:
        raise TypeError(f"{model.__name__}.{name} is not stored in a column")
    return field


def column(model: type[models.Model], name: str) -> str:
    """The quoted column of the stored field ``name``."""
    return _quote(concrete_field(model, name).column or "")


def table(model: type[models.Model]) -> str:
    """The quoted table of ``model``."""
    return _quote(model._meta.db_table)


def columns(model: type[models.Model]) -> str:
    """Every stored column of ``model``, quoted, in field order (a whole row)."""
    return ", ".join(_quote(f.column) for f in model._meta.concrete_fields)


def qualified_columns(model: type[models.Model]) -> str:
    """Every stored column of ``model``, quoted and prefixed with its table, in field order
    (a whole row in a join)."""
    prefix = table(model)
    return ", ".join(f"{prefix}.{_quote(f.column)}" for f in model._meta.concrete_fields)


@cache
def _converters(model: type[models.Model]) -> tuple[tuple[int, tuple, object], ...]:
    found = []
    for index, field in enumerate(model._meta.concrete_fields):
        col = field.get_col(model._meta.db_table)
        # Field.get_db_converters is missing from django-stubs; the ORM calls it the same way.
        own = field.get_db_converters(connection)  # type: ignore[attr-defined]
        converters = (*connection.ops.get_db_converters(col), *own)
        if converters:
            found.append((index, tuple(converters), col))
    return tuple(found)


def from_row(model: type[M], values: Sequence[object]) -> M:
    """The ``model`` instance for a whole row read as ``columns(model)`` lists it, its values
    converted as the ORM converts them (a datetime made aware, JSON decoded)."""
    values = list(values)
    for index, converters, col in _converters(model):
        for convert in converters:
            values[index] = convert(values[index], col, connection)
    return model.from_db(connection.alias, _attnames(model), values)


@cache
def _attnames(model: type[models.Model]) -> tuple[str, ...]:
    return tuple(field.attname for field in model._meta.concrete_fields)


@cache
def _insert_sql(model: type[models.Model], rows: int) -> tuple[str, tuple[models.Field, ...]]:
    meta = model._meta
    fields = tuple(f for f in meta.concrete_fields if f is not meta.auto_field)
    names = ", ".join(_quote(f.column) for f in fields)
    row = f"({', '.join(['%s'] * len(fields))})"
    values = ", ".join([row] * rows)
    return f"INSERT INTO {table(model)} ({names}) VALUES {values}", fields  # noqa: S608


def _insert_params(objs: Sequence[models.Model], fields: tuple[models.Field, ...]) -> list[Any]:
    """The values of new rows as ``save`` would store them (auto_now and the like applied)."""
    return [
        field.get_db_prep_save(field.pre_save(obj, add=True), connection)
        for obj in objs
        for field in fields
    ]


def insert(objs: Sequence[models.Model]) -> None:
    """INSERT ``objs`` (one model, new rows) in one statement; an automatic key is left to
    the database and not read back."""
    if not objs:
        return
    sql, fields = _insert_sql(type(objs[0]), len(objs))
    with connection.cursor() as cursor:
        cursor.execute(sql, _insert_params(objs, fields))


def insert_one(obj: models.Model) -> None:
    """INSERT one new row, as ``obj.save(force_insert=True)`` would, and set the key the
    database chose on ``obj``."""
    sql, fields = _insert_sql(type(obj), 1)
    params = _insert_params([obj], fields)
    key = obj._meta.pk
    assert key is not None
    with connection.cursor() as cursor:
        if connection.features.can_return_columns_from_insert:  # PostgreSQL, SQLite 3.35+
            cursor.execute(f"{sql} RETURNING {_quote(key.column)}", params)
            value = cursor.fetchone()[0]
        else:
            cursor.execute(sql, params)
            value = connection.ops.last_insert_id(cursor, obj._meta.db_table, key.column)
    _stored(obj, value)


def _stored(obj: models.Model, key: object) -> None:
    """``obj`` as ``save`` leaves it: with the key the database chose, no longer new."""
    pk = obj._meta.pk
    assert pk is not None
    setattr(obj, pk.attname, key)
    obj._state.adding = False
    obj._state.db = connection.alias


@cache
def _update_sql(
    model: type[models.Model], names: tuple[str, ...], where: tuple[str, ...]
) -> tuple[str, tuple[models.Field, ...], tuple[models.Field, ...]]:
    setting = tuple(concrete_field(model, name) for name in names)
    matching = tuple(concrete_field(model, name) for name in where)
    assignments = ", ".join(f"{column(model, f.name)} = %s" for f in setting)
    conditions = " AND ".join(f"{column(model, f.name)} = %s" for f in matching)
    sql = f"UPDATE {table(model)} SET {assignments} WHERE {conditions}"  # noqa: S608
    return sql, setting, matching


def update(model: type[models.Model], values: Mapping[str, object], **where: object) -> int:
    """``model.objects.filter(**where).update(**values)`` for equality filters; the number
    of rows changed."""
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
        names = f"{column(model, parent)}, {names}"
        select = f"SELECT {source}.id, new.* FROM {rows_sql}, {source}"  # noqa: S608
    else:
        select = f"SELECT * FROM {rows_sql} WHERE EXISTS (SELECT 1 FROM {source})"  # noqa: S608
    return f"INSERT INTO {table(model)} ({names}) {select}", fields


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
    """``update(model, values, **where)`` and, only if it changed a row, ``insert`` each group
    of ``new`` objects, all or nothing; the number of rows updated. On PostgreSQL this is one
    statement (a data-modifying WITH), which outside a transaction commits by itself: a
    wizard answer costs one round trip to the server instead of five (BEGIN, UPDATE, two
    INSERTs, COMMIT). Elsewhere the statements run in one transaction."""
    groups = [group for group in new if group]
    if connection.vendor != "postgresql":
        with transaction.atomic(savepoint=False):
            moved = update(model, values, **where)
            if moved:
                for group in groups:
                    insert(group)
        return moved
    sql, params = _update(model, values, where)
    parts, child_params = _children(groups, "moved")
    with connection.cursor() as cursor:
        cursor.execute(
            " ".join([f"WITH moved AS ({sql} RETURNING 1)", *parts, "SELECT count(*) FROM moved"]),
            params + child_params,
        )
        return int(cursor.fetchone()[0])


def insert_with_children(
    obj: models.Model, parent: str, new: Sequence[Sequence[models.Model]]
) -> None:
    """``insert_one(obj)`` and ``insert`` each group of ``new`` objects, whose foreign key
    ``parent`` points at ``obj`` (set on them here), all or nothing. On PostgreSQL one
    statement that commits by itself (a first answer: one round trip instead of five);
    elsewhere in one transaction. A taken unique value raises IntegrityError, nothing
    written."""
    groups = [group for group in new if group]
    if connection.vendor != "postgresql":
        with transaction.atomic(savepoint=False):
            insert_one(obj)
            for group in groups:
                _point_at(obj, parent, group)
                insert(group)
        return
    sql, fields = _insert_sql(type(obj), 1)
    key = obj._meta.pk
    assert key is not None
    parts, child_params = _children(groups, "made", parent)
    with connection.cursor() as cursor:
        cursor.execute(
            " ".join(
                [
                    f"WITH made AS ({sql} RETURNING {_quote(key.column)} AS id)",
                    *parts,
                    "SELECT id FROM made",
                ]
            ),
            _insert_params([obj], fields) + child_params,
        )
        _stored(obj, cursor.fetchone()[0])
    for group in groups:
        _point_at(obj, parent, group)


def _point_at(obj: models.Model, parent: str, children: Sequence[models.Model]) -> None:
    for child in children:
        setattr(child, parent, obj)
