"""A bridge deal: board number, dealer, vulnerability and four hands. Pure Python (the seats
and vulnerability are the shared vocabulary of :mod:`lib.bridge`).

Hands are written as in PBN: spades, hearts, diamonds, clubs separated by dots, ranks
``AKQJT98765432``, a void is an empty suit: ``AKQ2.J93..KT8654``. Typed hands may also use the
Dutch ranks ``H V B`` (heer, vrouw, boer) and ``10`` for the ten: ``AHV2.B93..H108654``.
:func:`make_deal` refuses a deal unless each hand has 13 cards and all 52 cards are there once.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from django.utils.translation import gettext as _

from lib.bridge import (
    RANKS,
    SEATS,
    SUIT_SYMBOL,
    BridgeError,
    Seat,
    Vulnerability,
    rank_text,
    read_rank,
)
from scores.calculator import duplicate_score

__all__ = [
    "SUITS",
    "Deal",
    "DealError",
    "Hand",
    "make_deal",
    "north_south_score",
    "parse_hand",
]

SUITS = ("S", "H", "D", "C")


class DealError(BridgeError):
    """A deal or hand that is not a complete, valid deal; ``str()`` is one line in the
    reader's language."""


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
    def typed(self) -> str:
        """The hand as a director types it in the reader's language: ``AHV2.B93..H108654`` in
        Dutch, ``AKQ2.J93..K108654`` in English (read back by :func:`parse_hand`)."""
        return ".".join("".join(rank_text(rank) for rank in ranks) for ranks in self.suits)


def _ranks(text: str, suit: str, typed: str) -> str:
    """The PBN ranks of one suit as typed (Dutch or English letters, ``10`` or ``T``), in
    ``RANKS`` order; DealError names a character that is no card or a card typed twice."""
    ranks: list[str] = []
    for char in typed.replace("10", "T"):
        rank = read_rank(char)
        if rank is None:
            raise DealError(
                _(
                    "Hand '%(hand)s': '%(char)s' is geen kaart in %(suit)s "
                    "(gebruik AKQJT98765432, of AHVB en 10)."
                )
                % {"hand": text.strip(), "char": char, "suit": SUIT_SYMBOL[suit]}
            )
        if rank in ranks:
            raise DealError(
                _("Hand '%(hand)s': %(card)s staat er twee keer in.")
                % {"hand": text.strip(), "card": _card_name(suit + rank)}
            )
        ranks.append(rank)
    return "".join(sorted(ranks, key=RANKS.index))


def parse_hand(text: str) -> Hand:
    """A hand in PBN form ``S.H.D.C``, ranks in either language, sorted. Not checked for 13."""
    parts = text.strip().split(".")
    if len(parts) != 4:
        raise DealError(
            _(
                "Hand '%(hand)s' niet te lezen: schrijf vier kleuren ♠.♥.♦.♣ met punten "
                "ertussen, bijvoorbeeld AK32.QJ5.T98.765."
            )
            % {"hand": text.strip()}
        )
    suits = [_ranks(text, suit, typed) for suit, typed in zip(SUITS, parts, strict=True)]
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
    return SUIT_SYMBOL[card[0]] + card[1:].replace("T", "10")


def make_deal(
    board: int,
    dealer: Seat,
    vulnerability: Vulnerability,
    hands: Mapping[Seat, Hand | str],
    event: str = "",
) -> Deal:
    """A checked deal: four hands of 13 cards each, every one of the 52 cards exactly once."""
    if board < 1:
        raise DealError(
            _("Spelnummer %(board)s kan niet: spellen beginnen bij 1.") % {"board": board}
        )
    parsed: dict[Seat, Hand] = {}
    for seat in SEATS:
        if seat not in hands:
            raise DealError(_("De hand van %(seat)s ontbreekt.") % {"seat": seat.label})
        given = hands[seat]
        parsed[seat] = given if isinstance(given, Hand) else parse_hand(given)
    owner: dict[str, Seat] = {}
    for seat in SEATS:
        for card in parsed[seat].cards():
            if card in owner:
                first = owner[card]
                where = (
                    _("bij %(seat)s") % {"seat": seat.label}
                    if first is seat
                    else _("bij %(first)s en bij %(seat)s")
                    % {"first": first.label, "seat": seat.label}
                )
                raise DealError(
                    _("%(card)s zit twee keer in het spel (%(where)s).")
                    % {"card": _card_name(card), "where": where}
                )
            owner[card] = seat
    for seat in SEATS:
        count = len(parsed[seat].cards())
        if count != 13:
            missing = [s + r for s in SUITS for r in RANKS if s + r not in owner]
            hint = (
                _("; ontbreekt: %(cards)s") % {"cards": ", ".join(_card_name(c) for c in missing)}
                if missing
                else ""
            )
            raise DealError(
                _("%(seat)s heeft %(count)s kaarten in plaats van 13%(hint)s.")
                % {"seat": seat.label, "count": count, "hint": hint}
            )
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
