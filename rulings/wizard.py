"""The wizard: from "Director, please!" to a saved ruling.

Plain functions over a :class:`~rulings.models.Ruling` and its frozen tree (a
:class:`~trees.spec.Snapshot`, kept in memory by :mod:`trees.snapshot`); views only call them
and render the result. What a page shows for a step is read by :mod:`rulings.steps`.

- :func:`start` freezes the chosen tree; nothing is stored yet. :func:`begin` records the first
  answer and creates the ruling (a ruling exists from its first answer, so closing the browser
  loses nothing, and picking the wrong tree leaves nothing behind).
- :func:`answer` records an answer to the current question, or to an earlier one: an earlier
  question answered differently *changes* the answer (the later steps are superseded, kept, and
  the change is in the audit log); answered the same, nothing changes and the wizard moves on to
  the next step. Going back is therefore only navigation: it changes nothing until an answer
  actually changes.
- :func:`edit_context`, :func:`defer`, :func:`resume` and :func:`save` complete the ruling.

Integrity: every answer form carries the node it answers, the step number and the ruling's
``revision`` (the number of steps ever recorded). A submission for another node, a choice that
is not one of the node's, or a stale form (second tab, double click on another choice) raises
:class:`WizardError` and writes nothing; the same answer submitted twice is simply accepted once.

Every transition is one transaction whose first statement is a compare-and-swap on the ruling's
audit head (``UPDATE ... WHERE audit_sequence = <read>``): two concurrent transitions cannot both
win, on SQLite or PostgreSQL, without holding a lock while the page is rendered. The loser reads
the ruling again and is validated afresh. A step costs a handful of queries, independent of the
size of the tree (frozen and cached) and of the number of stored rulings.
"""

from __future__ import annotations

import uuid as uuid_lib
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

from django.db import transaction
from django.utils import timezone

from clubs.models import Club, User
from lib import sql
from rulings import audit, batch
from rulings.audit import Action
from rulings.errors import WizardError
from rulings.models import AuditEvent, Mode, Ruling, Status, Step
from rulings.steps import tree_of
from trees import citations, snapshot
from trees.models import Tree
from trees.snapshot import pick
from trees.spec import ChoiceSpec, Snapshot, outcome_json

__all__ = [
    "Result",
    "WizardError",
    "answer",
    "begin",
    "defer",
    "edit_context",
    "missing_to_save",
    "resume",
    "save",
    "start",
]

CONTEXT_FIELDS = (
    "played_on",
    "event",
    "round",
    "table",
    "board",
    "offender_seat",
    "declarer_seat",
    "contract_level",
    "contract_strain",
    "contract_doubled",
    "notes",
)
# A live ruling is final only with these: the archive is searched by date and board.
REQUIRED_TO_SAVE = ("played_on", "board")
ATTEMPTS = 3


@dataclass(frozen=True)
class Result:
    """What a transition did: ``number`` is the step to show next (for a question), or the
    outcome's position after the last answer."""

    ruling: Ruling
    number: int
    recorded: bool
    outcome_reached: bool = False


# --------------------------------------------------------------------------------------------
# Transitions


def start(slug: str) -> Snapshot:
    """The tree to start a ruling with, frozen as it is loaded now. Writes no ruling."""
    try:
        tree = Tree.objects.select_related("edition").get(slug=slug)
    except Tree.DoesNotExist:
        raise WizardError(WizardError.NO_TREE, slug) from None
    return snapshot.freeze(tree)


def _text(text: Any) -> dict[str, str] | None:
    return {"nl": text.nl, "en": text.en} if text else None


def _outcome_snapshot(tree: Snapshot, key: str) -> dict[str, Any]:
    """What ``Ruling.outcome`` keeps of the outcome reached (its own copy, with the law)."""
    node = tree.node(key)
    assert node.outcome is not None
    return {
        "key": key,
        "title": _text(node.text),
        **outcome_json(node.outcome),
        "citations": [law.to_json() for law in tree.citations(key)],
    }


def _cited_articles(tree: Snapshot, path: list[list[str]], outcome: dict[str, Any]) -> str:
    step_citations = [tree.node(node_key).cites for node_key, _choice in path]
    return citations.encode(citations.articles_in(step_citations, outcome))


def _choice(tree: Snapshot, node_key: str, choice_key: str) -> ChoiceSpec:
    if not tree.has_node(node_key) or tree.is_outcome(node_key):
        raise WizardError(WizardError.WRONG_NODE, node_key)
    choice = tree.choice(node_key, choice_key)
    if choice is None:
        raise WizardError(WizardError.NOT_A_CHOICE, f"{node_key}: {choice_key!r}")
    return choice


