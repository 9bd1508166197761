"""The one shape of a decision tree: frozen dataclasses (pure Python, no Django).

A tree file is parsed into a :class:`TreeSpec` (:mod:`trees.parse`) and checked by
:mod:`trees.validate`; :mod:`trees.loading` writes it to the database and reads it back; a
:class:`Snapshot` is that tree frozen with the law text each citation showed, stored as JSON
(:meth:`Snapshot.to_json` / :meth:`Snapshot.from_json`, the only code that reads or writes
that JSON; the strict reader behind ``from_json`` is :mod:`trees.snapshot_json`) and used by
the wizard, training, the diagram and transfer.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import Any

from lib.i18n import pick
from trees.finder_words import Finder
from trees.hashing import content_hash
from trees.options import OptionSpec, outcome_json, text_json
from trees.order import reading_order

__all__ = [
    "CHOOSERS",
    "KINDS",
    "LAW_KINDS",
    "OFFENDER_ROLES",
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
# Who the offender is by an answer (``offender`` in a tree file): a defender, or declarer's side
# (declarer or dummy). rulings/consistency.py flags board details that contradict it.
OFFENDER_ROLES = ("defender", "declarer_side")


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
    offender: str = ""  # one of OFFENDER_ROLES when the answer says who offended


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
    # A question a player poll answers (``poll: true``: 16B1(b)'s logical alternative): the
    # wizard shows the ruling's poll beside it (issue 33).
    poll: bool = False

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
        """Read one stored citation (trees/snapshot_json.py, as :meth:`Snapshot.from_json`)."""
        from trees.snapshot_json import read_cited_law

        return read_cited_law(data, where)


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
        if node.poll:  # only when set: snapshots of other questions keep their digest
            data["poll"] = True
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
        if choice.offender:  # likewise only when set
            data["offender"] = choice.offender
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
        """Read stored snapshot data; raises SnapshotFormatError naming the first odd place.

        The reader is trees/snapshot_json.py (it imports this module, hence imported here)."""
        from trees.snapshot_json import read_snapshot

        return read_snapshot(data, digest, where)
