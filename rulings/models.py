"""Rulings with their steps and hash-chained audit events."""

import contextlib
import uuid
from typing import Any, NoReturn

from django.conf import settings
from django.core.validators import MaxLengthValidator, MaxValueValidator, MinValueValidator
from django.db import models
from django.utils.translation import gettext_lazy as _

from clubs.models import Club
from lib import limits
from lib.auction import Auction, AuctionError, load_auction, validate_stored
from lib.bridge import Seat, Side
from lib.constraints import between, in_choices
from lib.i18n import pick_text
from trees.models import TreeSnapshot

ROUND_TABLE = [MinValueValidator(1), MaxValueValidator(limits.ROUND_TABLE_MAX)]


class Mode(models.TextChoices):
    LIVE = "live", _("echt")
    TRAINING = "training", _("oefening")


class Status(models.TextChoices):
    IN_PROGRESS = "in_progress", _("bezig")
    DEFERRED = "deferred", _("uitgesteld")
    FINAL = "final", _("definitief")
    # Abandoned by the director: kept with its trail, out of the open list and the archive's
    # default view.
    DISCARDED = "discarded", _("verworpen")


class Strain(models.TextChoices):
    CLUBS = "C", "♣"
    DIAMONDS = "D", "♦"
    HEARTS = "H", "♥"
    SPADES = "S", "♠"
    NOTRUMP = "NT", _("SA")


class Doubled(models.TextChoices):
    NONE = "", "–"
    DOUBLED = "X", _("gedoubleerd")
    REDOUBLED = "XX", _("geredoubleerd")


# Review choices (archive.models.Review uses them too).
class Verdict(models.TextChoices):
    CONFIRMED = "confirmed", _("bevestigd")
    AMENDED = "amended", _("aangepast")
    OVERTURNED = "overturned", _("herroepen")


class AppealStatus(models.TextChoices):
    NONE = "", _("geen beroep")
    OPEN = "open", _("in beroep")
    SETTLED = "settled", _("beroep afgehandeld")


# A free ruling (rulings/free.py) is a ruling without a tree: this marker stands where a
# tree's slug would be (never a tree's slug) and as its outcome key.
FREE_SLUG = "vrij"


