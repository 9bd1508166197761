"""A bridge deal: board number, dealer, vulnerability and four hands. Pure Python, no Django.

Hands are written as in PBN: spades, hearts, diamonds, clubs separated by dots, ranks
``AKQJT98765432`` (``10`` is read as ``T``), a void is an empty suit: ``AKQ2.J93..KT8654``.
:func:`make_deal` refuses a deal unless each hand has 13 cards and all 52 cards are there once.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum

from scores.calculator import duplicate_score

__all__ = [
    "RANKS",
    "SEATS",
    "SUITS",
    "Deal",
    "DealError",
    "Hand",
    "Seat",
    "Vulnerability",
    "board_dealer",
    "board_vulnerability",
    "make_deal",
    "north_south_score",
    "parse_hand",
]

RANKS = "AKQJT98765432"
SUITS = ("S", "H", "D", "C")
_SUIT_SYMBOL = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}


class DealError(ValueError):
    """A deal or hand that is not a complete, valid deal; ``str()`` is one line in Dutch."""


class Seat(Enum):
    NORTH = "N"
    EAST = "E"
    SOUTH = "S"
    WEST = "W"

    @property
    def dutch(self) -> str:
        return _DUTCH_SEAT[self]

    @property
    def next(self) -> Seat:
        """The seat to the left (clockwise: N, E, S, W)."""
        return SEATS[(SEATS.index(self) + 1) % 4]

    @classmethod
    def read(cls, text: str) -> Seat:
        """A seat from ``N/E/S/W`` or Dutch ``N/O/Z/W`` and full names in either language."""
        key = text.strip().upper()
        seat = _SEAT_WORDS.get(key)
        if seat is None:
            raise DealError(f"Onbekende windrichting '{text}': gebruik N, O (E), Z (S) of W.")
        return seat


SEATS: tuple[Seat, ...] = (Seat.NORTH, Seat.EAST, Seat.SOUTH, Seat.WEST)
_DUTCH_SEAT = {Seat.NORTH: "Noord", Seat.EAST: "Oost", Seat.SOUTH: "Zuid", Seat.WEST: "West"}
# "S" is South in English and "Z" in Dutch; "O" is Oost (East). No letter means two seats.
_SEAT_WORDS: dict[str, Seat] = {
    "N": Seat.NORTH, "NORTH": Seat.NORTH, "NOORD": Seat.NORTH,
    "E": Seat.EAST, "EAST": Seat.EAST, "O": Seat.EAST, "OOST": Seat.EAST,
    "S": Seat.SOUTH, "SOUTH": Seat.SOUTH, "Z": Seat.SOUTH, "ZUID": Seat.SOUTH,
    "W": Seat.WEST, "WEST": Seat.WEST,
}  # fmt: skip


class Vulnerability(Enum):
    NONE = "None"
    NS = "NS"
    EW = "EW"
    ALL = "All"

    def is_vulnerable(self, seat: Seat) -> bool:
        if self is Vulnerability.ALL:
            return True
        if self is Vulnerability.NONE:
            return False
        north_south = seat in (Seat.NORTH, Seat.SOUTH)
        return north_south == (self is Vulnerability.NS)

    @property
    def dutch(self) -> str:
        return _DUTCH_VUL[self]

    @classmethod
    def read(cls, text: str) -> Vulnerability:
        """PBN values ``None``/``Love``/``-``, ``NS``, ``EW``, ``All``/``Both``; Dutch too."""
        key = text.strip().upper().replace("-", "").replace("/", "").replace(" ", "")
        found = _VUL_WORDS.get(key)
        if found is None:
            raise DealError(f"Onbekende kwetsbaarheid '{text}': gebruik None, NS, EW of All.")
        return found


_DUTCH_VUL = {
    Vulnerability.NONE: "niemand kwetsbaar",
    Vulnerability.NS: "NZ kwetsbaar",
    Vulnerability.EW: "OW kwetsbaar",
    Vulnerability.ALL: "allen kwetsbaar",
}
_VUL_WORDS: dict[str, Vulnerability] = {
    "": Vulnerability.NONE, "NONE": Vulnerability.NONE, "LOVE": Vulnerability.NONE,
    "NIEMAND": Vulnerability.NONE, "GEEN": Vulnerability.NONE,
    "NS": Vulnerability.NS, "NZ": Vulnerability.NS,
    "EW": Vulnerability.EW, "OW": Vulnerability.EW,
    "ALL": Vulnerability.ALL, "BOTH": Vulnerability.ALL, "ALLEN": Vulnerability.ALL,
    "ALLE": Vulnerability.ALL,
}  # fmt: skip

# The standard 16-board cycle of vulnerability (boards 1..16, then repeating).
_N, _NS, _EW, _A = Vulnerability.NONE, Vulnerability.NS, Vulnerability.EW, Vulnerability.ALL
_VUL_CYCLE = (_N, _NS, _EW, _A, _NS, _EW, _A, _N, _EW, _A, _N, _NS, _A, _N, _NS, _EW)


def board_dealer(board: int) -> Seat:
    """Dealer of a board in the standard rotation: board 1 North, 2 East, 3 South, 4 West."""
    if board < 1:
        raise DealError(f"Spelnummer {board} kan niet: spellen beginnen bij 1.")
    return SEATS[(board - 1) % 4]


def board_vulnerability(board: int) -> Vulnerability:
    """Vulnerability of a board in the standard 16-board cycle."""
    if board < 1:
        raise DealError(f"Spelnummer {board} kan niet: spellen beginnen bij 1.")
    return _VUL_CYCLE[(board - 1) % 16]


@dataclass(frozen=True)
class Hand:
    """Thirteen cards as ranks per suit, each string in ``RANKS`` order (``""`` for a void)."""

    spades: str
    hearts: str
    diamonds: str
    clubs: str

    def suit(self, letter: str) -> str:
        return {"S": self.spades, "H": self.hearts, "D": self.diamonds, "C": self.clubs}[letter]

    @property
    def suits(self) -> tuple[str, str, str, str]:
        return (self.spades, self.hearts, self.diamonds, self.clubs)

    def cards(self) -> list[str]:
        """Cards as suit letter + rank, e.g. ``SA``, ``HT``."""
        return [s + r for s, ranks in zip(SUITS, self.suits, strict=True) for r in ranks]

    @property
    def pbn(self) -> str:
        return ".".join(self.suits)

    @property
    def display(self) -> str:
        """``♠AKQ2 ♥J93 ♦— ♣KT8654`` with ``10`` for the ten, for the hand diagram."""
        parts = []
        for letter, ranks in zip(SUITS, self.suits, strict=True):
            shown = ranks.replace("T", "10") or "—"
            parts.append(_SUIT_SYMBOL[letter] + shown)
        return " ".join(parts)


def parse_hand(text: str) -> Hand:
    """A hand in PBN form ``S.H.D.C``; ranks sorted, ``10`` read as ``T``. Not checked for 13."""
    raw = text.strip().upper().replace("10", "T")
    parts = raw.split(".")
    if len(parts) != 4:
        raise DealError(
            f"Hand '{text.strip()}' niet te lezen: schrijf vier kleuren ♠.♥.♦.♣ met punten "
            "ertussen, bijvoorbeeld AK32.QJ5.T98.765."
        )
    suits: list[str] = []
    for letter, ranks in zip(SUITS, parts, strict=True):
        for rank in ranks:
            if rank not in RANKS:
                raise DealError(
                    f"Hand '{text.strip()}': '{rank}' is geen kaart in {_SUIT_SYMBOL[letter]} "
                    "(gebruik AKQJT98765432)."
                )
        doubled = sorted({r for r in ranks if ranks.count(r) > 1})
        if doubled:
            raise DealError(
                f"Hand '{text.strip()}': {_SUIT_SYMBOL[letter]}{doubled[0]} staat er twee keer in."
            )
        suits.append("".join(sorted(ranks, key=RANKS.index)))
    return Hand(suits[0], suits[1], suits[2], suits[3])


@dataclass(frozen=True)
class Deal:
    """A complete deal; build it with :func:`make_deal` so that it is checked."""

    board: int
    dealer: Seat
    vulnerability: Vulnerability
    north: Hand
    east: Hand
    south: Hand
    west: Hand
    event: str = ""
    # North-South scores of the board at the tables that played it (a PBN [ScoreTable]).
    results: tuple[int, ...] = ()

    def hand(self, seat: Seat) -> Hand:
        return {
            Seat.NORTH: self.north,
            Seat.EAST: self.east,
            Seat.SOUTH: self.south,
            Seat.WEST: self.west,
        }[seat]

    @property
    def pbn(self) -> str:
        """The PBN ``Deal`` value starting with North, e.g. ``N:AK32.QJ5.T98.765 ...``."""
        return "N:" + " ".join(self.hand(seat).pbn for seat in SEATS)


def _card_name(card: str) -> str:
    return _SUIT_SYMBOL[card[0]] + card[1:].replace("T", "10")


def make_deal(
    board: int,
    dealer: Seat,
    vulnerability: Vulnerability,
    hands: Mapping[Seat, Hand | str],
    event: str = "",
) -> Deal:
    """A checked deal: four hands of 13 cards each, every one of the 52 cards exactly once."""
    if board < 1:
        raise DealError(f"Spelnummer {board} kan niet: spellen beginnen bij 1.")
    parsed: dict[Seat, Hand] = {}
    for seat in SEATS:
        if seat not in hands:
            raise DealError(f"De hand van {seat.dutch} ontbreekt.")
        given = hands[seat]
        parsed[seat] = given if isinstance(given, Hand) else parse_hand(given)
    owner: dict[str, Seat] = {}
    for seat in SEATS:
        for card in parsed[seat].cards():
            if card in owner:
                first = owner[card]
                where = (
                    f"bij {seat.dutch}"
                    if first is seat
                    else f"bij {first.dutch} en bij {seat.dutch}"
                )
                raise DealError(f"{_card_name(card)} zit twee keer in het spel ({where}).")
            owner[card] = seat
    for seat in SEATS:
        count = len(parsed[seat].cards())
        if count != 13:
            missing = [s + r for s in SUITS for r in RANKS if s + r not in owner]
            hint = f"; ontbreekt: {', '.join(_card_name(c) for c in missing)}" if missing else ""
            raise DealError(f"{seat.dutch} heeft {count} kaarten in plaats van 13{hint}.")
    return Deal(
        board=board,
        dealer=dealer,
        vulnerability=vulnerability,
        north=parsed[Seat.NORTH],
        east=parsed[Seat.EAST],
        south=parsed[Seat.SOUTH],
        west=parsed[Seat.WEST],
        event=event,
    )


def north_south_score(contract: str, declarer: Seat, vulnerability: Vulnerability) -> int:
    """The score of a contract from North-South's side, as a scoring program lists it.

    ``north_south_score("4SX-2", Seat.EAST, Vulnerability.EW) == 500``.
    """
    score = duplicate_score(contract, vulnerability.is_vulnerable(declarer))
    return score if declarer in (Seat.NORTH, Seat.SOUTH) else -score
