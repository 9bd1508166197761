"""Deals of a club's events: typing a board's hands, finding a ruling's board, the cached
double-dummy analysis, and what the hand diagram shows.

Importing a file is :mod:`scores.importing`. Typing the hands of a board keeps the results
imported for it. A ruling finds its board by event name (any case) and board number within its
own club; where sections of the event had other cards under one number, "Dinsdag B" finds
section B's board of event "Dinsdag".
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import dataclass

from django.db import transaction
from django.db.models import Q, Value
from django.db.models.functions import Concat
from django.utils.translation import gettext_lazy

from clubs.models import Club, User
from lib.bridge import (
    SEATS,
    SUIT_SYMBOL,
    Seat,
    Vulnerability,
    board_dealer,
    board_vulnerability,
    notrump,
    rank_text,
)
from rulings.models import Ruling
from scores import double_dummy
from scores.adjusted import vulnerability_of_board
from scores.deal import SUITS, Deal, DealError, Hand, make_deal
from scores.double_dummy import DENOMINATIONS, DoubleDummy
from scores.importing import event_name, stored_event
from scores.models import TYPED_SOURCE, Event, StoredDeal
from scores.results import Compared, TableResult

__all__ = [
    "DealView",
    "analysis_of",
    "contract_text",
    "deal_for",
    "denomination_text",
    "events",
    "results_of",
    "results_table",
    "shown",
    "shown_deal_for",
    "store_typed",
    "typed_deal",
    "vulnerability_of",
]

logger = logging.getLogger(__name__)


def results_of(stored: StoredDeal) -> list[TableResult]:
    """The board's table results as stored by the import."""
    return [TableResult.from_json(item) for item in stored.results]


@dataclass(frozen=True)
class ResultsTable:
    """A board's results as a page lists them, with the columns the file fills."""

    rows: list[Compared]
    section: bool
    table: bool
    room: bool
    pairs: bool
    count: bool


def results_table(rows: list[Compared]) -> ResultsTable:
    results = [row.result for row in rows]
    return ResultsTable(
        rows,
        section=any(result.section for result in results),
        table=any(result.table is not None for result in results),
        room=any(result.room for result in results),
        pairs=any(result.ns or result.ew for result in results),
        count=any(result.count > 1 for result in results),
    )


def store_typed(
    club: Club, deal: Deal, user: User | None, row: StoredDeal | None = None
) -> StoredDeal:
    """Store a typed (already checked) deal: over ``row`` (the board the ruling found, whose
    results stay), or as a new board of its event (made if the club has no such event)."""
    values = {
        "dealer": deal.dealer.value,
        "vulnerability": deal.vulnerability.value,
        "cards": deal.pbn,
        "source": TYPED_SOURCE,
        "entered_by": user,
    }
    with transaction.atomic():
        if row is None:
            event = stored_event(club, deal.event)
            return StoredDeal.objects.create(
                club=club, event=event.name, board=deal.board, **values
            )
        for column, value in values.items():
            setattr(row, column, value)
        row.save()
    return row


def typed_deal(
    board: int,
    hands: Mapping[Seat, Hand | str],
    event: str = "",
    dealer: Seat | None = None,
    vulnerability: Vulnerability | None = None,
) -> Deal:
    """A checked deal from four typed hands (``DealError`` names a missing or doubled card);
    dealer and vulnerability default to the board number's place in the standard cycle."""
    return make_deal(
        board,
        dealer or board_dealer(board),
        vulnerability or board_vulnerability(board),
        hands,
        event=event_name(event),
    )


def deal_for(ruling: Ruling) -> StoredDeal | None:
    """The stored board of a ruling: same club, same event name in any case (or the event's
    name and a section, "Dinsdag B"), same board number. Several sections of one event with
    this number and no section named: the first section's board."""
    if ruling.board is None:
        return None
    name = event_name(ruling.event)
    rows = list(
        StoredDeal.objects.filter(club_id=ruling.club_id, board=ruling.board)
        .annotate(named=Concat("event", Value(" "), "section"))
        .filter(Q(event__iexact=name) | Q(section__gt="", named__iexact=name))
        .order_by("section", "pk")
    )
    if not rows:
        return None
    wanted = name.lower()
    return next((row for row in rows if f"{row.event} {row.section}".lower() == wanted), rows[0])


def events(club: Club) -> list[tuple[Event, list[StoredDeal]]]:
    """The club's events with their boards (in board order), in two queries."""
    grouped: dict[str, list[StoredDeal]] = {}
    for row in (
        StoredDeal.objects.filter(club=club)
        .order_by("board", "section")
        .only("event", "section", "board", "source", "entered_at", "results")
    ):
        grouped.setdefault(row.event.lower(), []).append(row)
    return [
        (event, grouped.get(event.name.lower(), [])) for event in Event.objects.filter(club=club)
    ]


