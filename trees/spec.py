"""Decision tree files: parse, validate, walk and hash (pure Python, no Django).

A tree file (``trees/files/<slug>.yaml``, format in docs/TREE_FORMAT.md) is parsed into frozen
dataclasses. Parsing checks the *shape* of the document and raises :class:`TreeError` on the first
structural problem (bad YAML, unknown or missing fields, wrong types, malformed keys). The *rules*
of a good tree (reachability, cycles, choices, outcomes, citations, bilingual text) are checked by
:func:`validate`, which returns every problem found so that an author sees them all at once.
Messages name the node: ``node 'foo': choice 'ja' points to unknown node 'bar'``; errors raised
from a file are prefixed with the file (``trees/files/x.yaml: node 'foo': ...``).
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable, Collection, Iterator, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path as FilePath
from typing import Any

import yaml

from laws import keys
from lib.i18n import pick

__all__ = [
    "CHOOSERS",
    "KINDS",
    "PHASES",
    "ChoiceSpec",
    "NodeSpec",
    "OutcomeSpec",
    "Path",
    "Text",
    "TreeError",
    "TreeSpec",
    "content_hash",
    "ensure_valid",
    "load_tree_file",
    "parse_tree",
    "paths",
    "validate",
    "walk",
]

PHASES = ("auction", "play")
KINDS = ("question", "outcome")
CHOOSERS = ("none", "declarer", "defenders", "nos", "lho", "offender", "director")

SLUG_RE = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")


class TreeError(ValueError):
    """A tree file that cannot be used. ``problems`` holds every message (at least one)."""

    def __init__(self, message: str, problems: Sequence[str] | None = None) -> None:
        super().__init__(message)
        self.problems = list(problems) if problems else [message]


# --------------------------------------------------------------------------------------------
# Specs


@dataclass(frozen=True)
class Text:
    nl: str
    en: str

    def get(self, language: str) -> str:
        """The text in ``language`` ('nl' or 'en'), falling back to Dutch."""
        return pick(self.nl, self.en, language)


@dataclass(frozen=True)
class ChoiceSpec:
    key: str
    label: Text
    target: str


@dataclass(frozen=True)
class OutcomeSpec:
    ruling: Text
    announce: Text
    options: Text | None = None
    chooser: str = "none"
    adjusted_score: bool = False
    unauthorised_information: bool = False
    see_tree: str | None = None


@dataclass(frozen=True)
class NodeSpec:
    key: str
    kind: str  # 'question' | 'outcome'
    text: Text  # the question, or the outcome's title
    help: Text | None = None
    cites: tuple[str, ...] = ()
    choices: tuple[ChoiceSpec, ...] = ()
    outcome: OutcomeSpec | None = None

    @property
    def is_outcome(self) -> bool:
        return self.kind == "outcome"

    def choice(self, key: str) -> ChoiceSpec | None:
        return next((c for c in self.choices if c.key == key), None)


@dataclass(frozen=True)
class Finder:
    """The words directors use for the irregularity ("denkpauze", "renonce"), per language:
    the start page finds the tree by them (``trees/finder.py``)."""

    nl: tuple[str, ...] = ()
    en: tuple[str, ...] = ()

    def __bool__(self) -> bool:
        return bool(self.nl or self.en)


@dataclass(frozen=True)
class TreeSpec:
    slug: str
    edition: str
    phase: str
    title: Text
    description: Text
    notes: str
    start: str
    nodes: tuple[NodeSpec, ...]
    finder: Finder = Finder()
    # Where the spec came from (for messages); not part of the content.
    source: str = field(default="", compare=False)

    def node(self, key: str) -> NodeSpec:
        for node in self.nodes:
            if node.key == key:
                return node
        raise KeyError(key)

    def has_node(self, key: str) -> bool:
        return any(node.key == key for node in self.nodes)

    @property
    def questions(self) -> tuple[NodeSpec, ...]:
        return tuple(n for n in self.nodes if n.kind == "question")

    @property
    def outcomes(self) -> tuple[NodeSpec, ...]:
        return tuple(n for n in self.nodes if n.kind == "outcome")


@dataclass(frozen=True)
class Path:
    """One start-to-outcome path: the (node_key, choice_key) answers given, and where it ends."""

    steps: tuple[tuple[str, str], ...]
    outcome: str

    @property
    def answers(self) -> tuple[str, ...]:
        return tuple(choice for _node, choice in self.steps)


# --------------------------------------------------------------------------------------------
# Parsing


class _UniqueKeyLoader(yaml.SafeLoader):
    """A safe loader that refuses duplicate mapping keys (YAML would keep the last silently)."""


def _construct_mapping(loader: yaml.SafeLoader, node: yaml.MappingNode) -> dict[Any, Any]:
    loader.flatten_mapping(node)
    mapping: dict[Any, Any] = {}
    for key_node, value_node in node.value:
        key = loader.construct_object(key_node, deep=True)
        if key in mapping:
            raise yaml.constructor.ConstructorError(
                None, None, f"duplicate key {key!r}", key_node.start_mark
            )
        mapping[key] = loader.construct_object(value_node, deep=True)
    return mapping


_UniqueKeyLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_mapping)

_TREE_FIELDS = {
    "slug",
    "edition",
    "phase",
    "title",
    "description",
    "notes",
    "finder",
    "start",
    "nodes",
}
_NODE_FIELDS = {"question", "outcome", "help", "cites", "choices"}
_CHOICE_FIELDS = {"key", "label", "next"}
_OUTCOME_FIELDS = {
    "title",
    "ruling",
    "options",
    "chooser",
    "announce",
    "adjusted_score",
    "unauthorised_information",
    "see_tree",
}


class _Parser:
    def __init__(self, source: str) -> None:
        self.source = source

    def fail(self, where: str, message: str) -> TreeError:
        prefix = f"{self.source}: " if self.source else ""
        return TreeError(f"{prefix}{where}{': ' if where else ''}{message}")

    def mapping(self, value: Any, where: str, what: str) -> dict[str, Any]:
        if not isinstance(value, dict):
            raise self.fail(where, f"{what} must be a mapping")
        for key in value:
            if not isinstance(key, str):
                raise self.fail(where, f"{what}: field {key!r} must be a string (quote it)")
        return value

    def fields(self, data: dict[str, Any], allowed: set[str], where: str, what: str) -> None:
        unknown = sorted(set(data) - allowed)
        if unknown:
            raise self.fail(
                where,
                f"{what}: unknown field {', '.join(repr(u) for u in unknown)}"
                f" (allowed: {', '.join(sorted(allowed))})",
            )

    def string(self, value: Any, where: str, what: str, *, optional: bool = False) -> str:
        if value is None and optional:
            return ""
        if not isinstance(value, str):
            hint = " (quote it)" if isinstance(value, bool | int | float) else ""
            raise self.fail(where, f"{what} must be a string{hint}, not {value!r}")
        return value.strip()

    def slug(self, value: Any, where: str, what: str) -> str:
        text = self.string(value, where, what)
        if not SLUG_RE.match(text):
            raise self.fail(where, f"{what} {text!r} is not a lowercase slug (a-z, 0-9, '-')")
        return text

    def text(self, value: Any, where: str, what: str) -> Text:
        """A bilingual text: a mapping with ``nl`` and ``en``. Empty parts are left to validate."""
        data = self.mapping(value, where, what)
        self.fields(data, {"nl", "en"}, where, what)
        return Text(
            nl=self.string(data.get("nl"), where, f"{what} (nl)", optional=True),
            en=self.string(data.get("en"), where, f"{what} (en)", optional=True),
        )

    def boolean(self, value: Any, where: str, what: str) -> bool:
        if value is None:
            return False
        if not isinstance(value, bool):
            raise self.fail(where, f"{what} must be true or false, not {value!r}")
        return value

    def tree(self, text: str) -> TreeSpec:
        try:
            data = yaml.load(text, Loader=_UniqueKeyLoader)  # noqa: S506 - a SafeLoader subclass
        except yaml.YAMLError as exc:
            raise self.fail("", f"invalid YAML: {exc}".replace("\n", " ")) from exc
        data = self.mapping(data, "", "the file")
        self.fields(data, _TREE_FIELDS, "", "the tree")
        missing = sorted({"slug", "edition", "phase", "title", "start", "nodes"} - set(data))
        if missing:
            raise self.fail("", f"missing field {', '.join(repr(m) for m in missing)}")
        slug = self.slug(data["slug"], "", "slug")
        edition = self.string(data["edition"], "", "edition")
        if not edition:
            raise self.fail("", "edition is empty")
        phase = self.string(data["phase"], "", "phase")
        if phase not in PHASES:
            raise self.fail("", f"phase {phase!r} is not one of {', '.join(PHASES)}")
        title = self.text(data["title"], "", "title")
        description = self.text(data.get("description") or {}, "", "description")
        notes = self.string(data.get("notes"), "", "notes", optional=True)
        finder = self.finder(data.get("finder"))
        start = self.slug(data["start"], "", "start")
        nodes_data = self.mapping(data["nodes"], "", "nodes")
        if not nodes_data:
            raise self.fail("", "nodes is empty")
        nodes = tuple(self.node(key, value) for key, value in nodes_data.items())
        return TreeSpec(
            slug=slug,
            edition=edition,
            phase=phase,
            title=title,
            description=description,
            notes=notes,
            start=start,
            nodes=nodes,
            finder=finder,
            source=self.source,
        )

    def finder(self, value: Any) -> Finder:
        """``finder: {nl: [words], en: [words]}``, optional."""
        if value is None:
            return Finder()
        data = self.mapping(value, "", "finder")
        self.fields(data, {"nl", "en"}, "", "finder")
        words: dict[str, tuple[str, ...]] = {}
        for language in ("nl", "en"):
            items = data.get(language) or []
            if not isinstance(items, list):
                raise self.fail("", f"finder ({language}) must be a list of words")
            words[language] = tuple(self.string(item, "", f"finder ({language})") for item in items)
            if any(not word for word in words[language]):
                raise self.fail("", f"finder ({language}) has an empty word")
        return Finder(nl=words["nl"], en=words["en"])

    def node(self, key: str, value: Any) -> NodeSpec:
        where = f"node {key!r}"
        if not SLUG_RE.match(key):
            raise self.fail(where, "node key is not a lowercase slug (a-z, 0-9, '-')")
        data = self.mapping(value, where, "the node")
        self.fields(data, _NODE_FIELDS, where, "the node")
        if ("question" in data) == ("outcome" in data):
            raise self.fail(where, "a node has exactly one of 'question' and 'outcome'")
        help_text = self.text(data["help"], where, "help") if data.get("help") else None
        cites = self.cites(data.get("cites"), where)
        choices = self.choices(data.get("choices"), where)
        if "question" in data:
            return NodeSpec(
                key=key,
                kind="question",
                text=self.text(data["question"], where, "question"),
                help=help_text,
                cites=cites,
                choices=choices,
            )
        outcome_data = self.mapping(data["outcome"], where, "outcome")
        self.fields(outcome_data, _OUTCOME_FIELDS, where, "outcome")
        for required in ("title", "ruling", "announce"):
            if required not in outcome_data:
                raise self.fail(where, f"outcome: missing field {required!r}")
        chooser = self.string(outcome_data.get("chooser", "none"), where, "chooser")
        if chooser not in CHOOSERS:
            raise self.fail(where, f"chooser {chooser!r} is not one of {', '.join(CHOOSERS)}")
        see_tree = outcome_data.get("see_tree")
        outcome = OutcomeSpec(
            ruling=self.text(outcome_data["ruling"], where, "ruling"),
            announce=self.text(outcome_data["announce"], where, "announce"),
            options=(
                self.text(outcome_data["options"], where, "options")
                if outcome_data.get("options")
                else None
            ),
            chooser=chooser,
            adjusted_score=self.boolean(
                outcome_data.get("adjusted_score"), where, "adjusted_score"
            ),
            unauthorised_information=self.boolean(
                outcome_data.get("unauthorised_information"), where, "unauthorised_information"
            ),
            see_tree=self.slug(see_tree, where, "see_tree") if see_tree is not None else None,
        )
        return NodeSpec(
            key=key,
            kind="outcome",
            text=self.text(outcome_data["title"], where, "title"),
            help=help_text,
            cites=cites,
            choices=choices,
            outcome=outcome,
        )

    def cites(self, value: Any, where: str) -> tuple[str, ...]:
        if value is None:
            return ()
        if not isinstance(value, list):
            raise self.fail(where, "cites must be a list of law references")
        result = []
        for item in value:
            raw = self.string(item, where, "citation")
            try:
                result.append(keys.canonical(raw))
            except keys.InvalidKey:
                result.append(raw)  # validate() reports it, naming the node
        return tuple(result)

    def choices(self, value: Any, where: str) -> tuple[ChoiceSpec, ...]:
        if value is None:
            return ()
        if not isinstance(value, list):
            raise self.fail(where, "choices must be a list")
        result = []
        for index, item in enumerate(value, start=1):
            data = self.mapping(item, where, f"choice {index}")
            self.fields(data, _CHOICE_FIELDS, where, f"choice {index}")
            for required in ("key", "label", "next"):
                if required not in data:
                    raise self.fail(where, f"choice {index}: missing field {required!r}")
            key = self.slug(data["key"], where, f"choice {index}: key")
            result.append(
                ChoiceSpec(
                    key=key,
                    label=self.text(data["label"], where, f"choice {key!r}: label"),
                    target=self.slug(data["next"], where, f"choice {key!r}: next"),
                )
            )
        return tuple(result)


def parse_tree(text: str, source: str = "") -> TreeSpec:
    """Parse a tree file's text. Raises TreeError (naming ``source`` and the node) on bad shape."""
    return _Parser(source).tree(text)


