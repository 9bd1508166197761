"""Footnotes while parsing: the markers in the text and the footnotes they point to.

Two shapes. PDF text marks a word (``hand*``) and puts the footnote in the page footer, after
the page number (``* Onderworpen aan …``); a footer line without marker is a footnote of the
page too. A wiki page writes ``1)`` or ``*)`` after a word (``tafel1)``, ``kaarten *)``)
and the footnotes ``1) …`` at the end of the page (found by ``pages.footnote_block``). Either
way a footnote belongs to the provision whose text carries its marker, else to the article.
"""

from __future__ import annotations

from collections.abc import Callable

from laws.importer.model import Article, Footnote, _references
from laws.importer.pages import PageFootnote, take_markers
from laws.importer.text import _FOOTNOTE_RE, _SENTENCE_END, _TEXT_MARKER_RE, _join_lines
from laws.importer.units import _Unit


class Footnotes:
    def __init__(self, note: Callable[[int, str], None], page_notes: list[PageFootnote]) -> None:
        self.note = note
        self.page_notes = page_notes
        self.page_markers = frozenset(page.marker for page in page_notes if page.marker)
        # In-text markers waiting for their footnote: (marker, unit, line number).
        self.pending: list[tuple[str, _Unit, int]] = []
        self.collected: list[tuple[Footnote, list[str], _Unit]] = []
        self.open = False

    def strip(self, text: str, unit: _Unit, number: int) -> str:
        """``text`` without its footnote markers, which are remembered for ``unit``."""
        text, found = take_markers(text, self.page_markers)
        self.pending += [(marker, unit, number) for marker in found]
        self.pending += [(m.group(1), unit, number) for m in _TEXT_MARKER_RE.finditer(text)]
        return _TEXT_MARKER_RE.sub("", text)

    # -- the PDF page footer -----------------------------------------------------------------

    def footer_line(self, line: str, number: int, article: _Unit | None) -> None:
        marked = _FOOTNOTE_RE.match(line)
        if marked:
            marker, text = marked.group(1), marked.group(2)
            owner = self._claim(marker)
            if owner is None:
                self.note(number, f"footnote {marker!r} has no marker in the text before it")
            footnote = Footnote(marker=marker, text="", key=owner.key if owner else None)
            self._add(footnote, [text], number, owner or article)
            return
        if self.open:
            lines = self.collected[-1][1]
            if not (lines[-1].endswith(tuple(_SENTENCE_END)) and line[0].isupper()):
                lines.append(line)
                return
        # An unmarked line that does not continue a footnote: a footnote of the page too, never
        # law text. It has no marker in the text, so it belongs to the article as a whole.
        self._add(Footnote(marker="", text="", key=None), [line], number, article)

    def close(self) -> None:
        self.open = False

    # -- finishing ---------------------------------------------------------------------------

    def finish(self, last_article: _Unit | None) -> None:
        """Match the page's footnotes to their markers, note what is left, attach all."""
        for page in self.page_notes:
            owner = self._claim(page.marker) if page.marker else None
            if page.marker and owner is None:
                self.note(page.line, f"footnote {page.marker!r} has no marker in the text")
            footnote = Footnote(marker=page.marker, text="", key=owner.key if owner else None)
            self._add(footnote, page.lines, page.line, owner or last_article)
        for marker, unit, number in self.pending:
            self.note(number, f"marker {marker!r} in {unit.key} has no footnote")

    def attach(self) -> None:
        for footnote, lines, unit in self.collected:
            footnote.text = _join_lines(lines)
            footnote.references = _references(footnote.text)
            article = unit
            while article.parent is not None:
                article = article.parent
            assert isinstance(article.node, Article)
            article.node.footnotes.append(footnote)

    def _add(self, footnote: Footnote, lines: list[str], number: int, unit: _Unit | None) -> None:
        assert unit is not None  # a footer follows a page number and page notes follow text
        footnote.line = number
        self.collected.append((footnote, lines, unit))
        self.open = True

    def _claim(self, marker: str) -> _Unit | None:
        """The unit holding the earliest unclaimed in-text ``marker``, if any."""
        for index, (pending, unit, _) in enumerate(self.pending):
            if pending == marker:
                del self.pending[index]
                return unit
        return None
