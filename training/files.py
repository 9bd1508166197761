"""Training case files (``training/files/<slug>.yaml``): read, check against their tree, load.

Case files are parsed into :class:`CaseSpec` and checked against the decision tree *files* with
:func:`validate_case` (the expected outcome exists, the expected path is a real path of the tree
and ends in it): cases are authored against the trees as they are written. :func:`load_cases`
(and ``manage.py bootstrap``) loads the shipped cases; unchanged files are skipped.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import IO, Annotated, Any, NotRequired

import yaml
from django.db import transaction
from pydantic import StringConstraints
from pydantic.types import Strict

# pydantic reads a TypedDict only from typing_extensions before Python 3.12.
from typing_extensions import TypedDict

from laws import keys
from laws.edition_law import index_of
from laws.index import ProvisionIndex
from laws.models import Edition
from lib import schema, yamltext
from training.models import CaseSource, Difficulty, TrainingCase
from training.room_polls import case_poll
from trees.loading import TREES_DIR, tree_file_paths
from trees.parse import load_tree_file
from trees.spec import TreeError, TreeSpec
from trees.validate import walk

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
            title = tree.title.get(language)
            # An older edition's title names its edition already: "Strafkaart (1963)".
            named = f"({tree.edition})" in title
            result.append((slug, title if named else f"{title} ({tree.edition})"))
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
    auction: str = ""  # with poll_hand: a poll of the room (training/room_polls.py)
    poll_hand: str = ""
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
            # Only when given: the other cases keep their content hash.
            **({"auction": self.auction, "poll_hand": self.poll_hand} if self.auction else {}),
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
    "auction",
    "poll_hand",
}
_SLUG_RE = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
_Slug = Annotated[str, Strict(), StringConstraints(pattern=_SLUG_RE.pattern)]
_Filled = Annotated[str, Strict(), StringConstraints(strip_whitespace=True, min_length=1)]


# Makes the error for a problem in the file being parsed (naming the file).
_Fail = Callable[[str], CaseError]


class _CaseFile(TypedDict):
    """A case file's fields: the required ones, then the optional ones, none other. Only the
    keys are read here; each value has its own check (``_text``, ``_expected``, ...)."""

    __pydantic_config__ = schema.OBJECT  # type: ignore[misc]
    slug: _Slug
    tree: _Slug
    title: Any
    situation: Any
    explanation: Any
    expected: Any
    cites: NotRequired[Any]
    difficulty: NotRequired[Any]
    tags: NotRequired[Any]
    auction: NotRequired[Any]
    poll_hand: NotRequired[Any]


class _Text(TypedDict):
    """A text in exactly Dutch and English, neither blank (kept without surrounding spaces)."""

    __pydantic_config__ = schema.OBJECT  # type: ignore[misc]
    nl: _Filled
    en: _Filled


def _text(data: dict[str, Any], name: str, fail: _Fail) -> dict[str, str]:
    value, errors = schema.check(data.get(name), _Text)
    for error in errors:
        if error["type"] in ("string_type", "string_too_short"):
            raise fail(f"{name} has no {error['loc'][0]} text")
        raise fail(f"{name} must be a mapping with exactly 'nl' and 'en'")
    return {"nl": value["nl"], "en": value["en"]}


def _case_mapping(text: str, fail: _Fail) -> dict[str, Any]:
    """The file's YAML: a mapping of known fields, with the required ones present."""
    try:
        data = yamltext.load(text)
    except yaml.YAMLError as exc:
        raise fail(f"invalid YAML: {exc}".replace("\n", " ")) from exc
    if not isinstance(data, dict):
        raise fail("the file must be a mapping")
    # Keys as text, as a YAML key may be a number (``3: x`` is an unknown field '3').
    _value, errors = schema.check({str(key): value for key, value in data.items()}, _CaseFile)
    unknown = sorted(str(e["loc"][0]) for e in errors if e["type"] == "extra_forbidden")
    if unknown:
        raise fail(f"unknown field {', '.join(repr(u) for u in unknown)}")
    for error in errors:  # in the order of _CaseFile: the first missing field is named
        if error["type"] == "missing":
            raise fail(f"missing field {error['loc'][0]!r}")
    for error in errors:
        name = error["loc"][0]
        raise fail(f"{name} must be a lowercase slug, not {error['input']!r}")
    return data


def _expected(expected: Any, fail: _Fail) -> tuple[list[str], list[tuple[str, str]]]:
    """``expected``: its outcome keys and its model path as (node, choice) pairs."""
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
    return outcomes, path_steps


def _cites(data: dict[str, Any], fail: _Fail) -> list[str]:
    cites = []
    for raw in data.get("cites") or []:
        try:
            cites.append(keys.canonical(str(raw)))
        except keys.InvalidKey as error:
            raise fail(f"citation {raw!r} is not a law reference: {error.reason}") from None
    return cites


def _difficulty(data: dict[str, Any], fail: _Fail) -> int:
    difficulty = data.get("difficulty", Difficulty.BASIC)
    if difficulty not in Difficulty.values:
        raise fail(f"difficulty must be one of {Difficulty.values}, not {difficulty!r}")
    return int(difficulty)


def _tags(data: dict[str, Any], fail: _Fail) -> tuple[str, ...]:
    tags = data.get("tags") or []
    if not isinstance(tags, list) or not all(isinstance(t, str) for t in tags):
        raise fail("tags must be a list of words")
    return tuple(t.strip() for t in tags if t.strip())