def load_tree_file(path: str | FilePath, source: str | None = None) -> TreeSpec:
    """Read and parse one tree file; its slug must equal the file name without ``.yaml``."""
    file_path = FilePath(path)
    label = source if source is not None else str(path)
    try:
        text = file_path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise TreeError(f"{label}: cannot read the file: {exc}") from exc
    tree = parse_tree(text, label)
    if tree.slug != file_path.stem:
        raise TreeError(f"{label}: slug {tree.slug!r} must equal the file name {file_path.stem!r}")
    return tree


# --------------------------------------------------------------------------------------------
# Validation


def _successors(tree: TreeSpec, key: str) -> list[str]:
    if not tree.has_node(key):
        return []
    return [c.target for c in tree.node(key).choices if tree.has_node(c.target)]


def _find_cycles(tree: TreeSpec) -> list[list[str]]:
    """Every distinct cycle reached by a depth-first search, as a list of node keys."""
    white, grey, black = 0, 1, 2
    colour = {node.key: white for node in tree.nodes}
    cycles: list[list[str]] = []
    seen: set[frozenset[str]] = set()

    def visit(key: str, stack: list[str]) -> None:
        colour[key] = grey
        stack.append(key)
        for nxt in _successors(tree, key):
            if colour[nxt] == grey:
                cycle = stack[stack.index(nxt) :]
                if frozenset(cycle) not in seen:
                    seen.add(frozenset(cycle))
                    cycles.append(cycle)
            elif colour[nxt] == white:
                visit(nxt, stack)
        stack.pop()
        colour[key] = black

    for node in tree.nodes:
        if colour[node.key] == white:
            visit(node.key, [])
    return cycles


