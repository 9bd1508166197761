"""The bridge vocabulary of every app: seats, sides (partnerships), partner, the vulnerability
of a board, and card ranks and seat letters as Dutch and English players write them.

The codes are PBN's (seats ``N E S W``, sides ``NS EW``, vulnerability ``None NS EW All``) and
are what the database stores; the labels are Dutch in the source and English from the
translation file, like every other text. No settings are read at import, so pure modules
(the PBN reader, the score calculator's callers) use these types too.

Reading is lenient where players differ: a seat may be typed in Dutch (``O`` Oost, ``Z`` Zuid)
or English, a rank in Dutch (``H`` heer, ``V`` vrouw, ``B`` boer) or English (``K Q J``), a ten
as ``T`` or ``10``. :class:`BridgeError` says in one Dutch line what could not be read.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

from django.db import models
from django.utils.translation import gettext_lazy as _

from lib.i18n import pick

__all__ = [
    "RANKS",
    "SEATS",
    "BridgeError",
    "Seat",
    "Side",
    "Vulnerability",
    "board_dealer",
    "board_vulnerability",
    "notrump",
    "rank_text",
    "read_rank",
    "side_of",
]

# PBN's ranks, highest first; the ten is "T".
RANKS = "AKQJT98765432"


class BridgeError(ValueError):
    """A seat, vulnerability, rank or board number that cannot be read; one Dutch line."""


class Seat(models.TextChoices):
    NORTH = "N", _("Noord")
    EAST = "E", _("Oost")
    SOUTH = "S", _("Zuid")
    WEST = "W", _("West")

    @property
    def next(self) -> Seat:
        """The seat to the left (clockwise: N, E, S, W)."""
        return SEATS[(SEATS.index(self) + 1) % 4]

    @property
    def partner(self) -> Seat:
        return SEATS[(SEATS.index(self) + 2) % 4]

    @property
    def side(self) -> Side:
        return Side.NS if self in (Seat.NORTH, Seat.SOUTH) else Side.EW

    @property
    def dutch(self) -> str:
        """The Dutch name, for the pure readers' messages (which are Dutch)."""
        return _DUTCH_SEAT[self]

    @property
    def letter(self) -> str:
        """The seat's letter in the reader's language: N O Z W in Dutch, N E S W in English."""
        index = SEATS.index(self)
        return pick("NOZW"[index], "NESW"[index])

    @classmethod
    def read(cls, text: str) -> Seat:
        """A seat from ``N/E/S/W``, Dutch ``N/O/Z/W`` or a full name in either language."""
        seat = _SEAT_WORDS.get(text.strip().upper())
        if seat is None:
            raise BridgeError(f"Onbekende windrichting '{text}': gebruik N, O (E), Z (S) of W.")
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


class Side(models.TextChoices):
    """A partnership; the short labels are what score sheets print."""

    NS = "NS", _("NZ")
    EW = "EW", _("OW")

    @property
    def other(self) -> Side:
        return Side.EW if self is Side.NS else Side.NS

    @property
    def seats(self) -> tuple[Seat, Seat]:
        return (Seat.NORTH, Seat.SOUTH) if self is Side.NS else (Seat.EAST, Seat.WEST)

    @property
    def long_label(self) -> str:
        return str(_("Noord-Zuid") if self is Side.NS else _("Oost-West"))


def side_of(seat: str) -> Side | None:
    """The side a stored seat code sits in; None for an empty or unknown code."""
    return Seat(seat).side if seat in Seat.values else None


class Vulnerability(models.TextChoices):
    NONE = "None", _("niemand kwetsbaar")
    NS = "NS", _("NZ kwetsbaar")
    EW = "EW", _("OW kwetsbaar")
    ALL = "All", _("allen kwetsbaar")

    def is_vulnerable(self, seat: Seat) -> bool:
        if self is Vulnerability.ALL:
            return True
        if self is Vulnerability.NONE:
            return False
        return seat.side.value == self.value

    @classmethod
    def read(cls, text: str) -> Vulnerability:
        """PBN's ``None``/``Love``/``-``, ``NS``, ``EW``, ``All``/``Both``; Dutch words too."""
        key = text.strip().upper().replace("-", "").replace("/", "").replace(" ", "")
        found = _VUL_WORDS.get(key)
        if found is None:
            raise BridgeError(f"Onbekende kwetsbaarheid '{text}': gebruik None, NS, EW of All.")
        return found


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


def _check_board(board: int) -> None:
    if board < 1:
        raise BridgeError(f"Spelnummer {board} kan niet: spellen beginnen bij 1.")


def board_dealer(board: int) -> Seat:
    """Dealer of a board in the standard rotation: board 1 North, 2 East, 3 South, 4 West."""
    _check_board(board)
    return SEATS[(board - 1) % 4]


def board_vulnerability(board: int) -> Vulnerability:
    """Vulnerability of a board in the standard 16-board cycle."""
    _check_board(board)
    return _VUL_CYCLE[(board - 1) % 16]


# Dutch honours: heer (king), vrouw (queen), boer (jack). No letter is a rank in both languages.
_DUTCH_RANKS = {"H": "K", "V": "Q", "B": "J"}
_DUTCH_SHOWN = {"K": "H", "Q": "V", "J": "B"}


def read_rank(char: str) -> str | None:
    """PBN's rank letter for a typed one (``H`` → ``K``, ``t`` → ``T``); None if no rank.
    A ten typed as ``10`` is read by the caller, which sees two characters."""
    rank = char.upper()
    rank = _DUTCH_RANKS.get(rank, rank)
    return rank if rank in RANKS else None


def rank_text(rank: str) -> str:
    """A PBN rank as the reader writes it: ``H V B 10`` in Dutch, ``K Q J 10`` in English."""
    if rank == "T":
        return "10"
    return pick(_DUTCH_SHOWN.get(rank, rank), rank)


# A suit's symbol, as every page, print and message shows it.
SUIT_SYMBOL = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}


def notrump() -> str:
    """Notrump as the reader writes it: SA (sans atout) in Dutch, NT in English."""
    return pick("SA", "NT")


T = TypeVar("T")


def seat_rows(cells: Sequence[T], dealer: Seat, first: Seat) -> list[list[T | None]]:
    """An auction's cells in rows of four under the seats from ``first`` clockwise: None
    before the dealer's first cell and after the last (no rows without cells)."""
    if not cells:
        return []
    padded: list[T | None] = [None] * ((SEATS.index(dealer) - SEATS.index(first)) % 4)
    padded += cells
    padded += [None] * (-len(padded) % 4)
    return [padded[i : i + 4] for i in range(0, len(padded), 4)]