def parse_case(text: str, source: str = "") -> CaseSpec:
    """Parse a case file's text; raises CaseError naming ``source`` on the first problem."""

    def fail(message: str) -> CaseError:
        return CaseError(f"{source}: {message}" if source else message)

    data = _case_mapping(text, fail)
    outcomes, path_steps = _expected(data["expected"], fail)
    cites = _cites(data, fail)
    difficulty = _difficulty(data, fail)
    tags = _tags(data, fail)
    try:  # "auction" and "poll_hand": a poll of the room (training/room_polls.py)
        auction, poll_hand = case_poll(data.get("auction"), data.get("poll_hand"))
    except ValueError as error:
        raise fail(str(error)) from None
    return CaseSpec(
        slug=data["slug"],
        tree=data["tree"],
        title=_text(data, "title", fail),
        situation=_text(data, "situation", fail),
        explanation=_text(data, "explanation", fail),
        expected_outcomes=tuple(outcomes),
        expected_path=tuple(path_steps),
        cites=tuple(cites),
        difficulty=difficulty,
        tags=tags,
        auction=auction,
        poll_hand=poll_hand,
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


def citation_problems(cites: Iterable[str], index: ProvisionIndex) -> list[str]:
    """The cited keys the tree's edition does not hold (the one key checker, ``laws.index``)."""
    return [
        f"citation {key!r}: {unknown.english()}"
        for key in cites
        if (unknown := index.unknown(key)) is not None
    ]


def validate_case(
    case: CaseSpec, tree: TreeSpec | None = None, index: ProvisionIndex | None = None
) -> list[str]:
    """Every problem of ``case`` against its tree (read from the tree files when not given)
    and, with the ``index`` of the tree's edition, its citations."""
    tree = tree if tree is not None else tree_spec(case.tree)
    if tree is None:
        return [f"tree {case.tree!r} does not exist (trees/files/{case.tree}.yaml)"]
    problems = outcome_problems(tree, case.expected_outcomes)
    if not problems:
        problems += path_problems(tree, case.expected_path, case.expected_outcomes)
    if len(set(case.expected_outcomes)) != len(case.expected_outcomes):
        problems.append("an expected outcome is listed more than once")
    if index is not None:
        problems += citation_problems(case.cites, index)
    return problems


# --------------------------------------------------------------------------------------------
# Loading the shipped cases


@dataclass
class LoadSummary:
    created: int = 0
    updated: int = 0
    unchanged: int = 0
    # Problems of cases that were not loaded (``keep_broken``).
    problems: list[str] = field(default_factory=list)

    def __str__(self) -> str:
        return (
            f"Training cases: {self.created} created, {self.updated} updated, "
            f"{self.unchanged} unchanged"
        )


class LoadedLaw:
    """The key index of a tree's edition as loaded in the database (None where that edition
    is not loaded), each edition read once."""

    def __init__(self) -> None:
        self._indexes: dict[str, ProvisionIndex | None] = {}

    def __call__(self, slug: str) -> ProvisionIndex | None:
        tree = tree_spec(slug)
        if tree is None:
            return None
        if tree.edition not in self._indexes:
            loaded = Edition.objects.filter(code=tree.edition).exists()
            self._indexes[tree.edition] = index_of(tree.edition) if loaded else None
        return self._indexes[tree.edition]


def check_shipped_cases(
    directory: Path = CASES_DIR, law: Callable[[str], ProvisionIndex | None] | None = None
) -> tuple[list[CaseSpec], list[str]]:
    """Every case file parsed and validated, and with ``law`` (the index of a tree's edition,
    :class:`LoadedLaw`) its citations: the cases without problems, and every problem found."""
    cases, problems = [], []
    for path in case_files(directory):
        try:
            case = load_case_file(path)
        except CaseError as exc:
            problems.extend(exc.problems)
            continue
        found = validate_case(case, index=law(case.tree) if law else None)
        problems.extend(f"{path}: {problem}" for problem in found)
        if not found:
            cases.append(case)
    return cases, problems


def read_shipped_cases(
    directory: Path = CASES_DIR, law: Callable[[str], ProvisionIndex | None] | None = None
) -> list[CaseSpec]:
    """Parse and validate every case file; raises CaseError listing every problem found."""
    cases, problems = check_shipped_cases(directory, law)
    if problems:
        raise CaseError("\n".join(problems), problems)
    return cases


def load_cases(directory: Path = CASES_DIR, *, keep_broken: bool = False) -> LoadSummary:
    """Create or update the shipped cases (club empty) from the files, in one transaction,
    their citations checked against the loaded law text. With ``keep_broken`` (at start-up)
    a case with a problem is reported and keeps its last loaded version, and the others load;
    otherwise any problem loads nothing."""
    if keep_broken:
        cases, problems = check_shipped_cases(directory, LoadedLaw())
    else:
        cases, problems = read_shipped_cases(directory, LoadedLaw()), []
    summary = LoadSummary(problems=problems)
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
    """Loader for ``manage.py bootstrap``: load the shipped training cases; a case with a
    problem (a citation the law text no longer holds) is reported, and the application still
    starts."""
    summary = load_cases(keep_broken=True)
    for problem in summary.problems:
        stdout.write(f"Training case problem (not loaded): {problem}\n")
    stdout.write(f"{summary}\n")
    return summary
