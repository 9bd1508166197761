"""Canonical law keys: the one grammar for citing a provision, the way directors cite.

Pure module (no Django). Every place that reads, writes, checks, sorts or resolves a law key
goes through here: the importer (provision keys and cross-references in the law text), the
trees (``cites``), the law pages, and rulings (review corrections, training cases, the
``cited_articles`` index).

The canonical form
------------------
Article number, section letter, item number, sub-item letter in parentheses, and (2017 style)
a roman-numbered clause in parentheses under a sub-item::

    62            article 62
    62D           article 62, section D
    62D2          article 62, section D, item 2
    43B2(b)       article 43, section B, item 2, sub-item b
    47A(a)        sub-item a directly under section A
    52(a)         sub-item a directly under article 52 (1963: ``a.`` items, no sections)
    12C1(e)(i)    clause i of sub-item e (2017: e.g. Law 12C1(e), Law 40B2(a))
    12.3          item 3 directly under article 12 (no section letter)

Article numbers have one to three digits, items one or two; neither starts with 0. A section
is one capital, a sub-item one small letter, a clause a roman numeral from i to xxxix.

Accepted variants, normalised by :func:`parse` / :func:`canonical`
-------------------------------------------------------------------
* a leading word ``artikel``, ``artikelen``, ``art.``, ``article``, ``law``, ``laws``, ``wet``
  (any case): ``Art. 58`` -> ``58``, ``Law 64`` -> ``64``;
* spaces anywhere: ``45 C4(b)`` -> ``45C4(b)``, ``50 D 2 (a)`` -> ``50D2(a)``;
* a sub-item without parentheses: ``43B2b`` -> ``43B2(b)``, ``52a`` -> ``52(a)``;
* a lower-case section letter when an item number follows it (only then is it surely a
  section): ``27b1a`` -> ``27B1(a)``, ``50 d 2 (a)`` -> ``50D2(a)``. A lone small letter after
  the article stays a sub-item, as the 1963 text writes it: ``52a`` -> ``52(a)``, not ``52A``;
* a capital inside parentheses, where it can only be a sub-item or clause: ``43B2(B)`` ->
  ``43B2(b)``, ``12C1(e)(II)`` -> ``12C1(e)(ii)``.

Three decisions (the grammar used to differ between the tree parser, the importer and the
rulings index on these):

``43B2b``
    Accepted, never canonical: it is how the 2007 text itself cites (``Onderworpen aan artikel
    43B2b`` in seed 001) and how directors type. It always normalises to ``43B2(b)``; a stored
    key (tree file after parsing, provision, citation row) is always the canonical form, and
    :func:`is_canonical` says whether a string already is.
``64A1(aa)``
    Rejected. No edition we hold has double-letter sub-items (1963 Art. 52 stops at ``b.``,
    1987 Art. 47 at ``(b)``, the 2007 seed only cites ``43B2b``, and no list in the 2017 Laws
    runs past a single letter); the deeper 2017 level is a roman numeral in its *own* parentheses
    (``12C1(e)(i)``). The old tree grammar allowed ``(aa)`` .. ``(aaaa)``, which let a typo such
    as ``64A1(aa)`` or a roman numeral squeezed into the sub-item place (``12C1(ii)``, which
    would read as sub-item ii) pass as a citation that no text can resolve.
``12.3``
    Accepted and canonical: item 3 directly under article 12. The importer has always produced
    this key for a numbered item that has no section letter above it; the dot keeps it apart
    from article 123. None of the texts we hold has such an item (every numbered item in the
    1987, 2007 and 2017 texts sits under a section letter, and 1963 Art. 52 letters its items:
    ``52(a)``), but the importer must be able to cite what it creates, so the grammar has it.

Ordering is the order of the law book: article number, then section (none first), item
(numerically: ``62A2`` < ``62A10``), sub-item, clause; a provision comes right before its
own sub-provisions: ``62`` < ``62A`` < ``62A1`` < ``62A1(a)`` < ``62A1(a)(i)`` < ``62A1(b)`` <
``62A2`` < ``62B`` < ``63``.

Cross-references in running law text (:func:`reference_spans`) are found with a stricter,
context-sensitive pattern (a keyword such as ``artikel`` is required, a section must be a
capital) and each match is then turned into a key by :func:`parse`, so text references and
typed citations share one grammar.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Final, Literal

__all__ = [
    "ARTICLE_PATTERN",
    "ITEM_PATTERN",
    "MAX_ARTICLE",
    "MAX_CLAUSE",
    "MAX_ITEM",
    "InvalidKey",
    "Key",
    "Level",
    "canonical",
    "canonical_list",
    "find_references",
    "is_canonical",
    "parse",
    "reference_spans",
    "roman",
    "try_parse",
]

MAX_ARTICLE: Final = 999
MAX_ITEM: Final = 99
MAX_CLAUSE: Final = 39
# Regular-expression pieces for text that holds keys (the importer's headings and labels).
ARTICLE_PATTERN: Final = r"[1-9][0-9]{0,2}"
ITEM_PATTERN: Final = r"[1-9][0-9]?"

Level = Literal["article", "section", "item", "sub", "clause"]

_DIGITS: Final = frozenset("0123456789")
_CAPITALS: Final = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZ")
_SMALL: Final = frozenset("abcdefghijklmnopqrstuvwxyz")


def roman(number: int) -> str:
    """``number`` (1 .. MAX_CLAUSE) as a small roman numeral: ``4`` -> ``"iv"``."""
    if not 1 <= number <= MAX_CLAUSE:
        raise ValueError(f"no clause numeral for {number}")
    tens, units = divmod(number, 10)
    ones = ["", "i", "ii", "iii", "iv", "v", "vi", "vii", "viii", "ix"]
    return "x" * tens + ones[units]


_ROMAN_VALUES: Final = {roman(n): n for n in range(1, MAX_CLAUSE + 1)}


class InvalidKey(ValueError):
    """``text`` is not a law key; ``reason`` says why, in words a director understands."""

    def __init__(self, text: str, reason: str) -> None:
        super().__init__(f"{text!r} is not a law reference: {reason}")
        self.text = text
        self.reason = reason


@dataclass(frozen=True, order=True)
class Key:
    """A parsed law key. Empty levels are ``""`` (letters) or ``0`` (numbers).

    Field order is the law-book order used by ``<``: article, section, item, sub, clause.
    """

    article: int
    section: str = ""
    item: int = 0
    sub: str = ""
    clause: int = 0

    def __post_init__(self) -> None:
        if not 1 <= self.article <= MAX_ARTICLE:
            raise InvalidKey(
                repr(self), f"the article number must be 1 to {MAX_ARTICLE}, not {self.article}"
            )
        if self.section and (len(self.section) != 1 or self.section not in _CAPITALS):
            raise InvalidKey(repr(self), f"a section is one capital A-Z, not {self.section!r}")
        if not 0 <= self.item <= MAX_ITEM:
            raise InvalidKey(repr(self), f"an item number must be 1 to {MAX_ITEM}")
        if self.sub and (len(self.sub) != 1 or self.sub not in _SMALL):
            raise InvalidKey(repr(self), f"a sub-item is one small letter a-z, not {self.sub!r}")
        if not 0 <= self.clause <= MAX_CLAUSE:
            raise InvalidKey(repr(self), f"a clause must be i to {roman(MAX_CLAUSE)}")
        if self.clause and not self.sub:
            raise InvalidKey(repr(self), "a clause (i) needs a sub-item (a) above it")

    def __str__(self) -> str:
        text = str(self.article) + self.section
        if self.item:
            text += str(self.item) if self.section else f".{self.item}"
        if self.sub:
            text += f"({self.sub})"
        if self.clause:
            text += f"({roman(self.clause)})"
        return text

    @property
    def level(self) -> Level:
        """The deepest level the key names."""
        if self.clause:
            return "clause"
        if self.sub:
            return "sub"
        if self.item:
            return "item"
        if self.section:
            return "section"
        return "article"

    @property
    def label(self) -> str:
        """The deepest level as a label on its own: ``63A`` -> ``A``, ``63A1`` -> ``1``,
        ``47A(a)`` -> ``(a)``, ``12C1(e)(i)`` -> ``(i)``; the number for an article."""
        level = self.level
        if level == "clause":
            return f"({roman(self.clause)})"
        if level == "sub":
            return f"({self.sub})"
        if level == "item":
            return str(self.item)
        if level == "section":
            return self.section
        return self.number

    @property
    def is_article(self) -> bool:
        """True for a whole-article key such as ``27``."""
        return self.level == "article"

    @property
    def number(self) -> str:
        """The article number as text, as ``Article.number`` stores it: ``62D2`` -> ``"62"``."""
        return str(self.article)

    @property
    def parent(self) -> Key | None:
        """The enclosing provision: ``62D2`` -> ``62D``, ``52(a)`` -> ``52``; None for ``62``."""
        if self.clause:
            return replace(self, clause=0)
        if self.sub:
            return replace(self, sub="")
        if self.item:
            return replace(self, item=0)
        if self.section:
            return replace(self, section="")
        return None

    @property
    def ancestors(self) -> tuple[Key, ...]:
        """Every enclosing key, nearest first: ``62D2`` -> ``(62D, 62)``."""
        result: list[Key] = []
        current = self.parent
        while current is not None:
            result.append(current)
            current = current.parent
        return tuple(result)

    @property
    def lineage(self) -> tuple[Key, ...]:
        """The key itself, then its ancestors: ``43B2(b)`` -> ``(43B2(b), 43B2, 43B, 43)``."""
        return (self, *self.ancestors)

    def contains(self, other: Key) -> bool:
        """True when ``other`` is this provision or lies inside it (``62D`` contains ``62D2``)."""
        return self == other or self in other.ancestors


# --------------------------------------------------------------------------------------------
# Parsing typed or written keys

_PREFIX_RE: Final = re.compile(
    r"^(?:art(?:ikel(?:en)?|icle)?\.?|laws?|wet)(?=[\s.0-9]|$)\s*", re.IGNORECASE
)
_SPACE_RE: Final = re.compile(r"\s+")


class _Scanner:
    """Reads a compacted key left to right; ``fail`` names what was found where."""

    def __init__(self, original: str, text: str) -> None:
        self.original = original
        self.text = text
        self.position = 0

    def peek(self, offset: int = 0) -> str:
        index = self.position + offset
        return self.text[index] if index < len(self.text) else ""

    def digits(self) -> str:
        start = self.position
        while self.peek() in _DIGITS and self.peek():
            self.position += 1
        return self.text[start : self.position]

    def fail(self, reason: str) -> InvalidKey:
        return InvalidKey(self.original, reason)

    def done(self) -> str:
        return self.text[: self.position]


def _number(scanner: _Scanner, digits: str, what: str, limit: int) -> int:
    if len(digits) > len(str(limit)):
        raise scanner.fail(f"an {what} number has at most {len(str(limit))} digits ({digits})")
    if not digits.strip("0"):
        raise scanner.fail(f"there is no {what} {digits}; numbering starts at 1")
    if digits.startswith("0"):
        raise scanner.fail(f"an {what} number does not start with 0 ({digits})")
    return int(digits)


def _parenthesised(scanner: _Scanner) -> str:
    """The text inside ``(...)`` at the scanner's position (the scanner moves past it)."""
    close = scanner.text.find(")", scanner.position)
    if close < 0:
        raise scanner.fail(f"'(' after {scanner.done()!r} is not closed")
    inner = scanner.text[scanner.position + 1 : close]
    scanner.position = close + 1
    return inner


