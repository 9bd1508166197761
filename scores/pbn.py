"""Read an event's deals and every table result from a PBN file (Portable Bridge Notation).
Pure Python; the tag syntax and inheritance are read by :mod:`scores.pbn_scan`.

Per game: ``[Board]``, ``[Dealer]``, ``[Vulnerable]`` (also ``Love``/``-``/``Both``), ``[Deal]``
(first letter: the seat of the first hand, then clockwise), ``[Event]``, ``[Scoring]``, and
where it was played: ``[Section]``, ``[Table]``, ``[Room]``, ``[HomeTeam]``/``[VisitTeam]``,
the players ``[North]`` … or ``[PairNS]``/``[PairEW]``.

The results of a board, in file order (:class:`scores.results.TableResult`):

* one game per table (``[Contract]``, ``[Declarer]``, ``[Result]`` and/or ``[Score]``, as BBO,
  JFR, KOPS, ABA and RealBridge write them): every game is a table's result;
* a ``[ScoreTable]`` (Magic Contest, Ruter, …), read by :mod:`scores.score_table`, with
  ``Multiplicity`` and artificial scores; a game with a score table is not a table's result
  itself (its own contract tags describe one of the rows). The same table twice for a board
  is read once.

A board number may come once per section or match: games of the same board with the same cards
are one board, whose results keep their section; with different cards, each section (the
``[Section]`` tag, or the match's teams) is a board of its own. A board without cards
(``[Deal ""]``, or results only) is skipped with a warning, as is a board number above 128 (a
ruling's board is 1–128). Tolerated: a BOM, CRLF or CR line ends, UTF-8, UTF-16 with BOM,
Windows-1252/latin-1; a missing ``Dealer`` or ``Vulnerable`` (taken from the board number).

Refused with :class:`PbnError` naming the line: an unreadable tag, a board number that is not a
whole number from 1, a bad dealer or vulnerability, a deal with a missing, doubled or unknown
card or an unknown hand (``-``), the same board with other cards in the same section, a result
that is not a score, an unclosed comment, a file that is not text or has no deal. Nothing is
returned unless the whole file is good, so an import is all or nothing.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, replace
from pathlib import Path

from lib.bridge import (
    SEATS,
    BridgeError,
    Seat,
    Vulnerability,
    board_dealer,
    board_vulnerability,
)
from scores.deal import Deal, DealError, Hand, make_deal, parse_hand
from scores.pbn_scan import Game, ScanError, scan
from scores.results import TableResult
from scores.score_table import (
    ScoreTableError,
    artificial_score,
    read_score_table,
    result_of,
    side_score,
)

__all__ = [
    "MAX_BOARD",
    "MAX_BYTES",
    "Board",
    "PbnError",
    "PbnFile",
    "decode_pbn",
    "parse_pbn",
    "read_pbn",
    "read_pbn_bytes",
]

MAX_BYTES = 5_000_000
MAX_BOARD = 128  # a ruling's board number is 1-128
_BOARD = re.compile(r"[0-9]{1,9}")
_SIDE_TRICKS = re.compile(r"(NS|EW)\s*([0-9]{1,2})", re.IGNORECASE)
_UNKNOWN = ("", "?")


class PbnError(ValueError):
    """A PBN file that cannot be imported; ``line`` is 1-based, or None for the whole file."""

    def __init__(self, line: int | None, problem: str) -> None:
        self.line = line
        self.problem = problem
        where = f"Regel {line}: " if line is not None else "PBN-bestand: "
        super().__init__(where + problem)


@dataclass(frozen=True)
class Board:
    """A board's cards and its results; ``section`` is set only where sections had other
    cards under the same board number."""

    deal: Deal
    section: str = ""
    results: tuple[TableResult, ...] = ()
    line: int = 0  # the line of its [Deal]

    @property
    def key(self) -> tuple[str, int]:
        return (self.section, self.deal.board)


@dataclass(frozen=True)
class PbnFile:
    boards: tuple[Board, ...]
    event: str = ""  # the first [Event]
    scoring: str = ""  # the first [Scoring], as written
    warnings: tuple[str, ...] = ()

    @property
    def results(self) -> int:
        """The number of table results read (a row of several tables counts for each)."""
        return sum(result.count for board in self.boards for result in board.results)


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


@dataclass(frozen=True)
class _Record:
    """What one game says about a board."""

    number: int
    label: str  # its section or match
    deal: Deal | None
    line: int
    results: tuple[TableResult, ...]
    from_table: bool  # the results are a score table's


def _board_number(game: Game, warnings: list[str]) -> int | None:
    text, line = game.value("Board"), game.line("Board")
    if not _BOARD.fullmatch(text) or int(text) < 1:
        raise PbnError(line, f"spelnummer '{text}' is geen geheel getal vanaf 1.")
    if int(text) > MAX_BOARD:
        warnings.append(
            f"Regel {line}: spel {text} overgeslagen: Leidraad kent spellen 1 t/m {MAX_BOARD}."
        )
        return None
    return int(text)


def _seat_and_vulnerability(game: Game, board: int) -> tuple[Seat, Vulnerability]:
    try:
        dealer = Seat.read(game.value("Dealer")) if game.value("Dealer") else board_dealer(board)
    except BridgeError as error:
        raise PbnError(game.line("Dealer"), str(error)) from None
    try:
        if "Vulnerable" in game.tags:
            return dealer, Vulnerability.read(game.value("Vulnerable"))
        return dealer, board_vulnerability(board)
    except BridgeError as error:
        raise PbnError(game.line("Vulnerable"), str(error)) from None


class _DealProblem(ValueError):
    """A ``[Deal]`` that is no complete deal; the caller names the line."""


def _hands(value: str) -> dict[Seat, Hand]:
    if len(value) < 2 or value[1] != ":":
        raise _DealProblem(f"[Deal] moet beginnen met N:, E:, S: of W: (staat er: '{value[:12]}').")
    try:
        seat = Seat(value[0].upper())
    except ValueError:
        raise _DealProblem(f"[Deal] begint met '{value[0]}'; dat moet N, E, S of W zijn.") from None
    parts = value[2:].split()
    if len(parts) != 4:
        raise _DealProblem(f"[Deal] heeft {len(parts)} handen; er moeten er 4 zijn.")
    hands: dict[Seat, Hand] = {}
    for part in parts:
        if part == "-":
            raise _DealProblem(
                f"[Deal]: de hand van {seat.dutch} ontbreekt ('-'); alle 52 kaarten zijn nodig."
            )
        try:
            hands[seat] = parse_hand(part)
        except DealError as error:
            raise _DealProblem(f"[Deal], {seat.dutch}: {error}") from None
        seat = seat.next
    return hands


@functools.lru_cache(maxsize=1024)
def _dealt(value: str, number: int, dealer: Seat, vulnerability: Vulnerability, event: str) -> Deal:
    """The checked deal of a ``[Deal]`` value; kept, because a file with one game per table
    repeats each board's deal at every table."""
    try:
        return make_deal(number, dealer, vulnerability, _hands(value), event=event)
    except DealError as error:
        raise _DealProblem(f"spel {number}: {error}") from None


