"""The club's look back at rulings: reviews (confirmed / amended / overturned) and the tally
the statistics page sums."""

import uuid

from django.conf import settings
from django.core.validators import MaxLengthValidator
from django.db import models
from django.utils.translation import gettext_lazy as _

from archive import tally
from clubs.models import Club
from lib import limits
from rulings.audit import Action
from rulings.models import Ruling, Verdict


class RulingTally(models.Model):
    """How many of a club's rulings share one combination of everything the statistics count
    by and the common filters select on: the statistics page sums these rows instead of
    grouping every ruling (make bench: 200,000 rulings).

    Database triggers keep it (``archive/tally.py``): every insert, delete and
    change of these columns of ``rulings_ruling`` adjusts the counts in the same transaction,
    whoever writes (the wizard, a review, an import, a restore, a bulk insert). ``month`` is the
    month of play as ``YYYY-MM``, empty when the date is not known."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="+")
    mode = models.CharField(max_length=10)
    status = models.CharField(max_length=20)
    tree_slug = models.CharField(max_length=80)
    edition_code = models.CharField(max_length=10)
    outcome_key = models.CharField(max_length=80)
    month = models.CharField(max_length=7)
    director = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+"
    )
    cited_articles = models.CharField(max_length=400)
    review_verdict = models.CharField(max_length=12)
    appeal_status = models.CharField(max_length=10)
    count = models.IntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=[column.removesuffix("_id") for column in tally.KEY],
                name="rulingtally_unique_key",
            )
        ]

    def __str__(self) -> str:
        return f"{self.tree_slug} {self.month or '-'} {self.status}: {self.count}"


class ReviewAction:
    """The audit actions of a review and an appeal (labelled in ``rulings.audit``)."""

    REVIEWED = Action.REVIEWED
    APPEAL_OPENED = Action.APPEAL_OPENED
    APPEAL_SETTLED = Action.APPEAL_SETTLED


class Review(models.Model):
    """A reviewer's verdict on a ruling. Reviews are never edited: a new review supersedes the
    verdict of an earlier one (``Ruling.review_verdict`` holds the latest)."""

    uuid = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    ruling = models.ForeignKey(Ruling, on_delete=models.CASCADE, related_name="reviews")
    reviewer = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="reviews"
    )
    verdict = models.CharField(_("oordeel"), max_length=12, choices=Verdict.choices)
    comment = models.TextField(
        _("toelichting"), validators=[MaxLengthValidator(limits.DECISION_MAX)]
    )
    corrected_ruling = models.TextField(
        _("gecorrigeerde uitspraak"),
        blank=True,
        validators=[MaxLengthValidator(limits.DECISION_MAX)],
    )
    corrected_citations = models.JSONField(_("gecorrigeerde wetsartikelen"), default=list)
    created_at = models.DateTimeField(_("datum"))

    class Meta:
        ordering = ["ruling", "created_at", "pk"]
        verbose_name = _("beoordeling")
        verbose_name_plural = _("beoordelingen")

    def __str__(self) -> str:
        return f"{self.get_verdict_display()} ({self.ruling_id})"
