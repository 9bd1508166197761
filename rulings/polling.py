"""Writing a player poll (issue 33): preparing it and recording each answer are transitions,
planners written by the one writer (:func:`rulings.transitions.run`) with their audit event on
the ruling's chain. What is checked before (a hand of 13 cards, a legal auction, a legal call)
is the forms' work (``scores.poll_forms``); the planners check the ruling's state and the
stale form. Reading: :func:`thresholds_of` (the club's setting), :func:`counted`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Protocol

from clubs.models import Club, User
from lib.auction import AuctionError, parse_auction, parse_call
from lib.i18n import active_language
from rulings import audit, transitions
from rulings.models import Poll, PollAnswer, Ruling, Status
from rulings.poll_tally import Answer, Suggestion, Tally, Thresholds, suggest, tally
from rulings.transitions import Planned, Planner

__all__ = [
    "CallRow",
    "Counted",
    "PollLocked",
    "StalePoll",
    "beside",
    "call_label",
    "counted",
    "counting",
    "plan_answer",
    "plan_prepare",
    "plan_withdraw",
    "prepare",
    "record_answer",
    "shown",
    "thresholds_of",
    "withdraw",
]


class StalePoll(Exception):
    """The poll changed since the form was shown (a second answer sent twice, an edit in
    another tab): nothing was written."""


class PollLocked(Exception):
    """The poll has answers: its hand, auction and dealer are what they were asked about and
    no longer change (the question and the call at the table still may)."""


# What the polled players saw: fixed once an answer counts.
ASKED = ("dealer", "vulnerability", "hand", "auction")


def thresholds_of(club: Club) -> Thresholds:
    return Thresholds(
        consider_percent=club.poll_consider_percent,
        choose_minimum=club.poll_choose_minimum,
        minimum_answers=club.poll_minimum_answers,
    )


class PollLike(Protocol):
    """What the tally reads of a poll: a ruling's (``Poll``) or a training room's."""

    auction: str
    dealer: str
    table_call: str


class AnswerLike(Protocol):
    call: str
    considered: Any


def counted(
    poll: PollLike, answers: Sequence[AnswerLike], club: Club, order: Sequence[str] = ()
) -> tuple[Tally, Suggestion]:
    """The tally of ``answers`` and its 16B1(b) suggestion at the club's thresholds."""
    limits = thresholds_of(club)
    result = tally(
        (Answer(row.call, tuple(row.considered or ())) for row in answers), limits, order
    )
    return result, suggest(result, poll.table_call, limits)


def call_label(code: str) -> str:
    """A stored call code (``3NT``) in the reader's notation (``3SA``); unknown codes as is."""
    try:
        return parse_call(code).label(active_language())
    except AuctionError:
        return code


@dataclass(frozen=True)
class CallRow:
    code: str
    label: str
    chosen: int
    considered: int
    share: int
    alternative: bool
    table: bool  # the call made at the table


@dataclass(frozen=True)
class Counted:
    """The tally as the pages show it (the poll page, the wizard's question, the record)."""

    answers: int
    calls: list[CallRow]
    suggestion: Suggestion
    thresholds: Thresholds
    table_call: str  # in the reader's notation, "" when not given

    @property
    def alternatives(self) -> str:
        return ", ".join(call_label(code) for code in self.suggestion.alternatives)


def shown(poll: PollLike, answers: Sequence[AnswerLike], club: Club) -> Counted:
    """Count ``answers`` at the club's thresholds, calls in the bidding box's order on ties."""
    try:
        order = [call.code for call in parse_auction(poll.auction, poll.dealer).legal_next()]
    except AuctionError:
        order = []
    result, suggestion = counted(poll, answers, club, order)
    rows = [
        CallRow(
            row.code,
            call_label(row.code),
            row.chosen,
            row.considered,
            row.share,
            row.alternative,
            row.code == poll.table_call,
        )
        for row in result.calls
    ]
    table = call_label(poll.table_call) if poll.table_call else ""
    return Counted(result.answers, rows, suggestion, thresholds_of(club), table)