def _tricks(text: str, declarer: str) -> str:
    """Declarer's tricks from a ``[Result]``: ``10``, or ``NS 8`` / ``EW 5`` for a side."""
    text = text.lstrip("^").strip()
    sides = _SIDE_TRICKS.findall(text)
    if not sides or not declarer:
        return "" if text in _UNKNOWN else text
    own = Seat.read(declarer).side.value
    for side, tricks in sides:
        return tricks if side.upper() == own else str(13 - int(tricks))
    return ""


def _pair(game: Game, tag: str, first: str, second: str) -> str:
    if game.value(tag) not in _UNKNOWN:
        return game.value(tag)
    names = [game.value(seat) for seat in (first, second) if game.value(seat) not in _UNKNOWN]
    return " – ".join(names)


def _table_result(game: Game, vulnerability: Vulnerability, label: str) -> TableResult | None:
    """The result of a game that is one table's (its contract and result tags)."""
    contract = game.value("Contract")
    contract = "" if contract in _UNKNOWN else contract
    score_text = game.value("Score")
    if not contract and score_text in _UNKNOWN:
        return None
    line = game.line("Contract") if contract else game.line("Score")
    declarer = game.value("Declarer").lstrip("^")
    artificial = artificial_score(score_text) if score_text else None
    score: int | None = None
    if artificial is None:
        tricks = _tricks(game.value("Result"), declarer)
        if contract and (tricks or contract.upper() in ("PASS", "AP")):
            score, contract, declarer = result_of(contract, declarer, tricks, vulnerability, line)
        if score_text not in _UNKNOWN:
            score = side_score(score_text, declarer, game.line("Score"))
        if score is None:
            raise ScoreTableError(line, f"contract {contract}: de uitslag ontbreekt ([Result]).")
    table = game.value("Table")
    return TableResult(
        score=score,
        contract=contract,
        declarer=declarer.upper(),
        artificial_ns=artificial or "",
        section=label,
        table=int(table) if table.isascii() and table.isdigit() and len(table) <= 4 else None,
        room=game.value("Room"),
        ns=_pair(game, "PairNS", "North", "South"),
        ew=_pair(game, "PairEW", "East", "West"),
    )


