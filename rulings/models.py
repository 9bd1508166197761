"""Clubs, users and roles; rulings with their steps and hash-chained audit events."""

import uuid

from django.conf import settings
from django.contrib.auth.models import AbstractUser
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _

from . import tally


class User(AbstractUser):
    language = models.CharField(
        _("taal"), max_length=5, choices=settings.LANGUAGES, default=settings.LANGUAGE_CODE
    )


class Club(models.Model):
    name = models.CharField(_("naam"), max_length=200)
    slug = models.SlugField(_("korte naam"), max_length=60, unique=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]
        verbose_name = _("club")
        verbose_name_plural = _("clubs")

    def __str__(self) -> str:
        return self.name


class Role(models.TextChoices):
    DIRECTOR = "director", _("wedstrijdleider")
    REVIEWER = "reviewer", _("beoordelaar")
    TRAINER = "trainer", _("trainer")
    ADMIN = "admin", _("beheerder")


class Membership(models.Model):
    """A user's role in a club. A user may hold several roles in one club (one row each);
    the admin role includes every other role."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships"
    )
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="memberships")
    role = models.CharField(_("rol"), max_length=20, choices=Role.choices)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "club", "role"], name="membership_unique")
        ]
        verbose_name = _("lidmaatschap")
        verbose_name_plural = _("lidmaatschappen")

    def __str__(self) -> str:
        return f"{self.user} – {self.club} ({self.get_role_display()})"


class Mode(models.TextChoices):
    LIVE = "live", _("echt")
    TRAINING = "training", _("oefening")


class Status(models.TextChoices):
    IN_PROGRESS = "in_progress", _("bezig")
    DEFERRED = "deferred", _("uitgesteld")
    FINAL = "final", _("definitief")


class Seat(models.TextChoices):
    NORTH = "N", _("Noord")
    EAST = "E", _("Oost")
    SOUTH = "S", _("Zuid")
    WEST = "W", _("West")


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


# Review choices (the Review section at the end of this module uses them too).
class Verdict(models.TextChoices):
    CONFIRMED = "confirmed", _("bevestigd")
    AMENDED = "amended", _("aangepast")
    OVERTURNED = "overturned", _("herroepen")


class AppealStatus(models.TextChoices):
    NONE = "", _("geen beroep")
    OPEN = "open", _("in beroep")
    SETTLED = "settled", _("beroep afgehandeld")


class TreeSnapshot(models.Model):
    """A decision tree frozen as a ruling saw it: nodes, choices, outcomes and the law text shown
    for every citation (official text where imported, otherwise our summary). Content-addressed:
    ``digest`` is the SHA-256 of the canonical JSON of ``data``, so a row never changes, many
    rulings share it, and a loaded tree can change later without touching a past ruling (see
    ``rulings/wizard.py``)."""

    digest = models.CharField(max_length=64, primary_key=True)
    slug = models.CharField(_("beslisboom"), max_length=80)
    version = models.CharField(_("versie beslisboom"), max_length=64)
    edition_code = models.CharField(_("editie"), max_length=10)
    data = models.JSONField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        indexes = [models.Index(fields=["slug", "version"])]
        verbose_name = _("momentopname beslisboom")
        verbose_name_plural = _("momentopnamen beslisbomen")

    def __str__(self) -> str:
        return f"{self.slug} {self.version[:12]}"


class Ruling(models.Model):
    """One ruling (*arbitrage*): the tree and version used, the path of steps, the outcome and
    the table context. Tree content is snapshotted into steps and outcome fields so that a
    later change to a tree file never changes a past ruling."""

    uuid = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    club = models.ForeignKey(Club, on_delete=models.PROTECT, related_name="rulings")
    director = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="rulings"
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

    played_on = models.DateField(_("speeldatum"), null=True, blank=True, db_index=True)
    event = models.CharField(_("wedstrijd of zitting"), max_length=200, blank=True)
    round = models.PositiveSmallIntegerField(_("ronde"), null=True, blank=True)
    table = models.PositiveSmallIntegerField(_("tafel"), null=True, blank=True)
    board = models.PositiveSmallIntegerField(
        _("spel"), null=True, blank=True, validators=[MinValueValidator(1), MaxValueValidator(128)]
    )
    offender_seat = models.CharField(
        _("plaats overtreder"), max_length=1, choices=Seat.choices, blank=True
    )
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
    notes = models.TextField(_("aantekeningen"), blank=True)

    # Training rulings (mode=training) point to the case practised and, when done in a
    # trainer's session, to that session (see the Training section below).
    training_case = models.ForeignKey(
        "TrainingCase",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="rulings",
        verbose_name=_("oefencasus"),
    )
    training_session = models.ForeignKey(
        "TrainingSession",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="rulings",
        verbose_name=_("oefensessie"),
    )

    created_at = models.DateTimeField(auto_now_add=True, db_index=True)
    updated_at = models.DateTimeField(auto_now=True)
    finalised_at = models.DateTimeField(null=True, blank=True)

    # Review and archive (see the Review section below). ``cited_articles`` holds the article
    # numbers cited by the current path and outcome as "|27|47|", filled by
    # ``rulings.citations.refresh_cited_articles`` when the ruling is saved.
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
        verbose_name = _("arbitrage")
        verbose_name_plural = _("arbitrages")

    def __str__(self) -> str:
        return f"{self.tree_title} ({self.uuid})"


class RulingTally(models.Model):
    """How many of a club's rulings share one combination of everything the statistics count
    by and the common filters select on: the statistics page sums these rows instead of
    grouping every ruling (make bench: 200,000 rulings).

    Database triggers keep it (``rulings/tally.py``): every insert, delete and
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
        verbose_name = _("stap")
        verbose_name_plural = _("stappen")

    def __str__(self) -> str:
        return f"{self.order}. {self.node_key} → {self.choice_key}"


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

    def save(self, *args, **kwargs):
        if self.pk is not None:
            raise PermissionError("audit events are append-only")
        super().save(*args, **kwargs)

    def delete(self, *args, **kwargs):
        raise PermissionError("audit events are append-only")