def _record_answer(
    ruling: Ruling, tree: Snapshot, number: int, choice: ChoiceSpec, at: datetime
) -> tuple[Step, list[tuple[str, dict[str, Any]]], bool]:
    """Apply the answer at step ``number`` to the ruling in memory. Returns the new step, the
    audit entries and whether an outcome was reached."""
    if number <= len(ruling.path):
        node_key, old_choice = ruling.path[number - 1]
        superseded = ruling.path[number - 1 :]
        earlier = dict(ruling.earlier_answers)
        earlier.update({node: answer for node, answer in superseded})
        ruling.earlier_answers = earlier
        entry = (
            Action.ANSWER_CHANGED,
            {
                "step": number,
                "node": node_key,
                "from": old_choice,
                "to": choice.key,
                "superseded": [[n, *pair] for n, pair in enumerate(superseded, start=number)],
            },
        )
    else:
        node_key = ruling.current_node_key
        entry = (Action.ANSWERED, {"step": number, "node": node_key, "choice": choice.key})
    node = tree.node(node_key)
    step = Step(
        ruling=ruling,
        order=number,
        node_key=node_key,
        question={"nl": node.text.nl, "en": node.text.en, "help": _text(node.help)},
        choice_key=choice.key,
        answer={"nl": choice.label.nl, "en": choice.label.en},
        citations=[law.to_json() for law in tree.citations(node_key)],
        answered_at=at,
    )
    ruling.path = [*ruling.path[: number - 1], [node_key, choice.key]]
    ruling.revision += 1
    ruling.current_node_key = choice.target
    entries = [entry]
    reached = tree.is_outcome(choice.target)
    if reached:
        ruling.outcome_key = choice.target
        ruling.outcome = _outcome_snapshot(tree, choice.target)
        entries.append((Action.OUTCOME_REACHED, {"step": number, "outcome": choice.target}))
    else:
        ruling.outcome_key, ruling.outcome = "", {}
    ruling.cited_articles = _cited_articles(tree, ruling.path, ruling.outcome)
    return step, entries, reached


def begin(
    *,
    uuid: uuid_lib.UUID,
    club: Club,
    director: User,
    tree: Snapshot,
    node_key: str,
    choice_key: str,
    mode: str = Mode.LIVE,
    played_on: date | None = None,
    at: datetime | None = None,
    **extra: Any,
) -> Result:
    """Create the ruling with its first answer (``extra``: further Ruling fields, e.g. the
    training case). The caller makes sure ``uuid`` is not taken yet."""
    now = timezone.now()
    at = at or now
    if node_key != tree.start:
        raise WizardError(WizardError.WRONG_NODE, node_key)
    choice = _choice(tree, node_key, choice_key)
    ruling = Ruling(
        uuid=uuid,
        club=club,
        director=director,
        mode=mode,
        tree_slug=tree.slug,
        tree_title=pick(tree.title, "nl")[:200],
        edition_code=tree.edition,
        tree_version=tree.version,
        snapshot_id=tree.digest,
        current_node_key=tree.start,
        played_on=played_on,
        **extra,
    )
    step, entries, reached = _record_answer(ruling, tree, 1, choice, at)
    started = {
        "tree": tree.slug,
        "edition": tree.edition,
        "version": tree.version,
        "snapshot": tree.digest,
        "mode": mode,
    }
    events = audit.chain(ruling, [(Action.STARTED, started), *entries], director, at)
    pending = batch.current()
    if pending is not None:
        ruling.created_at = ruling.updated_at = at
        pending.rulings.append(ruling)
        pending.steps[id(ruling)] = [step]
        pending.events.extend(events)
        return Result(ruling, 2, recorded=True, outcome_reached=reached)
    # Every ruling's first answer passes here: the same compiled-once writes as _commit.
    with transaction.atomic(savepoint=False):
        sql.insert_one(ruling)
        if at != now:
            # created_at is auto_now_add; a ruling recorded for an earlier time (demo data,
            # an import) gets that time.
            sql.update(Ruling, {"created_at": at, "updated_at": at}, id=ruling.pk)
            ruling.created_at = ruling.updated_at = at
        step.ruling = ruling  # built before the ruling had its key
        for event in events:
            event.ruling = ruling
        sql.insert([step])
        sql.insert(events)
    return Result(ruling, 2, recorded=True, outcome_reached=reached)


