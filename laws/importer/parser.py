"""The line-by-line parser: builds a ``ParsedEdition`` from prepared lines, following the
numbering of sections, items and sub-items, list closings and PDF footnotes (see the package
docstring for the rules). Pure: no Django."""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace

from laws import keys
from laws.importer.model import (
    Article,
    Footnote,
    LawImportError,
    Level,
    ParsedEdition,
    Provision,
    _references,
)
from laws.importer.text import (
    _BINARY_RE,
    _FOOTNOTE_RE,
    _HEADER_RE,
    _PAGE_RE,
    _SENTENCE_END,
    _TEXT_MARKER_RE,
    _chunks_to_text,
    _is_group,
    _join_lines,
    _Label,
    _match_article,
    _match_label,
    _prepare_lines,
    _split_heading,
    decode_source,
)


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
        assert container is not None
        assert self.article is not None
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
