"""The wizard: from "Director, please!" to a saved ruling.

Plain functions over a :class:`~rulings.models.Ruling` and its frozen tree (a
:class:`~trees.spec.Snapshot`, kept in memory by :mod:`trees.snapshot`); views only call them
and render the result. What a page shows for a step is read by :mod:`rulings.steps`.

- :func:`start` freezes the chosen tree; nothing is stored yet. :func:`begin` records the first
  answer and creates the ruling (a ruling exists from its first answer, so closing the browser
  loses nothing, and picking the wrong tree leaves nothing behind). The ruling's uuid comes
  with the draft page, so a first answer sent again (a double click, the back button) is an
  answer to the ruling the first one made: the one flow for live rulings and practices.
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

Every transition is a planner (it checks the state and changes the ruling in memory) written by
:mod:`rulings.transitions` in one transaction whose first statement is a compare-and-swap on the
ruling's audit head (``UPDATE ... WHERE audit_sequence = <read>``): two concurrent transitions
cannot both win, on SQLite or PostgreSQL, without holding a lock while the page is rendered. The
loser reads the ruling again and is validated afresh. A step costs a handful of queries,
independent of the size of the tree (frozen and cached) and of the number of stored rulings.
"""

from __future__ import annotations

import uuid as uuid_lib
from dataclasses import replace
from datetime import date, datetime
from typing import Any

from clubs.models import Club, User
from rulings import legal_basis, pairs, transitions
from rulings.audit import Action
from rulings.errors import WizardError
from rulings.hand_over import earlier_basis, steps_before
from rulings.models import Mode, PairRecord, Ruling, Status, Step
from rulings.steps import tree_of
from rulings.transitions import UNCHANGED, Planned, Planner, Result, refuse_closed
from trees import snapshot
from trees.models import Tree
from trees.snapshot import pick
from trees.spec import ChoiceSpec, Snapshot, outcome_json, text_json

__all__ = [
    "Result",
    "WizardError",
    "answer",
    "begin",
    "defer",
    "discard",
    "edit_context",
    "missing_to_save",
    "new_ruling",
    "plan_answer",
    "plan_defer",
    "plan_first_answer",
    "plan_save",
    "resume",
    "resume_step",
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
    "pair_ns",
    "pair_ew",
    "contract_level",
    "contract_strain",
    "contract_doubled",
    "auction",
    "notes",
)
# A live ruling is final only with these: the archive is searched by date and board.
REQUIRED_TO_SAVE = ("played_on", "board")


# --------------------------------------------------------------------------------------------
# Transitions: each is a planner (rulings.transitions) written by transitions.run


def start(slug: str) -> Snapshot:
    """The tree to start a ruling with, frozen as it is loaded now. Writes no ruling."""
    try:
        tree = Tree.objects.select_related("edition").get(slug=slug)
    except Tree.DoesNotExist:
        raise WizardError(WizardError.NO_TREE, slug) from None
    return snapshot.freeze(tree)


def _outcome_snapshot(tree: Snapshot, key: str) -> dict[str, Any]:
    """What ``Ruling.outcome`` keeps of the outcome reached (its own copy, with the law)."""
    node = tree.node(key)
    assert node.outcome is not None
    return {
        "key": key,
        "title": text_json(node.text),
        **outcome_json(node.outcome),
        "citations": [law.to_json() for law in tree.citations(key)],
    }


def _choice(tree: Snapshot, node_key: str, choice_key: str) -> ChoiceSpec:
    if not tree.has_node(node_key) or tree.is_outcome(node_key):
        raise WizardError(WizardError.WRONG_NODE, node_key)
    choice = tree.choice(node_key, choice_key)
    if choice is None:
        raise WizardError(WizardError.NOT_A_CHOICE, f"{node_key}: {choice_key!r}")
    return choice


# What an answer changes on the ruling.
_ANSWER_FIELDS = (
    "path",
    "earlier_answers",
    "revision",
    "current_node_key",
    "outcome_key",
    "outcome",
    "cited_articles",
)