def _reachable(tree: TreeSpec) -> set[str]:
    if not tree.has_node(tree.start):
        return set()
    seen = {tree.start}
    todo = [tree.start]
    while todo:
        for nxt in _successors(tree, todo.pop()):
            if nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    return seen


def _text_problems(text: Text | None, what: str) -> Iterator[str]:
    if text is None:
        return
    for language in ("nl", "en"):
        if not getattr(text, language).strip():
            yield f"{what} has no {language} text"


def validate(
    tree: TreeSpec,
    resolves: Callable[[str], bool] | None = None,
    trees: Collection[str] | None = None,
) -> list[str]:
    """Every problem with ``tree`` (empty list: the tree is good).

    ``resolves(key)`` says whether a canonical citation key exists in the tree's edition; when
    it is None citations are only checked for form. ``trees`` is the set of known tree slugs,
    used to check ``see_tree``; when None that reference is not checked.
    """
    problems: list[str] = []

    # nl and en everywhere (tree level)
    problems.extend(_text_problems(tree.title, "title"))
    problems.extend(_text_problems(tree.description, "description"))

    # start node exists
    if not tree.has_node(tree.start):
        problems.append(f"start node {tree.start!r} does not exist")

    # node keys are unique (YAML mappings guarantee it for files; specs built in code may not)
    node_keys = [node.key for node in tree.nodes]
    for key in sorted({k for k in node_keys if node_keys.count(k) > 1}):
        problems.append(f"node {key!r}: defined more than once")

    reachable = _reachable(tree)
    for node in tree.nodes:
        where = f"node {node.key!r}"
        # every node reachable from the start
        if tree.has_node(tree.start) and node.key not in reachable:
            problems.append(f"{where}: not reachable from the start node {tree.start!r}")

        # nl and en everywhere (node level)
        what = "question" if node.kind == "question" else "title"
        problems.extend(f"{where}: {p}" for p in _text_problems(node.text, what))
        problems.extend(f"{where}: {p}" for p in _text_problems(node.help, "help"))

        if node.kind == "question":
            # at least two choices, with distinct keys and labels
            if len(node.choices) < 2:
                problems.append(
                    f"{where}: a question needs at least two choices (has {len(node.choices)})"
                )
            choice_keys = [c.key for c in node.choices]
            for key in sorted({k for k in choice_keys if choice_keys.count(k) > 1}):
                problems.append(f"{where}: choice key {key!r} is used more than once")
            for language in ("nl", "en"):
                labels = [getattr(c.label, language).strip().casefold() for c in node.choices]
                for label in sorted({lb for lb in labels if lb and labels.count(lb) > 1}):
                    problems.append(f"{where}: choice label {label!r} ({language}) is not distinct")
        else:
            # outcomes have no choices
            if node.choices:
                problems.append(f"{where}: an outcome has no choices (found {len(node.choices)})")
            # every outcome cites at least one provision
            if not node.cites:
                problems.append(f"{where}: an outcome must cite at least one provision")
            outcome = node.outcome
            if outcome is not None:
                problems.extend(f"{where}: {p}" for p in _text_problems(outcome.ruling, "ruling"))
                problems.extend(
                    f"{where}: {p}" for p in _text_problems(outcome.announce, "announce")
                )
                problems.extend(f"{where}: {p}" for p in _text_problems(outcome.options, "options"))
                if (
                    outcome.see_tree is not None
                    and trees is not None
                    and (outcome.see_tree not in trees)
                ):
                    problems.append(f"{where}: see_tree {outcome.see_tree!r} is not a tree")

        for choice in node.choices:
            problems.extend(
                f"{where}: choice {choice.key!r}: {p}"
                for p in _text_problems(choice.label, "label")
            )
            # every path ends in an outcome: no choice may lead nowhere
            if not tree.has_node(choice.target):
                problems.append(
                    f"{where}: choice {choice.key!r} points to unknown node {choice.target!r}"
                )

        # citations: well-formed, not repeated, and resolving in the edition
        for key in sorted({k for k in node.cites if node.cites.count(k) > 1}):
            problems.append(f"{where}: citation {key!r} is listed more than once")
        for key in dict.fromkeys(node.cites):
            try:
                written = keys.canonical(key)
            except keys.InvalidKey as error:
                problems.append(f"{where}: citation {key!r} is not a law reference: {error.reason}")
                continue
            if written != key:
                problems.append(f"{where}: citation {key!r} is not canonical (write {written!r})")
            elif resolves is not None and not resolves(key):
                problems.append(
                    f"{where}: citation {key!r} does not resolve in edition {tree.edition}"
                )

    # no cycles
    for cycle in _find_cycles(tree):
        loop = " → ".join([*cycle, cycle[0]])
        problems.append(f"node {cycle[0]!r}: part of a cycle ({loop})")

    return problems


