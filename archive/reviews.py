"""Reviews and appeals: transitions of a final ruling (planners written by the one writer,
``rulings.transitions.run``), each an audit event on the ruling's chain written in the same
transaction as the change it records."""

from __future__ import annotations

from datetime import datetime

from archive.models import Review, ReviewAction
from clubs.models import User
from rulings import transitions
from rulings.models import AppealStatus, Ruling
from rulings.transitions import Planned, Planner


class StaleReview(Exception):
    """The ruling's record moved on after the reviewer confirmed what to save: a second
    submission of the same confirmation, or another review or appeal in between."""


def plan_review(review: Review, *, seen: int | None = None) -> Planner:
    """Add ``review`` (not stored) and make its verdict the ruling's current one.

    ``seen`` is the head of the audit chain the reviewer confirmed against; when the chain has
    moved since, :class:`StaleReview` is raised and nothing is saved (a review can never be
    edited, so it is only written over the record the reviewer actually read)."""

    def plan(ruling: Ruling, at: datetime) -> Planned:
        if seen is not None and ruling.audit_sequence != seen:
            raise StaleReview
        review.ruling, review.created_at = ruling, at
        ruling.review_verdict = review.verdict
        data = {
            "review": str(review.uuid),
            "verdict": review.verdict,
            "comment": review.comment,
            "corrected_ruling": review.corrected_ruling,
            "corrected_citations": review.corrected_citations,
        }
        entries = [(ReviewAction.REVIEWED, data)]
        return Planned(("review_verdict",), entries, rows=[review], touches=False)

    return plan


def record_review(
    ruling: Ruling,
    reviewer: User,
    verdict: str,
    comment: str,
    corrected_ruling: str = "",
    corrected_citations: list[str] | None = None,
    *,
    seen: int | None = None,
) -> Review:
    """Add a review (:func:`plan_review`) and return it."""
    review = Review(
        ruling=ruling,
        reviewer=reviewer,
        verdict=verdict,
        comment=comment,
        corrected_ruling=corrected_ruling,
        corrected_citations=list(corrected_citations or []),
    )
    transitions.run(ruling, reviewer, None, plan_review(review, seen=seen))
    return review


# The audit action of each appeal status.
APPEAL_ACTIONS: dict[str, str] = {
    AppealStatus.OPEN: ReviewAction.APPEAL_OPENED,
    AppealStatus.SETTLED: ReviewAction.APPEAL_SETTLED,
}


# The appeal status each change starts from: an appeal is opened on a ruling not under appeal
# (or settled before: a second appeal), and only an open one is settled.
APPEAL_STARTS: dict[str, frozenset[str]] = {
    AppealStatus.OPEN: frozenset({AppealStatus.NONE, AppealStatus.SETTLED}),
    AppealStatus.SETTLED: frozenset({AppealStatus.OPEN}),
}


class StaleAppeal(Exception):
    """The appeal status is no longer the one the change starts from: a double click, a second
    tab, or another reviewer was first."""


def plan_appeal(status: str, note: str) -> Planner:
    """Mark the ruling under appeal (``AppealStatus.OPEN``) or the appeal settled.

    The check is in the planner, so it is made again on the ruling as read afresh when the
    compare-and-swap lost to a concurrent change: of two requests that both read "no appeal",
    the second finds the appeal open and writes nothing (issue 35: it recorded a second
    ``appeal_opened`` event)."""

    def plan(ruling: Ruling, at: datetime) -> Planned:
        if ruling.appeal_status not in APPEAL_STARTS[status]:
            raise StaleAppeal
        ruling.appeal_status = status
        entries = [(APPEAL_ACTIONS[status], {"note": note})]
        return Planned(("appeal_status",), entries, touches=False)

    return plan


def set_appeal(ruling: Ruling, user: User, status: str, note: str) -> None:
    transitions.run(ruling, user, None, plan_appeal(status, note))
