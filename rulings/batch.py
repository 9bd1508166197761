"""Rulings begun in bulk (``seed_demo``): the wizard's transitions, with the writes gathered.

Inside :func:`batch` every transition still runs through the same functions and checks of
:mod:`rulings.wizard`; only the writes are kept in memory and made at the end of the block with
a few bulk inserts, in one transaction.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field

from django.db import connection, transaction

from rulings.models import AuditEvent, Ruling, Step

__all__ = ["Pending", "batch", "current"]


@dataclass
class Pending:
    """Rulings begun inside :func:`batch`, with their steps and events, not yet written."""

    rulings: list[Ruling] = field(default_factory=list)
    steps: dict[int, list[Step]] = field(default_factory=dict)
    events: list[AuditEvent] = field(default_factory=list)

    def owns(self, ruling: Ruling) -> bool:
        return ruling.pk is None and id(ruling) in self.steps

    def flush(self) -> None:
        times = [(ruling.created_at, ruling.updated_at) for ruling in self.rulings]
        Ruling.objects.bulk_create(self.rulings, batch_size=500)
        # bulk_create stamps the auto_now(_add) fields with the current time: put back the
        # times the rulings were recorded at (one prepared statement; bulk_update's CASE
        # expressions cost more than the inserts).
        adapt = connection.ops.adapt_datetimefield_value
        table = connection.ops.quote_name(Ruling._meta.db_table)
        rows = []
        for ruling, (created, updated) in zip(self.rulings, times, strict=True):
            ruling.created_at, ruling.updated_at = created, updated
            rows.append((adapt(created), adapt(updated), ruling.pk))
        with connection.cursor() as cursor:
            cursor.executemany(
                f"UPDATE {table} SET created_at = %s, updated_at = %s WHERE id = %s",  # noqa: S608
                rows,
            )
        steps = [step for ruling in self.rulings for step in self.steps[id(ruling)]]
        Step.objects.bulk_create(steps, batch_size=500)
        AuditEvent.objects.bulk_create(self.events, batch_size=500)


_pending: ContextVar[Pending | None] = ContextVar("wizard_pending", default=None)


@contextmanager
def batch() -> Iterator[None]:
    """Keep the rulings begun inside the block in memory and write them at its end with a few
    bulk inserts, in one transaction. Every transition still runs through the same functions
    and checks; only the writes are gathered. For bulk creation (``seed_demo``): a ruling begun
    inside the block has no primary key until the block ends."""
    pending = Pending()
    token = _pending.set(pending)
    try:
        yield
        with transaction.atomic():
            pending.flush()
    finally:
        _pending.reset(token)


def current() -> Pending | None:
    """The batch the current code runs in, if any."""
    return _pending.get()
