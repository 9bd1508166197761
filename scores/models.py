"""Stored data of the scores app.

Each block below belongs to one feature; keep them apart (the adjusted score of a ruling and
the deals of an event are built side by side).
"""

import hashlib

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.utils.translation import gettext_lazy as _

from clubs.models import Club
from scores import deal as pure

# --------------------------------------------------------------------------------------------
# Deals: the cards of a board of an event, imported from a PBN file or typed by a director,
# with their double-dummy analysis cached (scores/deals.py reads and writes them).

TYPED_SOURCE = "typed"


class DealSeat(models.TextChoices):
    NORTH = "N", _("Noord")
    EAST = "E", _("Oost")
    SOUTH = "S", _("Zuid")
    WEST = "W", _("West")


class DealVulnerability(models.TextChoices):
    NONE = "None", _("niemand kwetsbaar")
    NS = "NS", _("NZ kwetsbaar")
    EW = "EW", _("OW kwetsbaar")
    ALL = "All", _("allen kwetsbaar")


class StoredDeal(models.Model):
    """One board of one event of a club. ``cards`` is the PBN ``Deal`` value starting with
    North; ``analysis`` is the double-dummy table and par for exactly those cards, valid while
    ``analysis_digest`` equals :attr:`digest` (a changed deal is analysed again)."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="deals")
    event = models.CharField(_("wedstrijd of zitting"), max_length=200, blank=True)
    board = models.PositiveSmallIntegerField(
        _("spel"), validators=[MinValueValidator(1), MaxValueValidator(128)]
    )
    dealer = models.CharField(_("gever"), max_length=1, choices=DealSeat.choices)
    vulnerability = models.CharField(
        _("kwetsbaarheid"), max_length=4, choices=DealVulnerability.choices
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
    analysis = models.JSONField(_("dubbel-dummy-analyse"), null=True, blank=True)
    analysis_digest = models.CharField(max_length=64, blank=True)

    class Meta:
        ordering = ["event", "board"]
        constraints = [
            models.UniqueConstraint(fields=["club", "event", "board"], name="deal_per_board"),
        ]
        verbose_name = _("spel")
        verbose_name_plural = _("spellen")

    def __str__(self) -> str:
        return f"{self.event} #{self.board}"

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
        hands = dict(zip(pure.SEATS, self.cards.removeprefix("N:").split(" "), strict=True))
        return pure.make_deal(
            self.board,
            pure.Seat(self.dealer),
            pure.Vulnerability(self.vulnerability),
            hands,
            event=self.event,
        )


# --------------------------------------------------------------------------------------------
