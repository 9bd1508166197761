"""Rulings made in bulk (``seed_demo``): the wizard's own plans, written at the end.

A :class:`Batch` applies the same planners as a live ruling (:mod:`rulings.wizard`), with all
their checks, to rulings it created itself and keeps in memory; :func:`batch` writes them at
the end of its block with a few bulk inserts, in one transaction. The live transitions know
nothing of it: they are written by :mod:`rulings.transitions` alone.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime

from django.db import connection, transaction

from clubs.models import User
from rulings import audit
from rulings.models import AuditEvent, LegalBasis, Ruling, Step
from rulings.transitions import Planned, Planner, Result, basis_rows

__all__ = ["Batch", "batch"]


@dataclass
class Batch:
    """Rulings made inside :func:`batch`, with their steps and events, not yet written."""

    rulings: list[Ruling] = field(default_factory=list)
    steps: dict[int, list[Step]] = field(default_factory=dict)
    events: list[AuditEvent] = field(default_factory=list)
    # Each ruling's latest legal basis (a plan replaces it, as the one writer does).
    basis: dict[int, tuple[str, ...]] = field(default_factory=dict)

    def run(self, ruling: Ruling, actor: User, at: datetime, plan: Planner) -> Result:
        """Apply a planner (e.g. :func:`rulings.wizard.plan_answer`) to a ruling of this
        batch, or to a new one (:func:`rulings.wizard.new_ruling`), which joins the batch,
        recorded at ``at``. Nobody else can see these rulings yet, so there is no head to
        compare."""
        if ruling.pk is not None:
            raise ValueError("only a ruling created in this batch can change in it")
        planned = plan(ruling, at)
        if not planned.entries:
            return planned.result(ruling, recorded=False)
        if planned.rows:
            raise ValueError("a batch writes rulings, their steps and their events only")
        if id(ruling) not in self.steps:
            ruling.created_at = at
            self.rulings.append(ruling)
            self.steps[id(ruling)] = []
        self._keep(ruling, planned, actor, at)
        ruling.updated_at = at
        return planned.result(ruling, recorded=True)

    def _keep(self, ruling: Ruling, planned: Planned, actor: User, at: datetime) -> None:
        steps = self.steps[id(ruling)]
        if planned.supersede_from is not None:
            for earlier in steps:
                if not earlier.superseded and earlier.order >= planned.supersede_from:
                    earlier.superseded, earlier.superseded_at = True, at
        if planned.step is not None:
            steps.append(planned.step)
        if planned.legal_basis is not None:
            self.basis[id(ruling)] = planned.legal_basis
        self.events.extend(audit.chain(ruling, planned.entries, actor, at))

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
        LegalBasis.objects.bulk_create(
            (
                row
                for ruling in self.rulings
                for row in basis_rows(ruling, self.basis.get(id(ruling), ()))
            ),
            batch_size=500,
        )


@contextmanager
def batch() -> Iterator[Batch]:
    """A :class:`Batch` whose rulings are written at the end of the block with a few bulk
    inserts, in one transaction; nothing is written if the block raises."""
    made = Batch()
    yield made
    with transaction.atomic():
        made.flush()
