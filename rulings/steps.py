"""What the wizard pages show for one step of a ruling, read from its frozen tree.

Plain functions over a :class:`~rulings.models.Ruling` and its :class:`~trees.spec.Snapshot`
(kept in memory by :mod:`trees.snapshot`): reading a step costs no query beyond the ruling.
The transitions that change a ruling are in :mod:`rulings.wizard`.
"""

from __future__ import annotations

import functools
import uuid as uuid_lib
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.urls import reverse

from clubs.models import User
from lib.text import unique_citations
from rulings.errors import WizardError
from rulings.models import Mode, Ruling, Status
from trees import progress, routes, snapshot
from trees.spec import CitedLaw, NodeSpec, Snapshot, Text

__all__ = [
    "ChoiceView",
    "PathEntry",
    "StepView",
    "answered_path",
    "draft_view",
    "law_cards",
    "open_rulings",
    "step_progress",
    "step_view",
    "tree_of",
]


@dataclass(frozen=True)
class PathEntry:
    number: int
    node_key: str
    question: Text
    answer: Text
    choice_key: str
    url: str = ""  # the step's own page (going back to it)


# The keys that choose an answer, in order: 1–9, 0 for the tenth, then letters.
SHORTCUTS = "1234567890abcdefghijklmnopqrstuvwxyz"


@dataclass(frozen=True)
class ChoiceView:
    """A choice as the page offers it: numbered from 1, with the key that chooses it."""

    key: str
    label: Text
    target: str
    number: int
    selected: bool

    @property
    def shortcut(self) -> str:
        return SHORTCUTS[self.number - 1] if self.number <= len(SHORTCUTS) else ""


@dataclass(frozen=True)
class StepView:
    """Everything a page shows for one step of a ruling (or of a ruling about to start)."""

    tree: Snapshot
    number: int
    node_key: str
    node: NodeSpec
    # The ruling's answers so far, (node, choice) pairs, and its uuid (for the links back).
    answers: list[list[str]]
    revision: int
    # The answered step being looked at again (going back) rather than the current question.
    revisit: bool = False
    # The choice shown as chosen: the given answer when revisiting, else an answer the same
    # question got before it was superseded, else the answer on the way to the question a
    # search opened the tree at (``toward``, trees/routes.py).
    selected: str | None = None
    selected_earlier: bool = False
    toward: str = ""
    on_the_way: bool = False

    @property
    def is_outcome(self) -> bool:
        return self.node.is_outcome

    ruling_uuid: uuid_lib.UUID | None = None

    @functools.cached_property
    def path(self) -> list[PathEntry]:
        """The answered steps with their links, made only when a page shows them (an
        outcome does not: its answers are listed with the context form)."""
        return _path_entries(self.tree, self.answers, self.ruling_uuid)

    @property
    def current_number(self) -> int:
        """The number of the step that is next to be answered (or the outcome)."""
        return len(self.answers) + 1

    @property
    def previous_number(self) -> int | None:
        return self.number - 1 if self.number > 1 else None

    @property
    def toward_text(self) -> Text:
        """The question the search found (shown above the questions on the way to it)."""
        return self.tree.node(self.toward).text if self.toward else Text("", "")

    @property
    def choices(self) -> list[ChoiceView]:
        """The node's choices numbered from 1, the selected one marked."""
        return [
            ChoiceView(c.key, c.label, c.target, number, c.key == self.selected)
            for number, c in enumerate(self.node.choices, start=1)
        ]


def law_cards(citations: Iterable[CitedLaw]) -> list[dict[str, Any]]:
    """The citations as shown beside a step (template data), each text once
    (:func:`lib.text.unique_citations`: e.g. 64A1 and 64C of the 2017 edition share the
    article's summary, so one card)."""
    return unique_citations(citation.to_json() for citation in citations)