def _article(scanner: _Scanner) -> int:
    digits = scanner.digits()
    if not digits:
        raise scanner.fail("it must start with an article number, such as 62 in 62D2")
    return _number(scanner, digits, "article", MAX_ARTICLE)


def _section(scanner: _Scanner) -> str:
    """A capital (``62D``), or a small letter followed by an item number (``27b1a``)."""
    char = scanner.peek()
    if char in _CAPITALS and char:
        scanner.position += 1
        return char
    if char in _SMALL and char and scanner.peek(1) in _DIGITS and scanner.peek(1):
        scanner.position += 1
        return char.upper()
    return ""


def _item(scanner: _Scanner, article: int, section: str) -> int:
    """The item after a section (``62D2``), or after a dot without one (``12.3``)."""
    if section:
        digits = scanner.digits()
        return _number(scanner, digits, "item", MAX_ITEM) if digits else 0
    if scanner.peek() != ".":
        return 0
    scanner.position += 1
    digits = scanner.digits()
    if not digits:
        raise scanner.fail(f"a '.' after {article} must be followed by an item number (12.3)")
    return _number(scanner, digits, "item", MAX_ITEM)


def _sub_item(scanner: _Scanner) -> str:
    """A letter in parentheses (``(a)``), or a bare letter at the end (``43B2b``)."""
    char = scanner.peek()
    if char == "(":
        inner = _parenthesised(scanner)
        if len(inner) == 1 and inner.lower() in _SMALL:
            return inner.lower()
        if inner.isalpha() and inner.isascii():
            raise scanner.fail(
                f"a sub-item is a single letter such as (a), not ({inner}); "
                "a deeper level follows in its own parentheses, as in 12C1(e)(i)"
            )
        raise scanner.fail(f"({inner}) is not a sub-item; a sub-item is a letter such as (a)")
    if char in _SMALL and char:
        scanner.position += 1
        return char
    return ""