class Ruling(models.Model):
    """One ruling (*arbitrage*): the tree and version used, the path of steps, the outcome and
    the table context. Tree content is snapshotted into steps and outcome fields so that a
    later change to a tree file never changes a past ruling."""

    uuid = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    # No index of their own: every index in Meta.indexes starts with the club or the director,
    # and each index more is written by every new ruling (migration 0004).
    club = models.ForeignKey(Club, on_delete=models.PROTECT, related_name="rulings", db_index=False)
    director = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="rulings", db_index=False
    )
    mode = models.CharField(_("modus"), max_length=10, choices=Mode.choices, default=Mode.LIVE)
    status = models.CharField(
        _("status"), max_length=20, choices=Status.choices, default=Status.IN_PROGRESS
    )

    tree_slug = models.CharField(_("beslisboom"), max_length=80, db_index=True)
    tree_title = models.CharField(_("onregelmatigheid"), max_length=200)
    edition_code = models.CharField(_("editie"), max_length=10)
    tree_version = models.CharField(_("versie beslisboom"), max_length=64)
    current_node_key = models.CharField(max_length=80)

    # Wizard state (rulings/wizard.py). ``path`` holds the answers that count as
    # [node_key, choice_key] pairs, so a step renders without reading the steps; ``revision``
    # counts every step ever recorded (superseded ones too): each answer form carries it, so a
    # stale form (second tab, double click) is refused. ``earlier_answers`` keeps superseded
    # answers per node key, to pre-select them when the same question comes up again.
    snapshot = models.ForeignKey(
        TreeSnapshot, on_delete=models.PROTECT, null=True, blank=True, related_name="rulings"
    )
    path = models.JSONField(default=list, blank=True)
    earlier_answers = models.JSONField(default=dict, blank=True)
    revision = models.PositiveIntegerField(default=0)
    # Head of the audit chain (rulings/audit.py), written in the same UPDATE as the state it
    # records: appending needs no read, the sequence doubles as an optimistic lock, and a
    # deleted tail of the chain is noticed by verify_audit.
    audit_sequence = models.PositiveIntegerField(default=0)
    audit_head = models.CharField(max_length=64, blank=True)

    outcome_key = models.CharField(_("uitkomst"), max_length=80, blank=True, db_index=True)
    outcome = models.JSONField(_("uitspraak"), default=dict, blank=True)
    # The trees this ruling went through before its current one, each as it ended (an outcome
    # that hands over to another tree goes on in the same ruling, rulings/hand_over.py).
    handed_over = models.JSONField(_("eerdere beslisbomen"), default=list, blank=True)

    played_on = models.DateField(_("speeldatum"), null=True, blank=True, db_index=True)
    event = models.CharField(_("wedstrijd of zitting"), max_length=200, blank=True)
    # Validators for forms and the transfer bundle reader; Meta.constraints for the database.
    round = models.PositiveSmallIntegerField(
        _("ronde"), null=True, blank=True, validators=ROUND_TABLE
    )
    table = models.PositiveSmallIntegerField(
        _("tafel"), null=True, blank=True, validators=ROUND_TABLE
    )
    board = models.PositiveSmallIntegerField(
        _("spel"), null=True, blank=True, validators=[MinValueValidator(1), MaxValueValidator(128)]
    )
    offender_seat = models.CharField(
        _("plaats overtreder"), max_length=1, choices=Seat.choices, blank=True
    )
    # The pairs at the table, as the director names them (numbers or names): a psyche or
    # deviation is recorded against a pair (PairRecord), and a later ruling of the same pair
    # shows what was recorded before (rulings/pairs.py).
    pair_ns = models.CharField(_("paar NZ"), max_length=limits.PAIR_MAX, blank=True)
    pair_ew = models.CharField(_("paar OW"), max_length=limits.PAIR_MAX, blank=True)
    declarer_seat = models.CharField(
        _("plaats leider"), max_length=1, choices=Seat.choices, blank=True
    )
    contract_level = models.PositiveSmallIntegerField(
        _("contracthoogte"),
        null=True,
        blank=True,
        validators=[MinValueValidator(1), MaxValueValidator(7)],
    )
    contract_strain = models.CharField(_("kleur"), max_length=2, choices=Strain.choices, blank=True)
    contract_doubled = models.CharField(
        _("doublet"), max_length=2, choices=Doubled.choices, blank=True
    )
    notes = models.TextField(
        _("aantekeningen"), blank=True, validators=[MaxLengthValidator(limits.NOTES_MAX)]
    )
    # The auction with the dealer and each call's notes, lib.auction's canonical text ("N: 1H
    # P 2NT!"); its validator (read by the bundle reader too) refuses an illegal one.
    auction = models.TextField(
        _("bieding"),
        blank=True,
        default="",
        validators=[MaxLengthValidator(limits.AUCTION_MAX), validate_stored],
    )

    # Training rulings (mode=training) point to the case practised and, when done in a
    # trainer's session, to that session (training/models.py).
    training_case = models.ForeignKey(
        "training.TrainingCase",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="rulings",
        verbose_name=_("oefencasus"),
    )
    training_session = models.ForeignKey(
        "training.TrainingSession",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="rulings",
        verbose_name=_("oefensessie"),
    )

    created_at = models.DateTimeField(auto_now_add=True, db_index=True)
    updated_at = models.DateTimeField(auto_now=True)
    finalised_at = models.DateTimeField(null=True, blank=True)

    # Review and archive (archive/models.py, archive/reviews.py). ``cited_articles`` holds the
    # article numbers of the ruling's legal basis (LegalBasis, rulings/legal_basis.py) as
    # "|27|47|", derived from the same keys by the one writer: the tally's and the archive
    # filter's column (empty until an outcome is reached).
    cited_articles = models.CharField(
        _("geciteerde artikelen"), max_length=400, blank=True, default=""
    )
    review_verdict = models.CharField(
        _("oordeel"), max_length=12, choices=Verdict.choices, blank=True, default=""
    )
    appeal_status = models.CharField(
        _("beroep"), max_length=10, choices=AppealStatus.choices, blank=True, default=""
    )

    class Meta:
        ordering = ["-created_at"]
        indexes = [
            models.Index(fields=["club", "mode", "status", "-created_at"]),
            # The archive's first page in its default order (newest first) without sorting
            # every ruling of the club, and its count under any mix of the short filters
            # read from this index alone, never from the wide rows (make bench: 200,000).
            models.Index(
                fields=[
                    "club",
                    "mode",
                    "-created_at",
                    "status",
                    "tree_slug",
                    "played_on",
                    "edition_code",
                    "director",
                    "table",
                    "board",
                    "review_verdict",
                    "appeal_status",
                    "outcome_key",
                    "cited_articles",
                ],
                name="ruling_archive_covering",
            ),
            # The start page's "recently used trees": a director's latest rulings (make bench).
            models.Index(fields=["director", "-created_at"]),
            # The home page's unfinished rulings of a director, found and ordered in the index.
            models.Index(
                fields=["director", "mode", "status", "-updated_at", "club"],
                name="ruling_open_by_director",
            ),
        ]
        # What the choices and validators promise, refused by the database too (lib/constraints.py).
        constraints = [
            in_choices("ruling", "mode", Mode.values),
            in_choices("ruling", "status", Status.values),
            in_choices("ruling", "review_verdict", Verdict.values, blank=True),
            in_choices("ruling", "appeal_status", AppealStatus.values),
            in_choices("ruling", "offender_seat", Seat.values, blank=True),
            in_choices("ruling", "declarer_seat", Seat.values, blank=True),
            in_choices("ruling", "contract_strain", Strain.values, blank=True),
            in_choices("ruling", "contract_doubled", Doubled.values),
            between("ruling", "round", 1, limits.ROUND_TABLE_MAX, null=True),
            between("ruling", "table", 1, limits.ROUND_TABLE_MAX, null=True),
            between("ruling", "board", 1, 128, null=True),
            between("ruling", "contract_level", 1, 7, null=True),
        ]
        verbose_name = _("arbitrage")
        verbose_name_plural = _("arbitrages")

    def __str__(self) -> str:
        return f"{self.tree_title} ({self.uuid})"

    @property
    def parsed_auction(self) -> Auction | None:
        """The stored auction read (None without one, or written past the validator)."""
        with contextlib.suppress(AuctionError):
            return load_auction(self.auction)
        return None

    @property
    def is_free(self) -> bool:
        return self.tree_slug == FREE_SLUG


