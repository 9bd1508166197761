"""The importer's result: a ``ParsedEdition`` of articles, provisions, footnotes and the
cross-references found in their text (plain dataclasses, no Django)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any, Literal

from laws.keys import find_references


class LawImportError(Exception):
    """Input that cannot be imported; ``str(error)`` is one readable line."""


# --------------------------------------------------------------------------------------------
# Result types


@dataclass(frozen=True)
class Reference:
    raw: str
    key: str


@dataclass
class Footnote:
    marker: str
    text: str
    key: str | None
    references: list[Reference] = field(default_factory=list)
    line: int = 0

    def to_json_dict(self) -> dict[str, Any]:
        return {"marker": self.marker, "text": self.text, "key": self.key}


Level = Literal["section", "item", "sub"]


@dataclass
class Provision:
    label: str
    key: str
    level: Level
    heading: str | None = None
    text: str = ""
    closing: str = ""
    references: list[Reference] = field(default_factory=list)
    children: list[Provision] = field(default_factory=list)
    line: int = 0

    @property
    def full_text(self) -> str:
        """Text and closing paragraphs together, as the dry-run JSON shows them."""
        return _join_paragraphs([self.text, self.closing])

    def walk(self) -> Iterator[Provision]:
        yield self
        for child in self.children:
            yield from child.walk()

    def to_json_dict(self) -> dict[str, Any]:
        return {
            "label": self.label,
            "key": self.key,
            "heading": self.heading,
            "text": self.full_text,
            "references": [ref.key for ref in self.references],
            "children": [child.to_json_dict() for child in self.children],
        }


@dataclass
class Article:
    number: str
    title: str | None = None
    group: str | None = None
    text: str = ""
    closing: str = ""
    references: list[Reference] = field(default_factory=list)
    provisions: list[Provision] = field(default_factory=list)
    footnotes: list[Footnote] = field(default_factory=list)
    line: int = 0

    @property
    def full_text(self) -> str:
        return _join_paragraphs([self.text, self.closing])

    def walk(self) -> Iterator[Provision]:
        """Every provision, depth first in document order."""
        for provision in self.provisions:
            yield from provision.walk()

    def to_json_dict(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "title": self.title,
            "group": self.group,
            "text": self.full_text,
            "references": [ref.key for ref in self.references],
            "provisions": [p.to_json_dict() for p in self.provisions],
            "footnotes": [f.to_json_dict() for f in self.footnotes],
        }


@dataclass
class ParsedEdition:
    edition: str
    articles: list[Article] = field(default_factory=list)
    header: str | None = None
    skipped_preamble: list[str] = field(default_factory=list)
    # Page furniture dropped (title line aside): tagline, revision lines; never law text.
    furniture: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    start: str | None = None

    def to_json_dict(self) -> dict[str, Any]:
        return {
            "edition": self.edition,
            "articles": [article.to_json_dict() for article in self.articles],
        }

    @property
    def provision_count(self) -> int:
        return sum(1 for article in self.articles for _ in article.walk())

    @property
    def footnote_count(self) -> int:
        return sum(len(article.footnotes) for article in self.articles)

    @property
    def reference_count(self) -> int:
        total = 0
        for article in self.articles:
            total += len(article.references)
            total += sum(len(p.references) for p in article.walk())
            total += sum(len(f.references) for f in article.footnotes)
        return total


def _join_paragraphs(paragraphs: list[str]) -> str:
    return "\n\n".join(p for p in paragraphs if p)


# --------------------------------------------------------------------------------------------
# Cross-references (the grammar of keys and references lives in laws.keys)


def _references(*texts: str | None) -> list[Reference]:
    return [Reference(raw, key) for text in texts if text for raw, key in find_references(text)]
