"""A ruling that goes on in another tree (issue 27C): one ruling, one audit chain, one save.

Some outcomes hand over to another tree (``see_tree``: "the card is a penalty card: go on
with the tree 'Strafkaart'"). The director continues there *within the same ruling*:
:func:`plan_hand_over` puts the tree as it ended (its path, outcome and legal basis) in
``Ruling.handed_over`` and starts the other tree's first question on the same ruling. Its
steps are numbered on from the earlier tree's (``Step.order``), the audit chain records the
hand-over (``handed_over``), the final save saves the ruling once, and the legal basis is
the union in order: the earlier tree's basis, then the current tree's, each key once.

The earlier part is done: a hand-over is a decision like a final answer. Going back to change
it means discarding this ruling and starting again (the trail keeps both).

A stale form (another tab, the answer changed since) changes nothing; the same hand-over sent
twice (a double click) is accepted once: the second finds the part it would have made.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from clubs.models import User
from rulings import legal_basis, transitions
from rulings.audit import Action
from rulings.errors import WizardError
from rulings.models import HandOver, Mode, Ruling, Status
from rulings.steps import tree_of
from rulings.transitions import UNCHANGED, Planned, Planner, Result, refuse_closed
from trees import snapshot
from trees.snapshot import pick
from trees.spec import Snapshot, text_json

__all__ = [
    "PART_KEYS",
    "basis_law",
    "earlier_basis",
    "hand_over",
    "part_from",
    "parts_shown",
    "plan_hand_over",
    "rows_of",
    "steps_before",
]

# The keys of one earlier part in ``Ruling.handed_over`` (checked as exactly these by the
# transfer bundle reader, transfer/shapes.py).
PART_KEYS = (
    "tree",
    "title",
    "edition",
    "version",
    "snapshot",
    "path",
    "outcome_key",
    "outcome",
    "basis",
    "revision",
)

# What a hand-over changes on the ruling: the earlier parts and the current tree's state.
_FIELDS = (
    "handed_over",
    "tree_slug",
    "tree_title",
    "edition_code",
    "tree_version",
    "snapshot_id",
    "current_node_key",
    "path",
    "earlier_answers",
    "outcome_key",
    "outcome",
    "revision",
)


def steps_before(parts: Sequence[Mapping[str, Any]]) -> int:
    """How many answers the earlier trees hold: the current tree's step N is ``Step.order``
    N plus this."""
    return sum(len(part.get("path") or ()) for part in parts)


def earlier_basis(parts: Sequence[Mapping[str, Any]]) -> list[str]:
    """The earlier trees' legal basis, in order, each key once."""
    return list(dict.fromkeys(key for part in parts for key in part.get("basis") or ()))


def part_from(ruling: Ruling, tree: Snapshot, revision: int) -> dict[str, Any]:
    """The current tree of ``ruling`` as it ended at its outcome, as ``handed_over`` keeps it."""
    return {
        "tree": ruling.tree_slug,
        "title": text_json(tree.title) or {"nl": ruling.tree_title, "en": ruling.tree_title},
        "edition": ruling.edition_code,
        "version": ruling.tree_version,
        "snapshot": ruling.snapshot_id,
        "path": [list(pair) for pair in ruling.path],
        "outcome_key": ruling.outcome_key,
        "outcome": ruling.outcome,
        "basis": legal_basis.tree_basis(tree, ruling.path, ruling.outcome_key),
        "revision": revision,
    }


def rows_of(ruling: Ruling) -> list[HandOver]:
    """The statistics' rows of the ruling's earlier trees (``HandOver``), one per part."""
    return [
        HandOver(
            ruling=ruling,
            position=position,
            tree_slug=str(part.get("tree", ""))[:80],
            outcome_key=str(part.get("outcome_key", ""))[:80],
        )
        for position, part in enumerate(ruling.handed_over)
    ]


def _repeated(ruling: Ruling, outcome_key: str, revision: int, to: Snapshot) -> bool:
    """Whether this very hand-over was made already (the form sent twice)."""
    if not ruling.handed_over:
        return False
    last = ruling.handed_over[-1]
    done = (last.get("outcome_key"), last.get("revision"))
    return done == (outcome_key, revision) and ruling.tree_slug == to.slug