def ensure_valid(
    tree: TreeSpec,
    resolves: Callable[[str], bool] | None = None,
    trees: Collection[str] | None = None,
) -> TreeSpec:
    """Return ``tree`` if it is valid, else raise TreeError listing every problem with the file."""
    problems = validate(tree, resolves, trees)
    if problems:
        prefix = f"{tree.source}: " if tree.source else ""
        lines = [f"{prefix}{problem}" for problem in problems]
        raise TreeError("\n".join(lines), lines)
    return tree


# --------------------------------------------------------------------------------------------
# Paths and walking


def paths(tree: TreeSpec) -> list[Path]:
    """Every start-to-outcome path, in file order of the choices.

    Raises TreeError if the tree has a cycle (the number of paths would be infinite). Choices that
    lead to unknown nodes and questions without choices yield no path (validate reports them).
    """
    if _find_cycles(tree):
        raise TreeError(f"{tree.source or tree.slug}: the tree has a cycle; no paths")
    if not tree.has_node(tree.start):
        return []
    result: list[Path] = []

    def follow(key: str, steps: tuple[tuple[str, str], ...]) -> None:
        node = tree.node(key)
        if node.kind == "outcome":
            result.append(Path(steps=steps, outcome=key))
            return
        for choice in node.choices:
            if tree.has_node(choice.target):
                follow(choice.target, (*steps, (key, choice.key)))

    follow(tree.start, ())
    return result


