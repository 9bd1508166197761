"""The one shape of a decision tree: frozen dataclasses (pure Python, no Django).

A tree file is parsed into a :class:`TreeSpec` (:mod:`trees.parse`) and checked by
:mod:`trees.validate`; :mod:`trees.loading` writes it to the database and reads it back; a
:class:`Snapshot` is that tree frozen with the law text each citation showed, stored as JSON
(:meth:`Snapshot.to_json` / :meth:`Snapshot.from_json`, the only code that reads or writes
that JSON) and used by the wizard, training, the diagram and transfer.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import Any

from lib import schema
from lib.i18n import pick
from trees.finder_words import Finder
from trees.hashing import content_hash
from trees.options import OptionSpec, outcome_json, read_options, text_json
from trees.order import reading_order

__all__ = [
    "CHOOSERS",
    "KINDS",
    "LAW_KINDS",
    "PHASES",
    "ChoiceSpec",
    "CitedLaw",
    "Finder",
    "NodeSpec",
    "OutcomeSpec",
    "Path",
    "Snapshot",
    "SnapshotFormatError",
    "Text",
    "TreeError",
    "TreeSpec",
    "content_hash",
    "outcome_json",
    "text_json",
]

PHASES = ("auction", "play")
KINDS = ("question", "outcome")
CHOOSERS = ("none", "declarer", "defenders", "nos", "lho", "offender", "director")
LAW_KINDS = ("official", "summary", "title", "missing")


class TreeError(ValueError):
    """A tree file that cannot be used. ``problems`` holds every message (at least one)."""

    def __init__(self, message: str, problems: Sequence[str] | None = None) -> None:
        super().__init__(message)
        self.problems = list(problems) if problems else [message]


# --------------------------------------------------------------------------------------------
# The tree


@dataclass(frozen=True)
class Text:
    nl: str
    en: str

    def get(self, language: str) -> str:
        """The text in ``language`` ('nl' or 'en'), falling back to Dutch."""
        return pick(self.nl, self.en, language)

    def __bool__(self) -> bool:
        return bool(self.nl or self.en)


@dataclass(frozen=True)
class ChoiceSpec:
    key: str
    label: Text
    target: str
    # The provisions this answer establishes (an established revoke: 63A1): part of the legal
    # basis of the ruling it leads to (rulings/legal_basis.py), unlike the question's cards.
    cites: tuple[str, ...] = ()


@dataclass(frozen=True)
class OutcomeSpec:
    ruling: Text
    announce: Text
    options: Text | None = None
    chooser: str = "none"
    adjusted_score: bool = False
    unauthorised_information: bool = False
    see_tree: str | None = None
    option_list: tuple[OptionSpec, ...] = ()  # every option when a side chooses (27A3)
    # The question a ruling deferred here (until the end of play) resumes at (27C).
    resume_at: str | None = None


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

    @cached_property
    def _by_key(self) -> dict[str, NodeSpec]:
        # Every wizard step looks nodes up; a scan grew with the tree (make bench's 1000-node
        # tree). The spec is frozen, so the index never goes stale. The first node of a key
        # wins, as in a scan (the validator reports a doubled key).
        index: dict[str, NodeSpec] = {}
        for node in self.nodes:
            index.setdefault(node.key, node)
        return index

    def node(self, key: str) -> NodeSpec:
        return self._by_key[key]

    def has_node(self, key: str) -> bool:
        return key in self._by_key

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
# A frozen tree with its law text


class SnapshotFormatError(ValueError):
    """Stored snapshot JSON that does not have the snapshot shape; the message names where."""


@dataclass(frozen=True)
class CitedLaw:
    """The law text one citation showed when the tree was frozen: official text where the
    edition has it (one language filled), else our summary, else only the article's title."""

    key: str
    edition: str
    article: str = ""
    article_title: str = ""
    kind: str = "missing"  # one of LAW_KINDS
    text: Text = Text("", "")

    def to_json(self) -> dict[str, Any]:
        return {
            "key": self.key,
            "edition": self.edition,
            "article": self.article,
            "article_title": self.article_title,
            "kind": self.kind,
            "text": {"nl": self.text.nl, "en": self.text.en},
        }

    @classmethod
    def from_json(cls, data: Any, where: str = "citation") -> CitedLaw:
        _Reader.fields(data, {"key", "edition", "article", "article_title", "kind", "text"}, where)
        kind = _Reader.string(data, "kind", where)
        if kind not in LAW_KINDS:
            raise SnapshotFormatError(f"{where}.kind: must be one of {', '.join(LAW_KINDS)}")
        return cls(
            key=_Reader.string(data, "key", where),
            edition=_Reader.string(data, "edition", where),
            article=_Reader.string(data, "article", where),
            article_title=_Reader.string(data, "article_title", where),
            kind=kind,
            text=_Reader.text(data.get("text"), f"{where}.text") or Text("", ""),
        )


