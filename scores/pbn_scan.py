"""The games of a PBN text: tag pairs and score-table rows, comments skipped, inheritance
resolved. Pure Python; :mod:`scores.pbn` builds deals and results from them.

Tag syntax as lenient as PBN 2.1's import format: spaces (or none) between the tokens of a tag
pair (``[Event"Dinsdag"]``), several tag pairs on a line or one spread over lines, ``{...}``
comments over several lines, ``;`` comments to the end of a line, ``%`` lines. A game ends at a
semi-empty line, or where a tag it already has comes again (a file without empty lines
between games); ``[Note]`` may come any number of times. Section data (auction, play, tables)
is read as tokens, so a quoted value may hold brackets or braces (``"Jan [invaller]"``); only
the rows of a ``[ScoreTable]`` are kept.

Inheritance (PBN 2.1, 4.8): a value ``"#"`` is the tag's value in the games before (``""`` if
there is none); a value ``"##text"`` is ``text`` here and in every later game that does not
give the tag, until the tag is given again.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

__all__ = ["Game", "ScanError", "scan"]

_TOKEN = re.compile(
    r"""
    (?P<nl>\n)
    |(?P<space>[ \t\f\v]+)
    |(?P<escape>^%[^\n]*)
    |(?P<brace>\{[^}]*\}?)
    |(?P<semi>;[^\n]*)
    |(?P<tag>\[\s*(?P<name>[A-Za-z0-9_]+)\s*"(?P<value>(?:[^"\\\n]|\\.)*)"\s*\])
    |(?P<string>"(?P<inner>(?:[^"\\\n]|\\.)*)")
    |(?P<bracket>\[)
    |(?P<words>[^\s\[\]{};"][^\n\[\]{};"]*|\S)
    """,
    re.VERBOSE | re.MULTILINE,
)
_ESCAPED = re.compile(r'\\(["\\])')
# Tags that may come more than once in a game (PBN 2.1, 3.5.5 and 3.6.5).
_REPEATABLE = frozenset({"Note"})


class ScanError(ValueError):
    """A text that is not PBN; ``line`` is 1-based."""

    def __init__(self, line: int, problem: str) -> None:
        self.line = line
        self.problem = problem
        super().__init__(f"Regel {line}: {problem}")


@dataclass
class Game:
    """One game: its tags as (value, line), and the rows (line, values) of its score table."""

    first_line: int = 0
    tags: dict[str, tuple[str, int]] = field(default_factory=dict)
    score_rows: list[tuple[int, list[str]]] = field(default_factory=list)

    def value(self, name: str) -> str:
        return self.tags[name][0].strip() if name in self.tags else ""

    def line(self, name: str) -> int:
        return self.tags[name][1] if name in self.tags else self.first_line


def _unescape(value: str) -> str:
    """PBN escapes only a quote and a backslash; other backslashes are text (the column
    formats of a table, ``Score_NS\\6R``)."""
    return _ESCAPED.sub(r"\1", value) if "\\" in value else value


@dataclass
class _Scanner:
    games: list[Game] = field(default_factory=list)
    game: Game = field(default_factory=Game)
    section: str = ""  # the tag whose data the next tokens are
    row_line: int = 0  # the line of the score-table row being read

    def end_game(self) -> None:
        if self.game.tags:
            self.games.append(self.game)
        self.game = Game()
        self.section = ""

    def tag(self, name: str, value: str, line: int) -> None:
        if name in self.game.tags and name not in _REPEATABLE:
            self.end_game()  # games without an empty line between them
        if not self.game.tags:
            self.game.first_line = line
        if name not in _REPEATABLE:
            self.game.tags[name] = (_unescape(value), line)
        self.section = name

    def data(self, values: list[str], line: int) -> None:
        """Values of section data on ``line``: kept for a score table only (the auction, the
        play, other tables and stray text are skipped)."""
        if self.section != "ScoreTable":
            return
        rows = self.game.score_rows
        if not rows or self.row_line != line:
            rows.append((line, []))
            self.row_line = line
        rows[-1][1].extend(values)


def _scan_tokens(text: str) -> list[Game]:
    scanner = _Scanner()
    line = 1
    blank = True  # nothing but white space on the line so far
    for found in _TOKEN.finditer(text):
        kind = found.lastgroup
        if kind == "nl":
            if blank:
                scanner.end_game()
            line += 1
            blank = True
            continue
        if kind == "space":
            continue
        blank = False
        if kind == "tag":
            scanner.tag(found.group("name"), found.group("value"), line)
            line += found.group().count("\n")  # a tag pair may be spread over lines
        elif kind == "words":  # a run of unquoted values up to a quote, bracket or comment
            scanner.data(found.group().split(), line)
        elif kind == "string":
            scanner.data([_unescape(found.group("inner"))], line)
        elif kind == "bracket":
            snippet = text[found.start() : found.start() + 40].split("\n", 1)[0].strip()
            raise ScanError(line, f"tag niet te lezen: '{snippet}'; verwacht [Naam \"waarde\"].")
        elif kind == "brace":
            if not found.group().endswith("}"):
                raise ScanError(line, "commentaar met { wordt nergens met } gesloten.")
            line += found.group().count("\n")
    scanner.end_game()
    return scanner.games


def _inherit(games: list[Game]) -> None:
    """Resolve ``#`` and ``##`` values in file order."""
    before: dict[str, str] = {}
    sticky: dict[str, str] = {}
    for game in games:
        for name, (value, line) in list(game.tags.items()):
            if value.startswith("##"):
                sticky[name] = value[2:]
                game.tags[name] = (value[2:], line)
            elif value == "#":
                game.tags[name] = (before.get(name, ""), line)
            elif name in sticky:
                sticky[name] = value  # given again: later games inherit the new value
        for name, value in sticky.items():
            game.tags.setdefault(name, (value, game.first_line))
        before.update((name, value) for name, (value, _line) in game.tags.items())


def scan(text: str) -> list[Game]:
    """The games of a PBN text (line ends already ``\\n``), inheritance resolved;
    :class:`ScanError` for a tag or comment that cannot be read."""
    games = _scan_tokens(text)
    _inherit(games)
    return games
