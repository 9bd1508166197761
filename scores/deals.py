"""Deals of a club's events: importing, typing, finding a ruling's board, and the cached
double-dummy analysis.

An import writes all boards of a file or none (one transaction); a board already stored for
that event is replaced with its results, so importing a corrected file again updates it.
Typing the hands of a board keeps the results imported for it. A ruling finds its
board by event name and board number within its own club.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass

from django.db import transaction
from django.utils.translation import gettext, gettext_lazy

from clubs.models import Club, User
from rulings.models import Ruling
from scores import double_dummy
from scores.adjusted import vulnerability_of_board
from scores.deal import (
    SEATS,
    SUITS,
    Deal,
    DealError,
    Hand,
    Seat,
    Vulnerability,
    board_dealer,
    board_vulnerability,
    make_deal,
)
from scores.double_dummy import DENOMINATIONS, DoubleDummy
from scores.models import TYPED_SOURCE, DealSeat, DealVulnerability, StoredDeal

__all__ = [
    "DealView",
    "ImportSummary",
    "analysis_of",
    "deal_for",
    "event_name",
    "events",
    "import_deals",
    "shown_deal_for",
    "store_typed",
    "typed_deal",
]

logger = logging.getLogger(__name__)


def event_name(text: str) -> str:
    """The stored form of an event name: spaces trimmed and runs of spaces made one, so that
    a name typed on the ruling finds the imported event."""
    return " ".join(text.split())


def _row_values(deal: Deal) -> dict[str, object]:
    return {
        "dealer": deal.dealer.value,
        "vulnerability": deal.vulnerability.value,
        "cards": deal.pbn,
    }


@dataclass(frozen=True)
class ImportSummary:
    event: str
    added: list[int]
    replaced: list[int]

    @property
    def total(self) -> int:
        return len(self.added) + len(self.replaced)


def import_deals(
    club: Club,
    event: str,
    deals: Iterable[Deal],
    source: str,
    user: User | None = None,
    progress: Callable[[Deal, bool], None] | None = None,
) -> ImportSummary:
    """Store the deals as boards of ``event`` (all or nothing); an existing board is
    replaced. ``progress(deal, replaced)`` is called after each board."""
    name = event_name(event)
    added: list[int] = []
    replaced: list[int] = []
    with transaction.atomic():
        existing = {
            d.board: d for d in StoredDeal.objects.select_for_update().filter(club=club, event=name)
        }
        for deal in deals:
            values = {
                **_row_values(deal),
                "results": list(deal.results),  # a file without them clears old ones
                "source": source[:200],
                "entered_by": user,
            }
            row = existing.get(deal.board)
            if row is None:
                StoredDeal.objects.create(club=club, event=name, board=deal.board, **values)
                added.append(deal.board)
            else:
                for field, value in values.items():
                    setattr(row, field, value)
                row.save()
                replaced.append(deal.board)
            if progress is not None:
                progress(deal, row is not None)
    return ImportSummary(name, added, replaced)


def store_typed(club: Club, deal: Deal, user: User | None) -> StoredDeal:
    """Store a typed (already checked) deal as the board of its event, replacing what was
    stored for that board."""
    with transaction.atomic():
        row, _created = StoredDeal.objects.update_or_create(
            club=club,
            event=event_name(deal.event),
            board=deal.board,
            defaults={**_row_values(deal), "source": TYPED_SOURCE, "entered_by": user},
        )
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
    """The stored board of a ruling: same club, same event name, same board number."""
    if ruling.board is None:
        return None
    return (
        StoredDeal.objects.filter(
            club_id=ruling.club_id, event__iexact=event_name(ruling.event), board=ruling.board
        )
        .order_by("pk")
        .first()
    )


def events(club: Club) -> list[tuple[str, list[StoredDeal]]]:
    """The club's events with their boards (in board order), in one query."""
    grouped: dict[str, list[StoredDeal]] = {}
    for row in (
        StoredDeal.objects.filter(club=club)
        .order_by("event", "board")
        .only("event", "board", "source", "entered_at", "results")
    ):
        grouped.setdefault(row.event, []).append(row)
    return list(grouped.items())


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

_SYMBOL = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
_SUIT_NAME = {
    "S": gettext_lazy("schoppen"),
    "H": gettext_lazy("harten"),
    "D": gettext_lazy("ruiten"),
    "C": gettext_lazy("klaveren"),
}
_SUIT_LABEL = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}


def _denomination_label(value: str) -> str:
    """A suit symbol, or notrump as the reader writes it (SA in Dutch, NT in English)."""
    return _SUIT_LABEL.get(value) or gettext("SA")


@dataclass(frozen=True)
class SuitLine:
    letter: str
    symbol: str
    name: str  # Dutch name of the suit, for screen readers
    cards: str  # "A K 10 3", or "—" for a void
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
        return _seat_name(self.deal.dealer)

    @property
    def vulnerability(self) -> str:
        return str(DealVulnerability(self.deal.vulnerability.value).label)


def _seat_name(seat: Seat) -> str:
    """The seat in the reader's language (Dutch unless the page is in English)."""
    return str(DealSeat(seat.value).label)


def _hand_view(deal: Deal, seat: Seat) -> HandView:
    hand = deal.hand(seat)
    lines = [
        SuitLine(
            letter,
            _SYMBOL[letter],
            str(_SUIT_NAME[letter]),
            " ".join("10" if r == "T" else r for r in hand.suit(letter)) or "—",
            letter in ("H", "D"),
        )
        for letter in SUITS
    ]
    return HandView(
        seat,
        _seat_name(seat),
        lines,
        seat is deal.dealer,
        deal.vulnerability.is_vulnerable(seat),
    )


def _par_text(contract: double_dummy.ParContract) -> str:
    outcome = "=" if contract.result == 0 else f"{contract.result:+d}"
    denomination = _denomination_label(contract.denomination.value)
    declarer = _seat_name(contract.declarer)
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
            TableRow(seat, _seat_name(seat), [result.tricks_for(seat, d) for d in DENOMINATIONS])
            for seat in SEATS
        ]
    return DealView(
        stored=stored,
        deal=deal,
        hands={seat.name.lower(): _hand_view(deal, seat) for seat in SEATS},
        table=table,
        denominations=[(_denomination_label(d.value), d.value in "HD") for d in DENOMINATIONS],
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
