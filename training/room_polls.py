"""A trainer polls the room (issue 33, item 5): in a session, a case that carries an auction and
a poll hand becomes a poll of the hand, the auction up to the decision and the question; each
participant answers once from his own device; the trainer sees the tally and the 16B1(b)
suggestion as a director does (rulings/poll_tally.py, the club's thresholds). Not a ruling: no
audit chain, like the session itself."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone

from clubs.models import Club, User
from lib.auction import AuctionError, load_auction
from rulings import polling
from rulings.models import POLL_QUESTION
from scores.deal import DealError, parse_hand
from scores.polls import decision_point
from training.models import RoomPoll, RoomPollAnswer, TrainingCase, TrainingSession

__all__ = [
    "AlreadyAnswered",
    "answer",
    "case_poll",
    "close",
    "current",
    "open_for",
    "pollable",
    "tally",
    "trainee_context",
    "trainer_context",
]


class AlreadyAnswered(Exception):
    """The participant answered this poll before: one answer each."""


def case_poll(auction: Any, hand: Any) -> tuple[str, str]:
    """A case file's ``auction`` ("W: 1s 2h 2s 3h p? p 3s") and ``poll_hand``, both or
    neither: as stored (lib.auction's text, the hand in PBN order); ValueError says why not."""
    typed, cards = str(auction or ""), str(hand or "")
    if bool(typed) != bool(cards):
        raise ValueError("auction and poll_hand go together")
    if not typed:
        return "", ""
    try:
        read, held = load_auction(typed), parse_hand(cards)
    except (AuctionError, DealError) as error:
        raise ValueError(str(error)) from None
    if read is None or len(held.cards()) != 13:
        raise ValueError("poll_hand must hold 13 cards, and the auction a call")
    return read.stored(), held.pbn


def pollable(cases: Sequence[TrainingCase]) -> list[TrainingCase]:
    """The cases a room can be polled with: an auction and a hand, still open at the decision."""
    found = []
    for case in cases:
        if not case.auction or not case.poll_hand:
            continue
        try:
            auction = load_auction(case.auction)
        except AuctionError:
            continue
        if auction is not None and (decision_point(auction)[0] or not auction.calls):
            found.append(case)
    return found


def open_for(session: TrainingSession, case: TrainingCase) -> RoomPoll:
    """Open a poll of ``case`` in ``session`` (closing the one open before)."""
    auction = load_auction(case.auction or "")
    if auction is None:
        raise ValueError("the case has no auction")
    calls, table_call = decision_point(auction)
    now = timezone.now()
    with transaction.atomic():
        RoomPoll.objects.filter(session=session, closed_at=None).update(closed_at=now)
        return RoomPoll.objects.create(
            session=session,
            case=case,
            dealer=auction.dealer.value,
            hand=case.poll_hand or "",
            auction=calls,
            question=POLL_QUESTION,
            table_call=table_call,
            opened_at=now,
        )


def current(session: TrainingSession) -> RoomPoll | None:
    """The session's latest poll (open or closed), or None."""
    return RoomPoll.objects.filter(session=session).first()


def close(poll: RoomPoll) -> None:
    if poll.closed_at is None:
        poll.closed_at = timezone.now()
        poll.save(update_fields=["closed_at"])


def answer(poll: RoomPoll, user: User, values: dict[str, Any]) -> RoomPollAnswer:
    """Store a participant's answer, once; :class:`AlreadyAnswered` for a second one."""
    try:
        with transaction.atomic():
            return RoomPollAnswer.objects.create(
                poll=poll,
                user=user,
                call=values["call"],
                considered=list(values["considered"]),
                answered_at=timezone.now(),
            )
    except IntegrityError:
        raise AlreadyAnswered from None


def tally(poll: RoomPoll, club: Club) -> tuple[polling.Counted, list[RoomPollAnswer]]:
    """The room's tally at the club's thresholds, and the answers with their users."""
    answers = list(RoomPollAnswer.objects.filter(poll=poll).select_related("user"))
    return polling.shown(poll, answers, club), answers


def trainer_context(session: TrainingSession, cases: Sequence[TrainingCase]) -> dict[str, Any]:
    """What the trainer's session page shows of the room's poll (three queries at most)."""
    poll = current(session)
    context: dict[str, Any] = {"room_poll": poll, "pollable_cases": pollable(cases)}
    if poll is not None:
        context["room_tally"], answers = tally(poll, session.club)
        context["room_answers"] = [
            (row.user.get_full_name() or row.user.get_username(), polling.call_label(row.call))
            for row in answers
        ]
    return context


def trainee_context(session: TrainingSession, user: User) -> dict[str, Any]:
    """The open poll a participant may answer, and whether he did."""
    poll = RoomPoll.objects.filter(session=session, closed_at=None).first()
    if not session.is_open:
        poll = None
    answered = poll is not None and RoomPollAnswer.objects.filter(poll=poll, user=user).exists()
    return {"room_poll": poll, "room_answered": answered}
