"""Reviews and appeals: every action is an audit event on the ruling's chain, written in the
same transaction as the change it records."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from archive.models import Review, ReviewAction
from clubs.models import User
from rulings import audit
from rulings.models import AppealStatus, Ruling


class StaleReview(Exception):
    """The ruling's record moved on after the reviewer confirmed what to save: a second
    submission of the same confirmation, or another review or appeal in between."""


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
    """Add a review and make its verdict the ruling's current one, with its audit event.

    ``seen`` is the head of the audit chain the reviewer confirmed against; when the chain has
    moved since, nothing is saved and :class:`StaleReview` is raised (a review can never be
    edited, so it is only written over the record the reviewer actually read)."""
    at = timezone.now()
    if seen is not None and ruling.audit_sequence != seen:
        raise StaleReview
    with transaction.atomic():
        review = Review.objects.create(
            ruling=ruling,
            reviewer=reviewer,
            verdict=verdict,
            comment=comment,
            corrected_ruling=corrected_ruling,
            corrected_citations=list(corrected_citations or []),
            created_at=at,
        )
        Ruling.objects.filter(pk=ruling.pk).update(review_verdict=verdict)
        ruling.review_verdict = verdict
        data = {
            "review": str(review.uuid),
            "verdict": verdict,
            "comment": comment,
            "corrected_ruling": corrected_ruling,
            "corrected_citations": review.corrected_citations,
        }
        event = audit.append(ruling, ReviewAction.REVIEWED, reviewer, data, at=at)
        if seen is not None and event.sequence != seen + 1:
            # Another request appended between our read and our write: undo ours.
            raise StaleReview
    return review


def set_appeal(ruling: Ruling, user: User, status: str, note: str) -> None:
    """Mark the ruling under appeal (``AppealStatus.OPEN``) or the appeal settled."""
    actions: dict[str, str] = {
        AppealStatus.OPEN: ReviewAction.APPEAL_OPENED,
        AppealStatus.SETTLED: ReviewAction.APPEAL_SETTLED,
    }
    action = actions[status]
    with transaction.atomic():
        Ruling.objects.filter(pk=ruling.pk).update(appeal_status=status)
        ruling.appeal_status = status
        audit.append(ruling, action, user, {"note": note})
