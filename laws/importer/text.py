"""Lines of law text: decoding, normalising, joining hyphenated lines into paragraphs, and
recognising what one line is (page number, article heading, part heading, provision label).

Stateless helpers of the parser; no Django.
"""

from __future__ import annotations

import codecs
import re
import unicodedata
from dataclasses import dataclass
from itertools import pairwise

from laws import keys
from laws.importer.model import LawImportError, Level, _join_paragraphs

_LETTER = r"[^\W\d_]"


# --------------------------------------------------------------------------------------------
# Decoding and line handling


def decode_source(data: bytes) -> str:
    """Bytes of a source file as text: UTF-8, a byte-order mark tolerated."""
    if not data.strip():
        raise LawImportError("input is empty: nothing to import")
    if _looks_utf16(data):
        raise LawImportError(
            "input is UTF-16 text, not UTF-8 (its NUL bytes make it read as binary): "
            "save the file as UTF-8"
        )
    if b"\x00" in data:
        raise LawImportError("input is binary (it contains NUL bytes), not law text")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise LawImportError(
            f"input is not UTF-8 text (undecodable byte at offset {error.start}){_guess(data)}: "
            "save the file as UTF-8"
        ) from None


def _looks_utf16(data: bytes) -> bool:
    """A byte-order mark, or text whose every other byte is NUL (ASCII letters in UTF-16)."""
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        return True
    halves = data[0::2], data[1::2]
    return len(data) >= 8 and any(half.count(0) >= 0.9 * len(half) for half in halves)


def _guess(data: bytes) -> str:
    try:
        data.decode("cp1252")
    except UnicodeDecodeError:
        return ""
    return "; it looks like Windows-1252 or Latin-1"


# A web page saved as HTML rather than as its text.
_HTML_RE = re.compile(r"^\s*<(?:!doctype\s+html|html\b)", re.I)


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


def _chunks_to_text(chunks: list[str | None], width: int | None = None) -> str:
    """Lines with ``None`` for blank lines -> paragraphs separated by a blank line.

    Lines between blank lines are one paragraph, unless a line ends a sentence where the text
    breaks it on purpose (see ``_split_run``).
    """
    paragraphs: list[str] = []
    current: list[str] = []
    for chunk in [*chunks, None]:
        if chunk is None:
            if current:
                paragraphs += _split_run(current, width)
            current = []
        elif chunk:
            current.append(chunk)
    return _join_paragraphs(paragraphs)


# A line ends a sentence with ".", "!" or "?", perhaps inside a parenthesis or quotation.
_SENTENCE_END_RE = re.compile(r"[.!?][)\]\"'”’]*$")
# A line whose full stop falls before three quarters of the text's line width was broken on
# purpose: a paragraph ends there.
_SHORT_LINE = 0.75
# Fewer wrapped lines than this say nothing about a line width.
_WIDTH_SAMPLES = 2


def _opens_sentence(line: str) -> bool:
    first = line.lstrip("(\"'“‘")[:1]
    return first.isupper()


def wrap_width(lines: list[str]) -> int | None:
    """The line width of hard-wrapped text (PDF text, or a page pasted from one), or None.

    Measured on the lines that surely continue on the next line (it starts in lowercase, or
    the line ends in a hyphenated word part): the median of their lengths. Wiki text, with a
    paragraph per line, has no such lines and no width.
    """
    lengths: list[int] = []
    previous = ""
    for line in lines:
        if previous and line and (line[0].islower() or _HYPHEN_END_RE.search(previous)):
            lengths.append(len(previous))
        previous = line
    if len(lengths) < _WIDTH_SAMPLES:
        return None
    return sorted(lengths)[len(lengths) // 2]


def _split_run(lines: list[str], width: int | None) -> list[str]:
    """Lines without a blank line between them -> their paragraphs.

    A line that does not end a sentence, or is followed by one starting in lowercase, runs on
    into the next. A line that ends a sentence before a capitalised line ends a paragraph when
    the text has no line width (wiki text: a line break there is a paragraph break) or when it
    is shorter than three quarters of that width (hard-wrapped text: the writer broke the line
    early). A full-width line that happens to end a sentence runs on.
    """
    paragraphs: list[str] = []
    current = [lines[0]]
    for previous, line in pairwise(lines):
        ends = _SENTENCE_END_RE.search(previous) and _opens_sentence(line)
        if ends and (width is None or len(previous) < _SHORT_LINE * width):
            paragraphs.append(_join_lines(current))
            current = []
        current.append(line)
    paragraphs.append(_join_lines(current))
    return paragraphs


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
# A list item as a wiki page renders it: "- 1. …", "- (a) …", or a bare "- …".
_DASH_RE = re.compile(r"^-\s+(?P<rest>\S.*)$")
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


def _label_of(line: str) -> _Label | None:
    """The label a line opens with, also inside a wiki list item (``- 1. …``)."""
    dash = _DASH_RE.match(line)
    return _match_label(dash["rest"] if dash else line)


def _first_word(line: str) -> str:
    dash = _DASH_RE.match(line)
    return (dash["rest"] if dash else line).split()[0]


def _is_structure_shape(line: str) -> bool:
    """Whether a line looks like a heading, a label or a list item, wherever it stands."""
    if not line:
        return False
    return bool(_DASH_RE.match(line) or _label_of(line) or _match_article(line) or _is_group(line))
