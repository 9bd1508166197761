"""Read the deals of an event from a PBN file (Portable Bridge Notation). Pure Python.

What is read, per game (games are separated by an empty line):

* ``[Event "..."]``, ``[Board "7"]``, ``[Dealer "N"]``, ``[Vulnerable "None|NS|EW|All"]``
  (also ``Love``/``-`` and ``Both``), ``[Deal "N:AKQ2.J93.T82.K54 ..."]`` (first letter: the
  seat of the first hand, then clockwise);
* a value ``"#"`` repeats the value of the previous game (PBN's inheritance);
* ``[ScoreTable "..."]`` and its rows: the other results of the board as North-South scores
  (``Deal.results``, read by :mod:`scores.score_table`; a board without one has none);
* every other tag and its section data (``[Auction]``, ``[Play]``, tables ...) is skipped, as
  are ``{...}`` comments (also over several lines), ``;`` comments to the end of the line and
  ``%`` lines.

Tolerated: a BOM, CRLF or CR line ends, UTF-8, UTF-16 with BOM, Windows-1252/latin-1; a missing
``Dealer`` or ``Vulnerable`` (taken from the board number in the standard cycle); a game without
``[Deal]`` (skipped, e.g. a header); the same board twice with the same cards (kept once).

Refused with :class:`PbnError` naming the line: an unreadable tag, a bad board number, dealer or
vulnerability, a deal with a missing, doubled or unknown card, an unknown hand (``-``), the same
board twice with different cards, an unclosed comment, a file that is not text or has no deal,
a score table row that cannot be read.
Nothing is returned unless the whole file is good, so an import is all or nothing.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from pathlib import Path

from scores.deal import (
    SEATS,
    Deal,
    DealError,
    Hand,
    Seat,
    Vulnerability,
    board_dealer,
    board_vulnerability,
    make_deal,
    parse_hand,
)
from scores.score_table import ScoreTableError, read_score_table

__all__ = ["MAX_BYTES", "PbnError", "decode_pbn", "parse_pbn", "read_pbn", "read_pbn_bytes"]

MAX_BYTES = 5_000_000

_TAG = re.compile(r'\[\s*(?P<name>[A-Za-z0-9_]+)\s+"(?P<value>(?:[^"\\]|\\.)*)"\s*\]')
_WANTED = ("Event", "Board", "Dealer", "Vulnerable", "Deal")


class PbnError(ValueError):
    """A PBN file that cannot be imported; ``line`` is 1-based, or None for the whole file."""

    def __init__(self, line: int | None, problem: str) -> None:
        self.line = line
        self.problem = problem
        where = f"Regel {line}: " if line is not None else "PBN-bestand: "
        super().__init__(where + problem)


def decode_pbn(data: bytes) -> str:
    """Bytes to text: BOM-marked UTF-8/UTF-16 first, else UTF-8, else Windows-1252/latin-1."""
    if len(data) > MAX_BYTES:
        raise PbnError(None, f"te groot ({len(data):,} bytes); hoogstens {MAX_BYTES:,}.")
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        try:
            return data.decode("utf-16")
        except UnicodeDecodeError:
            raise PbnError(None, "UTF-16-bestand is beschadigd.") from None
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    if b"\x00" in data:
        raise PbnError(None, "dit is geen tekstbestand (binaire inhoud); kies een .pbn-bestand.")
    for encoding in ("utf-8", "cp1252"):
        try:
            return data.decode(encoding)
        except UnicodeDecodeError:
            continue
    return data.decode("latin-1")


@dataclass
class _Game:
    tags: dict[str, tuple[str, int]] = field(default_factory=dict)
    first_line: int = 0
    score_rows: list[tuple[int, str]] = field(default_factory=list)  # (line, text)

    @property
    def empty(self) -> bool:
        return not self.tags


def _unescape(value: str) -> str:
    """PBN escapes only a quote and a backslash; other backslashes are text (the column
    formats of a table, ``Score_NS\\6R``)."""
    return re.sub(r'\\(["\\])', r"\1", value)


@dataclass
class _Scanner:
    """Reads the text line by line into games; a ``{`` comment may span lines."""

    games: list[_Game] = field(default_factory=list)
    game: _Game = field(default_factory=_Game)
    comment_from: int | None = None  # the line of a ``{`` not yet closed
    in_score_table: bool = False  # lines of section data are rows of the [ScoreTable]

    def next_game(self) -> None:
        self.games.append(self.game)
        self.game = _Game()
        self.in_score_table = False

    def line(self, number: int, line: str) -> None:
        position = 0
        if self.comment_from is not None:
            end = line.find("}")
            if end < 0:
                return
            self.comment_from, position = None, end + 1
        elif line.startswith("%"):
            return
        elif not line.strip():
            if not self.game.empty:
                self.next_game()
            return
        elif self.in_score_table and line.lstrip()[:1] not in ("[", "{", ";"):
            self.game.score_rows.append((number, line))
            return
        self.content(number, line, position)

    def content(self, number: int, line: str, position: int) -> None:
        """Tags from ``position`` on, skipping comments and other data."""
        while position < len(line):
            char = line[position]
            if char == "{":
                end = line.find("}", position + 1)
                if end < 0:
                    self.comment_from = number
                    return
                position = end + 1
            elif char == ";":
                return
            elif char == "[":
                position = self.tag(number, line, position)
            else:
                position += 1  # section data of a skipped tag, or stray text

    def tag(self, number: int, line: str, position: int) -> int:
        """Read the tag at ``position``; the position after it."""
        found = _TAG.match(line, position)
        if found is None:
            snippet = line[position:].strip()[:40]
            raise PbnError(
                number,
                f"tag niet te lezen: '{snippet}'; verwacht [Naam \"waarde\"].",
            )
        name, value = found.group("name"), _unescape(found.group("value"))
        if name in self.game.tags:
            # A repeated tag without an empty line between games: a new game starts.
            self.next_game()
        if self.game.empty:
            self.game.first_line = number
        self.game.tags[name] = (value, number)
        self.in_score_table = name == "ScoreTable"
        return found.end()


def _scan(text: str) -> list[_Game]:
    """Split the text into games of (tag → value, line); other content is skipped."""
    scanner = _Scanner()
    for number, line in enumerate(text.splitlines(), start=1):
        scanner.line(number, line)
    if scanner.comment_from is not None:
        raise PbnError(scanner.comment_from, "commentaar met { wordt nergens met } gesloten.")
    if not scanner.game.empty:
        scanner.games.append(scanner.game)
    return scanner.games


def _resolve_inheritance(games: list[_Game]) -> None:
    previous: dict[str, tuple[str, int]] = {}
    for game in games:
        for name, (value, line) in list(game.tags.items()):
            if value == "#":
                if name not in previous:
                    raise PbnError(
                        line, f'[{name} "#"] herhaalt een vorige waarde, maar die is er niet.'
                    )
                game.tags[name] = (previous[name][0], line)
        previous = {**previous, **game.tags}


def _read_deal_value(value: str, line: int) -> dict[Seat, Hand]:
    text = value.strip()
    if len(text) < 2 or text[1] != ":":
        raise PbnError(
            line, f"[Deal] moet beginnen met N:, E:, S: of W: (staat er: '{text[:12]}')."
        )
    try:
        first = Seat(text[0].upper())
    except ValueError:
        raise PbnError(
            line, f"[Deal] begint met '{text[0]}'; dat moet N, E, S of W zijn."
        ) from None
    parts = text[2:].split()
    if len(parts) != 4:
        raise PbnError(line, f"[Deal] heeft {len(parts)} handen; er moeten er 4 zijn.")
    hands: dict[Seat, Hand] = {}
    seat = first
    for part in parts:
        if part == "-":
            raise PbnError(
                line,
                f"[Deal]: de hand van {seat.dutch} ontbreekt ('-'); alle 52 kaarten zijn nodig.",
            )
        try:
            hands[seat] = parse_hand(part)
        except DealError as error:
            raise PbnError(line, f"[Deal], {seat.dutch}: {error}") from None
        seat = seat.next
    return hands


def _build(game: _Game) -> Deal | None:
    tags = game.tags
    if "Deal" not in tags:
        return None
    deal_value, deal_line = tags["Deal"]
    if "Board" not in tags:
        raise PbnError(deal_line, 'spel met [Deal] maar zonder [Board "nummer"].')
    board_text, board_line = tags["Board"]
    if not board_text.strip().isdigit() or int(board_text) < 1:
        raise PbnError(board_line, f"spelnummer '{board_text}' is geen geheel getal vanaf 1.")
    board = int(board_text)
    try:
        if "Dealer" in tags and tags["Dealer"][0].strip():
            dealer = Seat.read(tags["Dealer"][0])
        else:
            dealer = board_dealer(board)
    except DealError as error:
        raise PbnError(tags["Dealer"][1], str(error)) from None
    try:
        if "Vulnerable" in tags:
            vulnerability = Vulnerability.read(tags["Vulnerable"][0])
        else:
            vulnerability = board_vulnerability(board)
    except DealError as error:
        raise PbnError(tags["Vulnerable"][1], str(error)) from None
    hands = _read_deal_value(deal_value, deal_line)
    event = tags["Event"][0].strip() if "Event" in tags else ""
    try:
        deal = make_deal(board, dealer, vulnerability, hands, event=event)
    except DealError as error:
        raise PbnError(deal_line, f"spel {board}: {error}") from None
    return replace(deal, results=_results(game, board, vulnerability))


def _results(game: _Game, board: int, vulnerability: Vulnerability) -> tuple[int, ...]:
    """The North-South scores in the game's score table; none without a table."""
    if "ScoreTable" not in game.tags:
        return ()
    value, line = game.tags["ScoreTable"]
    try:
        return read_score_table(value, line, game.score_rows, vulnerability)
    except ScoreTableError as error:
        raise PbnError(error.line, f"spel {board}, uitslagen: {error.problem}") from None


def parse_pbn(text: str) -> list[Deal]:
    """All deals in a PBN text, in file order; :class:`PbnError` for the first problem."""
    text = text.removeprefix("\ufeff")
    games = _scan(text)
    if not games:
        raise PbnError(None, "geen PBN-tags gevonden; is dit een .pbn-bestand?")
    _resolve_inheritance(games)
    deals: list[Deal] = []
    seen: dict[int, tuple[Deal, int]] = {}
    for game in games:
        deal = _build(game)
        if deal is None:
            continue
        line = game.tags["Deal"][1]
        if deal.board in seen:
            earlier, earlier_line = seen[deal.board]
            if [earlier.hand(s) for s in SEATS] != [deal.hand(s) for s in SEATS]:
                raise PbnError(
                    line,
                    f"spel {deal.board} staat er al (regel {earlier_line}) met andere kaarten.",
                )
            if deal.results and not earlier.results:
                # The same board again, now with its results (a header game, then the table).
                kept = replace(earlier, results=deal.results)
                deals[deals.index(earlier)] = kept
                seen[deal.board] = (kept, earlier_line)
            continue
        seen[deal.board] = (deal, line)
        deals.append(deal)
    if not deals:
        raise PbnError(None, 'geen spel met [Deal "..."] gevonden.')
    return deals


def read_pbn_bytes(data: bytes) -> list[Deal]:
    """Deals from the bytes of an uploaded PBN file."""
    return parse_pbn(decode_pbn(data))


def read_pbn(path: str | Path) -> list[Deal]:
    """Deals from a PBN file on disk."""
    return read_pbn_bytes(Path(path).read_bytes())
