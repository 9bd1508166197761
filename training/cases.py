"""Training (*oefenen*): practice cases, grading, sessions and scores.

Pure logic, called by thin views in ``views_training.py`` and by ``manage.py bootstrap``:

- case files (``training/files/<slug>.yaml``) are parsed into :class:`CaseSpec` and checked
  against the decision tree files with :func:`validate_case` (the expected outcome exists, the
  expected path is a real path of the tree and ends in it);
- :func:`bootstrap_cases` loads the shipped cases (idempotent: unchanged files are skipped);
- :func:`grade` compares a trainee's path with the model path and finds the first divergence;
- :func:`begin_practice` starts a practice ruling through the wizard (``mode=training``);
- :func:`session_grid` and :func:`tree_scores` summarise results for trainers and trainees;
- :func:`explore_walk` walks a loaded tree along the answers in a URL, saving nothing.
"""

from __future__ import annotations

import hashlib
import json
import re
import secrets
import uuid as uuid_lib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import IO, Any

import yaml
from django.core.exceptions import ObjectDoesNotExist
from django.db import transaction
from django.db.models import Q, QuerySet
from django.utils import timezone
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _

from clubs.models import Club, Membership, User
from laws import keys
from lib.i18n import active_language
from lib.text import law_anchor, unique_citations
from rulings import wizard
from rulings.models import Mode, Ruling, Status
from training.models import CaseSource, Difficulty, TrainingCase, TrainingResult, TrainingSession
from trees.diagram import render_svg
from trees.loading import TREES_DIR, tree_file_paths
from trees.models import Tree
from trees.snapshot import FrozenTree, freeze_data, pick
from trees.snapshot import get as snapshot_get
from trees.spec import (
    ChoiceSpec,
    NodeSpec,
    Text,
    TreeError,
    TreeSpec,
    load_tree_file,
    paths,
    walk,
)

CASES_DIR = Path(__file__).resolve().parent / "files"

PathSteps = list[tuple[str, str]]


class CaseError(ValueError):
    """A case file that cannot be used. ``problems`` holds every message."""

    def __init__(self, message: str, problems: Sequence[str] | None = None) -> None:
        super().__init__(message)
        self.problems = list(problems) if problems else [message]


# --------------------------------------------------------------------------------------------
# Decision trees (read from the tree files, the source of truth)


@lru_cache(maxsize=32)
def _load_tree(path: str, mtime_ns: int) -> TreeSpec:
    return load_tree_file(path)


def tree_spec(slug: str) -> TreeSpec | None:
    """The parsed tree file ``trees/files/<slug>.yaml``; None if there is none or it is broken.
    Cached per file modification time, so an edited tree is read again."""
    if not re.fullmatch(r"[a-z0-9-]+", slug or ""):
        return None
    path = TREES_DIR / f"{slug}.yaml"
    try:
        return _load_tree(str(path), path.stat().st_mtime_ns)
    except (OSError, TreeError):
        return None


def tree_slugs() -> list[str]:
    return sorted(path.stem for path in tree_file_paths(TREES_DIR))


def tree_choices(language: str = "nl") -> list[tuple[str, str]]:
    """(slug, "title (edition)") for every readable tree file, for form select boxes."""
    result = []
    for slug in tree_slugs():
        tree = tree_spec(slug)
        if tree is not None:
            result.append((slug, f"{tree.title.get(language)} ({tree.edition})"))
    return result


# --------------------------------------------------------------------------------------------
# Case files


@dataclass(frozen=True)
class CaseSpec:
    slug: str
    tree: str
    title: dict[str, str]
    situation: dict[str, str]
    explanation: dict[str, str]
    expected_outcomes: tuple[str, ...]
    expected_path: tuple[tuple[str, str], ...] = ()
    cites: tuple[str, ...] = ()
    difficulty: int = Difficulty.BASIC
    tags: tuple[str, ...] = ()
    source: str = field(default="", compare=False)

    def as_fields(self) -> dict[str, Any]:
        """The TrainingCase field values of this spec."""
        return {
            "tree_slug": self.tree,
            "title_nl": self.title["nl"],
            "title_en": self.title["en"],
            "situation_nl": self.situation["nl"],
            "situation_en": self.situation["en"],
            "explanation_nl": self.explanation["nl"],
            "explanation_en": self.explanation["en"],
            "expected_outcomes": list(self.expected_outcomes),
            "expected_path": [list(step) for step in self.expected_path],
            "cites": list(self.cites),
            "difficulty": self.difficulty,
            "tags": list(self.tags),
        }

    @property
    def content_hash(self) -> str:
        payload = json.dumps(self.as_fields(), sort_keys=True, ensure_ascii=False)
        return hashlib.sha256(payload.encode("utf-8")).hexdigest()


