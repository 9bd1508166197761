"""A player poll (issue 33): peers of the player in question say what they would call with his
hand after the auction without the unauthorised information (16B1(b)); rulings/poll_tally.py
counts the answers, rulings/polling.py writes them (planners of the one writer), the pages
are scores/poll_views.py (they read the stored deal).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from lib.bridge import Seat, Vulnerability
from lib.constraints import in_choices

if TYPE_CHECKING:
    from rulings.models import Ruling

POLL_QUESTION = "Wat bied je?"


class PeerLevel(models.TextChoices):
    BEGINNER = "beginner", _("beginner")
    CLUB = "club", _("clubspeler")
    TOP = "top", _("topspeler")


class Poll(models.Model):
    """The poll of one ruling: the hand, the auction up to the decision (without the
    unauthorised information; text read by ``lib.auction``) and the question. ``table_call``
    is the call made at the table, the one whose alternatives the tally weighs."""

    ruling = models.OneToOneField("rulings.Ruling", on_delete=models.CASCADE, related_name="poll")
    dealer = models.CharField(_("gever"), max_length=1, choices=Seat.choices)
    vulnerability = models.CharField(
        _("kwetsbaarheid"), max_length=4, choices=Vulnerability.choices, blank=True
    )
    hand = models.CharField(_("hand"), max_length=40)  # PBN order S.H.D.C, PBN ranks
    auction = models.CharField(_("bieding tot de beslissing"), max_length=400, blank=True)
    question = models.CharField(_("vraag"), max_length=200, default=POLL_QUESTION)
    table_call = models.CharField(_("bieding aan tafel"), max_length=4, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField()

    class Meta:
        constraints = [in_choices("poll", "dealer", Seat.values)]
        verbose_name = _("peiling")
        verbose_name_plural = _("peilingen")

    def __str__(self) -> str:
        return f"{self.question} ({self.ruling_id})"


class PollAnswer(models.Model):
    """One polled player's answer: by name or initials and level, not as a user."""

    poll = models.ForeignKey(Poll, on_delete=models.CASCADE, related_name="answers")
    player = models.CharField(_("speler (naam of initialen)"), max_length=60)
    level = models.CharField(_("niveau"), max_length=10, choices=PeerLevel.choices)
    call = models.CharField(_("gekozen bieding"), max_length=4)
    considered = models.JSONField(_("serieus overwogen"), default=list, blank=True)
    answered_at = models.DateTimeField()
    # Taken back by the director (typed wrong, a player who was not a peer): kept, as the
    # audit trail keeps it, but no longer counted (rulings/polling.py plan_withdraw).
    withdrawn = models.BooleanField(_("ingetrokken"), default=False)

    class Meta:
        ordering = ["poll", "answered_at", "pk"]
        constraints = [in_choices("pollanswer", "level", PeerLevel.values)]
        verbose_name = _("antwoord op een peiling")
        verbose_name_plural = _("antwoorden op peilingen")

    def __str__(self) -> str:
        return f"{self.player}: {self.call}"


def poll_of(ruling: Ruling) -> Poll | None:
    """The ruling's poll, or None (read with the ruling when it was selected with it)."""
    try:
        return ruling.poll
    except Poll.DoesNotExist:
        return None
