"""The line-by-line parser: builds a ``ParsedEdition`` from prepared lines, following the
numbering of sections, items and sub-items, dash lists, list closings and footnotes (see the
package docstring for the rules). Pure: no Django."""

from __future__ import annotations

import re

from laws import keys
from laws.importer import pages
from laws.importer.footnotes import Footnotes
from laws.importer.model import (
    Article,
    LawImportError,
    Level,
    ParsedEdition,
    Provision,
    _references,
)
from laws.importer.text import (
    _BINARY_RE,
    _DASH_RE,
    _FOOTNOTE_RE,
    _HEADER_RE,
    _HTML_RE,
    _PAGE_RE,
    _SENTENCE_END,
    _chunks_to_text,
    _first_word,
    _is_group,
    _is_structure_shape,
    _Label,
    _label_of,
    _looks_like_heading,
    _match_article,
    _match_label,
    _prepare_lines,
    _split_heading,
    decode_source,
    wrap_width,
)
from laws.importer.units import (
    _child_key,
    _first_value,
    _next_value,
    _own_label,
    _previous_value,
    _Unit,
)

_LEVELS = ("article", "section", "item", "sub")
# The level a bare wiki list numbers under a provision of this level (64B: 64B1, 64B2 …).
_LIST_LEVEL: dict[Level, Level] = {"section": "item", "item": "sub"}