def _path_entries(
    tree: Snapshot, path: list[list[str]], ruling: uuid_lib.UUID | None = None
) -> list[PathEntry]:
    """The answered steps; with the ``ruling``'s uuid, each with its link."""
    entries = []
    for number, (node_key, choice_key) in enumerate(path, start=1):
        choice = tree.choice(node_key, choice_key)
        question = tree.node(node_key).text if tree.has_node(node_key) else Text("", "")
        answer = choice.label if choice else Text(choice_key, choice_key)
        entries.append(
            PathEntry(
                number=number,
                node_key=node_key,
                question=question,
                answer=answer,
                choice_key=choice_key,
                url=reverse("wizard:step", args=[ruling, number]) if ruling else "",
            )
        )
    return entries


def tree_of(ruling: Ruling) -> Snapshot:
    if not ruling.snapshot_id:
        # Made outside the wizard (an old or hand-made ruling): nothing to continue on.
        raise WizardError(WizardError.NO_TREE, str(ruling.uuid))
    return snapshot.get(ruling.snapshot_id)


def _on_the_way(tree: Snapshot, node_key: str, target: str) -> tuple[str, str | None]:
    """``target`` if the step at ``node_key`` is it or on the way to it (else ""), and the
    answer here that leads there."""
    answers = routes.toward(tree, target)
    if node_key != target and node_key not in answers:
        return "", None
    return target, answers.get(node_key)


def step_view(ruling: Ruling, number: int | None = None, toward: str = "") -> StepView:
    """The state of step ``number`` (default: the current step), on the way to the question
    ``toward`` when a search opened the tree there. ``number`` beyond the current step is
    clamped to it; lower than 1 raises ValueError."""
    tree = tree_of(ruling)
    path = ruling.path
    current = len(path) + 1
    number = current if number is None else min(number, current)
    if number < 1:
        raise ValueError(number)
    if number < current:
        node_key, selected = path[number - 1]
        revisit, earlier = True, False
    else:
        node_key = ruling.current_node_key
        selected = ruling.earlier_answers.get(node_key)
        revisit, earlier = False, selected is not None
    node = tree.node(node_key)
    if selected is not None and node.choice(selected) is None:
        selected = None
    toward, leading = _on_the_way(tree, node_key, toward)
    on_the_way = selected is None and leading is not None
    return StepView(
        tree=tree,
        number=number,
        node_key=node_key,
        node=node,
        answers=path,
        revision=ruling.revision,
        revisit=revisit,
        selected=leading if on_the_way else selected,
        selected_earlier=earlier and selected is not None,
        toward=toward,
        on_the_way=on_the_way,
        ruling_uuid=ruling.uuid,
    )


def answered_path(ruling: Ruling) -> list[PathEntry]:
    """The questions and answers of the ruling's current path (what "Controleer uw
    antwoorden" lists before the final save)."""
    return _path_entries(tree_of(ruling), ruling.path, ruling.uuid)


def step_progress(view: StepView) -> progress.Progress | None:
    """The hint "Vraag 3 van ongeveer 6" for a question step (None at an outcome): from the longest
    remaining path in the ruling's own snapshot, computed once per snapshot."""
    if view.is_outcome:
        return None
    return progress.progress(progress.remaining_for(view.tree), view.node_key, view.number)


def draft_view(tree: Snapshot, node_key: str = "", toward: str = "") -> StepView:
    """The first question of a ruling that does not exist yet (or ``node_key`` as a director
    first meets it: nothing chosen), on the way to the question ``toward`` when a search
    opened the tree there."""
    key = node_key or tree.start
    toward, leading = _on_the_way(tree, key, toward)
    return StepView(
        tree=tree,
        number=1,
        node_key=key,
        node=tree.node(key),
        answers=[],
        revision=0,
        selected=leading,
        toward=toward,
        on_the_way=leading is not None,
    )


def open_rulings(user: User, club_ids: Any, limit: int = 50) -> list[Ruling]:
    """The user's live rulings that are not final (unfinished or deferred), latest first,
    in the clubs they still belong to."""
    rulings = Ruling.objects.filter(
        director=user,
        club_id__in=list(club_ids),
        mode=Mode.LIVE,
        status__in=[Status.IN_PROGRESS, Status.DEFERRED],
    )
    return list(rulings.order_by("-updated_at")[:limit])