def plan_hand_over(outcome_key: str, revision: int, to: Snapshot) -> Planner:
    """Go on in the tree ``to`` from the outcome ``outcome_key``, as the outcome page with
    ``revision`` offered it. Refused when the form is stale, the ruling is not at that outcome
    or the outcome does not hand over to ``to``; nothing to do when it was made already."""

    def plan(ruling: Ruling, at: datetime) -> Planned:
        refuse_closed(ruling)
        if _repeated(ruling, outcome_key, revision, to):
            return UNCHANGED
        if ruling.status == Status.DEFERRED:
            raise WizardError(WizardError.DEFERRED)
        if ruling.mode == Mode.TRAINING:
            # A practice is graded on its case's tree (training/grading.py): it ends there.
            raise WizardError(WizardError.NO_HAND_OVER, "a practice stays in its case's tree")
        at_outcome = ruling.outcome_key and ruling.current_node_key == ruling.outcome_key
        if revision != ruling.revision or not at_outcome or ruling.outcome_key != outcome_key:
            raise WizardError(WizardError.STALE, f"{outcome_key} at revision {revision}")
        tree = tree_of(ruling)
        outcome = tree.node(outcome_key).outcome
        target = outcome.see_tree if outcome is not None else None
        if target != to.slug or to.edition != ruling.edition_code:
            raise WizardError(WizardError.NO_HAND_OVER, f"{outcome_key} → {to.slug}")
        part = part_from(ruling, tree, revision)
        ruling.handed_over = [*ruling.handed_over, part]
        ruling.tree_slug = to.slug
        ruling.tree_title = pick(to.title, "nl")[:200]
        ruling.tree_version = to.version
        ruling.snapshot_id = to.digest
        ruling.current_node_key = to.start
        ruling.path, ruling.earlier_answers = [], {}
        ruling.outcome_key, ruling.outcome = "", {}
        ruling.revision += 1
        entry = {
            "from": {"tree": part["tree"], "version": part["version"], "outcome": outcome_key},
            "to": {"tree": to.slug, "version": to.version, "snapshot": to.digest},
            "steps": steps_before(ruling.handed_over),
        }
        # The legal basis stays: the earlier tree's rows until this tree reaches an outcome.
        rows = rows_of(ruling)[-1:]
        return Planned(_FIELDS, [(Action.HANDED_OVER, entry)], number=1, rows=rows)

    return plan


def hand_over(
    ruling: Ruling,
    outcome_key: str,
    revision: int,
    to: Snapshot,
    actor: User,
    at: datetime | None = None,
) -> Result:
    """Continue ``ruling`` in the tree ``to`` (:func:`plan_hand_over`)."""
    return transitions.run(ruling, actor, at, plan_hand_over(outcome_key, revision, to))


# --------------------------------------------------------------------------------------------
# What the pages show of the earlier trees


def basis_law(ruling: Ruling) -> dict[str, Any]:
    """An outcome-shaped mapping whose ``citations`` hold the law text every key of the
    ruling's legal basis recorded: the current outcome's, then each earlier part's outcome
    and tree (for ``legal_basis.shown``)."""
    recorded = list((ruling.outcome or {}).get("citations") or [])
    for part in ruling.handed_over:
        recorded += (part.get("outcome") or {}).get("citations") or []
        tree = snapshot.find(part.get("snapshot"))
        if tree is not None:
            recorded += [law.to_json() for law in tree.law.values()]
    return {"citations": recorded}


def parts_shown(ruling: Ruling, language: str | None = None) -> list[dict[str, Any]]:
    """The earlier trees as the outcome page, the record and its print name them: title,
    outcome title, where its steps start and end (``Step.order``), and its answers in words."""
    shown, first = [], 1
    for part in ruling.handed_over:
        tree = snapshot.find(part.get("snapshot"))
        answers = []
        for node_key, choice_key in part.get("path") or ():
            node = tree.node(node_key) if tree is not None and tree.has_node(node_key) else None
            choice = node.choice(choice_key) if node is not None else None
            answers.append(
                {
                    "question": pick(node.text, language) if node else node_key,
                    "answer": pick(choice.label, language) if choice else choice_key,
                }
            )
        outcome = part.get("outcome") or {}
        shown.append(
            {
                "tree": part.get("tree", ""),
                "title": pick(part.get("title"), language) or part.get("tree", ""),
                "outcome_key": part.get("outcome_key", ""),
                "outcome_title": pick(outcome.get("title"), language),
                "first": first,
                "last": first + len(answers) - 1,
                "answers": answers,
            }
        )
        first += len(answers)
    return shown