@dataclass(frozen=True)
class Snapshot:
    """A tree as a ruling runs on it: the tree (without its authors' description and notes)
    and the law text of every citation, by key. ``digest`` is the SHA-256 of :meth:`to_json`
    (see ``trees.snapshot.digest_of``); ``version`` is the tree file's content hash."""

    tree: TreeSpec
    version: str
    law: Mapping[str, CitedLaw]
    digest: str = field(default="", compare=False)

    @classmethod
    def of(cls, tree: TreeSpec, version: str, law: Mapping[str, CitedLaw]) -> Snapshot:
        """The snapshot of ``tree``: only what the stored JSON keeps."""
        kept = replace(
            tree,
            description=Text("", ""),
            notes="",
            finder=Finder(),
            source="",
            nodes=reading_order(tree.nodes, tree.start),
        )
        return cls(tree=kept, version=version, law=dict(law))

    # The tree's parts, for callers that only hold the snapshot.
    @property
    def slug(self) -> str:
        return self.tree.slug

    @property
    def edition(self) -> str:
        return self.tree.edition

    @property
    def phase(self) -> str:
        return self.tree.phase

    @property
    def title(self) -> Text:
        return self.tree.title

    @property
    def start(self) -> str:
        return self.tree.start

    def has_node(self, key: str) -> bool:
        return self.tree.has_node(key)

    def node(self, key: str) -> NodeSpec:
        return self.tree.node(key)

    def is_outcome(self, key: str) -> bool:
        return self.tree.node(key).is_outcome

    def choice(self, node_key: str, choice_key: str) -> ChoiceSpec | None:
        return self.tree.node(node_key).choice(choice_key) if self.has_node(node_key) else None

    def citations(self, node_key: str) -> tuple[CitedLaw, ...]:
        """The law text a node shows, in the order it cites it."""
        return tuple(self.law[key] for key in self.tree.node(node_key).cites)

    def answer_citations(self, node_key: str, choice_key: str) -> tuple[CitedLaw, ...]:
        """The law text an answer establishes (its ``cites``), in its order."""
        choice = self.choice(node_key, choice_key)
        return tuple(self.law[key] for key in choice.cites) if choice else ()

    # --- stored JSON (format 1; its canonical form is what the digest covers) --------------

    def node_json(self, node: NodeSpec) -> dict[str, Any]:
        data: dict[str, Any] = {
            "kind": node.kind,
            "text": text_json(node.text),
            "help": text_json(node.help),
            "citations": [law.to_json() for law in self.citations(node.key)],
        }
        if node.outcome is not None:
            data["outcome"] = outcome_json(node.outcome)
        else:
            data["choices"] = [self.choice_json(node.key, c) for c in node.choices]
        return data

    def choice_json(self, node_key: str, choice: ChoiceSpec) -> dict[str, Any]:
        data: dict[str, Any] = {
            "key": choice.key,
            "label": text_json(choice.label),
            "target": choice.target,
        }
        if choice.cites:
            # Only when the answer cites: snapshots of trees without answer citations keep
            # their digest.
            data["citations"] = [
                law.to_json() for law in self.answer_citations(node_key, choice.key)
            ]
        return data

    def to_json(self) -> dict[str, Any]:
        """The stored snapshot data (``TreeSnapshot.data``, and a transfer bundle's)."""
        return {
            "slug": self.slug,
            "version": self.version,
            "edition": self.edition,
            "phase": self.phase,
            "title": text_json(self.title),
            "start": self.start,
            "nodes": {node.key: self.node_json(node) for node in self.tree.nodes},
        }

    @classmethod
    def from_json(cls, data: Any, digest: str = "", where: str = "snapshot") -> Snapshot:
        """Read stored snapshot data; raises SnapshotFormatError naming the first odd place."""
        read = _Reader
        read.fields(data, {"slug", "version", "edition", "phase", "title", "start", "nodes"}, where)
        nodes_data = data.get("nodes")
        if not isinstance(nodes_data, dict):
            raise SnapshotFormatError(f"{where}.nodes: must be an object")
        law: dict[str, CitedLaw] = {}
        nodes = []
        for key, raw in nodes_data.items():
            node, cited = read.node(str(key), raw, f"{where}.nodes.{key}")
            nodes.append(node)
            law.update((item.key, item) for item in cited)
        start = read.string(data, "start", where)
        if start not in nodes_data:
            raise SnapshotFormatError(f"{where}.start: no node {start}")
        for node in nodes:
            for choice in node.choices:
                if choice.target not in nodes_data:
                    raise SnapshotFormatError(
                        f"{where}.nodes.{node.key}: choice {choice.key} leads nowhere"
                    )
        tree = TreeSpec(
            slug=read.string(data, "slug", where),
            edition=read.string(data, "edition", where),
            phase=read.string(data, "phase", where, required=False),
            title=read.text(data.get("title"), f"{where}.title") or Text("", ""),
            description=Text("", ""),
            notes="",
            start=start,
            # PostgreSQL's jsonb does not keep the order of the stored nodes: put them in the
            # order Snapshot.of gives them, so a snapshot reads back equal on every database.
            nodes=reading_order(nodes, start),
        )
        return cls(tree=tree, version=read.string(data, "version", where), law=law, digest=digest)