# --- Training ------------------------------------------------------------------------------
# Practice cases (*oefencasussen*), trainer sessions and the graded result of each practice
# ruling. Training rulings are ordinary Ruling rows with mode=training; everything live
# (archive, statistics, transfer) filters them out.


def _in_language(nl: str, en: str) -> str:
    return en if (get_language() or "").startswith("en") and en else nl


class Difficulty(models.IntegerChoices):
    BASIC = 1, _("basis")
    ADVANCED = 2, _("gevorderd")
    TRICKY = 3, _("lastig")


class CaseSource(models.TextChoices):
    SHIPPED = "shipped", _("meegeleverd")
    WEB = "web", _("eigen casus")


class TrainingCase(models.Model):
    """A situation at the table and the correct ruling in one decision tree.

    ``club`` is empty for the cases shipped in ``rulings/cases/*.yaml`` (visible to every club,
    only changed through the files); a trainer's own cases belong to their club. The expected
    path is a list of ``[node_key, choice_key]`` pairs; when given, a trainee must follow it to
    be right, otherwise reaching one of the expected outcomes is enough."""

    club = models.ForeignKey(
        Club, on_delete=models.CASCADE, null=True, blank=True, related_name="training_cases"
    )
    slug = models.SlugField(_("korte naam"), max_length=80)
    source = models.CharField(
        _("herkomst"), max_length=10, choices=CaseSource.choices, default=CaseSource.WEB
    )
    title_nl = models.CharField(_("titel (nl)"), max_length=200)
    title_en = models.CharField(_("titel (en)"), max_length=200, blank=True)
    situation_nl = models.TextField(_("situatie (nl)"))
    situation_en = models.TextField(_("situatie (en)"), blank=True)
    tree_slug = models.CharField(_("beslisboom"), max_length=80, db_index=True)
    expected_outcomes = models.JSONField(_("juiste uitkomst(en)"), default=list)
    expected_path = models.JSONField(_("modelpad"), default=list, blank=True)
    explanation_nl = models.TextField(_("uitleg (nl)"))
    explanation_en = models.TextField(_("uitleg (en)"), blank=True)
    cites = models.JSONField(_("wetsartikelen"), default=list, blank=True)
    difficulty = models.PositiveSmallIntegerField(
        _("moeilijkheid"), choices=Difficulty.choices, default=Difficulty.BASIC
    )
    tags = models.JSONField(_("labels"), default=list, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("gemaakt door"),
    )
    content_hash = models.CharField(max_length=64, blank=True, editable=False)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["tree_slug", "difficulty", "title_nl"]
        constraints = [
            models.UniqueConstraint(fields=["club", "slug"], name="trainingcase_unique_club_slug"),
            models.UniqueConstraint(
                fields=["slug"],
                condition=models.Q(club__isnull=True),
                name="trainingcase_unique_shipped_slug",
            ),
        ]
        verbose_name = _("oefencasus")
        verbose_name_plural = _("oefencasussen")

    def __str__(self) -> str:
        return self.title_nl

    @property
    def title(self) -> str:
        return _in_language(self.title_nl, self.title_en)

    @property
    def situation(self) -> str:
        return _in_language(self.situation_nl, self.situation_en)

    @property
    def explanation(self) -> str:
        return _in_language(self.explanation_nl, self.explanation_en)

    @property
    def is_shipped(self) -> bool:
        return self.club_id is None


