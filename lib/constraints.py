"""Database CHECK constraints for what a model's choices and validators promise.

Validators and choices only speak in forms and the bundle reader; a bulk insert, a raw UPDATE,
a restored backup or a bug writes past them. These helpers state the same rule once more in the
database, so a row outside it is refused there (``IntegrityError``) on SQLite and PostgreSQL.
A change of choices then needs a migration, which is the point: old rows are checked too.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.db import models
from django.db.models import Q


def in_choices(
    table: str, field: str, choices: Iterable[str], *, blank: bool = False
) -> models.CheckConstraint:
    """``field`` holds one of ``choices`` (or ``""`` with ``blank``)."""
    values = sorted({str(value) for value in choices} | ({""} if blank else set()))
    return models.CheckConstraint(
        condition=Q(**{f"{field}__in": values}), name=f"{table}_{field}_in_choices"
    )


def between(
    table: str, field: str, low: int, high: int, *, null: bool = False
) -> models.CheckConstraint:
    """``low <= field <= high`` (or NULL with ``null``)."""
    condition = Q(**{f"{field}__gte": low, f"{field}__lte": high})
    if null:
        condition |= Q(**{f"{field}__isnull": True})
    return models.CheckConstraint(condition=condition, name=f"{table}_{field}_{low}_{high}")