def beside(ruling: Ruling) -> Counted | None:
    """The tally shown beside a question a poll answers (``poll: true`` in the tree), or None
    without a poll: two queries, only on such a question."""
    poll = Poll.objects.select_related("ruling__club").filter(ruling=ruling).first()
    if poll is None:
        return None
    answers = counting(list(PollAnswer.objects.filter(poll=poll)))
    return shown(poll, answers, poll.ruling.club)


def _refuse_discarded(ruling: Ruling) -> None:
    if ruling.status == Status.DISCARDED:
        transitions.refuse_closed(ruling)


POLL_FIELDS = ("dealer", "vulnerability", "hand", "auction", "question", "table_call")


def plan_prepare(user: User, values: dict[str, Any], sequence: int) -> Planner:
    """Create the ruling's poll or change it. ``sequence`` is the chain's length when the form
    was shown: another change since (a second tab) raises :class:`StalePoll`. A poll may be
    prepared for a ruling in progress, deferred or saved, never for a discarded one."""

    def plan(ruling: Ruling, at: datetime) -> Planned:
        _refuse_discarded(ruling)
        if ruling.audit_sequence != sequence:
            raise StalePoll
        poll = Poll.objects.filter(ruling=ruling).first()
        amended = poll is not None
        poll = poll or Poll(ruling=ruling, created_by=user, created_at=at)
        if amended and all(getattr(poll, name) == values[name] for name in POLL_FIELDS):
            return transitions.UNCHANGED
        changed = [name for name in ASKED if amended and getattr(poll, name) != values[name]]
        if changed and PollAnswer.objects.filter(poll=poll, withdrawn=False).exists():
            raise PollLocked
        for name in POLL_FIELDS:
            setattr(poll, name, values[name])
        data = {name: values[name] for name in POLL_FIELDS} | {"amended": amended}
        return Planned((), [(audit.Action.POLL_PREPARED, data)], rows=[poll], touches=False)

    return plan


def plan_answer(poll: Poll, values: dict[str, Any], seen: int) -> Planner:
    """Record one polled player's answer. ``seen`` is the number of answers the form was shown
    with: the same answer sent twice (a double tap) finds one more and is refused."""

    def plan(ruling: Ruling, at: datetime) -> Planned:
        _refuse_discarded(ruling)
        if PollAnswer.objects.filter(poll=poll).count() != seen:
            raise StalePoll
        answer = PollAnswer(
            poll=poll,
            player=values["player"],
            level=values["level"],
            call=values["call"],
            considered=list(values["considered"]),
            answered_at=at,
        )
        data = {
            "player": answer.player,
            "level": answer.level,
            "call": answer.call,
            "considered": answer.considered,
        }
        return Planned((), [(audit.Action.POLL_ANSWERED, data)], rows=[answer], touches=False)

    return plan


def plan_withdraw(poll: Poll, answer_pk: int) -> Planner:
    """Take an answer back (typed wrong, or not a peer): it stays, marked, and no longer
    counts. An answer already withdrawn, or not of this poll, changes nothing."""

    def plan(ruling: Ruling, at: datetime) -> Planned:
        _refuse_discarded(ruling)
        answer = PollAnswer.objects.filter(poll=poll, pk=answer_pk, withdrawn=False).first()
        if answer is None:
            return transitions.UNCHANGED
        answer.withdrawn = True
        data = {"answer": answer.pk, "player": answer.player, "call": answer.call}
        entries = [(audit.Action.POLL_ANSWER_WITHDRAWN, data)]
        return Planned((), entries, rows=[answer], touches=False)

    return plan


def withdraw(poll: Poll, user: User, answer_pk: int) -> bool:
    """Withdraw an answer; False when there was nothing to withdraw."""
    return transitions.run(poll.ruling, user, None, plan_withdraw(poll, answer_pk)).recorded


def counting(answers: Sequence[PollAnswer]) -> list[PollAnswer]:
    """The answers that count (not withdrawn)."""
    return [answer for answer in answers if not answer.withdrawn]


def prepare(ruling: Ruling, user: User, values: dict[str, Any], sequence: int) -> Poll:
    transitions.run(ruling, user, None, plan_prepare(user, values, sequence))
    return Poll.objects.get(ruling=ruling)


def record_answer(poll: Poll, user: User, values: dict[str, Any], seen: int) -> None:
    transitions.run(poll.ruling, user, None, plan_answer(poll, values, seen))
