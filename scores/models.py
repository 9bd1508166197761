"""Stored data of the scores app.

Each block below belongs to one feature: the deals of an event (scores/deals.py reads and writes
them) and the adjusted score of a ruling (the arithmetic is in ``scores.adjusted``).
"""

from __future__ import annotations

import hashlib

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models.functions import Lower
from django.utils.translation import gettext_lazy as _

from clubs.models import Club
from lib.bridge import SEATS, Seat, Side, Vulnerability
from lib.constraints import between, in_choices
from rulings.models import Ruling
from scores import adjusted
from scores import deal as pure

# --------------------------------------------------------------------------------------------
# Deals: the cards of a board of an event, imported from a PBN file or typed by a director,
# with their double-dummy analysis cached (scores/deals.py reads and writes them).

TYPED_SOURCE = "typed"


class StoredDeal(models.Model):
    """One board of one event of a club. ``cards`` is the PBN ``Deal`` value starting with
    North; ``analysis`` is the double-dummy table and par for exactly those cards, valid while
    ``analysis_digest`` equals :attr:`digest` (a changed deal is analysed again)."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="deals")
    event = models.CharField(_("wedstrijd of zitting"), max_length=200, blank=True)
    board = models.PositiveSmallIntegerField(
        _("spel"), validators=[MinValueValidator(1), MaxValueValidator(128)]
    )
    # Set only where sections or matches of one event had other cards under the same number.
    section = models.CharField(_("lijn of wedstrijd"), max_length=60, blank=True, default="")
    dealer = models.CharField(_("gever"), max_length=1, choices=Seat.choices)
    vulnerability = models.CharField(
        _("kwetsbaarheid"), max_length=4, choices=Vulnerability.choices
    )
    cards = models.CharField(_("kaarten (PBN)"), max_length=80)
    source = models.CharField(_("bron"), max_length=200)  # the PBN file name, or "typed"
    entered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("ingevoerd door"),
    )
    entered_at = models.DateTimeField(_("ingevoerd op"), auto_now=True)
    # The board's results at the tables that played it, from the PBN file (a list of
    # scores.results.TableResult.to_json()); the adjusted-score form compares with them.
    results = models.JSONField(_("uitslagen"), default=list, blank=True)
    analysis = models.JSONField(_("dubbel-dummy-analyse"), null=True, blank=True)
    analysis_digest = models.CharField(max_length=64, blank=True)

    class Meta:
        ordering = ["event", "board"]
        constraints = [
            models.UniqueConstraint(
                Lower("event"), "club", "section", "board", name="deal_per_board_any_case"
            ),
            between("deal", "board", 1, 128),
            in_choices("deal", "dealer", Seat.values),
            in_choices("deal", "vulnerability", Vulnerability.values),
        ]
        verbose_name = _("spel")
        verbose_name_plural = _("spellen")

    def __str__(self) -> str:
        return f"{self.event} {self.section} #{self.board}".replace("  ", " ")

    @property
    def digest(self) -> str:
        """What the analysis depends on: the cards, the dealer and the vulnerability (par)."""
        key = f"{self.cards}|{self.dealer}|{self.vulnerability}"
        return hashlib.sha256(key.encode()).hexdigest()

    @property
    def typed(self) -> bool:
        return self.source == TYPED_SOURCE

    def to_deal(self) -> pure.Deal:
        """The checked pure deal (raises ``DealError`` if the row was changed by hand)."""
        hands = dict(zip(SEATS, self.cards.removeprefix("N:").split(" "), strict=True))
        return pure.make_deal(
            self.board,
            Seat(self.dealer),
            Vulnerability(self.vulnerability),
            hands,
            event=self.event,
        )


# --------------------------------------------------------------------------------------------


# --------------------------------------------------------------------------------------------
# The adjusted score recorded with a ruling (Law 12C).


class Kind(models.TextChoices):
    ASSIGNED = "assigned", _("toegekend (12C1(b))")
    WEIGHTED = "weighted", _("gewogen (12C1(c))")
    ARTIFICIAL = "artificial", _("kunstmatig (12C2)")


class Scoring(models.TextChoices):
    """How an event was scored, and so what an adjusted score is compared with."""

    MATCHPOINTS = "mp", _("matchpunten")
    IMPS = "imps", _("IMP's tegen de andere tafel")
    CROSS_IMPS = "ximp", _("cross-IMP's")
    BUTLER = "butl", _("Butler (datum)")


class Artificial(models.TextChoices):
    PLUS = "plus", _("gemiddeld plus")
    AVERAGE = "average", _("gemiddeld")
    MINUS = "minus", _("gemiddeld min")


class AdjustedScore(models.Model):
    """One per ruling. Rows are JSON lists of ``{"contract", "declarer", "weight"}`` read by
    ``scores.adjusted.read_rows``; an empty ``offending_rows`` means the same rows as the
    non-offending side. Artificial scores keep the percentages the club used at the time."""

    ruling = models.OneToOneField(Ruling, on_delete=models.CASCADE, related_name="adjusted_score")
    kind = models.CharField(_("soort"), max_length=12, choices=Kind.choices)
    scoring = models.CharField(
        _("telling"), max_length=4, choices=Scoring.choices, default=Scoring.MATCHPOINTS
    )
    offending_side = models.CharField(_("overtredende partij"), max_length=2, choices=Side.choices)
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
        constraints = [
            in_choices("adjusted_score", "kind", Kind.values),
            in_choices("adjusted_score", "scoring", Scoring.values),
            in_choices("adjusted_score", "offending_side", Side.values),
            # An artificial score has a choice and the club's percentage for each side; the
            # others have rows instead (JSON, checked by scores.adjusted.read_rows).
            models.CheckConstraint(
                condition=models.Q(
                    kind=Kind.ARTIFICIAL,
                    non_offending_artificial__in=Artificial.values,
                    offending_artificial__in=Artificial.values,
                    non_offending_percent__isnull=False,
                    non_offending_percent__lte=100,
                    offending_percent__isnull=False,
                    offending_percent__lte=100,
                )
                | models.Q(
                    kind__in=[Kind.ASSIGNED, Kind.WEIGHTED],
                    non_offending_artificial="",
                    offending_artificial="",
                    non_offending_percent__isnull=True,
                    offending_percent__isnull=True,
                ),
                name="adjusted_score_fields_by_kind",
            ),
        ]
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
            offending_side=Side(self.offending_side),
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


# --------------------------------------------------------------------------------------------
# Events: what a club knows of an event beside its deals (scores/importing.py writes it).


class Event(models.Model):
    """An event whose deals were imported or typed. Its deals are the ``StoredDeal`` rows of
    the club with this name in any case; ``scoring`` says what an adjusted score on one of its
    boards is compared with (chosen on the deals page, first taken from the file)."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="deal_events")
    name = models.CharField(_("wedstrijd of zitting"), max_length=200, blank=True)
    scoring = models.CharField(
        _("telling"), max_length=4, choices=Scoring.choices, default=Scoring.MATCHPOINTS
    )
    source = models.CharField(_("bron"), max_length=200, blank=True)  # the last file read

    class Meta:
        ordering = ["name"]
        constraints = [
            models.UniqueConstraint(Lower("name"), "club", name="deal_event_per_name_any_case"),
            in_choices("deal_event", "scoring", Scoring.values),
        ]
        verbose_name = _("wedstrijd")
        verbose_name_plural = _("wedstrijden")

    def __str__(self) -> str:
        return self.name