def _commit(
    ruling: Ruling,
    read_sequence: int,
    fields: tuple[str, ...],
    events: list[AuditEvent],
    at: datetime,
    step: Step | None = None,
    supersede_from: int | None = None,
) -> bool:
    """Write a transition: the ruling's ``fields`` and audit head (only if nobody else moved
    the head since ``read_sequence`` was read), superseded steps, the new step, the events."""
    pending = batch.current()
    if pending is not None and pending.owns(ruling):
        steps = pending.steps[id(ruling)]
        if supersede_from is not None:
            for earlier in steps:
                if not earlier.superseded and earlier.order >= supersede_from:
                    earlier.superseded, earlier.superseded_at = True, at
        if step is not None:
            steps.append(step)
        pending.events.extend(events)
        ruling.updated_at = at
        return True
    values = {name: getattr(ruling, name) for name in fields}
    values.update(audit_sequence=ruling.audit_sequence, audit_head=ruling.audit_head, updated_at=at)
    # savepoint=False: called inside a caller's transaction (a batch of demo rulings, grading a
    # practice) the writes join it instead of paying for a savepoint; nothing is raised inside
    # the block after a write, so there is nothing to roll back to a savepoint.
    # Every answer passes here: the writes use SQL compiled once per process (lib.sql), not
    # the ORM's per-call compilation, which cost as much as the rest of the step (make bench).
    with transaction.atomic(savepoint=False):
        moved = sql.update(Ruling, values, id=ruling.pk, audit_sequence=read_sequence)
        if not moved:
            return False
        if supersede_from is not None:
            Step.objects.filter(ruling=ruling, superseded=False, order__gte=supersede_from).update(
                superseded=True, superseded_at=at
            )
        if step is not None:
            sql.insert([step])
        sql.insert(events)
    ruling.updated_at = at
    return True


_ANSWER_FIELDS = (
    "path",
    "earlier_answers",
    "revision",
    "current_node_key",
    "outcome_key",
    "outcome",
    "cited_articles",
)


# The statuses in which a ruling can no longer change, each with the reason it says why.
CLOSED: dict[str, str] = {
    Status.FINAL: WizardError.FINAL,
    Status.DISCARDED: WizardError.DISCARDED,
}


def _refuse_closed(ruling: Ruling) -> None:
    if ruling.status in CLOSED:
        raise WizardError(CLOSED[ruling.status])


def _check_open(ruling: Ruling) -> None:
    _refuse_closed(ruling)
    if ruling.status == Status.DEFERRED:
        raise WizardError(WizardError.DEFERRED)


def answer(
    ruling: Ruling,
    node_key: str,
    step_number: int,
    choice_key: str,
    actor: User,
    *,
    revision: int | None = None,
    at: datetime | None = None,
) -> Result:
    """Answer step ``step_number`` (the node ``node_key``) with ``choice_key``.

    ``revision`` is the ruling's revision the form was rendered with; None means the caller
    holds the current state (a script). The answer is refused when the form is stale (see the
    module docstring); an answer identical to the recorded one changes nothing.
    """
    at = at or timezone.now()
    for _attempt in range(ATTEMPTS):
        _check_open(ruling)
        tree = tree_of(ruling)
        answered = len(ruling.path)
        if not 1 <= step_number <= answered + 1:
            raise WizardError(WizardError.STALE, f"step {step_number} of {answered + 1}")
        expected = ruling.path[step_number - 1][0] if step_number <= answered else None
        expected = expected or ruling.current_node_key
        if node_key != expected:
            code = WizardError.STALE if tree.has_node(node_key) else WizardError.WRONG_NODE
            raise WizardError(code, f"step {step_number} is {expected!r}, not {node_key!r}")
        choice = _choice(tree, node_key, choice_key)
        if step_number <= answered and ruling.path[step_number - 1][1] == choice_key:
            return Result(ruling, step_number + 1, recorded=False)
        if revision is not None and revision != ruling.revision:
            raise WizardError(WizardError.STALE, f"revision {revision} != {ruling.revision}")

        read_sequence = ruling.audit_sequence
        change = step_number <= answered
        step, entries, reached = _record_answer(ruling, tree, step_number, choice, at)
        events = audit.chain(ruling, entries, actor, at)
        if _commit(
            ruling,
            read_sequence,
            _ANSWER_FIELDS,
            events,
            at,
            step=step,
            supersede_from=step_number if change else None,
        ):
            return Result(ruling, step_number + 1, recorded=True, outcome_reached=reached)
        ruling.refresh_from_db()
    raise WizardError(WizardError.CONFLICT)


# What a transition's plan returns: the fields it changed and its audit entries.
Plan = tuple[tuple[str, ...], list[tuple[str, dict[str, Any]]]]