def _clause(scanner: _Scanner, sub: str) -> int:
    """A roman numeral in parentheses after a sub-item (``12C1(e)(i)``)."""
    if not (sub and scanner.peek() == "("):
        return 0
    inner = _parenthesised(scanner)
    clause = _ROMAN_VALUES.get(inner.lower(), 0)
    if not clause:
        raise scanner.fail(
            f"({inner}) after sub-item ({sub}) must be a roman numeral such as (i) or (iv)"
        )
    return clause


def parse(text: str) -> Key:
    """The key ``text`` names, accepting the variants in the module docstring.

    Raises :class:`InvalidKey` (a ``ValueError``) with a readable reason otherwise.
    """
    if not isinstance(text, str):
        raise InvalidKey(repr(text), "it is not text")
    compact = _SPACE_RE.sub("", _PREFIX_RE.sub("", text.strip()))
    if not compact:
        raise InvalidKey(text, "it is empty" if not text.strip() else "it has no article number")
    scanner = _Scanner(text, compact)
    article = _article(scanner)
    section = _section(scanner)
    item = _item(scanner, article, section)
    sub = _sub_item(scanner)
    clause = _clause(scanner, sub)
    if scanner.position < len(compact):
        rest = compact[scanner.position :]
        after = f" after {scanner.done()!r}"
        raise scanner.fail(f"unexpected {rest[0]!r}{after}")
    return Key(article, section, item, sub, clause)