def walk(tree: TreeSpec, answers: Sequence[str]) -> NodeSpec:
    """Follow choice keys from the start; the node reached. Raises TreeError on a wrong answer."""
    try:
        node = tree.node(tree.start)
    except KeyError:
        raise TreeError(f"{tree.slug}: start node {tree.start!r} does not exist") from None
    for index, answer in enumerate(answers, start=1):
        if node.kind == "outcome":
            raise TreeError(
                f"{tree.slug}: answer {index} ({answer!r}) given after outcome {node.key!r}"
            )
        choice = node.choice(answer)
        if choice is None:
            valid = ", ".join(c.key for c in node.choices)
            raise TreeError(
                f"{tree.slug}: node {node.key!r}: {answer!r} is not a choice (choose {valid})"
            )
        try:
            node = tree.node(choice.target)
        except KeyError:
            raise TreeError(
                f"{tree.slug}: node {node.key!r}: choice {answer!r} points to unknown node"
                f" {choice.target!r}"
            ) from None
    return node


# --------------------------------------------------------------------------------------------
# Hashing


def canonical_data(tree: TreeSpec) -> dict[str, Any]:
    """The spec as plain data (what the hash covers): everything except ``source``."""
    data = asdict(tree)
    data.pop("source", None)
    if not tree.finder:
        # Trees written before finder words existed keep the version (hash) they had.
        data.pop("finder")
    return data


def content_hash(tree: TreeSpec) -> str:
    """SHA-256 (hex) of a canonical JSON of the parsed spec: layout and comments don't count."""
    payload = json.dumps(
        canonical_data(tree), sort_keys=True, ensure_ascii=False, separators=(",", ":")
    )
    return hashlib.sha256(payload.encode("utf-8")).hexdigest()