class Step(models.Model):
    """A question shown and the answer given. Changing an earlier answer marks the later steps
    superseded; they are kept, never deleted."""

    ruling = models.ForeignKey(Ruling, on_delete=models.CASCADE, related_name="steps")
    order = models.PositiveIntegerField()
    node_key = models.CharField(max_length=80)
    question = models.JSONField(default=dict)
    choice_key = models.CharField(max_length=80)
    answer = models.JSONField(default=dict)
    citations = models.JSONField(default=list)
    answered_at = models.DateTimeField()
    superseded = models.BooleanField(default=False)
    superseded_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["ruling", "answered_at", "pk"]
        indexes = [models.Index(fields=["ruling", "superseded", "order"])]
        # One answer counts per place on the path; changing it supersedes the old step first.
        constraints = [
            models.UniqueConstraint(
                fields=["ruling", "order"],
                condition=models.Q(superseded=False),
                name="step_order_once_per_ruling",
            )
        ]
        verbose_name = _("stap")
        verbose_name_plural = _("stappen")

    def __str__(self) -> str:
        return f"{self.order}. {self.node_key} → {self.choice_key}"

    @property
    def question_text(self) -> str:
        """The question in the active language, for display."""
        return pick_text(self.question)

    @property
    def answer_text(self) -> str:
        """The answer in the active language, for display."""
        return pick_text(self.answer)


class LegalBasis(models.Model):
    """One provision of a ruling's legal basis (rulings/legal_basis.py): the outcome's own
    citations and what the answers on its path established, ``position`` 0 the decisive one.
    Written by the one writer whenever the outcome changes; ``Ruling.cited_articles`` holds
    the same articles for the tally and the archive filter."""

    ruling = models.ForeignKey(Ruling, on_delete=models.CASCADE, related_name="legal_basis")
    edition = models.CharField(_("editie"), max_length=10)
    key = models.CharField(_("sleutel"), max_length=30)
    article = models.CharField(_("artikel"), max_length=10)
    position = models.PositiveSmallIntegerField(default=0)

    class Meta:
        ordering = ["ruling", "position"]
        constraints = [
            models.UniqueConstraint(fields=["ruling", "key"], name="legalbasis_unique_key")
        ]
        # Rulings per article (the statistics, the archive filter by article).
        indexes = [models.Index(fields=["article", "ruling"])]
        verbose_name = _("rechtsgrond")
        verbose_name_plural = _("rechtsgronden")

    def __str__(self) -> str:
        return f"{self.key} ({self.ruling_id})"


class RecordKind(models.TextChoices):
    PSYCHE = "psyche", _("psyche")
    DEVIATION = "deviation", _("afwijking")