_CASE_FIELDS = {
    "slug",
    "tree",
    "title",
    "situation",
    "explanation",
    "expected",
    "cites",
    "difficulty",
    "tags",
}
_SLUG_RE = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")


def _text(data: dict[str, Any], name: str, fail) -> dict[str, str]:
    value = data.get(name)
    if not isinstance(value, dict) or set(value) != {"nl", "en"}:
        raise fail(f"{name} must be a mapping with exactly 'nl' and 'en'")
    result = {}
    for language in ("nl", "en"):
        text = value[language]
        if not isinstance(text, str) or not text.strip():
            raise fail(f"{name} has no {language} text")
        result[language] = text.strip()
    return result


def parse_case(text: str, source: str = "") -> CaseSpec:
    """Parse a case file's text; raises CaseError naming ``source`` on the first problem."""

    def fail(message: str) -> CaseError:
        return CaseError(f"{source}: {message}" if source else message)

    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        raise fail(f"invalid YAML: {exc}".replace("\n", " ")) from exc
    if not isinstance(data, dict):
        raise fail("the file must be a mapping")
    unknown = sorted(set(map(str, data)) - _CASE_FIELDS)
    if unknown:
        raise fail(f"unknown field {', '.join(repr(u) for u in unknown)}")
    for required in ("slug", "tree", "title", "situation", "explanation", "expected"):
        if required not in data:
            raise fail(f"missing field {required!r}")
    slug, tree = data["slug"], data["tree"]
    for name, value in (("slug", slug), ("tree", tree)):
        if not isinstance(value, str) or not _SLUG_RE.match(value):
            raise fail(f"{name} must be a lowercase slug, not {value!r}")

    expected = data["expected"]
    if not isinstance(expected, dict) or not set(expected) <= {"outcomes", "path"}:
        raise fail("expected must be a mapping with 'outcomes' and optionally 'path'")
    outcomes = expected.get("outcomes")
    if not isinstance(outcomes, list) or not outcomes:
        raise fail("expected.outcomes must be a non-empty list of outcome keys")
    if not all(isinstance(o, str) and _SLUG_RE.match(o) for o in outcomes):
        raise fail("expected.outcomes must hold node keys (lowercase slugs)")
    path_steps = []
    for index, step in enumerate(expected.get("path") or [], start=1):
        if not isinstance(step, dict) or len(step) != 1:
            raise fail(f"expected.path step {index} must be one 'node: choice' pair")
        ((node, choice),) = step.items()
        if not (isinstance(node, str) and isinstance(choice, str)):
            raise fail(f"expected.path step {index} must be text (quote it)")
        path_steps.append((node, choice))

    cites = []
    for raw in data.get("cites") or []:
        try:
            cites.append(keys.canonical(str(raw)))
        except keys.InvalidKey as error:
            raise fail(f"citation {raw!r} is not a law reference: {error.reason}") from None
    difficulty = data.get("difficulty", Difficulty.BASIC)
    if difficulty not in Difficulty.values:
        raise fail(f"difficulty must be one of {Difficulty.values}, not {difficulty!r}")
    tags = data.get("tags") or []
    if not isinstance(tags, list) or not all(isinstance(t, str) for t in tags):
        raise fail("tags must be a list of words")

    return CaseSpec(
        slug=slug,
        tree=tree,
        title=_text(data, "title", fail),
        situation=_text(data, "situation", fail),
        explanation=_text(data, "explanation", fail),
        expected_outcomes=tuple(outcomes),
        expected_path=tuple(path_steps),
        cites=tuple(cites),
        difficulty=int(difficulty),
        tags=tuple(t.strip() for t in tags if t.strip()),
        source=source,
    )


