"""How a ruling changes: a transition is planned on the ruling in memory, then written once.

A *planner* checks the ruling's state and changes it in memory; it returns what it changed
(:class:`Planned`: the fields, the audit entries, a new step, the steps it supersedes) and
writes nothing. :func:`run` writes a plan the way every live transition is written: one
transaction whose first statement is a compare-and-swap on the ruling's audit head, retried
with a fresh read when another request moved the head first. :func:`create` writes a new
ruling with its first plan. The wizard (:mod:`rulings.wizard`) and free rulings
(:mod:`rulings.free`) define their transitions as planners; ``seed_demo`` writes the same
plans in bulk through :class:`rulings.batch.Batch`, so no transition has a second write path.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from contextlib import nullcontext
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db import models, transaction
from django.utils import timezone

from clubs.models import User
from lib import sql
from rulings import audit
from rulings.errors import WizardError
from rulings.models import AuditEvent, Ruling, Status, Step

__all__ = [
    "ATTEMPTS",
    "CLOSED",
    "UNCHANGED",
    "Entries",
    "Entry",
    "Planned",
    "Planner",
    "Result",
    "context_changes",
    "create",
    "refuse_closed",
    "run",
]

ATTEMPTS = 3

# An audit entry: (action, data), chained into an event when the plan is written.
Entry = tuple[str, dict[str, Any]]
Entries = list[Entry]


@dataclass(frozen=True)
class Result:
    """What a transition did: ``number`` is the step to show next (for a question), or the
    outcome's position after the last answer."""

    ruling: Ruling
    number: int
    recorded: bool
    outcome_reached: bool = False


@dataclass(frozen=True)
class Planned:
    """A transition worked out on the ruling in memory: the ruling fields it changed, its
    audit entries, the step it adds and the step from which the earlier ones are superseded.
    No entries: nothing to write (a repeated request)."""

    fields: tuple[str, ...]
    entries: Sequence[Entry] = ()
    step: Step | None = None
    supersede_from: int | None = None
    # The step to show next; None: where the ruling stands after the plan.
    number: int | None = None
    outcome_reached: bool = False

    def result(self, ruling: Ruling, recorded: bool) -> Result:
        number = self.number if self.number is not None else len(ruling.path) + 1
        return Result(ruling, number, recorded=recorded, outcome_reached=self.outcome_reached)


UNCHANGED = Planned(())

# A planner: checks the ruling's state, changes it in memory, says what changed.
Planner = Callable[[Ruling, datetime], Planned]

# The statuses in which a ruling can no longer change, each with the reason it says why.
CLOSED: dict[str, str] = {
    Status.FINAL: WizardError.FINAL,
    Status.DISCARDED: WizardError.DISCARDED,
}


def refuse_closed(ruling: Ruling) -> None:
    if ruling.status in CLOSED:
        raise WizardError(CLOSED[ruling.status])


def context_changes(
    ruling: Ruling, values: dict[str, Any], names: tuple[str, ...]
) -> dict[str, list[Any]]:
    """The fields of ``names`` whose value in ``values`` differs: name → [old, new]."""
    changes = {}
    for name in names:
        if name in values and getattr(ruling, name) != values[name]:
            changes[name] = [getattr(ruling, name), values[name]]
    return changes


def run(ruling: Ruling, actor: User, at: datetime | None, plan: Planner) -> Result:
    """Plan the transition on ``ruling`` and write it, retrying on a concurrent change (the
    plan is then made again on the ruling as read afresh, so its checks see the new state)."""
    at = at or timezone.now()
    for _attempt in range(ATTEMPTS):
        read_sequence = ruling.audit_sequence
        planned = plan(ruling, at)
        if not planned.entries:
            return planned.result(ruling, recorded=False)
        events = audit.chain(ruling, planned.entries, actor, at)
        if _commit(ruling, read_sequence, planned, events, at):
            return planned.result(ruling, recorded=True)
        ruling.refresh_from_db()
    raise WizardError(WizardError.CONFLICT)


def _commit(
    ruling: Ruling, read_sequence: int, planned: Planned, events: list[AuditEvent], at: datetime
) -> bool:
    """Write the plan: the ruling's fields and audit head (only if nobody else moved the head
    since ``read_sequence`` was read), superseded steps, the new step, the events."""
    values = {name: getattr(ruling, name) for name in planned.fields}
    values.update(audit_sequence=ruling.audit_sequence, audit_head=ruling.audit_head, updated_at=at)
    # Every answer passes here: the writes use SQL compiled once per process (lib.sql), not
    # the ORM's per-call compilation, which cost as much as the rest of the step (make bench).
    where = {"id": ruling.pk, "audit_sequence": read_sequence}
    if planned.supersede_from is None:
        steps: list[models.Model] = [planned.step] if planned.step is not None else []
        moved = sql.update_then_insert(Ruling, values, where, [steps, events])
        if moved:
            ruling.updated_at = at
        return bool(moved)
    # An earlier answer changed: its later steps are superseded in the same transaction.
    # savepoint=False: called inside a caller's transaction (grading a practice, a free
    # ruling's record) the writes join it instead of paying for a savepoint; nothing is raised
    # inside the block after a write, so there is nothing to roll back to a savepoint.
    with transaction.atomic(savepoint=False):
        if not sql.update(Ruling, values, **where):
            return False
        Step.objects.filter(
            ruling=ruling, superseded=False, order__gte=planned.supersede_from
        ).update(superseded=True, superseded_at=at)
        if planned.step is not None:
            sql.insert([planned.step])
        sql.insert(events)
    ruling.updated_at = at
    return True


def create(
    ruling: Ruling, planned: Planned, actor: User, at: datetime, *, backdated: bool = False
) -> Result:
    """Write a new ruling (no key yet) with its first plan, in one transaction. A taken uuid
    raises IntegrityError and writes nothing. ``backdated``: the ruling was made at ``at``,
    not now."""
    events = audit.chain(ruling, planned.entries, actor, at)
    # The step and events were built before the ruling had its key: they get it on insert.
    steps: list[models.Model] = [planned.step] if planned.step is not None else []
    new: list[Sequence[models.Model]] = [steps, events]
    # One statement needs no transaction of its own (PostgreSQL: no BEGIN and COMMIT).
    with transaction.atomic(savepoint=False) if backdated else nullcontext():
        sql.insert_with_children(ruling, "ruling", new)
        if backdated:
            # created_at is auto_now_add; a ruling recorded for an earlier time (demo data, a
            # test) gets that time.
            sql.update(Ruling, {"created_at": at, "updated_at": at}, id=ruling.pk)
            ruling.created_at = ruling.updated_at = at
    return planned.result(ruling, recorded=True)
