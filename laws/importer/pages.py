"""Pages of the wiki the seeds come from: what on a page is furniture, which key its title
names, and the footnotes written ``1)`` or ``*)`` at the end of a page.

Stateless helpers of the parser; no Django. A page as a browser shows it (or its printable
version) starts with its title line (``Sjabloon:2017:87A``), the site's tagline (``Uit
Spelregels voor tafelarbiters``) and, for an old revision, revision lines (``Versie door … op …
om 12:08``, ``(wijz) ← Oudere versie | Huidige versie (wijz) | Nieuwere versie → (wijz)``); a
printable page ends with ``Ontvangen van "https://…"``. None of that is law text.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from laws import keys

_TITLE_RE = re.compile(r"^(?:Sjabloon|Template):(?:(?:1[89]|20)\d\d:)?(?P<name>.+)$")
# The tagline is short and carries no sentence; a law sentence may start with "Uit" too.
_TAGLINE_RE = re.compile(r"^Uit [^.,:;!?]{2,60}$")
_REVISION_RE = re.compile(
    r"^(?:(?:Huidige )?[Vv]ersie (?:door|van) .* om \d{1,2}:\d\d\b"
    r"|Huidige versie\b|\(wijz\)"
    r"|.*(?:← Oudere versie|Nieuwere versie →))"
)
_RETRIEVED_RE = re.compile(r'^Ontvangen van "?https?://')


def title_key(title: str | None) -> keys.Key | None:
    """The key a page title names: ``Sjabloon:2017:74B`` -> 74B; None for other titles
    (``Sjabloon:1963:HVI STRAFKAART``, ``Sjabloon:2017:Leider``)."""
    match = _TITLE_RE.match(title or "")
    return keys.try_parse(match["name"]) if match else None


def is_tagline(line: str) -> bool:
    """The site's tagline; only ever looked for right after the title line."""
    return bool(_TAGLINE_RE.match(line))


def is_furniture(line: str) -> bool:
    """A revision line or the printable page's source line: never law text, wherever it is."""
    return bool(_REVISION_RE.match(line) or _RETRIEVED_RE.match(line))


# --------------------------------------------------------------------------------------------
# Footnotes written "1)" or "*)": a marker in the text, the footnote lines at the end.

_NOTE_LINE_RE = re.compile(r"^(?P<marker>\*{1,3}|[1-9]\d?)\)\s*(?P<text>\S.*)$")
# A marker sticks to its word ("tafel1)") or stands after a space ("kaarten *)"); a
# superscript flattened into text loses its parenthesis: "tafel1 blijft".
_MARKER_RE = re.compile(
    r"(?P<space> ?)(?<![\d)])(?P<marker>\*{1,3}|[1-9]\d?)\)"
    r"|(?<=[a-zà-ÿ]{3})(?P<marker2>[1-9]\d?)(?=[\s.,;:!?]|$)"
)
# "(zie artikel 16C2)": the parenthesis closes a reference, it is no marker.
_KEY_END_RE = re.compile(r"\d[A-Z]$")


@dataclass
class PageFootnote:
    marker: str
    lines: list[str] = field(default_factory=list)
    line: int = 0


def footnote_block(
    lines: list[str], is_structure: list[bool]
) -> tuple[int, list[PageFootnote], list[str]]:
    """Where the footnotes at the end of a page begin, the footnotes, and the page furniture
    among them (a printable page's source line).

    The block starts at the first ``1)``/``*)`` line after the last structural line (heading,
    label, list item) and runs to the end; it only counts as footnotes when the text before
    it carries the first footnote's marker. An unmarked line after a blank line is a footnote
    without marker, as in the PDF footer. Returns ``(len(lines), [], [])`` when there is none.
    """
    last = max((i for i, structural in enumerate(is_structure) if structural), default=-1)
    start = next((i for i in range(last + 1, len(lines)) if _NOTE_LINE_RE.match(lines[i])), None)
    if start is None:
        return len(lines), [], []
    first = _NOTE_LINE_RE.match(lines[start])
    assert first is not None
    wanted = frozenset([first["marker"]])
    if not any(take_markers(line, wanted)[1] for line in lines[:start]):
        return len(lines), [], []
    notes: list[PageFootnote] = []
    furniture: list[str] = []
    after_blank = True
    for number, line in enumerate(lines[start:], start=start + 1):
        if is_furniture(line):
            furniture.append(line)
            continue
        if not line:
            after_blank = True
            continue
        marked = _NOTE_LINE_RE.match(line)
        if marked:
            notes.append(PageFootnote(marked["marker"], [marked["text"]], number))
        elif after_blank:
            notes.append(PageFootnote("", [line], number))
        else:
            notes[-1].lines.append(line)
        after_blank = False
    return start, notes, furniture


def take_markers(line: str, markers: frozenset[str]) -> tuple[str, list[str]]:
    """``line`` without the footnote markers of ``markers`` it carries, and those markers.

    A ``)`` that closes an open parenthesis or ends a law key (``16C2)``) is no marker, nor
    is a marker at the start of the line (that is a footnote or a label).
    """
    found: list[str] = []

    def drop(match: re.Match[str]) -> str:
        marker = match["marker"] or match["marker2"]
        before = line[: match.start("marker" if match["marker"] else "marker2")]
        is_marker = (
            marker in markers
            and before.strip()
            and before.count("(") <= before.count(")")
            and not _KEY_END_RE.search(before)
        )
        if not is_marker:
            return match.group(0)
        found.append(marker)
        return ""

    if not markers:
        return line, found
    cleaned = _MARKER_RE.sub(drop, line)
    return (re.sub(r" {2,}", " ", cleaned).strip() if found else line), found