def load_case_file(path: Path) -> CaseSpec:
    label = str(path)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise CaseError(f"{label}: cannot read the file: {exc}") from exc
    case = parse_case(text, label)
    if case.slug != path.stem:
        raise CaseError(f"{label}: slug {case.slug!r} must equal the file name {path.stem!r}")
    return case


def case_files(directory: Path = CASES_DIR) -> list[Path]:
    return sorted(directory.glob("*.yaml"))


# --------------------------------------------------------------------------------------------
# Validation against a tree


def outcome_problems(tree: TreeSpec | None, outcomes: Iterable[str]) -> list[str]:
    if tree is None:
        return ["the decision tree does not exist"]
    problems = []
    for key in outcomes:
        if not tree.has_node(key):
            problems.append(f"outcome {key!r} is not a node of tree {tree.slug!r}")
        elif not tree.node(key).is_outcome:
            problems.append(f"{key!r} is a question, not an outcome, in tree {tree.slug!r}")
    return problems


def path_problems(
    tree: TreeSpec | None, steps: Sequence[Sequence[str]], outcomes: Iterable[str]
) -> list[str]:
    """Problems with an expected path: it must start at the tree's start node, follow real
    choices (each step names the node it is at) and end in one of ``outcomes``."""
    if tree is None or not steps:
        return []
    try:
        node = walk(tree, [])
    except TreeError as exc:
        return [str(exc)]
    for index, (node_key, choice_key) in enumerate(steps, start=1):
        if node.is_outcome:
            return [
                f"path step {index} ({node_key}: {choice_key}) comes after outcome {node.key!r}"
            ]
        if node_key != node.key:
            return [f"path step {index} names node {node_key!r}, but the path is at {node.key!r}"]
        choice = node.choice(choice_key)
        if choice is None:
            valid = ", ".join(c.key for c in node.choices)
            return [f"path step {index}: {choice_key!r} is not a choice of {node_key!r} ({valid})"]
        if not tree.has_node(choice.target):
            return [f"path step {index}: choice {choice_key!r} leads to a missing node"]
        node = tree.node(choice.target)
    if not node.is_outcome:
        return [f"the path stops at question {node.key!r}, not at an outcome"]
    if node.key not in set(outcomes):
        return [f"the path ends in {node.key!r}, which is not an expected outcome"]
    return []


def validate_case(case: CaseSpec, tree: TreeSpec | None = None) -> list[str]:
    """Every problem of ``case`` against its tree (read from the tree files when not given)."""
    tree = tree if tree is not None else tree_spec(case.tree)
    if tree is None:
        return [f"tree {case.tree!r} does not exist (trees/files/{case.tree}.yaml)"]
    problems = outcome_problems(tree, case.expected_outcomes)
    if not problems:
        problems += path_problems(tree, case.expected_path, case.expected_outcomes)
    if len(set(case.expected_outcomes)) != len(case.expected_outcomes):
        problems.append("an expected outcome is listed more than once")
    return problems


# --------------------------------------------------------------------------------------------
# Loading the shipped cases


@dataclass
class LoadSummary:
    created: int = 0
    updated: int = 0
    unchanged: int = 0

    def __str__(self) -> str:
        return (
            f"Training cases: {self.created} created, {self.updated} updated, "
            f"{self.unchanged} unchanged"
        )


def read_shipped_cases(directory: Path = CASES_DIR) -> list[CaseSpec]:
    """Parse and validate every case file; raises CaseError listing every problem found."""
    cases, problems = [], []
    for path in case_files(directory):
        try:
            case = load_case_file(path)
        except CaseError as exc:
            problems.extend(exc.problems)
            continue
        problems.extend(f"{path}: {problem}" for problem in validate_case(case))
        cases.append(case)
    if problems:
        raise CaseError("\n".join(problems), problems)
    return cases