class TrainingSession(models.Model):
    """A trainer's session (*oefensessie*): trainees join with the short code and get its
    cases; the trainer follows their results live."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="training_sessions")
    trainer = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    title = models.CharField(_("naam"), max_length=200)
    code = models.CharField(_("deelnamecode"), max_length=8, unique=True)
    cases = models.ManyToManyField(
        TrainingCase, related_name="sessions", verbose_name=_("casussen")
    )
    created_at = models.DateTimeField(auto_now_add=True)
    closed_at = models.DateTimeField(_("gesloten"), null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        verbose_name = _("oefensessie")
        verbose_name_plural = _("oefensessies")

    def __str__(self) -> str:
        return f"{self.title} ({self.code})"

    @property
    def is_open(self) -> bool:
        return self.closed_at is None


class SessionParticipant(models.Model):
    session = models.ForeignKey(
        TrainingSession, on_delete=models.CASCADE, related_name="participants"
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="training_sessions"
    )
    joined_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["joined_at", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["session", "user"], name="participant_unique")
        ]
        verbose_name = _("deelnemer")
        verbose_name_plural = _("deelnemers")

    def __str__(self) -> str:
        return f"{self.user} – {self.session}"


class TrainingResult(models.Model):
    """The grade of a practice ruling, fixed when its outcome is reached. The model path and
    expected outcomes are copied from the case then, so a later edit of the case never changes
    a past result."""

    ruling = models.OneToOneField(Ruling, on_delete=models.CASCADE, related_name="training_result")
    correct = models.BooleanField(_("goed"))
    outcome_key = models.CharField(_("uitkomst"), max_length=80)
    expected_outcomes = models.JSONField(default=list)
    trainee_path = models.JSONField(default=list)
    model_path = models.JSONField(default=list)
    divergence = models.PositiveSmallIntegerField(null=True, blank=True)
    graded_at = models.DateTimeField()

    class Meta:
        ordering = ["-graded_at"]
        verbose_name = _("oefenresultaat")
        verbose_name_plural = _("oefenresultaten")

    def __str__(self) -> str:
        return f"{self.ruling_id}: {'goed' if self.correct else 'fout'}"


# --- Review ----------------------------------------------------------------------------------
# The club's look back at a ruling: reviews (confirmed / amended / overturned) and appeals.
# Every action is an audit event on the ruling's chain, written in the same transaction as the
# change it records (``record_review``, ``set_appeal``; views in rulings/views_archive.py).


class ReviewAction:
    REVIEWED = "reviewed"
    APPEAL_OPENED = "appeal_opened"
    APPEAL_SETTLED = "appeal_settled"


class Review(models.Model):
    """A reviewer's verdict on a ruling. Reviews are never edited: a new review supersedes the
    verdict of an earlier one (``Ruling.review_verdict`` holds the latest)."""

    uuid = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    ruling = models.ForeignKey(Ruling, on_delete=models.CASCADE, related_name="reviews")
    reviewer = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="reviews"
    )
    verdict = models.CharField(_("oordeel"), max_length=12, choices=Verdict.choices)
    comment = models.TextField(_("toelichting"))
    corrected_ruling = models.TextField(_("gecorrigeerde uitspraak"), blank=True)
    corrected_citations = models.JSONField(_("gecorrigeerde wetsartikelen"), default=list)
    created_at = models.DateTimeField(_("datum"))

    class Meta:
        ordering = ["ruling", "created_at", "pk"]
        verbose_name = _("beoordeling")
        verbose_name_plural = _("beoordelingen")

    def __str__(self) -> str:
        return f"{self.get_verdict_display()} ({self.ruling_id})"


def record_review(
    ruling: Ruling,
    reviewer: User,
    verdict: str,
    comment: str,
    corrected_ruling: str = "",
    corrected_citations: list[str] | None = None,
) -> Review:
    """Add a review and make its verdict the ruling's current one, with its audit event."""
    from django.db import transaction
    from django.utils import timezone

    from . import audit

    at = timezone.now()
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
        audit.append(ruling, ReviewAction.REVIEWED, reviewer, data, at=at)
    return review


def set_appeal(ruling: Ruling, user: User, status: str, note: str) -> None:
    """Mark the ruling under appeal (``AppealStatus.OPEN``) or the appeal settled."""
    from django.db import transaction

    from . import audit

    action = {
        AppealStatus.OPEN: ReviewAction.APPEAL_OPENED,
        AppealStatus.SETTLED: ReviewAction.APPEAL_SETTLED,
    }[status]
    with transaction.atomic():
        Ruling.objects.filter(pk=ruling.pk).update(appeal_status=status)
        ruling.appeal_status = status
        audit.append(ruling, action, user, {"note": note})
