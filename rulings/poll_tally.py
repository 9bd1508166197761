"""The tally of a player poll and its suggestion by the 16B1(b) test. Pure Python.

A poll asks peers of the player in question what they would call with his hand after the
auction without the unauthorised information. Each answer is the call chosen and the calls the
peer seriously considered. A call is a *logical alternative* (16B1(b)) when a significant
proportion of the peers would seriously consider it and some of them would choose it; how many
is "significant" and how many are "some" is the club's setting (:class:`Thresholds`,
``Club.poll_*``; docs/TRAINERS.md and README say why the defaults are what they are).

The suggestion is only that: the director decides, and the record shows his answer beside it.
A peer who chose a call considered it, so "considered" counts the choosers too.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

__all__ = [
    "DEFAULT_THRESHOLDS",
    "Answer",
    "CallCount",
    "Suggestion",
    "Tally",
    "Thresholds",
    "suggest",
    "tally",
]


@dataclass(frozen=True)
class Thresholds:
    """When a call counts as a logical alternative: seriously considered by at least
    ``consider_percent`` % of the answers (choosers included), chosen by at least
    ``choose_minimum`` of them, and only from ``minimum_answers`` answers on."""

    consider_percent: int = 25
    choose_minimum: int = 1
    minimum_answers: int = 4

    def __post_init__(self) -> None:
        if not 1 <= self.consider_percent <= 100:
            raise ValueError("consider_percent must be 1..100")
        if self.choose_minimum < 1 or self.minimum_answers < 1:
            raise ValueError("choose_minimum and minimum_answers must be at least 1")


DEFAULT_THRESHOLDS = Thresholds()


@dataclass(frozen=True)
class Answer:
    """One peer's answer: the call chosen and the others seriously considered (call codes
    such as ``P``, ``X``, ``3NT``, as ``lib.auction.Call.code`` writes them)."""

    chosen: str
    considered: tuple[str, ...] = ()


@dataclass(frozen=True)
class CallCount:
    code: str
    chosen: int
    considered: int  # chose it or seriously considered it
    share: int  # considered, as a whole percentage of the answers
    alternative: bool  # passes the test at the club's thresholds


@dataclass(frozen=True)
class Tally:
    answers: int
    calls: tuple[CallCount, ...]  # most chosen first, then most considered, then call order

    def get(self, code: str) -> CallCount | None:
        return next((row for row in self.calls if row.code == code), None)

    @property
    def alternatives(self) -> tuple[str, ...]:
        return tuple(row.code for row in self.calls if row.alternative)


@dataclass(frozen=True)
class Suggestion:
    """What the tally suggests for "was there a logical alternative?": ``answer`` is True
    (yes), False (no) or None (too few answers, or the call made at the table unknown);
    ``alternatives`` the calls other than the table's that pass the test."""

    answer: bool | None
    alternatives: tuple[str, ...]
    enough: bool


def _share(count: int, total: int) -> int:
    # Rounded half up, as a director rounds: 1 of 8 is 13 %.
    return (200 * count + total) // (2 * total) if total else 0


def tally(
    answers: Iterable[Answer],
    thresholds: Thresholds = DEFAULT_THRESHOLDS,
    order: Sequence[str] = (),
) -> Tally:
    """Count per call how many chose it and how many considered it (choosers included; a call
    named twice by one peer counts once). ``order`` breaks ties (the bidding box's order)."""
    rows = list(answers)
    chosen: dict[str, int] = {}
    considered: dict[str, int] = {}
    for answer in rows:
        chosen[answer.chosen] = chosen.get(answer.chosen, 0) + 1
        for code in {answer.chosen, *answer.considered}:
            considered[code] = considered.get(code, 0) + 1
    total = len(rows)
    enough = total >= thresholds.minimum_answers
    rank = {code: index for index, code in enumerate(order)}
    counts = [
        CallCount(
            code=code,
            chosen=chosen.get(code, 0),
            considered=count,
            share=_share(count, total),
            alternative=enough
            and chosen.get(code, 0) >= thresholds.choose_minimum
            and 100 * count >= thresholds.consider_percent * total,
        )
        for code, count in considered.items()
    ]
    counts.sort(
        key=lambda row: (-row.chosen, -row.considered, rank.get(row.code, len(rank)), row.code)
    )
    return Tally(total, tuple(counts))


def suggest(
    result: Tally, table_call: str = "", thresholds: Thresholds = DEFAULT_THRESHOLDS
) -> Suggestion:
    """The 16B1(b) suggestion: is some call other than ``table_call`` (the call made at the
    table after the unauthorised information) a logical alternative?"""
    enough = result.answers >= thresholds.minimum_answers
    others = tuple(code for code in result.alternatives if code != table_call)
    if not enough:
        return Suggestion(None, (), enough=False)
    if not table_call:
        return Suggestion(None, others, enough=True)
    return Suggestion(bool(others), others, enough=True)