def load_cases(directory: Path = CASES_DIR) -> LoadSummary:
    """Create or update the shipped cases (club empty) from the files, in one transaction."""
    cases = read_shipped_cases(directory)
    summary = LoadSummary()
    existing = {c.slug: c for c in TrainingCase.objects.filter(club__isnull=True)}
    with transaction.atomic():
        for spec in cases:
            current = existing.get(spec.slug)
            if current is not None and current.content_hash == spec.content_hash:
                summary.unchanged += 1
                continue
            fields = {**spec.as_fields(), "content_hash": spec.content_hash}
            if current is None:
                TrainingCase.objects.create(
                    club=None, slug=spec.slug, source=CaseSource.SHIPPED, **fields
                )
                summary.created += 1
            else:
                for name, value in fields.items():
                    setattr(current, name, value)
                current.save()
                summary.updated += 1
    return summary


def bootstrap_cases(stdout: IO[str]) -> LoadSummary:
    """Loader for ``manage.py bootstrap``: load the shipped training cases."""
    summary = load_cases()
    stdout.write(f"{summary}\n")
    return summary


# --------------------------------------------------------------------------------------------
# Cases visible to a user


def cases_for(club_ids: Iterable[int]) -> QuerySet[TrainingCase]:
    """Shipped cases and the cases of the given clubs."""
    return TrainingCase.objects.filter(Q(club__isnull=True) | Q(club_id__in=list(club_ids)))


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
    result = grade_path(case, ruling_path(ruling), ruling.outcome_key, tree_spec(case.tree_slug))
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
# Sessions

_CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I: read aloud in a club room
CODE_LENGTH = 6


def new_join_code() -> str:
    while True:
        code = "".join(secrets.choice(_CODE_ALPHABET) for _ in range(CODE_LENGTH))
        if not TrainingSession.objects.filter(code=code).exists():
            return code


def normalise_code(raw: str) -> str:
    return re.sub(r"[^A-Z0-9]", "", (raw or "").upper())


def find_open_session(code: str, user: User) -> TrainingSession | None:
    """The open session with ``code`` in one of the user's clubs; None otherwise (a code of
    another club is treated as unknown)."""
    club_ids = Membership.objects.filter(user=user).values("club_id")
    return (
        TrainingSession.objects.filter(
            code=normalise_code(code), closed_at__isnull=True, club_id__in=club_ids
        )
        .select_related("club")
        .first()
    )


@dataclass(frozen=True)
class Cell:
    """A trainee's work on one case of a session: the first graded attempt counts."""

    status: str  # "todo" | "busy" | "right" | "wrong"
    attempts: int = 0
    outcome_key: str = ""
    first_attempt: Any = None  # uuid of the graded attempt that counts


@dataclass(frozen=True)
class GridRow:
    user: User
    cells: list[Cell]

    @property
    def right(self) -> int:
        return sum(1 for cell in self.cells if cell.status == "right")

    @property
    def done(self) -> int:
        return sum(1 for cell in self.cells if cell.status in {"right", "wrong"})


def session_grid(
    session: TrainingSession, only_user: User | None = None
) -> tuple[list[TrainingCase], list[GridRow]]:
    """Who did which case of ``session`` and how (three queries, whatever the size); with
    ``only_user`` just that participant's row."""
    cases = list(session.cases.order_by("difficulty", "title_nl", "pk"))
    participants = session.participants.select_related("user")
    rulings = Ruling.objects.filter(training_session=session, mode=Mode.TRAINING)
    if only_user is not None:
        participants = participants.filter(user=only_user)
        rulings = rulings.filter(director=only_user)
    rulings = rulings.select_related("training_result").order_by("created_at", "pk")
    attempts: dict[tuple[int, int], list[Ruling]] = {}
    for ruling in rulings:
        attempts.setdefault((ruling.director_id, ruling.training_case_id), []).append(ruling)
    rows = []
    for participant in participants:
        cells = []
        for case in cases:
            tries = attempts.get((participant.user_id, case.pk), [])
            graded = [r for r in tries if hasattr(r, "training_result")]
            if graded:
                first = graded[0]
                status = "right" if first.training_result.correct else "wrong"
                cells.append(Cell(status, len(graded), first.outcome_key, first.uuid))
            elif tries:
                cells.append(Cell("busy", 0))
            else:
                cells.append(Cell("todo"))
        rows.append(GridRow(participant.user, cells))
    return cases, rows


# --------------------------------------------------------------------------------------------
# A trainee's history