def _label(game: Game) -> str:
    """The section or match a game was played in."""
    teams = [game.value(tag) for tag in ("HomeTeam", "VisitTeam") if game.value(tag)]
    return game.value("Section") or " – ".join(teams)


def _results(
    game: Game, board: int, vulnerability: Vulnerability, label: str
) -> tuple[TableResult, ...]:
    try:
        if "ScoreTable" in game.tags:
            rows = read_score_table(
                game.value("ScoreTable"), game.line("ScoreTable"), game.score_rows, vulnerability
            )
            return tuple(replace(row, section=row.section or label) for row in rows)
        result = _table_result(game, vulnerability, label)
    except ScoreTableError as error:
        raise PbnError(error.line, f"spel {board}, uitslagen: {error.problem}") from None
    return (result,) if result is not None else ()


def _record(game: Game, warnings: list[str]) -> _Record | None:
    """A game's board, cards and results; None for a game that is not a board (a header)."""
    deal_value, deal_line = game.value("Deal"), game.line("Deal")
    if "Board" not in game.tags:
        if deal_value:
            raise PbnError(deal_line, 'spel met [Deal] maar zonder [Board "nummer"].')
        return None
    number = _board_number(game, warnings)
    if number is None:
        return None
    dealer, vulnerability = _seat_and_vulnerability(game, number)
    deal = None
    if deal_value:
        try:
            deal = _dealt(deal_value, number, dealer, vulnerability, game.value("Event"))
        except _DealProblem as problem:
            raise PbnError(deal_line, str(problem)) from None
    label = _label(game)
    results = _results(game, number, vulnerability, label)
    line = deal_line if deal_value else game.line("Board")
    return _Record(number, label, deal, line, results, "ScoreTable" in game.tags)


def _same_cards(one: Deal, other: Deal) -> bool:
    return all(one.hand(seat) == other.hand(seat) for seat in SEATS)


def _board(records: list[_Record], section: str, warnings: list[str]) -> Board | None:
    """One board from the games of one board number (and section); None without cards."""
    dealt = [(record, record.deal) for record in records if record.deal is not None]
    if not dealt:
        warnings.append(
            f"Regel {records[0].line}: spel {records[0].number}"
            f"{f' ({section})' if section else ''} heeft geen kaarten ([Deal] leeg of afwezig); "
            "niet ingelezen."
        )
        return None
    first, cards = dealt[0]
    for record, deal in dealt[1:]:
        if not _same_cards(cards, deal):
            raise PbnError(
                record.line,
                f"spel {record.number} staat er al (regel {first.line}) met andere kaarten.",
            )
    results: list[TableResult] = []
    tables: list[tuple[TableResult, ...]] = []
    for record in records:
        if record.from_table and record.results in tables:
            continue  # the same score table again (written with every game of the board)
        tables.append(record.results)
        results.extend(record.results)
    return Board(cards, section, tuple(results), first.line)


def _boards(records: list[_Record], warnings: list[str]) -> list[Board]:
    by_number: dict[int, list[_Record]] = {}
    for record in records:
        by_number.setdefault(record.number, []).append(record)
    boards: list[Board] = []
    for group in by_number.values():
        dealt = [record.deal for record in group if record.deal is not None]
        split = any(not _same_cards(dealt[0], deal) for deal in dealt[1:])
        sections: dict[str, list[_Record]] = {}
        for record in group:
            sections.setdefault(record.label if split else "", []).append(record)
        for section, records_of in sections.items():
            board = _board(records_of, section, warnings)
            if board is not None:
                boards.append(board)
    return boards


def _first(games: list[Game], name: str) -> str:
    return next((game.value(name) for game in games if game.value(name)), "")


def parse_pbn(text: str) -> PbnFile:
    """The boards and results of a PBN text; :class:`PbnError` for the first problem."""
    text = text.removeprefix("\ufeff").replace("\r\n", "\n").replace("\r", "\n")
    try:
        games = scan(text)
    except ScanError as error:
        raise PbnError(error.line, error.problem) from None
    if not games:
        raise PbnError(None, "geen PBN-tags gevonden; is dit een .pbn-bestand?")
    warnings: list[str] = []
    records = [record for game in games if (record := _record(game, warnings)) is not None]
    boards = _boards(records, warnings)
    if not boards:
        raise PbnError(None, 'geen spel met [Deal "..."] gevonden.')
    return PbnFile(tuple(boards), _first(games, "Event"), _first(games, "Scoring"), tuple(warnings))


def read_pbn_bytes(data: bytes) -> PbnFile:
    """Boards and results from the bytes of an uploaded PBN file."""
    return parse_pbn(decode_pbn(data))


def read_pbn(path: str | Path) -> PbnFile:
    """Boards and results from a PBN file on disk."""
    return read_pbn_bytes(Path(path).read_bytes())
