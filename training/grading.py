"""Grading a practice ruling, and what its feedback page shows.

A practice is graded against the tree snapshot its ruling ran on (``Ruling.snapshot``), never
against the tree file: editing or reloading a tree later changes neither the grade nor the
model path and law text shown with it. :func:`grade` compares the trainee's path with the model
path and finds the first divergence.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from django.core.exceptions import ObjectDoesNotExist
from django.db import transaction
from django.utils import timezone

from lib.text import law_anchor, unique_citations
from rulings import wizard
from rulings.models import Mode, Ruling, Status
from training.models import TrainingCase, TrainingResult
from trees import snapshot
from trees.snapshot import pick
from trees.spec import CitedLaw, Snapshot, TreeError, TreeSpec
from trees.validate import paths

PathSteps = list[tuple[str, str]]


# --------------------------------------------------------------------------------------------
# Grading


@dataclass(frozen=True)
class Grade:
    correct: bool
    outcome_key: str
    trainee_path: PathSteps
    model_path: PathSteps
    divergence: int | None  # index of the first step that differs; None: the paths agree


def first_divergence(
    trainee: Sequence[Sequence[str]], model: Sequence[Sequence[str]]
) -> int | None:
    """Index of the first step where the paths differ (node or choice); None if identical."""
    for index, (mine, theirs) in enumerate(zip(trainee, model, strict=False)):
        if tuple(mine) != tuple(theirs):
            return index
    if len(trainee) != len(model):
        return min(len(trainee), len(model))
    return None


def _common_prefix(a: Sequence[Sequence[str]], b: Sequence[Sequence[str]]) -> int:
    divergence = first_divergence(a, b)
    return min(len(a), len(b)) if divergence is None else divergence


def model_path_for(
    case: TrainingCase, trainee: Sequence[Sequence[str]], tree: TreeSpec | None
) -> PathSteps:
    """The case's expected path; without one, the tree path to an expected outcome that stays
    with the trainee longest (so the divergence shown is the one that mattered)."""
    if case.expected_path:
        return [(node, choice) for node, choice in case.expected_path]
    if tree is None:
        return []
    try:
        candidates = [p for p in paths(tree) if p.outcome in case.expected_outcomes]
    except TreeError:
        return []
    if not candidates:
        return []
    best = max(candidates, key=lambda p: _common_prefix(trainee, p.steps))
    return list(best.steps)


def grade_path(
    case: TrainingCase, trainee: Sequence[Sequence[str]], outcome_key: str, tree: TreeSpec | None
) -> Grade:
    trainee_path = [(node, choice) for node, choice in trainee]
    model = model_path_for(case, trainee_path, tree)
    correct = outcome_key in case.expected_outcomes and (
        not case.expected_path or first_divergence(trainee_path, model) is None
    )
    return Grade(
        correct=correct,
        outcome_key=outcome_key,
        trainee_path=trainee_path,
        model_path=model,
        divergence=first_divergence(trainee_path, model),
    )


def ruling_path(ruling: Ruling) -> PathSteps:
    """The answers of a ruling that count, in order (the wizard keeps them in ``path``)."""
    return [(node_key, choice_key) for node_key, choice_key in ruling.path]


def grade(ruling: Ruling) -> TrainingResult:
    """Grade a practice ruling that reached its outcome, once: the first grade is kept.
    The ruling is made final with it (a practice needs no table context), so the answers
    cannot be changed after the trainee has seen the model path."""
    existing = TrainingResult.objects.filter(ruling=ruling).first()
    if existing is not None:
        return existing
    case = ruling.training_case
    if case is None or ruling.mode != Mode.TRAINING:
        raise ValueError("only a practice ruling can be graded")
    if not ruling.outcome_key or ruling.current_node_key != ruling.outcome_key:
        raise wizard.WizardError(wizard.WizardError.NO_OUTCOME)
    result = grade_path(case, ruling_path(ruling), ruling.outcome_key, ruling_tree(ruling))
    with transaction.atomic():
        if ruling.status != Status.FINAL:
            wizard.save(ruling, ruling.director)
        return TrainingResult.objects.create(
            ruling=ruling,
            correct=result.correct,
            outcome_key=result.outcome_key,
            expected_outcomes=list(case.expected_outcomes),
            trainee_path=[list(step) for step in result.trainee_path],
            model_path=[list(step) for step in result.model_path],
            divergence=result.divergence,
            graded_at=timezone.now(),
        )


# --------------------------------------------------------------------------------------------
# Path display


@dataclass(frozen=True)
class PathRow:
    """One row of the side-by-side comparison: a step of the trainee and of the model."""

    index: int
    trainee: tuple[str, str] | None
    model: tuple[str, str] | None
    trainee_text: tuple[str, str] | None
    model_text: tuple[str, str] | None
    diverges: bool
    after_divergence: bool


def _step_text(tree: TreeSpec | None, step: Sequence[str] | None, language: str):
    if step is None:
        return None
    node_key, choice_key = step
    if tree is None or not tree.has_node(node_key):
        return (node_key, choice_key)
    node = tree.node(node_key)
    choice = node.choice(choice_key)
    return (node.text.get(language), choice.label.get(language) if choice else choice_key)


def compare_rows(result: TrainingResult, tree: TreeSpec | None, language: str) -> list[PathRow]:
    trainee, model = result.trainee_path, result.model_path
    rows = []
    for index in range(max(len(trainee), len(model))):
        mine = tuple(trainee[index]) if index < len(trainee) else None
        theirs = tuple(model[index]) if index < len(model) else None
        rows.append(
            PathRow(
                index=index,
                trainee=mine,
                model=theirs,
                trainee_text=_step_text(tree, mine, language),
                model_text=_step_text(tree, theirs, language),
                diverges=result.divergence == index,
                after_divergence=result.divergence is not None and index > result.divergence,
            )
        )
    return rows


def outcome_title(tree: TreeSpec | None, key: str, language: str) -> str:
    if tree is not None and tree.has_node(key):
        return tree.node(key).text.get(language)
    return key


# --------------------------------------------------------------------------------------------
# Law text on the feedback page


@dataclass(frozen=True)
class LawText:
    """One citation as shown: official text, our summary (labelled), or just the title."""

    key: str  # every key that shows this text, comma-separated
    edition: str
    article: str
    article_title: str
    kind: str  # official | summary | title | missing
    text: str
    anchor: str = ""  # where the article page shows this text (lib.text.law_anchor)

    @property
    def is_summary(self) -> bool:
        return self.kind == "summary"


def law_text(citation: CitedLaw, keys: Sequence[str] = ()) -> LawText:
    """A citation of a tree snapshot in the active language; ``keys`` when one text stands for
    several citations (see :func:`unique_law_texts`)."""
    cited = list(keys) or [citation.key]
    return LawText(
        key=", ".join(cited),
        edition=citation.edition,
        article=citation.article,
        article_title=citation.article_title,
        kind=citation.kind,
        text=pick(citation.text),
        anchor=law_anchor(cited[0], citation.article, citation.kind),
    )


def law_texts(ruling: Ruling, case: TrainingCase) -> list[LawText]:
    """The law text the correct outcome cites, as the ruling's tree snapshot holds it (official
    text where imported, otherwise our summary), without repeats."""
    frozen = ruling_snapshot(ruling)
    if frozen is None:
        return []
    citations = [
        citation
        for key in case.expected_outcomes
        if frozen.has_node(key)
        for citation in frozen.citations(key)
    ]
    return unique_law_texts(citations)


def unique_law_texts(citations: Iterable[CitedLaw]) -> list[LawText]:
    """Each text once, as everywhere else (:func:`lib.text.unique_citations`)."""
    entries = unique_citations(
        {
            "key": citation.key,
            "edition": citation.edition,
            "article": citation.article,
            "kind": citation.kind,
            "cited": citation,
        }
        for citation in citations
    )
    return [law_text(entry["cited"], entry["keys"]) for entry in entries]


def ruling_snapshot(ruling: Ruling) -> Snapshot | None:
    """The snapshot the ruling ran on; None for a ruling made without one."""
    if not ruling.snapshot_id:
        return None
    try:
        return snapshot.get(ruling.snapshot_id)
    except ObjectDoesNotExist:
        return None


def ruling_tree(ruling: Ruling) -> TreeSpec | None:
    """The tree the ruling ran on (from its snapshot): what a practice is graded against."""
    frozen = ruling_snapshot(ruling)
    return frozen.tree if frozen is not None else None