class _Parser:
    def __init__(self, text: str, edition: str, start: str | None) -> None:
        self.result = ParsedEdition(edition=edition, start=start)
        lines = _prepare_lines(text)
        self.width = wrap_width(lines)
        end, page_notes, furniture = pages.footnote_block(
            lines, [_is_structure_shape(x) for x in lines]
        )
        self.lines = lines[:end]
        self.start = start
        # A wiki page: it has a title line or page furniture. Its title may name its key.
        self.is_page = False
        self.page_key: keys.Key | None = None
        self.group: str | None = None
        self.article: _Unit | None = None
        self.section: _Unit | None = None
        self.item: _Unit | None = None
        self.sub: _Unit | None = None
        self.units: list[_Unit] = []
        self.sink: _Unit | None = None
        self.sink_closing = False
        self.running_titles: set[str] = set()
        self.footnotes = Footnotes(self._note, page_notes)
        self.footnote_furniture = furniture
        # The PDF page footer: after a page number, until law text resumes.
        self.in_footer = False
        self.footer_fresh = False

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
        """Skip the title line of a wiki page (``header``) and the site's tagline after it."""
        index = self._next_content(0)
        if index < len(self.lines) and _HEADER_RE.match(self.lines[index]):
            header = self.result.header = self.lines[index]
            self.is_page = True
            self.page_key = pages.title_key(header)
            years = re.findall(r"\b(1[89]\d\d|20\d\d)\b", header)
            if years and self.result.edition not in years:
                self._note(
                    index + 1,
                    f"the header names {years[0]} but the edition is {self.result.edition}",
                )
            index = self._next_content(index + 1)
        if index < len(self.lines) and pages.is_tagline(self.lines[index]):
            self._drop_furniture(self.lines[index])
            index += 1
        return index

    def _next_content(self, index: int) -> int:
        while index < len(self.lines) and not self.lines[index]:
            index += 1
        return index

    def _drop_furniture(self, line: str) -> None:
        self.result.furniture.append(line)
        self.is_page = True

    def _skip_preamble(self, position: int) -> int:
        for index in range(position, len(self.lines)):
            line = self.lines[index]
            if not line:
                continue
            if pages.is_furniture(line):
                self._drop_furniture(line)
                continue
            structural = _is_group(line) or _match_article(line) is not None
            label = None if structural else _label_of(line)
            if structural or label:
                if self.start is not None:
                    self._begin_at_start(line, index + 1, label, structural)
                elif label:
                    raise LawImportError(
                        f"the text starts inside an article (first label {_first_word(line)!r} "
                        f"on line {index + 1}): --start KEY is needed, "
                        f"e.g. --start {self.page_key or '62B'}"
                    )
                return index
            if self.start is not None and self.is_page:
                # A page that holds one provision without its label: this is its text.
                self._begin_at_start(line, index + 1, None, False)
                return index
            self.result.skipped_preamble.append(line)
            if len(line) <= 60:
                self.running_titles.add(line)
        message = "unrecognisable input: no article heading or provision label found"
        if self.page_key is not None and self.start is None:
            key = self.page_key
            message += f"; a page that holds the text of {key} needs --start {key}"
        raise LawImportError(message)

    def _begin_at_start(
        self, line: str, number: int, label: _Label | None, structural: bool
    ) -> None:
        """Open the provisions ``--start`` names, as the text's first line needs them.

        A page's first label may be its own (``B.`` on page 74B): the page holds the provision
        itself. Any other first label continues the numbering inside the start key (seed 001:
        ``2.`` in 62B). Unlabelled text on a page is the start provision's own text.
        """
        assert self.start is not None
        start = keys.try_parse(self.start)
        if start is None or start.clause:
            raise LawImportError(
                f"unknown start key {self.start!r}: expected a key such as 62B or 43B2"
            )
        if structural:
            raise LawImportError(
                f"--start {self.start} was given but the text begins with its own heading "
                f"on line {number} ({line[:40]!r}); leave --start out"
            )
        if self.page_key is not None and start != self.page_key:
            raise LawImportError(
                f"--start {self.start} does not fit this page: its title "
                f"{self.result.header!r} names {self.page_key}"
            )
        if label and self.is_page and _own_label(start) == (label.level, label.value):
            assert start.parent is not None  # an own label belongs to a provision
            container = self._open_path(start.parent, number)
            container.last[label.level] = _previous_value(label.level, label.value)
            self.sink = None
            return
        unit = self._open_path(start, number)
        if label is None:
            unit.headless = True  # the label carries a page's heading: this page has neither
            self._set_sink(unit)
            return
        # A text fragment (PDF) starts anywhere inside the start key; a page holds all of it.
        unit.unknown_children = not self.is_page
        self.sink = None  # nothing is text before the first real label
        inside = _LEVELS.index(label.level) > _LEVELS.index(start.level)
        if not self._fits(label) or (self.is_page and not inside):
            raise LawImportError(
                f"unknown start key {self.start!r}: the text's first label "
                f"{_first_word(line)!r} (line {number}) cannot follow {start}"
            )

    def _open_path(self, key: keys.Key, number: int) -> _Unit:
        """Open ``key``'s article and each provision down to ``key`` (none of them labelled)."""
        unit = self._open_article(key.number, None, number)
        if key.section:
            unit = self._open_provision(_Label("section", key.section, key.section, ""), number)
        if key.item:
            item = str(key.item)
            unit = self._open_provision(_Label("item", item, item, ""), number)
        if key.sub:
            unit = self._open_provision(_Label("sub", f"({key.sub})", key.sub, ""), number)
        return unit

    # -- line dispatch -----------------------------------------------------------------------

    def _feed(self, line: str, number: int) -> None:
        if not line:
            if self.in_footer:
                self.footer_fresh = False
                self.footnotes.close()
            elif self.sink is not None:
                self._target().append(None)
            return
        if pages.is_furniture(line):
            self._drop_furniture(line)
            return
        if line in self.running_titles:
            self.in_footer = False
            self._note(number, f"running title {line!r} dropped")
            return
        if _PAGE_RE.match(line):
            self._note(number, f"page number {line!r} dropped")
            self.in_footer = True
            self.footer_fresh = True
            self.footnotes.close()
            return
        if self.in_footer:
            if self._is_structure(line) or (
                self.footer_fresh and line[0].islower() and not _FOOTNOTE_RE.match(line)
            ):
                # Law text resumes; a lowercase first line continues the interrupted sentence.
                self.in_footer = False
            else:
                self.footer_fresh = False
                self.footnotes.footer_line(line, number, self.article)
                return
        if _is_group(line) or self._is_caps_group(line, number):
            self.group = line.rstrip(".")
            return
        heading = _match_article(line)
        if heading and self._article_fits(heading[0]):
            self._open_article(heading[0], heading[1], number)
            return
        dash = _DASH_RE.match(line)
        label = _match_label(dash["rest"] if dash else line)
        if label:
            if self._fits(label):
                self._open_provision(label, number).dash_item = bool(dash)
                return
            self._note(
                number, f"{line[:30]!r} looks like a label but breaks the numbering; kept as text"
            )
        elif dash and self._dash_item(dash["rest"], number):
            return
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
        label = _label_of(line)
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
            unit.first = self.footnotes.strip(label.rest, unit, line)
        return unit

    def _dash_item(self, rest: str, number: int) -> bool:
        """Open a bare wiki list item (``- …``) as the next numbered provision, if it is one.

        A list under a lettered provision numbers its items (64B: 1, 2, 3 …), a list under an
        item letters them. A dash that continues a sentence (``worden`` / ``- zie artikel
        49``) is text; a list item anywhere else (under an article) is a paragraph of its own.
        """
        sink = self.sink
        if sink is None:
            return False
        if sink.dash_item and not self.sink_closing:
            owner = sink.parent
        else:
            lines = [line for line in [sink.first, *self._target()] if line]
            previous = lines[-1] if lines else ""
            ends = previous.rstrip(")").endswith((*_SENTENCE_END, ":", ";"))
            # The only line before the list may be a heading ("D. Verzaking in de …").
            heading = len(lines) == 1 and _looks_like_heading(previous) and rest[0].isupper()
            if previous and not ends and not heading and self._target()[-1:] != [None]:
                return False
            owner = sink
        assert owner is not None
        level = _LIST_LEVEL.get(owner.node.level) if isinstance(owner.node, Provision) else None
        if level is None:
            self._target().append(None)
            return False
        last = owner.last[level]
        value = _next_value(level, last) if last else _first_value(level)
        printed = value if level == "item" else f"({value})"
        self._open_provision(_Label(level, printed, value, rest), number).dash_item = True
        return True

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
        closes_list = self.sink.list_item or self.sink.dash_item
        if closes_list and not self.sink_closing and self._starts_paragraph(line):
            # A capitalised paragraph after a sentence-continuing list, or after a wiki list
            # item, closes the list: it is the parent's closing text, not more of the item.
            assert self.sink.parent is not None
            self.sink = self.sink.parent
            self.sink_closing = True
        self._target().append(self.footnotes.strip(line, self.sink, number))

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

    # -- finishing ---------------------------------------------------------------------------

    def _finish(self) -> None:
        self.result.furniture += self.footnote_furniture
        articles = [unit for unit in self.units if isinstance(unit.node, Article)]
        self.footnotes.finish(articles[-1] if articles else None)
        for unit in self.units:
            self._finish_unit(unit)
        self.footnotes.attach()

    def _finish_unit(self, unit: _Unit) -> None:
        node = unit.node
        chunks = list(unit.chunks)
        if unit.first:
            chunks.insert(0, unit.first)
        while chunks and chunks[0] is None:
            chunks.pop(0)
        has_children = bool(node.provisions if isinstance(node, Article) else node.children)
        wants_heading = not unit.headless and (isinstance(node, Provision) or node.title is None)
        heading = None
        if wants_heading:
            heading, chunks = _split_heading(chunks, has_children or bool(unit.closing))
        if isinstance(node, Article):
            if heading:
                node.title = heading
            node.text = _chunks_to_text(chunks, self.width)
            node.closing = _chunks_to_text(unit.closing, self.width)
            node.references = _references(node.title, node.text, node.closing)
        else:
            node.heading = heading
            node.text = _chunks_to_text(chunks, self.width)
            node.closing = _chunks_to_text(unit.closing, self.width)
            node.references = _references(node.heading, node.text, node.closing)


def parse(text: str, edition: str, start: str | None = None) -> ParsedEdition:
    """Parse law text into a ``ParsedEdition``; raises ``LawImportError`` on unusable input."""
    if _BINARY_RE.search(text):
        raise LawImportError("input is binary (it contains control characters), not law text")
    if not text.removeprefix("\ufeff").strip():
        raise LawImportError("input is empty: nothing to import")
    if _HTML_RE.match(text.removeprefix("\ufeff")):
        raise LawImportError(
            "input is an HTML page, not text: save the page as text (or copy its text) and "
            "import that"
        )
    return _Parser(text, edition, start).parse()


def parse_bytes(data: bytes, edition: str, start: str | None = None) -> ParsedEdition:
    """Decode (UTF-8, BOM tolerated) and parse."""
    return parse(decode_source(data), edition, start)
