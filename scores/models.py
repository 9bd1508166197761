"""The adjusted score recorded with a ruling (Law 12C); the arithmetic is in ``scores.adjusted``."""

from __future__ import annotations

from typing import cast

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from rulings.models import Ruling
from scores import adjusted


class Kind(models.TextChoices):
    ASSIGNED = "assigned", _("toegekend (12C1(b))")
    WEIGHTED = "weighted", _("gewogen (12C1(c))")
    ARTIFICIAL = "artificial", _("kunstmatig (12C2)")


class Scoring(models.TextChoices):
    MATCHPOINTS = "mp", _("matchpunten")
    IMPS = "imps", _("IMP's")


class Artificial(models.TextChoices):
    PLUS = "plus", _("gemiddeld plus")
    AVERAGE = "average", _("gemiddeld")
    MINUS = "minus", _("gemiddeld min")


class Pair(models.TextChoices):
    NS = "NS", _("NZ")
    EW = "EW", _("OW")


class AdjustedScore(models.Model):
    """One per ruling. Rows are JSON lists of ``{"contract", "declarer", "weight"}`` read by
    ``scores.adjusted.read_rows``; an empty ``offending_rows`` means the same rows as the
    non-offending side. Artificial scores keep the percentages the club used at the time."""

    ruling = models.OneToOneField(Ruling, on_delete=models.CASCADE, related_name="adjusted_score")
    kind = models.CharField(_("soort"), max_length=12, choices=Kind.choices)
    scoring = models.CharField(
        _("telling"), max_length=4, choices=Scoring.choices, default=Scoring.MATCHPOINTS
    )
    offending_side = models.CharField(_("overtredende partij"), max_length=2, choices=Pair.choices)
    non_offending_rows = models.JSONField(default=list, blank=True)
    offending_rows = models.JSONField(default=list, blank=True)
    non_offending_artificial = models.CharField(
        max_length=8, choices=Artificial.choices, blank=True
    )
    offending_artificial = models.CharField(max_length=8, choices=Artificial.choices, blank=True)
    non_offending_percent = models.PositiveSmallIntegerField(null=True, blank=True)
    offending_percent = models.PositiveSmallIntegerField(null=True, blank=True)
    # North-South scores of the board at the other tables, as typed by the director.
    field = models.JSONField(_("andere uitslagen"), default=list, blank=True)
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    recorded_at = models.DateTimeField()

    class Meta:
        verbose_name = _("arbitrale score")
        verbose_name_plural = _("arbitrale scores")

    def __str__(self) -> str:
        return f"{self.get_kind_display()} ({self.ruling_id})"

    def adjustment(self) -> adjusted.Adjustment:
        """The stored score as the pure type ``scores.adjusted`` computes with."""
        non_offending = adjusted.read_rows(self.non_offending_rows)
        offending = adjusted.read_rows(self.offending_rows) or non_offending
        return adjusted.Adjustment(
            kind=self.kind,
            offending_side=cast(adjusted.Side, self.offending_side),
            non_offending=adjusted.SideScore(
                non_offending, self.non_offending_artificial, self.non_offending_percent
            ),
            offending=adjusted.SideScore(
                offending, self.offending_artificial, self.offending_percent
            ),
            scoring=self.scoring,
            field=tuple(int(score) for score in self.field),
        )

    def summary(self) -> str:
        return adjusted.summary(self.adjustment())


# The columns ``summary_of`` needs, for exports that read values instead of objects.
SUMMARY_FIELDS = (
    "kind",
    "scoring",
    "offending_side",
    "non_offending_rows",
    "offending_rows",
    "non_offending_artificial",
    "offending_artificial",
    "non_offending_percent",
    "offending_percent",
    "field",
)


def summary_of(values: dict[str, object]) -> str:
    """The one-line summary from ``SUMMARY_FIELDS`` values; empty without a score."""
    if not values.get("kind"):
        return ""
    return AdjustedScore(**values).summary()