@dataclass(frozen=True)
class TreeScore:
    tree_slug: str
    title: str
    attempts: int
    right: int

    @property
    def percentage(self) -> int:
        return round(100 * self.right / self.attempts) if self.attempts else 0


def tree_scores(user: User) -> list[TreeScore]:
    """Graded practice rulings of ``user`` per tree: attempts and how many were right."""
    totals: dict[str, list[int]] = {}
    titles: dict[str, str] = {}
    results = TrainingResult.objects.filter(
        ruling__director=user, ruling__mode=Mode.TRAINING
    ).values_list("ruling__tree_slug", "ruling__tree_title", "correct")
    for slug, title, correct in results:
        total = totals.setdefault(slug, [0, 0])
        total[0] += 1
        total[1] += int(correct)
        titles.setdefault(slug, title)
    language = active_language()
    for slug in titles:
        tree = tree_spec(slug)
        if tree is not None:
            titles[slug] = f"{tree.title.get(language)} ({tree.edition})"
    return [
        TreeScore(slug, titles[slug], attempts, right)
        for slug, (attempts, right) in sorted(totals.items())
    ]


class PracticeError(Exception):
    """A practice that cannot start; the message is for the trainee (translated)."""


def begin_practice(
    user: User,
    case: TrainingCase,
    session: TrainingSession | None,
    node_key: str,
    choice_key: str,
    *,
    tree: FrozenTree | None = None,
    ruling_uuid: uuid_lib.UUID | None = None,
) -> wizard.Result:
    """Create a practice ruling with its first answer: the wizard's ``begin`` in training mode,
    linked to the case (and session). The ruling is filed under :func:`practice_club`."""
    club = practice_club(user, case, session)
    if club is None:
        raise PracticeError(_("U bent geen lid van een club; vraag de beheerder u toe te voegen."))
    if tree is None:
        try:
            tree = wizard.start(case.tree_slug)
        except wizard.WizardError as error:
            raise PracticeError(error.message) from error
    if tree.slug != case.tree_slug:
        raise PracticeError(_("Deze beslisboom hoort niet bij de casus."))
    return wizard.begin(
        uuid=ruling_uuid or uuid_lib.uuid4(),
        club=club,
        director=user,
        tree=tree,
        node_key=node_key,
        choice_key=choice_key,
        mode=Mode.TRAINING,
        training_case=case,
        training_session=session,
    )


def practice_club(user: User, case: TrainingCase, session: TrainingSession | None) -> Club | None:
    """The club a practice ruling is filed under: the session's, the case's, else the user's
    first club."""
    if session is not None:
        return session.club
    if case.club_id is not None:
        return case.club
    membership = (
        Membership.objects.filter(user=user).select_related("club").order_by("club__name").first()
    )
    return membership.club if membership else None


def tree_title(slug: str, language: str = "nl") -> str:
    tree = tree_spec(slug)
    return f"{tree.title.get(language)} ({tree.edition})" if tree is not None else slug


def split_path(raw: str) -> list[str]:
    """``"ja,nee, ja"`` → ``["ja", "nee", "ja"]`` (only slug-like keys are kept)."""
    return [part for part in (p.strip().lower() for p in (raw or "").split(",")) if part]


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


def law_text(citation: dict[str, Any]) -> LawText:
    """A citation of a tree snapshot (see ``trees/snapshot.py``), or an entry of
    :func:`lib.text.unique_citations` (with ``keys``), in the active language."""
    cited = citation.get("keys") or [citation.get("key", "")]
    article = citation.get("article", "")
    kind = citation.get("kind", "missing")
    return LawText(
        key=", ".join(cited),
        edition=citation.get("edition", ""),
        article=article,
        article_title=citation.get("article_title", ""),
        kind=kind,
        text=pick(citation.get("text")),
        anchor=law_anchor(cited[0], article, kind),
    )


def law_texts(ruling: Ruling, case: TrainingCase) -> list[LawText]:
    """The law text the correct outcome cites, as the ruling's tree snapshot holds it (official
    text where imported, otherwise our summary), without repeats."""
    frozen = _ruling_tree(ruling)
    if frozen is None:
        return []
    citations = [
        citation
        for key in case.expected_outcomes
        if frozen.has_node(key)
        for citation in frozen.node(key).get("citations", [])
    ]
    return unique_law_texts(citations)


