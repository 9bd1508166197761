"""Articles and provisions while the parser collects their lines, and the numbering of
labels: which value comes first, next or before, and which label a key prints for itself."""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from laws import keys
from laws.importer.model import Article, Level, Provision
from laws.importer.text import _Label


@dataclass
class _Unit:
    """An article or provision while its lines are being collected."""

    node: Article | Provision
    first: str | None = None  # the rest of a label line; None for articles
    chunks: list[str | None] = field(default_factory=list)
    closing: list[str | None] = field(default_factory=list)
    parent: _Unit | None = None
    # Last child label seen per level, so "C." is only a label right after "B.".
    last: dict[str, str | None] = field(
        default_factory=lambda: {"section": None, "item": None, "sub": None}
    )
    # Text that starts inside this unit (``start``): the first child may have any label.
    unknown_children: bool = False
    list_item: bool = False
    # A wiki list item ("- 1. …" or a bare "- …"): one line, so a new sentence after it is
    # the parent's closing text.
    dash_item: bool = False
    # A page's provision without label: its first line is text, never a heading.
    headless: bool = False

    @property
    def key(self) -> str:
        return self.node.key if isinstance(self.node, Provision) else self.node.number


def _child_key(parent: keys.Key, label: _Label) -> keys.Key:
    """The key of the provision ``label`` opens inside ``parent`` (``43B2`` + ``(b)``)."""
    if label.level == "section":
        return replace(parent, section=label.value)
    if label.level == "item":
        return replace(parent, item=int(label.value))
    return replace(parent, sub=label.value)


def _next_value(level: str, value: str) -> str:
    return str(int(value) + 1) if level == "item" else chr(ord(value) + 1)


def _first_value(level: str) -> str:
    return {"section": "A", "item": "1", "sub": "a"}[level]


def _previous_value(level: str, value: str) -> str | None:
    if value == _first_value(level):
        return None
    return str(int(value) - 1) if level == "item" else chr(ord(value) - 1)


def _own_label(key: keys.Key) -> tuple[Level, str] | None:
    """The label a provision prints for itself: ``74B`` -> ``B.``, ``62D2`` -> ``2.``."""
    if key.sub:
        return "sub", key.sub
    if key.item:
        return "item", str(key.item)
    if key.section:
        return "section", key.section
    return None
