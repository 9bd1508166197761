"""What the poll pages show: the polled hand, the auction up to the decision, the bidding box
and the tally in the reader's language. The poll itself is ``rulings.models.Poll`` (written by
``rulings.polling``); this module sits in ``scores`` because the hand comes from the ruling's
stored deal (``scores.deals.deal_for``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from lib.auction import Auction, AuctionError, Call, parse_auction
from lib.bridge import (
    SUIT_SYMBOL,
    Seat,
    Vulnerability,
    board_dealer,
    board_vulnerability,
    rank_text,
    seat_rows,
)
from lib.i18n import active_language
from rulings import polling
from rulings.models import Poll, PollAnswer, Ruling, Step
from rulings.poll_models import poll_of
from scores.deal import DealError, parse_hand
from scores.deals import _SUIT_NAME, SuitLine, deal_for
from trees import snapshot

__all__ = [
    "BiddingBox",
    "PollRecord",
    "PollView",
    "auction_of",
    "bidding_box",
    "decision_point",
    "diagram",
    "hand_lines",
    "initial_for",
    "record_of",
    "view_of",
]

_SUITS = ("S", "H", "D", "C")


def hand_lines(pbn: str) -> list[SuitLine]:
    """A hand stored in PBN order (``AK32.QJ5.T98.765``) as four lines in the reader's ranks;
    an unreadable hand (changed by hand in the database) shows as it is stored."""
    try:
        hand = parse_hand(pbn)
    except DealError:
        return [SuitLine("S", "", "", pbn, False)]
    return [
        SuitLine(
            letter,
            SUIT_SYMBOL[letter],
            str(_SUIT_NAME[letter]),
            " ".join(rank_text(rank) for rank in hand.suit(letter)) or "—",
            letter in ("H", "D"),
        )
        for letter in _SUITS
    ]


def auction_of(poll: Poll) -> Auction | None:
    """The poll's auction as ``lib.auction`` reads it; None when the stored text no longer
    reads (it was checked when written)."""
    try:
        return parse_auction(poll.auction, poll.dealer)
    except AuctionError:
        return None


@dataclass(frozen=True)
class BiddingBox:
    """The legal calls, as the screen groups them: pass, double and redouble, then the bids
    per level."""

    others: list[tuple[str, str]]  # code, label
    levels: list[list[tuple[str, str, bool]]]  # code, label, red

    @property
    def codes(self) -> list[str]:
        return [code for code, _ in self.others] + [c for row in self.levels for c, _, _ in row]


def bidding_box(auction: Auction | None) -> BiddingBox:
    calls: list[Call] = auction.legal_next() if auction is not None else []
    language = active_language()
    others = [(call.code, call.label(language)) for call in calls if not call.is_bid]
    levels: dict[int, list[tuple[str, str, bool]]] = {}
    for call in calls:
        if call.is_bid and call.level is not None:
            red = call.strain in ("H", "D")
            levels.setdefault(call.level, []).append((call.code, call.label(language), red))
    return BiddingBox(others, [levels[level] for level in sorted(levels)])


@dataclass(frozen=True)
class PollView:
    """Everything the director's pages show of a poll: the hand, the auction diagram, the
    tally with its suggestion and the answers (never on the polled player's screen)."""

    poll: Poll
    hand: list[SuitLine]
    seat: str
    auction: Auction | None
    columns: list[str]
    rows: list[list[str]]
    tally: polling.Counted
    answers: Sequence[PollAnswer]

    @property
    def diagram(self) -> tuple[list[str], list[list[str]]]:
        return self.columns, self.rows

    @property
    def hand_text(self) -> str:
        """The hand on one line (the record's print): ``♠ A H 3 2 ♥ V B 5 …``."""
        return " ".join(f"{line.symbol}{line.cards.replace(' ', '')}" for line in self.hand)

    @property
    def auction_text(self) -> str:
        """The calls up to the decision on one line, ending in "?" (the record's print)."""
        if self.auction is None:
            return self.poll.auction
        language = active_language()
        calls = [entry.call.short(language) for entry in self.auction.calls]
        return " ".join([*calls, "?"])

    @property
    def answer_rows(self) -> list[tuple[str, str, str, str]]:
        """Each answer that counts as shown: player, level, call, the calls also considered."""
        return [row[1:5] for row in self.all_rows if not row[5]]

    @property
    def all_rows(self) -> list[tuple[int, str, str, str, str, bool]]:
        """Every answer (the director's page): its id, as :attr:`answer_rows`, withdrawn."""
        return [
            (
                row.pk,
                row.player,
                str(row.get_level_display()),
                polling.call_label(row.call),
                ", ".join(polling.call_label(code) for code in row.considered or ()),
                row.withdrawn,
            )
            for row in self.answers
        ]


def diagram(auction: Auction | None) -> tuple[list[str], list[list[str]]]:
    """The auction as rows under West, North, East, South, ending in "?" where the polled
    player is to call."""
    if auction is None:
        return [], []
    language = active_language()
    cells = [entry.call.short(language) + ("!" if entry.alert else "") for entry in auction.calls]
    rows = seat_rows([*cells, "?"], auction.dealer, Seat.WEST)
    columns = [seat.letter for seat in auction.columns()]
    return columns, [[cell or "" for cell in row] for row in rows]


def view_of(poll: Poll, answers: Sequence[PollAnswer], ruling: Ruling) -> PollView:
    auction = auction_of(poll)
    columns, rows = diagram(auction)
    seat = str(auction.next_seat.label) if auction is not None else ""
    tally = polling.shown(poll, polling.counting(answers), ruling.club)
    return PollView(poll, hand_lines(poll.hand), seat, auction, columns, rows, tally, answers)


def decision_point(auction: Auction) -> tuple[str, str]:
    """The auction up to the decision a poll asks about, and the call made there at the table.

    After the last call with a tempo remark (``?``), the decision is partner's next call, two
    calls on: the calls before it (their alerts and explanations left out: the poll gives the
    peers the calls only) and that call's code. Without a tempo remark, or before partner
    called: the whole auction while it is still open, no call at the table."""
    calls = auction.calls
    marked = [index for index, entry in enumerate(calls) if entry.tempo]
    if marked and marked[-1] + 2 < len(calls):
        at = marked[-1] + 2
        return " ".join(entry.call.code for entry in calls[:at]), calls[at].call.code
    if auction.is_complete:
        return "", ""
    return " ".join(entry.call.code for entry in calls), ""


def initial_for(ruling: Ruling) -> dict[str, str]:
    """What the prepare form starts from: dealer and vulnerability from the stored deal or the
    board number; the auction up to the decision from the ruling's own auction."""
    initial: dict[str, str] = {"question": "Wat bied je?"}
    recorded = ruling.parsed_auction
    if recorded is not None:
        initial["auction"], initial["table_call"] = decision_point(recorded)
        initial["dealer"] = recorded.dealer.value
    stored = deal_for(ruling)
    if stored is not None:
        known = {"dealer": stored.dealer, "vulnerability": stored.vulnerability}
    elif ruling.board is not None:
        known = {
            "dealer": board_dealer(ruling.board).value,
            "vulnerability": board_vulnerability(ruling.board).value,
        }
    else:
        known = {"dealer": Seat.NORTH.value, "vulnerability": Vulnerability.NONE.value}
    return known | initial  # the recorded auction's dealer first


def hand_from_deal(ruling: Ruling, seat: Seat) -> str:
    """The hand of ``seat`` in the ruling's stored deal (PBN order), or ``""``."""
    stored = deal_for(ruling)
    if stored is None:
        return ""
    try:
        return stored.to_deal().hand(seat).pbn
    except (DealError, ValueError):
        return ""


@dataclass(frozen=True)
class PollRecord:
    """The poll on the record, beside the director's own answer to the question it answers
    (the steps at ``poll: true`` questions): the suggestion never stands for his decision."""

    view: PollView
    decisions: list[tuple[str, str]]  # question, the director's answer


def record_of(ruling: Ruling, facts: Sequence[Step]) -> PollRecord | None:
    """The ruling's poll for its record page, or None (no query: the page reads the poll with
    the ruling; one query for the answers when there is one)."""
    poll = poll_of(ruling)
    if poll is None:
        return None
    answers = list(PollAnswer.objects.filter(poll=poll))
    tree = snapshot.find(ruling.snapshot_id)
    decisions = [
        (step.question_text, step.answer_text or step.choice_key)
        for step in facts
        if tree is not None
        and tree.tree.has_node(step.node_key)
        and tree.tree.node(step.node_key).poll
    ]
    return PollRecord(view_of(poll, answers, ruling), decisions)