def unique_law_texts(citations: Iterable[dict[str, Any]]) -> list[LawText]:
    """Each text once (see :func:`lib.text.unique_citations`)."""
    return [law_text(entry) for entry in unique_citations(citations)]


def _ruling_tree(ruling: Ruling) -> FrozenTree | None:
    if not ruling.snapshot_id:
        return None
    try:
        return snapshot_get(ruling.snapshot_id)
    except ObjectDoesNotExist:
        return None


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
    node: dict[str, Any]
    choices: list[ExploreChoice]
    corrected: bool
    diagram: str = ""

    @property
    def is_outcome(self) -> bool:
        return self.node["kind"] == "outcome"

    @property
    def path(self) -> str:
        return ",".join(self.answers)

    @property
    def heading(self) -> str:
        """The question, or the outcome's title."""
        return pick(self.node.get("text"))

    @property
    def help(self) -> str:
        return pick(self.node.get("help"))

    @property
    def outcome(self) -> dict[str, str]:
        data = self.node.get("outcome") or {}
        return {name: pick(data.get(name)) for name in ("ruling", "options", "announce")}

    @property
    def law(self) -> list[LawText]:
        return unique_law_texts(self.node.get("citations", []))

    @property
    def flags(self) -> dict[str, Any]:
        data = self.node.get("outcome") or {}
        return {
            "adjusted_score": data.get("adjusted_score", False),
            "unauthorised_information": data.get("unauthorised_information", False),
            "see_tree": data.get("see_tree"),
        }


def explore_walk(slug: str, raw_path: str) -> ExploreWalk | None:
    """Follow ``raw_path`` through the loaded tree ``slug``. Answers that do not fit are cut
    off at the first one (``corrected`` then tells the view to redirect to the clean URL)."""
    tree = Tree.objects.select_related("edition").filter(slug=slug).first()
    if tree is None:
        return None
    data = freeze_data(tree)
    nodes = data["nodes"]
    wanted = split_path(raw_path)
    answers: list[str] = []
    steps: list[ExploreStep] = []
    key = data["start"]
    for answer in wanted:
        node = nodes[key]
        choice = next((c for c in node.get("choices", []) if c["key"] == answer), None)
        if choice is None:
            break
        steps.append(
            ExploreStep(key, pick(node["text"]), answer, pick(choice["label"]), ",".join(answers))
        )
        answers.append(answer)
        key = choice["target"]
    node = nodes[key]
    choices = [
        ExploreChoice(c["key"], pick(c["label"]), ",".join([*answers, c["key"]]), number)
        for number, c in enumerate(node.get("choices", []), start=1)
    ]
    spec = _spec_from_frozen(data)
    routes = first_routes(spec)
    diagram = render_svg(
        spec,
        language=active_language(),
        highlight=key,
        href=lambda node_key: "?pad=" + ",".join(routes.get(node_key, [])),
        title=pick(data["title"]),
    )
    return ExploreWalk(
        slug=slug,
        title=pick(data["title"]),
        edition=data["edition"],
        answers=answers,
        steps=steps,
        node_key=key,
        node=node,
        choices=choices,
        corrected=answers != wanted,
        # Built from escaped pieces in trees.diagram.
        diagram=mark_safe(diagram),
    )


def _spec_from_frozen(data: dict[str, Any]) -> TreeSpec:
    """Enough of a TreeSpec, built from frozen tree data, for the diagram."""

    def text(value: dict[str, str] | None) -> Text:
        value = value or {}
        return Text(nl=value.get("nl", ""), en=value.get("en", ""))

    nodes = tuple(
        NodeSpec(
            key=key,
            kind=node["kind"],
            text=text(node["text"]),
            choices=tuple(
                ChoiceSpec(key=c["key"], label=text(c["label"]), target=c["target"])
                for c in node.get("choices", [])
            ),
        )
        for key, node in data["nodes"].items()
    )
    return TreeSpec(
        slug=data["slug"],
        edition=data["edition"],
        phase=data.get("phase", ""),
        title=text(data["title"]),
        description=Text("", ""),
        notes="",
        start=data["start"],
        nodes=nodes,
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
