"""How a ruling changes: a transition is planned on the ruling in memory, then written once.

A *planner* checks the ruling's state and changes it in memory; it returns what it changed
(:class:`Planned`: the fields, the audit entries, a new step, the steps it supersedes, other
rows such as a review) and writes nothing. :func:`run` writes a plan the way every transition
is written: one transaction whose first statement is a compare-and-swap on the ruling's audit
head, retried with a fresh read when another request moved the head first. A ruling not stored
yet is inserted with its first plan, unless its uuid was stored meanwhile (a first answer sent
twice): the plan is then made again on the stored ruling. The wizard (:mod:`rulings.wizard`),
free rulings (:mod:`rulings.free`), reviews and appeals (``archive.reviews``) and adjusted
scores (``scores.recording``) define their transitions as planners; ``seed_demo`` writes the
same plans in bulk through :class:`rulings.batch.Batch`, so no transition has a second write
path.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db import models, transaction
from django.utils import timezone

from clubs.models import User
from lib import sql
from rulings import audit
from rulings.errors import WizardError
from rulings.legal_basis import articles
from rulings.models import AuditEvent, LegalBasis, Ruling, Status, Step
from trees.citations import article_number

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
    # Other rows the transition writes (a review, an adjusted score), saved after the ruling.
    rows: Sequence[models.Model] = ()
    # The ruling's legal basis (rulings/legal_basis.py) when this transition changes it (an
    # outcome reached, left or rewritten): its rows are replaced. None: unchanged.
    legal_basis: tuple[str, ...] | None = None
    # Whether the ruling may have basis rows already, which go first (an outcome left or
    # changed); a first outcome's rows are only inserted, with the step.
    clears_basis: bool = False
    # Whether the ruling's updated_at moves. Not for what is recorded about a final ruling (a
    # review, an appeal, a score): updated_at stays its last change, as transfer bundles
    # carry it.
    touches: bool = True

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


def run(ruling: Ruling, actor: User | None, at: datetime | None, plan: Planner) -> Result:
    """Plan the transition on ``ruling`` and write it, retrying on a concurrent change (the
    plan is then made again on the ruling as read afresh, so its checks see the new state).

    A ruling not stored yet (no key) is inserted with its plan; if its uuid was stored
    meanwhile, the plan is made again on the stored ruling, which the result then holds. With
    ``at``, a new ruling was made at that time rather than now (demo data, a test)."""
    when = at or timezone.now()
    for _attempt in range(ATTEMPTS):
        read_sequence = ruling.audit_sequence
        planned = plan(ruling, when)
        if not planned.entries:
            return planned.result(ruling, recorded=False)
        events = audit.chain(ruling, planned.entries, actor, when)
        if ruling.pk is None:
            if _create(ruling, planned, events, when, backdated=at is not None):
                return planned.result(ruling, recorded=True)
            ruling = Ruling.objects.get(uuid=ruling.uuid)
        elif _commit(ruling, read_sequence, planned, events, when):
            return planned.result(ruling, recorded=True)
        else:
            ruling.refresh_from_db()
    raise WizardError(WizardError.CONFLICT)


def _write_rows(planned: Planned, events: list[AuditEvent]) -> None:
    if planned.step is not None:
        planned.step.save(force_insert=True)
    AuditEvent.objects.bulk_create(events)
    for row in planned.rows:
        row.save()


def basis_rows(ruling: Ruling, keys: Sequence[str]) -> list[LegalBasis]:
    """The LegalBasis rows of ``keys`` for a stored ruling (also for an import's bulk write)."""
    return [
        LegalBasis(
            ruling=ruling,
            edition=ruling.edition_code,
            key=key,
            article=article_number(key) or "",
            position=position,
        )
        for position, key in enumerate(keys)
    ]


def set_basis(ruling: Ruling, keys: Sequence[str]) -> None:
    """Put the legal basis on the ruling in memory: ``cited_articles`` follows it."""
    ruling.cited_articles = articles(keys)


def _replace_basis(ruling: Ruling, planned: Planned) -> None:
    if planned.legal_basis is None:
        return
    if planned.clears_basis:
        LegalBasis.objects.filter(ruling=ruling).delete()
    if planned.legal_basis:
        LegalBasis.objects.bulk_create(basis_rows(ruling, planned.legal_basis))


def _commit(
    ruling: Ruling, read_sequence: int, planned: Planned, events: list[AuditEvent], at: datetime
) -> bool:
    """Write the plan: the ruling's fields and audit head (only if nobody else moved the head
    since ``read_sequence`` was read), superseded steps, the new step, the events, the other
    rows."""
    values = {name: getattr(ruling, name) for name in planned.fields}
    values.update(audit_sequence=ruling.audit_sequence, audit_head=ruling.audit_head)
    if planned.touches:
        values["updated_at"] = at
    where = {"id": ruling.pk, "audit_sequence": read_sequence}
    if planned.supersede_from is None and not planned.rows and not planned.clears_basis:
        # Every answer: the compare-and-swap with its step, events and (an outcome reached)
        # legal basis as SQL compiled once (lib.sql), not the ORM's per-call compilation.
        steps: list[models.Model] = [planned.step] if planned.step is not None else []
        basis = basis_rows(ruling, planned.legal_basis or ())
        moved = bool(sql.update_then_insert(Ruling, values, where, [steps, events, basis]))
    else:
        # savepoint=False: inside a caller's transaction (grading a practice) the writes join
        # it; nothing is raised in the block after a write.
        with transaction.atomic(savepoint=False):
            moved = bool(Ruling.objects.filter(**where).update(**values))
            if moved:
                if planned.supersede_from is not None:
                    # An earlier answer changed: its later steps are superseded.
                    Step.objects.filter(
                        ruling=ruling, superseded=False, order__gte=planned.supersede_from
                    ).update(superseded=True, superseded_at=at)
                _write_rows(planned, events)
                _replace_basis(ruling, planned)
    if moved and planned.touches:
        ruling.updated_at = at
    return moved


def _create(
    ruling: Ruling, planned: Planned, events: list[AuditEvent], at: datetime, *, backdated: bool
) -> bool:
    """Insert a new ruling with its first step and events (lib.sql, as every answer's write);
    False, writing nothing, when its uuid is taken."""
    steps: list[models.Model] = [planned.step] if planned.step is not None else []
    basis = basis_rows(ruling, planned.legal_basis or ())
    if not sql.insert_unless_taken(ruling, "uuid", "ruling", [steps, events, basis]):
        return False
    if backdated:
        # created_at is auto_now_add, updated_at auto_now: both get the given time.
        Ruling.objects.filter(pk=ruling.pk).update(created_at=at, updated_at=at)
        ruling.created_at = ruling.updated_at = at
    return True