def _simple_transition(
    ruling: Ruling,
    actor: User,
    at: datetime | None,
    plan: Callable[[Ruling, datetime], Plan | None],
) -> Result:
    """Run ``plan(ruling)`` — which checks the state, changes the ruling in memory and returns
    (fields written, audit entries), or None when there is nothing to do — and commit it,
    retrying on a concurrent change."""
    at = at or timezone.now()
    for _attempt in range(ATTEMPTS):
        read_sequence = ruling.audit_sequence
        planned = plan(ruling, at)
        if planned is None:
            return Result(ruling, len(ruling.path) + 1, recorded=False)
        fields, entries = planned
        events = audit.chain(ruling, entries, actor, at)
        if _commit(ruling, read_sequence, fields, events, at):
            return Result(ruling, len(ruling.path) + 1, recorded=True)
        ruling.refresh_from_db()
    raise WizardError(WizardError.CONFLICT)


def _context_changes(ruling: Ruling, values: dict[str, Any]) -> dict[str, list[Any]]:
    changes = {}
    for name in CONTEXT_FIELDS:
        if name in values and getattr(ruling, name) != values[name]:
            changes[name] = [getattr(ruling, name), values[name]]
    return changes


def edit_context(
    ruling: Ruling, values: dict[str, Any], actor: User, at: datetime | None = None
) -> Result:
    """Change the table context (date, event, round, table, board, seats, contract, notes)."""

    def plan(ruling: Ruling, at: datetime) -> Plan | None:
        _refuse_closed(ruling)
        changes = _context_changes(ruling, values)
        if not changes:
            return None
        for name, (_old, new) in changes.items():
            setattr(ruling, name, new)
        return tuple(changes), [(Action.CONTEXT_EDITED, {"changes": changes})]

    return _simple_transition(ruling, actor, at, plan)


def _move_to(
    ruling: Ruling, actor: User, at: datetime | None, status: str, action: str, **extra: str
) -> Result:
    """Change only the ruling's status (defer, resume, discard): nothing when it has that
    status already; never for a final or discarded ruling."""

    def plan(ruling: Ruling, at: datetime) -> Plan | None:
        if ruling.status == status:
            return None  # a repeated request changes nothing
        _refuse_closed(ruling)
        ruling.status = status
        data = {"step": len(ruling.path) + 1, "node": ruling.current_node_key, **extra}
        return ("status",), [(action, data)]

    return _simple_transition(ruling, actor, at, plan)


def defer(ruling: Ruling, actor: User, at: datetime | None = None) -> Result:
    """Park the ruling to decide later (e.g. at the end of the session)."""
    return _move_to(ruling, actor, at, Status.DEFERRED, Action.DEFERRED)


def resume(ruling: Ruling, actor: User, at: datetime | None = None) -> Result:
    """Take up a deferred ruling where it stopped."""
    return _move_to(ruling, actor, at, Status.IN_PROGRESS, Action.RESUMED)


def discard(ruling: Ruling, actor: User, reason: str = "", at: datetime | None = None) -> Result:
    """Abandon an unfinished ruling (started by mistake, or for a table that needed none). It
    is kept with its whole trail, marked, and out of the open list; it cannot go on."""
    return _move_to(ruling, actor, at, Status.DISCARDED, Action.DISCARDED, reason=reason)


def missing_to_save(ruling: Ruling, values: dict[str, Any] | None = None) -> list[str]:
    """The context fields a live ruling still needs before it can be saved."""
    if ruling.mode != Mode.LIVE:
        return []
    values = values or {}
    return [
        name for name in REQUIRED_TO_SAVE if values.get(name, getattr(ruling, name)) in (None, "")
    ]


def save(
    ruling: Ruling,
    actor: User,
    context: dict[str, Any] | None = None,
    at: datetime | None = None,
) -> Result:
    """Make the ruling final, with the context given (in the same transaction)."""

    def plan(ruling: Ruling, at: datetime) -> Plan | None:
        _refuse_closed(ruling)
        if not ruling.outcome_key or ruling.current_node_key != ruling.outcome_key:
            raise WizardError(WizardError.NO_OUTCOME)
        missing = missing_to_save(ruling, context)
        if missing:
            raise WizardError(WizardError.INCOMPLETE, ", ".join(missing))
        entries: list[tuple[str, dict[str, Any]]] = []
        changes = _context_changes(ruling, context or {})
        for name, (_old, new) in changes.items():
            setattr(ruling, name, new)
        if changes:
            entries.append((Action.CONTEXT_EDITED, {"changes": changes}))
        ruling.status = Status.FINAL
        ruling.finalised_at = at
        entries.append((Action.SAVED, {"outcome": ruling.outcome_key, "steps": len(ruling.path)}))
        return (*changes, "status", "finalised_at"), entries

    return _simple_transition(ruling, actor, at, plan)