def analysis_of(stored: StoredDeal) -> DoubleDummy | None:
    """The double-dummy table and par of a stored deal, computed once per deal: cached on the
    row under the digest of its cards, so a changed deal is analysed again. None when the
    solver is not available (the page shows the deal without the table)."""
    digest = stored.digest
    if stored.analysis is not None and stored.analysis_digest == digest:
        return DoubleDummy.from_dict(stored.analysis)
    try:
        result = double_dummy.analyse(stored.to_deal())
    except (RuntimeError, DealError, ValueError):
        logger.exception("double-dummy analysis failed for deal %s", stored.pk)
        return None
    # Only the cache columns, and only if the cards are still those analysed: a deal replaced
    # meanwhile keeps its own (future) analysis.
    StoredDeal.objects.filter(pk=stored.pk, cards=stored.cards).update(
        analysis=result.as_dict(), analysis_digest=digest
    )
    stored.analysis, stored.analysis_digest = result.as_dict(), digest
    return result


# --------------------------------------------------------------------------------------------
# What the hand diagram shows (templates/scores/_deal.html needs only a DealView)

_SUIT_NAME = {
    "S": gettext_lazy("schoppen"),
    "H": gettext_lazy("harten"),
    "D": gettext_lazy("ruiten"),
    "C": gettext_lazy("klaveren"),
}


def denomination_text(value: str) -> str:
    """A suit symbol, or notrump as the reader writes it (SA in Dutch, NT in English)."""
    return SUIT_SYMBOL.get(value) or notrump()


def contract_text(notation: str) -> str:
    """A contract in calculator notation as the reader writes it: ``4♥X-1``, ``3SA=`` (Dutch)
    or ``3NT=`` (English), ``pas``/``pass``; anything else as it is."""
    if notation.lower() == "pass":
        return str(gettext_lazy("pas"))
    level, rest = notation[:1], notation[1:]
    if not level.isdigit():
        return notation
    for written in ("NT", "N", "S", "H", "D", "C"):
        if rest.upper().startswith(written):
            shown = notrump() if written in ("NT", "N") else SUIT_SYMBOL[written]
            return level + shown + rest[len(written) :]
    return notation


@dataclass(frozen=True)
class SuitLine:
    letter: str
    symbol: str
    name: str  # the suit's name, for screen readers
    cards: str  # "A H 10 3" in Dutch, "A K 10 3" in English, or "—" for a void
    red: bool


@dataclass(frozen=True)
class HandView:
    seat: Seat
    name: str
    suits: list[SuitLine]
    dealer: bool
    vulnerable: bool


@dataclass(frozen=True)
class TableRow:
    seat: Seat
    name: str
    tricks: list[int]


@dataclass(frozen=True)
class DealView:
    stored: StoredDeal
    deal: Deal
    hands: dict[str, HandView]  # "north", "east", "south", "west"
    table: list[TableRow] | None
    denominations: list[tuple[str, bool]]  # label, red
    par_score: int | None
    par_contracts: list[str]

    @property
    def dealer(self) -> str:
        return str(self.deal.dealer.label)

    @property
    def vulnerability(self) -> str:
        return str(self.deal.vulnerability.label)

    @property
    def compass(self) -> list[str]:
        """The seat letters round the diagram's centre: N, W, E, S in the reader's letters."""
        return [seat.letter for seat in (Seat.NORTH, Seat.WEST, Seat.EAST, Seat.SOUTH)]


def _hand_view(deal: Deal, seat: Seat) -> HandView:
    hand = deal.hand(seat)
    lines = [
        SuitLine(
            letter,
            SUIT_SYMBOL[letter],
            str(_SUIT_NAME[letter]),
            " ".join(rank_text(rank) for rank in hand.suit(letter)) or "—",
            letter in ("H", "D"),
        )
        for letter in SUITS
    ]
    return HandView(
        seat,
        str(seat.label),
        lines,
        seat is deal.dealer,
        deal.vulnerability.is_vulnerable(seat),
    )


def _par_text(contract: double_dummy.ParContract) -> str:
    outcome = "=" if contract.result == 0 else f"{contract.result:+d}"
    denomination = denomination_text(contract.denomination.value)
    declarer = str(contract.declarer.label)
    return f"{contract.level}{denomination}{contract.penalty}{outcome} {declarer}"


def shown(stored: StoredDeal) -> DealView | None:
    """Everything the hand diagram shows, analysing the deal on first need."""
    try:
        deal = stored.to_deal()
    except (DealError, ValueError):
        logger.exception("stored deal %s is not a complete deal", stored.pk)
        return None
    result = analysis_of(stored)
    table = None
    if result is not None:
        table = [
            TableRow(seat, str(seat.label), [result.tricks_for(seat, d) for d in DENOMINATIONS])
            for seat in SEATS
        ]
    return DealView(
        stored=stored,
        deal=deal,
        hands={seat.name.lower(): _hand_view(deal, seat) for seat in SEATS},
        table=table,
        denominations=[(denomination_text(d.value), d.value in "HD") for d in DENOMINATIONS],
        par_score=result.par_score if result is not None else None,
        par_contracts=[_par_text(c) for c in result.par_contracts] if result is not None else [],
    )


def shown_deal_for(ruling: Ruling) -> DealView | None:
    """The ruling's board ready for the hand diagram, or None when no deal is stored."""
    stored = deal_for(ruling)
    return shown(stored) if stored is not None else None


def vulnerability_of(ruling: Ruling, deal: DealView | None) -> Vulnerability | None:
    """The vulnerability an adjusted score is scored at: the stored deal's (a PBN file may
    deviate from the standard cycle), else the board number's."""
    if deal is not None:
        return deal.deal.vulnerability
    return vulnerability_of_board(ruling.board)