def _record_answer(
    ruling: Ruling, tree: Snapshot, number: int, choice: ChoiceSpec, at: datetime
) -> Planned:
    """Apply the answer at step ``number`` to the ruling in memory: the new step, the audit
    entries, the steps it supersedes and whether an outcome was reached. In a ruling handed
    over from another tree (rulings/hand_over.py) the steps and the audit number on from the
    earlier tree's answers, and the legal basis starts with the earlier tree's."""
    change = number <= len(ruling.path)
    had_outcome = bool(ruling.outcome_key)
    offset = steps_before(ruling.handed_over)
    earlier = earlier_basis(ruling.handed_over)
    if change:
        node_key, old_choice = ruling.path[number - 1]
        superseded = ruling.path[number - 1 :]
        remembered = dict(ruling.earlier_answers)
        remembered.update({node: answer for node, answer in superseded})
        ruling.earlier_answers = remembered
        start = offset + number
        entry = (
            Action.ANSWER_CHANGED,
            {
                "step": start,
                "node": node_key,
                "from": old_choice,
                "to": choice.key,
                "superseded": [[n, *pair] for n, pair in enumerate(superseded, start=start)],
            },
        )
    else:
        node_key = ruling.current_node_key
        entry = (
            Action.ANSWERED,
            {"step": offset + number, "node": node_key, "choice": choice.key},
        )
    node = tree.node(node_key)
    step = Step(
        ruling=ruling,
        order=offset + number,
        node_key=node_key,
        question={"nl": node.text.nl, "en": node.text.en, "help": text_json(node.help)},
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
        entries.append(
            (Action.OUTCOME_REACHED, {"step": offset + number, "outcome": choice.target})
        )
    else:
        ruling.outcome_key, ruling.outcome = "", {}
    basis = earlier
    if reached:
        basis = legal_basis.basis_keys(
            earlier, legal_basis.tree_basis(tree, ruling.path, choice.target)
        )
    transitions.set_basis(ruling, basis)
    return Planned(
        _ANSWER_FIELDS,
        entries,
        step=step,
        supersede_from=offset + number if change else None,
        number=number + 1,
        outcome_reached=reached,
        # Only when the outcome changes: a question answered on the way writes no basis.
        legal_basis=tuple(basis) if reached or had_outcome else None,
        # An earlier tree's basis rows are there already (rulings/hand_over.py).
        clears_basis=had_outcome or (reached and bool(earlier)),
    )


def new_ruling(
    *,
    uuid: uuid_lib.UUID,
    club: Club,
    director: User,
    tree: Snapshot,
    mode: str = Mode.LIVE,
    played_on: date | None = None,
    **extra: Any,
) -> Ruling:
    """A ruling about to start on ``tree``, not stored: it is stored with its first answer
    (``extra``: further Ruling fields, e.g. the training case)."""
    return Ruling(
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


def plan_first_answer(tree: Snapshot, node_key: str, choice_key: str) -> Planner:
    """The first answer, on the draft page's ``tree``. On a ruling not stored yet
    (:func:`new_ruling`) it starts the ruling: the ``started`` entry, then the answer. On a
    stored one (the first answer sent again, or the other half of a double click that made
    it) it answers step 1 as the draft page was rendered, before the ruling existed: at
    revision 0, so the same answer changes nothing and another one is stale."""

    def plan(ruling: Ruling, at: datetime) -> Planned:
        if ruling.pk is not None:
            return plan_answer(node_key, 1, choice_key, revision=0)(ruling, at)
        if node_key != tree.start:
            raise WizardError(WizardError.WRONG_NODE, node_key)
        choice = _choice(tree, node_key, choice_key)
        started = {
            "tree": tree.slug,
            "edition": tree.edition,
            "version": tree.version,
            "snapshot": tree.digest,
            "mode": ruling.mode,
        }
        answered = _record_answer(ruling, tree, 1, choice, at)
        return replace(answered, entries=[(Action.STARTED, started), *answered.entries])

    return plan


def begin(
    *,
    director: User,
    tree: Snapshot,
    node_key: str,
    choice_key: str,
    at: datetime | None = None,
    **ruling: Any,
) -> Result:
    """The first answer of a new ruling (the other arguments: :func:`new_ruling`'s), which
    creates it; for a uuid stored already, an answer to that ruling
    (:func:`plan_first_answer`), whose result holds the stored ruling."""
    made = new_ruling(director=director, tree=tree, **ruling)
    return transitions.run(made, director, at, plan_first_answer(tree, node_key, choice_key))


def _check_open(ruling: Ruling) -> None:
    refuse_closed(ruling)
    if ruling.status == Status.DEFERRED:
        raise WizardError(WizardError.DEFERRED)


def plan_answer(
    node_key: str, step_number: int, choice_key: str, *, revision: int | None = None
) -> Planner:
    """Answer step ``step_number`` (the node ``node_key``) with ``choice_key``.

    ``revision`` is the ruling's revision the form was rendered with; None means the caller
    holds the current state (a script). The answer is refused when the form is stale (see the
    module docstring); an answer identical to the recorded one changes nothing.
    """

    def plan(ruling: Ruling, at: datetime) -> Planned:
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
            return replace(UNCHANGED, number=step_number + 1)
        if revision is not None and revision != ruling.revision:
            raise WizardError(WizardError.STALE, f"revision {revision} != {ruling.revision}")
        return _record_answer(ruling, tree, step_number, choice, at)

    return plan


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
    """Record an answer (:func:`plan_answer`)."""
    plan = plan_answer(node_key, step_number, choice_key, revision=revision)
    return transitions.run(ruling, actor, at, plan)


def edit_context(
    ruling: Ruling, values: dict[str, Any], actor: User, at: datetime | None = None
) -> Result:
    """Change the table context (date, event, round, table, board, seats, contract, notes)."""

    def plan(ruling: Ruling, at: datetime) -> Planned:
        refuse_closed(ruling)
        changes = transitions.context_changes(ruling, values, CONTEXT_FIELDS)
        if not changes:
            return UNCHANGED
        for name, (_old, new) in changes.items():
            setattr(ruling, name, new)
        return Planned(tuple(changes), [(Action.CONTEXT_EDITED, {"changes": changes})])

    return transitions.run(ruling, actor, at, plan)


def _moving_to(status: str, action: str, **extra: str) -> Planner:
    """Change only the ruling's status (defer, resume, discard): nothing when it has that
    status already; never for a final or discarded ruling."""

    def plan(ruling: Ruling, at: datetime) -> Planned:
        if ruling.status == status:
            return UNCHANGED  # a repeated request changes nothing
        refuse_closed(ruling)
        ruling.status = status
        step = steps_before(ruling.handed_over) + len(ruling.path) + 1
        data = {"step": step, "node": ruling.current_node_key, **extra}
        return Planned(("status",), [(action, data)])

    return plan


def plan_defer() -> Planner:
    """Park the ruling to decide later (e.g. at the end of the session)."""
    return _moving_to(Status.DEFERRED, Action.DEFERRED)


def defer(ruling: Ruling, actor: User, at: datetime | None = None) -> Result:
    return transitions.run(ruling, actor, at, plan_defer())


def resume_step(ruling: Ruling) -> int | None:
    """Where a ruling deferred at its outcome resumes: the step of the question the outcome
    names (``resume_at``: "revoke established, play on" resumes at "when was it noticed?"
    once play has ended), so the director answers it afresh; None: where it stopped."""
    target = (ruling.outcome or {}).get("resume_at")
    if not target or ruling.current_node_key != ruling.outcome_key:
        return None
    steps = (n for n, (node_key, _choice) in enumerate(ruling.path, start=1) if node_key == target)
    return next(steps, None)


def resume(ruling: Ruling, actor: User, at: datetime | None = None) -> Result:
    """Take up a deferred ruling where it stopped."""
    return transitions.run(ruling, actor, at, _moving_to(Status.IN_PROGRESS, Action.RESUMED))


def discard(ruling: Ruling, actor: User, reason: str = "", at: datetime | None = None) -> Result:
    """Abandon an unfinished ruling (started by mistake, or for a table that needed none). It
    is kept with its whole trail, marked, and out of the open list; it cannot go on."""
    plan = _moving_to(Status.DISCARDED, Action.DISCARDED, reason=reason)
    return transitions.run(ruling, actor, at, plan)


def missing_to_save(ruling: Ruling, values: dict[str, Any] | None = None) -> list[str]:
    """The context fields a live ruling still needs before it can be saved."""
    if ruling.mode != Mode.LIVE:
        return []
    values = values or {}
    return [
        name for name in REQUIRED_TO_SAVE if values.get(name, getattr(ruling, name)) in (None, "")
    ]


def plan_save(context: dict[str, Any] | None = None, record_pair: bool = False) -> Planner:
    """Make the ruling final, with the context given (in the same transaction). A live ruling
    of the psyche tree, or another one with ``record_pair``, is recorded against the offending
    side's pair in the club's psyche register (``rulings.pairs``)."""

    def plan(ruling: Ruling, at: datetime) -> Planned:
        refuse_closed(ruling)
        if not ruling.outcome_key or ruling.current_node_key != ruling.outcome_key:
            raise WizardError(WizardError.NO_OUTCOME)
        missing = missing_to_save(ruling, context)
        if missing:
            raise WizardError(WizardError.INCOMPLETE, ", ".join(missing))
        entries: transitions.Entries = []
        changes = transitions.context_changes(ruling, context or {}, CONTEXT_FIELDS)
        for name, (_old, new) in changes.items():
            setattr(ruling, name, new)
        if changes:
            entries.append((Action.CONTEXT_EDITED, {"changes": changes}))
        ruling.status = Status.FINAL
        ruling.finalised_at = at
        entries.append((Action.SAVED, {"outcome": ruling.outcome_key, "steps": len(ruling.path)}))
        rows: list[PairRecord] = []
        if pairs.always_records(ruling) or (record_pair and pairs.may_record(ruling)):
            rows, recorded = pairs.record(ruling, at)
            entries.extend(recorded)
        return Planned((*changes, "status", "finalised_at"), entries, rows=rows)

    return plan


def save(
    ruling: Ruling,
    actor: User,
    context: dict[str, Any] | None = None,
    at: datetime | None = None,
    record_pair: bool = False,
) -> Result:
    return transitions.run(ruling, actor, at, plan_save(context, record_pair))