class _Reader:
    """Strict reading of stored snapshot JSON (a bundle may come from elsewhere)."""

    @staticmethod
    def fields(
        data: Any, allowed: set[str], where: str, optional: frozenset[str] | set[str] = frozenset()
    ) -> None:
        if not isinstance(data, dict):
            raise SnapshotFormatError(f"{where}: must be an object")
        unknown = sorted(set(map(str, data)) - allowed)
        if unknown:
            raise SnapshotFormatError(f"{where}: unknown key(s) {', '.join(unknown)}")
        missing = sorted(allowed - optional - set(data))
        if missing:
            raise SnapshotFormatError(f"{where}.{missing[0]}: is missing")

    @staticmethod
    def string(data: dict[str, Any], name: str, where: str, *, required: bool = True) -> str:
        value = data.get(name)
        if value is None and not required:
            return ""
        if type(value) is not str:
            raise SnapshotFormatError(f"{where}.{name}: must be str")
        return value

    @staticmethod
    def boolean(data: dict[str, Any], name: str, where: str) -> bool:
        value = data.get(name)
        if type(value) is not bool:
            raise SnapshotFormatError(f"{where}.{name}: must be bool")
        return value

    @staticmethod
    def text(value: Any, where: str) -> Text | None:
        if value is None:
            return None
        odd = schema.problems(value, schema.LanguageText, where)
        if odd:
            raise SnapshotFormatError(odd[0])
        return Text(value.get("nl") or "", value.get("en") or "")

    @staticmethod
    def node(key: str, data: Any, where: str) -> tuple[NodeSpec, list[CitedLaw]]:
        read = _Reader
        read.fields(
            data,
            {"kind", "text", "help", "citations", "outcome", "choices"},
            where,
            optional={"text", "help", "outcome", "choices"},
        )
        kind = data.get("kind")
        if kind not in KINDS:
            raise SnapshotFormatError(f"{where}.kind: must be one of {', '.join(KINDS)}")
        raw_citations = data.get("citations")
        if not isinstance(raw_citations, list):
            raise SnapshotFormatError(f"{where}.citations: must be a list")
        cited = [
            CitedLaw.from_json(item, f"{where}.citations[{index}]")
            for index, item in enumerate(raw_citations)
        ]
        details = "outcome" if kind == "outcome" else "choices"
        if data.get(details) is None:
            raise SnapshotFormatError(f"{where}: {details} is missing")
        outcome = read.outcome(data["outcome"], f"{where}.outcome") if kind == "outcome" else None
        choices, answer_law = read.choices(data.get("choices") or [], f"{where}.choices")
        cited = [*cited, *answer_law]
        node = NodeSpec(
            key=key,
            kind=kind,
            text=read.text(data.get("text"), f"{where}.text") or Text("", ""),
            help=read.text(data.get("help"), f"{where}.help"),
            cites=tuple(item.key for item in cited[: len(raw_citations)]),
            choices=choices,
            outcome=outcome,
        )
        return node, cited

    @staticmethod
    def outcome(data: Any, where: str) -> OutcomeSpec:
        read = _Reader
        names = {"ruling", "options", "chooser", "announce", "adjusted_score"}
        names |= {"unauthorised_information", "see_tree", "option_list", "resume_at"}
        optional = {"ruling", "options", "announce", "see_tree", "option_list", "resume_at"}
        read.fields(data, names, where, optional=optional)
        try:
            option_list = read_options(data.get("option_list") or [], f"{where}.option_list")
        except ValueError as error:
            raise SnapshotFormatError(str(error)) from None
        see_tree = data.get("see_tree")
        if see_tree is not None and type(see_tree) is not str:
            raise SnapshotFormatError(f"{where}.see_tree: must be str")
        return OutcomeSpec(
            ruling=read.text(data.get("ruling"), f"{where}.ruling") or Text("", ""),
            announce=read.text(data.get("announce"), f"{where}.announce") or Text("", ""),
            options=read.text(data.get("options"), f"{where}.options"),
            chooser=read.string(data, "chooser", where),
            adjusted_score=read.boolean(data, "adjusted_score", where),
            unauthorised_information=read.boolean(data, "unauthorised_information", where),
            see_tree=see_tree or None,
            option_list=option_list,
            resume_at=read.string(data, "resume_at", where, required=False) or None,
        )

    @staticmethod
    def choices(data: Any, where: str) -> tuple[tuple[ChoiceSpec, ...], list[CitedLaw]]:
        """The choices, and the law text their answers cite."""
        if not isinstance(data, list):
            raise SnapshotFormatError(f"{where}: must be a list")
        result = []
        law: list[CitedLaw] = []
        for index, item in enumerate(data):
            at = f"{where}[{index}]"
            names = {"key", "label", "target", "citations"}
            _Reader.fields(item, names, at, optional={"label", "citations"})
            raw = item.get("citations") or []
            if not isinstance(raw, list):
                raise SnapshotFormatError(f"{at}.citations: must be a list")
            cited = [
                CitedLaw.from_json(entry, f"{at}.citations[{n}]") for n, entry in enumerate(raw)
            ]
            law += cited
            result.append(
                ChoiceSpec(
                    key=_Reader.string(item, "key", at),
                    label=_Reader.text(item.get("label"), f"{at}.label") or Text("", ""),
                    target=_Reader.string(item, "target", at),
                    cites=tuple(entry.key for entry in cited),
                )
            )
        return tuple(result), law
