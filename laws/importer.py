"""Parse Dutch law text in the formats of the seed files into plain dataclasses.

Pure module: no Django, no database. ``parse()`` turns text into a ``ParsedEdition``;
``ParsedEdition.to_json_dict()`` is the exact dry-run JSON of ``import_laws --dry-run --json``.

Canonical keys
--------------
A provision's key is how directors cite it (``62D2``, ``43B2(b)``, ``52(a)``, ``47A(a)``;
an item directly under an article is ``12.3``). The grammar, its accepted variants and the
cross-references found in the text (``artikel 43B2b`` -> ``43B2(b)``, ``artikelen 50 en
51``) are defined once, in :mod:`laws.keys`; the parser builds every provision key with it.

Formats handled
---------------
* Wiki template export (seeds 000 and 002): a header line ``Sjabloon:1987:47`` (not law
  text, reported as ``header``), part headings such as ``STRAFKAART. Art. 50 t/m 52`` (kept
  as the articles' ``group``), article headings ``Artikel 50. Title.`` / ``Artikel 47 Title``,
  paragraphs separated by blank lines.
* PDF-extracted text (seed 001): no blank lines, headings ``ARTIKEL 63`` with the title on
  the next line, words hyphenated across lines (``han-``/``den``), headings wrapped over two
  lines, page-number lines, running titles (``Operation Manual``) and footnotes marked
  ``hand*`` whose text follows the page number.

Labels: sections ``A.``, items ``1.``, sub-items ``(a)``, ``a.`` or ``a)``. A label is only
taken as a label when it continues the numbering where it is (``C.`` after ``B.``, ``2.``
after ``1.``, ``(a)`` first); otherwise the line is text and a note says so. A short
labelled line (at most three physical lines, starting with a capital, no sentence
punctuation) followed by a paragraph or by sub-provisions is a heading; a labelled line that
carries a sentence is text.

Paragraphs before the first label of an article or provision are its text. A list of
sentence-continuing items (``Indien ...:`` / ``a. mag ...; of`` / ``b. mag ...``) may be
followed by a closing paragraph starting with a capital: that belongs to the list's parent
(``closing``), not to the last item.

Lines before the first recognisable label (article heading, part heading or provision label)
are returned as ``skipped_preamble`` and never become law text; a later line identical to a
short preamble line is a running title and is dropped. Text that starts inside an article
(seed 001 starts in 62B) needs ``start`` (``62B``): the parser then continues the numbering
of that article and section.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from typing import Any, Literal

from laws import keys
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


# --------------------------------------------------------------------------------------------
# Cross-references (the grammar of keys and references lives in laws.keys)

_LETTER = r"[^\W\d_]"


def _references(*texts: str | None) -> list[Reference]:
    return [Reference(raw, key) for text in texts if text for raw, key in find_references(text)]


# --------------------------------------------------------------------------------------------
# Decoding and line handling


def decode_source(data: bytes) -> str:
    """Bytes of a source file as text: UTF-8, a byte-order mark tolerated."""
    if not data.strip():
        raise LawImportError("input is empty: nothing to import")
    if b"\x00" in data:
        raise LawImportError("input is binary (it contains NUL bytes), not law text")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise LawImportError(
            f"input is not UTF-8 text (undecodable byte at offset {error.start})"
        ) from None


# Control characters other than tab, newline, carriage return and form feed only occur in
# binary files (or files in a wrong encoding); law text never has them.
_BINARY_RE = re.compile(r"[\x00-\x08\x0b\x0e-\x1f\x7f]")


def _prepare_lines(text: str) -> list[str]:
    text = unicodedata.normalize("NFC", text.removeprefix("\ufeff"))
    # A form feed separates PDF pages; as a line break it keeps both neighbours intact.
    text = text.replace("\r\n", "\n").replace("\r", "\n").replace("\f", "\n")
    lines = []
    for line in text.split("\n"):
        line = line.replace("\u00a0", " ").replace("\t", " ")
        lines.append(re.sub(r" {2,}", " ", line).strip())
    return lines


# Dutch writes "voor- of bijspelen": the hyphen stands for a word part and the next word is a
# conjunction. Those hyphens are real, as are compounds with these prefixes.
_CONJUNCTIONS = {"en", "of", "tot", "noch"}
_HYPHEN_PREFIXES = {"niet", "ex", "non", "oud", "half"}
_HYPHEN_END_RE = re.compile(r"(" + _LETTER + r"+)-$")


def _join_two(left: str, right: str) -> str:
    if not left:
        return right
    if not right:
        return left
    if left.endswith("\u00ad"):  # soft hyphen: always a line-break hyphenation
        return left[:-1] + right
    hyphen = _HYPHEN_END_RE.search(left)
    if hyphen and right[0].isalpha():
        first_word = re.match(r"\w+", right)
        if right[0].isupper():
            return left + right  # a compound such as "Noord-Zuid" keeps its hyphen
        if first_word and first_word.group(0) in _CONJUNCTIONS:
            return f"{left} {right}"
        if hyphen.group(1).lower() in _HYPHEN_PREFIXES:
            return left + right
        return left[:-1] + right  # "han-" + "den" -> "handen"
    return f"{left} {right}"


def _join_lines(lines: list[str]) -> str:
    joined = ""
    for line in lines:
        joined = _join_two(joined, line)
    return joined.strip()


def _join_paragraphs(paragraphs: list[str]) -> str:
    return "\n\n".join(p for p in paragraphs if p)


def _chunks_to_text(chunks: list[str | None]) -> str:
    """Lines with ``None`` for blank lines -> paragraphs separated by a blank line."""
    paragraphs: list[str] = []
    current: list[str] = []
    for chunk in [*chunks, None]:
        if chunk is None:
            if current:
                paragraphs.append(_join_lines(current))
            current = []
        elif chunk:
            current.append(chunk)
    return _join_paragraphs(paragraphs)


# --------------------------------------------------------------------------------------------
# Line patterns

_HEADER_RE = re.compile(r"^(?:Sjabloon|Template):\S")
_PAGE_RE = re.compile(r"^(?:[-–—]\s*)?(?:(?:pagina|blz\.?|page)\s*)?\d{1,4}(?:\s*[-–—])?$", re.I)
_ARTICLE_RE = re.compile(
    r"^(?:ARTIKEL|Artikel|ART\.?|Art\.)\s*(?P<number>" + keys.ARTICLE_PATTERN + r")(?![\d/])\s*"
    r"(?:[.:]\s*|[-–—]\s+)?(?P<title>.*)$"
)
_GROUP_RANGE_RE = re.compile(
    r"\b(?:ARTIKELEN|Artikelen|ARTIKEL|Artikel|ART\.?|Art\.?)\s*\d{1,3}\s*"
    r"(?:t/m|tot en met|[-–—])\s*\d{1,3}\b"
)
_GROUP_WORD_RE = re.compile(r"^(?:HOOFDSTUK|Hoofdstuk|DEEL|Deel)\s+(?:\d{1,2}|[IVXLC]+)\b")
_SECTION_RE = re.compile(r"^(?P<value>[A-Z])\.(?:\s+(?P<rest>.*))?$")
_ITEM_RE = re.compile(r"^(?P<value>" + keys.ITEM_PATTERN + r")\.(?:\s+(?P<rest>.*))?$")
_SUB_PAREN_RE = re.compile(r"^\((?P<value>[a-z])\)(?:\s+(?P<rest>.*))?$")
_SUB_PLAIN_RE = re.compile(r"^(?P<value>[a-z])(?P<close>[.)])(?:\s+(?P<rest>.*))?$")
_MARKERS = r"\*{1,3}|[†‡]|[¹²³⁴⁵⁶⁷⁸⁹⁰]+"
# A marker sticks to the word it annotates ("hand*") and is followed by a space or punctuation.
_TEXT_MARKER_RE = re.compile(r"(?<=[\w)\]])(" + _MARKERS + r")(?=[\s.,;:!?)]|$)")
_FOOTNOTE_RE = re.compile(r"^(" + _MARKERS + r")\s*(\S.*)$")
_SENTENCE_END = ".!?"
_HEADING_LIMIT = 120


@dataclass
class _Label:
    level: Level
    printed: str
    value: str
    rest: str


def _match_label(line: str) -> _Label | None:
    if match := _SECTION_RE.match(line):
        return _Label("section", match["value"], match["value"], match["rest"] or "")
    if match := _ITEM_RE.match(line):
        return _Label("item", match["value"], match["value"], match["rest"] or "")
    if match := _SUB_PAREN_RE.match(line):
        return _Label("sub", f"({match['value']})", match["value"], match["rest"] or "")
    if match := _SUB_PLAIN_RE.match(line):
        printed = match["value"] + (")" if match["close"] == ")" else "")
        return _Label("sub", printed, match["value"], match["rest"] or "")
    return None


def _match_article(line: str) -> tuple[str, str | None] | None:
    """(number, title or None) when ``line`` is an article heading."""
    match = _ARTICLE_RE.match(line)
    if not match:
        return None
    title = match["title"].strip()
    if title and (not title[0].isupper() or len(title) > _HEADING_LIMIT):
        return None  # "Artikel 49 is van toepassing" is a sentence, not a heading
    return match["number"], title.rstrip(".").strip() or None


def _is_group(line: str) -> bool:
    if _match_label(line) or len(line) > 100:
        return False
    return bool(_GROUP_RANGE_RE.search(line) or _GROUP_WORD_RE.match(line))


def _looks_like_heading(text: str) -> bool:
    """Short, capitalised and without sentence punctuation: a heading, not a sentence."""
    if not text or len(text) > _HEADING_LIMIT:
        return False
    if not (text[0].isupper() or text[0].isdigit()):
        return False
    if text[-1] in ".,;:!?":
        return False
    return not re.search(r"[.!?;:]\s", text)


# --------------------------------------------------------------------------------------------
# The parser


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


class _Parser:
    def __init__(self, text: str, edition: str, start: str | None) -> None:
        self.result = ParsedEdition(edition=edition, start=start)
        self.lines = _prepare_lines(text)
        self.start = start
        self.group: str | None = None
        self.article: _Unit | None = None
        self.section: _Unit | None = None
        self.item: _Unit | None = None
        self.sub: _Unit | None = None
        self.units: list[_Unit] = []
        self.sink: _Unit | None = None
        self.sink_closing = False
        self.running_titles: set[str] = set()
        # Footnotes: in-text markers waiting for their footnote line, and the footer state.
        self.pending_markers: list[tuple[str, _Unit, int]] = []
        self.in_footer = False
        self.footer_fresh = False
        self.footnote_lines: list[tuple[Footnote, list[str], _Unit]] = []
        self.footnote_open = False

    # -- entry -------------------------------------------------------------------------------

    def parse(self) -> ParsedEdition:
        position = self._skip_header()
        position = self._skip_preamble(position)
        for number, line in enumerate(self.lines[position:], start=position + 1):
            self._feed(line, number)
        self._finish()
        return self.result

    def _note(self, number: int, message: str) -> None:
        self.result.notes.append(f"line {number}: {message}")

    def _skip_header(self) -> int:
        for index, line in enumerate(self.lines):
            if not line:
                continue
            if _HEADER_RE.match(line):
                self.result.header = line
                years = re.findall(r"\b(1[89]\d\d|20\d\d)\b", line)
                if years and self.result.edition not in years:
                    self._note(
                        index + 1,
                        f"the header names {years[0]} but the edition is {self.result.edition}",
                    )
                return index + 1
            return index
        return len(self.lines)

    def _skip_preamble(self, position: int) -> int:
        for index in range(position, len(self.lines)):
            line = self.lines[index]
            if not line:
                continue
            structural = _is_group(line) or _match_article(line) is not None
            label = None if structural else _match_label(line)
            if not (structural or label):
                self.result.skipped_preamble.append(line)
                if len(line) <= 60:
                    self.running_titles.add(line)
                continue
            if self.start is None:
                if label:
                    raise LawImportError(
                        f"the text starts inside an article (first label {line.split()[0]!r} "
                        f"on line {index + 1}): --start KEY is needed, e.g. --start 62B"
                    )
            else:
                self._begin_at_start(line, index + 1, label)
            return index
        raise LawImportError("unrecognisable input: no article heading or provision label found")

    def _begin_at_start(self, line: str, number: int, label: _Label | None) -> None:
        assert self.start is not None
        start = keys.try_parse(self.start)
        if start is None or start.clause:
            raise LawImportError(
                f"unknown start key {self.start!r}: expected a key such as 62B or 43B2"
            )
        if label is None:
            raise LawImportError(
                f"--start {self.start} was given but the text begins with its own heading "
                f"on line {number} ({line[:40]!r}); leave --start out"
            )
        article = self._open_article(start.number, None, number)
        unit = article
        if start.section:
            section = start.section
            unit = self._open_provision(_Label("section", section, section, ""), number)
        if start.item:
            item = str(start.item)
            unit = self._open_provision(_Label("item", item, item, ""), number)
        if start.sub:
            sub = start.sub
            unit = self._open_provision(_Label("sub", f"({sub})", sub, ""), number)
        unit.unknown_children = True
        self.sink = None  # nothing is text before the first real label
        if not self._fits(label):
            raise LawImportError(
                f"unknown start key {self.start!r}: the text's first label "
                f"{line.split()[0]!r} (line {number}) cannot follow {start}"
            )

    # -- line dispatch -----------------------------------------------------------------------

    def _feed(self, line: str, number: int) -> None:
        if not line:
            if self.in_footer:
                self.footer_fresh = False
                self._close_footnote()
            elif self.sink is not None:
                self._target().append(None)
            return
        if line in self.running_titles:
            self.in_footer = False
            self._note(number, f"running title {line!r} dropped")
            return
        if _PAGE_RE.match(line):
            self._note(number, f"page number {line!r} dropped")
            self.in_footer = True
            self.footer_fresh = True
            self._close_footnote()
            return
        if self.in_footer:
            if self._is_structure(line) or (
                self.footer_fresh and line[0].islower() and not _FOOTNOTE_RE.match(line)
            ):
                # Law text resumes; a lowercase first line continues the interrupted sentence.
                self.in_footer = False
            else:
                self._feed_footer(line, number)
                return
        if _is_group(line) or self._is_caps_group(line, number):
            self.group = line.rstrip(".")
            return
        heading = _match_article(line)
        if heading and self._article_fits(heading[0]):
            self._open_article(heading[0], heading[1], number)
            return
        label = _match_label(line)
        if label:
            if self._fits(label):
                self._open_provision(label, number)
                return
            self._note(
                number, f"{line[:30]!r} looks like a label but breaks the numbering; kept as text"
            )
        self._feed_text(line, number)

    def _is_caps_group(self, line: str, number: int) -> bool:
        """A capitalised part name on its own (``VERZAKING``) right before an article heading."""
        letters = [char for char in line if char.isalpha()]
        if len(letters) < 4 or any(char.islower() for char in letters) or len(line) > 60:
            return False
        if _match_label(line) or _match_article(line):
            return False
        following = next((later for later in self.lines[number:] if later), "")
        heading = _match_article(following)
        return bool(heading and self._article_fits(heading[0]))

    def _is_structure(self, line: str) -> bool:
        if _is_group(line):
            return True
        heading = _match_article(line)
        if heading and self._article_fits(heading[0]):
            return True
        label = _match_label(line)
        return bool(label and self._fits(label))

    # -- structure ---------------------------------------------------------------------------

    def _article_fits(self, number: str) -> bool:
        return self.article is None or int(number) > int(self.article.key)

    def _container(self, level: Level) -> _Unit | None:
        if level == "section":
            return self.article
        if level == "item":
            return self.section or self.article
        return self.item or self.section or self.article

    def _fits(self, label: _Label) -> bool:
        container = self._container(label.level)
        if container is None:
            return False
        last = container.last[label.level]
        if last is None:
            return container.unknown_children or label.value == _first_value(label.level)
        return label.value == _next_value(label.level, last)

    def _open_article(self, number: str, title: str | None, line: int) -> _Unit:
        article = Article(number=number, title=title, group=self.group, line=line)
        unit = _Unit(node=article)
        self.result.articles.append(article)
        self.units.append(unit)
        self.article, self.section, self.item, self.sub = unit, None, None, None
        self._set_sink(unit)
        return unit

    def _open_provision(self, label: _Label, line: int) -> _Unit:
        container = self._container(label.level)
        assert container is not None and self.article is not None
        key = str(_child_key(keys.parse(container.key), label))
        provision = Provision(label=label.printed, key=key, level=label.level, line=line)
        unit = _Unit(node=provision, first=label.rest, parent=container)
        # "Indien ...:" followed by "a. mag ...": the items continue the parent's sentence.
        intro = [chunk for chunk in [container.first, *container.chunks] if chunk]
        unit.list_item = bool(label.rest[:1].islower() and intro and intro[-1].endswith(":"))
        container.last[label.level] = label.value
        assert isinstance(container.node, (Article, Provision))
        if isinstance(container.node, Article):
            container.node.provisions.append(provision)
        else:
            container.node.children.append(provision)
        self.units.append(unit)
        if label.level == "section":
            self.section, self.item, self.sub = unit, None, None
        elif label.level == "item":
            self.item, self.sub = unit, None
        else:
            self.sub = unit
        self._set_sink(unit)
        if label.rest:
            self._take_markers(label.rest, unit, line)
            unit.first = _TEXT_MARKER_RE.sub("", label.rest)
        return unit

    def _set_sink(self, unit: _Unit) -> None:
        self.sink = unit
        self.sink_closing = False

    def _target(self) -> list[str | None]:
        assert self.sink is not None
        return self.sink.closing if self.sink_closing else self.sink.chunks

    # -- text --------------------------------------------------------------------------------

    def _feed_text(self, line: str, number: int) -> None:
        if self.sink is None:
            return
        if self.sink.list_item and not self.sink_closing and self._starts_paragraph(line):
            # A capitalised paragraph after a sentence-continuing list closes the list: it is
            # the parent's closing text, not more of the last item.
            assert self.sink.parent is not None
            self.sink = self.sink.parent
            self.sink_closing = True
        self._take_markers(line, self.sink, number)
        self._target().append(_TEXT_MARKER_RE.sub("", line))

    def _starts_paragraph(self, line: str) -> bool:
        """Whether ``line`` begins a new paragraph in the current list item.

        After a blank line it does; in PDF text (no blank lines) a capitalised line after a
        line ending a sentence does.
        """
        assert self.sink is not None
        if not line[0].isupper():
            return False
        lines = [self.sink.first, *self.sink.chunks]
        last = lines[-1]
        if last is None:
            return any(lines)
        return last.endswith(tuple(_SENTENCE_END))

    def _take_markers(self, line: str, unit: _Unit, number: int) -> None:
        for match in _TEXT_MARKER_RE.finditer(line):
            self.pending_markers.append((match.group(1), unit, number))

    # -- footnotes ---------------------------------------------------------------------------

    def _feed_footer(self, line: str, number: int) -> None:
        self.footer_fresh = False
        marked = _FOOTNOTE_RE.match(line)
        if marked:
            marker, text = marked.group(1), marked.group(2)
            owner = self._claim_marker(marker)
            if owner is None:
                self._note(number, f"footnote {marker!r} has no marker in the text before it")
            footnote = Footnote(marker=marker, text="", key=owner.key if owner else None)
            self._add_footnote(footnote, text, number, owner or self.article)
            return
        if self.footnote_open:
            lines = self.footnote_lines[-1][1]
            if not (lines[-1].endswith(tuple(_SENTENCE_END)) and line[0].isupper()):
                lines.append(line)
                return
        # An unmarked line that does not continue a footnote: a footnote of the page too, never
        # law text. It has no marker in the text, so it belongs to the article as a whole.
        self._add_footnote(Footnote(marker="", text="", key=None), line, number, self.article)

    def _add_footnote(self, footnote: Footnote, text: str, number: int, unit: _Unit | None) -> None:
        assert unit is not None  # the footer follows a page number, so an article is open
        footnote.line = number
        self.footnote_lines.append((footnote, [text], unit))
        self.footnote_open = True

    def _close_footnote(self) -> None:
        self.footnote_open = False

    def _claim_marker(self, marker: str) -> _Unit | None:
        """The unit holding the earliest unclaimed in-text ``marker``, if any."""
        for index, (pending, unit, _) in enumerate(self.pending_markers):
            if pending == marker:
                del self.pending_markers[index]
                return unit
        return None

    # -- finishing ---------------------------------------------------------------------------

    def _finish(self) -> None:
        for marker, unit, number in self.pending_markers:
            self._note(number, f"marker {marker!r} in {unit.key} has no footnote")
        for unit in self.units:
            self._finish_unit(unit)
        for footnote, lines, unit in self.footnote_lines:
            footnote.text = _join_lines(lines)
            footnote.references = _references(footnote.text)
            article = unit
            while article.parent is not None:
                article = article.parent
            assert isinstance(article.node, Article)
            article.node.footnotes.append(footnote)

    def _finish_unit(self, unit: _Unit) -> None:
        node = unit.node
        chunks = list(unit.chunks)
        if unit.first:
            chunks.insert(0, unit.first)
        while chunks and chunks[0] is None:
            chunks.pop(0)
        has_children = bool(node.provisions if isinstance(node, Article) else node.children)
        wants_heading = isinstance(node, Provision) or node.title is None
        heading = None
        if wants_heading:
            heading, chunks = _split_heading(chunks, has_children or bool(unit.closing))
        if isinstance(node, Article):
            if heading:
                node.title = heading
            node.text = _chunks_to_text(chunks)
            node.closing = _chunks_to_text(unit.closing)
            node.references = _references(node.title, node.text, node.closing)
        else:
            node.heading = heading
            node.text = _chunks_to_text(chunks)
            node.closing = _chunks_to_text(unit.closing)
            node.references = _references(node.heading, node.text, node.closing)


def _split_heading(chunks: list[str | None], has_more: bool) -> tuple[str | None, list[str | None]]:
    """Take a heading off the front of ``chunks`` when the labelled line is one.

    A heading may be wrapped over up to three physical lines: a following line continues it
    when it starts in lowercase or the line before ends in a hyphen. The body that follows
    (or the sub-provisions, ``has_more``) must exist, else the line is the provision's text.
    """
    if not chunks or chunks[0] is None:
        return None, chunks
    taken = [chunks[0]]
    index = 1
    while index < len(chunks) and len(taken) < 3:
        following = chunks[index]
        if following is None or _join_lines(taken).endswith(tuple(".,;:!?")):
            break
        if not (following[0].islower() or taken[-1].endswith("-")):
            break
        taken.append(following)
        index += 1
    candidate = _join_lines(taken)
    rest = chunks[index:]
    body_follows = any(rest)
    continues_sentence = bool(rest) and rest[0] is not None and rest[0][:1].islower()
    if _looks_like_heading(candidate) and (body_follows or has_more) and not continues_sentence:
        return candidate, rest
    return None, chunks


def parse(text: str, edition: str, start: str | None = None) -> ParsedEdition:
    """Parse law text into a ``ParsedEdition``; raises ``LawImportError`` on unusable input."""
    if _BINARY_RE.search(text):
        raise LawImportError("input is binary (it contains control characters), not law text")
    if not text.removeprefix("\ufeff").strip():
        raise LawImportError("input is empty: nothing to import")
    return _Parser(text, edition, start).parse()


def parse_bytes(data: bytes, edition: str, start: str | None = None) -> ParsedEdition:
    """Decode (UTF-8, BOM tolerated) and parse."""
    return parse(decode_source(data), edition, start)
