"""Times stored long ago, or brought by a bundle, shown without a server error.

A moment near the end of the year 9999 (or the start of the year 1) has no local time: the
conversion Django makes for every template and the CSV export raises ``OverflowError``. New
values are refused at the door (``lib.limits``), but a database may hold such a value from
before; those are shown as they are stored, in UTC, instead of breaking the page.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from django.db import models
from django.utils import timezone


def local(value: datetime) -> datetime:
    """``value`` in the active time zone, or in UTC when it has no local equivalent."""
    if timezone.is_naive(value):
        return value
    try:
        return timezone.localtime(value)
    except OverflowError:
        return value.astimezone(UTC)


def displayable(*rows: models.Model) -> None:
    """Make every time of ``rows`` one a template can show: a time without a local
    equivalent becomes naive UTC *in memory* (templates do not convert a naive time). Never
    saved: call it on rows read for display only."""
    for row in rows:
        for field in row._meta.concrete_fields:
            if not isinstance(field, models.DateTimeField):
                continue
            value: Any = getattr(row, field.attname)
            if isinstance(value, datetime) and timezone.is_aware(value):
                try:
                    timezone.localtime(value)
                except OverflowError:
                    setattr(row, field.attname, value.astimezone(UTC).replace(tzinfo=None))
