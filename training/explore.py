"""Explore (*verkennen*): walk a loaded tree freely, state in the URL (``?pad=ja,nee``),
nothing saved. The walk runs on the tree's snapshot (frozen once and kept in memory)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.utils.safestring import mark_safe

from lib.i18n import active_language
from training.grading import LawText, unique_law_texts
from trees import snapshot
from trees.diagram import render_svg
from trees.models import Tree
from trees.snapshot import pick
from trees.spec import CitedLaw, NodeSpec, TreeSpec


def split_path(raw: str) -> list[str]:
    """``"ja,nee, ja"`` → ``["ja", "nee", "ja"]`` (only slug-like keys are kept)."""
    return [part for part in (p.strip().lower() for p in (raw or "").split(",")) if part]


# --------------------------------------------------------------------------------------------
# Explore: walk a loaded tree freely, state in the URL (?pad=ja,nee), nothing saved


@dataclass(frozen=True)
class ExploreStep:
    node_key: str
    question: str
    choice_key: str
    answer: str
    back_path: str  # the ``pad`` that returns to this question


@dataclass(frozen=True)
class ExploreChoice:
    key: str
    label: str
    path: str  # the ``pad`` after choosing it
    number: int


@dataclass
class ExploreWalk:
    slug: str
    title: str
    edition: str
    answers: list[str]
    steps: list[ExploreStep]
    node_key: str
    node: NodeSpec
    citations: tuple[CitedLaw, ...]
    choices: list[ExploreChoice]
    corrected: bool
    diagram: str = ""

    @property
    def is_outcome(self) -> bool:
        return self.node.is_outcome

    @property
    def path(self) -> str:
        return ",".join(self.answers)

    @property
    def heading(self) -> str:
        """The question, or the outcome's title."""
        return pick(self.node.text)

    @property
    def help(self) -> str:
        return pick(self.node.help)

    @property
    def outcome(self) -> dict[str, str]:
        outcome = self.node.outcome
        if outcome is None:
            return {name: "" for name in ("ruling", "options", "announce")}
        return {
            "ruling": pick(outcome.ruling),
            "options": pick(outcome.options),
            "announce": pick(outcome.announce),
        }

    @property
    def law(self) -> list[LawText]:
        return unique_law_texts(self.citations)

    @property
    def flags(self) -> dict[str, Any]:
        outcome = self.node.outcome
        return {
            "adjusted_score": outcome.adjusted_score if outcome else False,
            "unauthorised_information": outcome.unauthorised_information if outcome else False,
            "see_tree": outcome.see_tree if outcome else None,
        }


def explore_walk(slug: str, raw_path: str) -> ExploreWalk | None:
    """Follow ``raw_path`` through the loaded tree ``slug``. Answers that do not fit are cut
    off at the first one (``corrected`` then tells the view to redirect to the clean URL)."""
    loaded = Tree.objects.select_related("edition").filter(slug=slug).first()
    if loaded is None:
        return None
    frozen = snapshot.freeze(loaded)
    tree = frozen.tree
    wanted = split_path(raw_path)
    answers: list[str] = []
    steps: list[ExploreStep] = []
    node = tree.node(tree.start)
    for answer in wanted:
        choice = node.choice(answer)
        if choice is None:
            break
        steps.append(
            ExploreStep(node.key, pick(node.text), answer, pick(choice.label), ",".join(answers))
        )
        answers.append(answer)
        node = tree.node(choice.target)
    choices = [
        ExploreChoice(c.key, pick(c.label), ",".join([*answers, c.key]), number)
        for number, c in enumerate(node.choices, start=1)
    ]
    routes = first_routes(tree)
    diagram = render_svg(
        tree,
        language=active_language(),
        highlight=node.key,
        href=lambda node_key: "?pad=" + ",".join(routes.get(node_key, [])),
        title=pick(tree.title),
    )
    return ExploreWalk(
        slug=slug,
        title=pick(tree.title),
        edition=tree.edition,
        answers=answers,
        steps=steps,
        node_key=node.key,
        node=node,
        citations=frozen.citations(node.key),
        choices=choices,
        corrected=answers != wanted,
        # Built from escaped pieces in trees.diagram.
        diagram=mark_safe(diagram),
    )


def first_routes(tree: TreeSpec) -> dict[str, list[str]]:
    """For every node, the answers of the first path (in file order) that reaches it."""
    routes: dict[str, list[str]] = {tree.start: []}
    todo = [tree.start]
    while todo:
        key = todo.pop(0)
        for choice in tree.node(key).choices:
            if choice.target not in routes and tree.has_node(choice.target):
                routes[choice.target] = [*routes[key], choice.key]
                todo.append(choice.target)
    return routes