# --------------------------------------------------------------------------------------------
# The result of the board at the ruling's table (scores/board_result.py computes its scores).


class BoardResult(models.Model):
    """The tricks declarer made and, where a rectification changed them (tricks transferred
    for a revoke, established after a claim), the tricks after it. The contract and declarer
    are the ruling's own (its board form); written with a ``result_recorded`` audit event
    (scores/result_views.py)."""

    ruling = models.OneToOneField(Ruling, on_delete=models.CASCADE, related_name="board_result")
    tricks_made = models.PositiveSmallIntegerField(
        _("slagen gemaakt"), validators=[MaxValueValidator(13)]
    )
    rectified_tricks = models.PositiveSmallIntegerField(
        _("slagen na rechtzetting"), null=True, blank=True, validators=[MaxValueValidator(13)]
    )
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    recorded_at = models.DateTimeField()

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=models.Q(tricks_made__lte=13)
                & (models.Q(rectified_tricks__isnull=True) | models.Q(rectified_tricks__lte=13)),
                name="board_result_tricks_0_13",
            ),
        ]
        verbose_name = _("uitslag van het spel")
        verbose_name_plural = _("uitslagen van het spel")

    def __str__(self) -> str:
        return f"{self.tricks_made} ({self.ruling_id})"

    @property
    def after_rectification(self) -> int:
        return self.tricks_made if self.rectified_tricks is None else self.rectified_tricks