class PairRecord(models.Model):
    """A psyche or a deviation from system recorded against a pair of the club (40C1: repeated
    deviations become an implicit agreement). Written with the ruling's final save by the one
    writer (``rulings.pairs``), which names the pair of the offending side; its date, board and
    outcome are the ruling's own."""

    club = models.ForeignKey(
        Club, on_delete=models.CASCADE, related_name="pair_records", db_index=False
    )
    ruling = models.OneToOneField(Ruling, on_delete=models.CASCADE, related_name="pair_record")
    pair = models.CharField(_("paar"), max_length=limits.PAIR_MAX)
    # The pair as compared: folded, names in alphabetical order ("De Vries - Jansen" and
    # "jansen/de vries" are one pair), so a later ruling finds it however it was typed.
    pair_key = models.CharField(max_length=limits.PAIR_MAX)
    side = models.CharField(_("lijn"), max_length=2, choices=Side.choices)
    kind = models.CharField(_("soort"), max_length=10, choices=RecordKind.choices)
    recorded_at = models.DateTimeField()

    class Meta:
        ordering = ["club", "pair_key", "-recorded_at"]
        indexes = [models.Index(fields=["club", "pair_key", "-recorded_at"])]
        constraints = [
            in_choices("pair_record", "side", Side.values),
            in_choices("pair_record", "kind", RecordKind.values),
        ]
        verbose_name = _("psyche of afwijking")
        verbose_name_plural = _("psycheregister")

    def __str__(self) -> str:
        return f"{self.pair} ({self.kind})"


class HandOver(models.Model):
    """One earlier tree of a ruling continued in another (rulings/hand_over.py), derived from
    ``Ruling.handed_over`` by its writers: the statistics count from these few rows."""

    ruling = models.ForeignKey(Ruling, on_delete=models.CASCADE, related_name="hand_overs")
    position = models.PositiveSmallIntegerField(default=0)
    tree_slug = models.CharField(_("beslisboom"), max_length=80)
    outcome_key = models.CharField(_("uitkomst"), max_length=80)

    class Meta:
        ordering = ["ruling", "position"]
        constraints = [
            models.UniqueConstraint(fields=["ruling", "position"], name="handover_once_per_place")
        ]
        verbose_name = _("doorverwijzing")
        verbose_name_plural = _("doorverwijzingen")

    def __str__(self) -> str:
        return f"{self.tree_slug}:{self.outcome_key} ({self.ruling_id})"


class AuditQuerySet(models.QuerySet):
    def update(self, **kwargs):
        raise PermissionError("audit events are append-only")

    def delete(self):
        raise PermissionError("audit events are append-only")


class AuditEvent(models.Model):
    """Append-only and hash-chained per ruling: ``hash`` is SHA-256 over a canonical JSON of
    the event together with ``prev_hash`` (see ``rulings/audit.py``)."""

    ruling = models.ForeignKey(Ruling, on_delete=models.PROTECT, related_name="audit_events")
    sequence = models.PositiveIntegerField()
    at = models.DateTimeField()
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True
    )
    actor_name = models.CharField(max_length=150, blank=True)
    action = models.CharField(max_length=40)
    data = models.JSONField(default=dict)
    prev_hash = models.CharField(max_length=64)
    hash = models.CharField(max_length=64)

    objects = AuditQuerySet.as_manager()

    class Meta:
        ordering = ["ruling", "sequence"]
        constraints = [
            models.UniqueConstraint(fields=["ruling", "sequence"], name="audit_unique_sequence")
        ]
        verbose_name = _("auditgebeurtenis")
        verbose_name_plural = _("auditlog")

    def __str__(self) -> str:
        return f"#{self.sequence} {self.action}"

    def save(self, *args: Any, **kwargs: Any) -> None:
        if self.pk is not None:
            raise PermissionError("audit events are append-only")
        super().save(*args, **kwargs)

    def delete(self, *args: Any, **kwargs: Any) -> NoReturn:
        raise PermissionError("audit events are append-only")


# --------------------------------------------------------------------------------------------
# The player poll's models live in rulings/poll_models.py; imported here, so Django registers
# them with this app and ``rulings.models.Poll`` keeps working.

from rulings.poll_models import POLL_QUESTION, PeerLevel, Poll, PollAnswer  # noqa: E402

__all__ = [
    "POLL_QUESTION",
    "AppealStatus",
    "AuditEvent",
    "AuditQuerySet",
    "Doubled",
    "HandOver",
    "LegalBasis",
    "Mode",
    "PairRecord",
    "PeerLevel",
    "Poll",
    "PollAnswer",
    "RecordKind",
    "Ruling",
    "Status",
    "Step",
    "Strain",
    "Verdict",
]