def try_parse(text: str) -> Key | None:
    """:func:`parse`, or None when ``text`` is not a law key."""
    try:
        return parse(text)
    except InvalidKey:
        return None


def canonical(text: str) -> str:
    """The canonical form of ``text``: ``43B2b`` -> ``43B2(b)``. Raises :class:`InvalidKey`."""
    return str(parse(text))


def list_items(text: str) -> list[str]:
    """The items of a typed list (``"27B1a; 50 d"``) exactly as typed, separated by commas or
    semicolons, blanks skipped."""
    return [raw for raw in re.split(r"[,;]", text) if raw.strip()]


def canonical_list(text: str) -> list[str]:
    """The canonical keys of a typed list (``"27B1a; 50 d"``), separated by commas or
    semicolons, blanks skipped. Raises :class:`InvalidKey` naming the item as typed."""
    found = []
    for raw in list_items(text):
        try:
            found.append(canonical(raw))
        except InvalidKey as error:
            raise InvalidKey(raw, error.reason) from None
    return found


def is_canonical(text: str) -> bool:
    """True when ``text`` is a key written exactly in canonical form (``43B2b`` is not)."""
    key = try_parse(text)
    return key is not None and str(key) == text


# --------------------------------------------------------------------------------------------
# Cross-references in running law text

_LETTER: Final = r"[^\W\d_]"
_ROMAN_ALTERNATIVES: Final = "|".join(sorted(_ROMAN_VALUES, key=len, reverse=True))
_REF_KEY: Final = (
    r"(?P<key>"
    r"(?P<art>" + ARTICLE_PATTERN + r")(?![0-9/])"
    r"(?:\s?[A-Z](?!" + _LETTER + r")(?:\s?" + ITEM_PATTERN + r"(?![0-9]))?)?"
    r"(?:\s?\([a-z]\)|(?<=[0-9])[a-z](?!" + _LETTER + r"))?"
    r"(?:(?<=[a-z)])\((?:" + _ROMAN_ALTERNATIVES + r")\))?"
    r")"
)
_REF_RE: Final = re.compile(r"(?<!" + _LETTER + r")(?i:artikel(?:en)?|art\.?|laws?)\s*" + _REF_KEY)
# Further numbers of a list: "artikelen 50 en 51", "artikel 12, 13", "artikelen 50 t/m 52".
_REF_MORE_RE: Final = re.compile(r"\s*(?:,|\ben\b|\bof\b|t/m|tot en met)\s*" + _REF_KEY)


def reference_spans(text: str) -> list[tuple[int, int, str]]:
    """(start, end, canonical key) of every cross-reference in ``text``, in order.

    The span covers what a link should cover: the keyword and number for the first reference
    (``artikel 43B2b``), only the number for further numbers of a list (``51``). A list gives
    one reference per number written; a range (``50 t/m 52``) is not expanded.
    """
    spans: list[tuple[int, int, str]] = []
    position = 0
    while match := _REF_RE.search(text, position):
        spans.append((match.start(), match.end(), canonical(match["key"])))
        position = match.end()
        while more := _REF_MORE_RE.match(text, position):
            spans.append((more.start("art"), more.end(), canonical(more["key"])))
            position = more.end()
    return spans


def find_references(text: str) -> list[tuple[str, str]]:
    """Every cross-reference in ``text`` as (raw text, canonical key), in order."""
    return [(text[start:end], key) for start, end, key in reference_spans(text)]
