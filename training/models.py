"""Practice cases (*oefencasussen*), trainer sessions and the graded result of each practice
ruling. Training rulings are ordinary Ruling rows with mode=training; everything live
(archive, statistics, transfer) filters them out."""

from django.conf import settings
from django.core.validators import MaxLengthValidator
from django.db import models
from django.utils.translation import gettext_lazy as _

from clubs.models import Club
from lib import limits
from lib.i18n import pick
from rulings.models import Ruling


def _in_language(nl: str, en: str) -> str:
    return pick(nl, en)


TEXT_LIMIT = [MaxLengthValidator(limits.TRAINING_TEXT_MAX)]


class Difficulty(models.IntegerChoices):
    BASIC = 1, _("basis")
    ADVANCED = 2, _("gevorderd")
    TRICKY = 3, _("lastig")


class CaseSource(models.TextChoices):
    SHIPPED = "shipped", _("meegeleverd")
    WEB = "web", _("eigen casus")


class TrainingCase(models.Model):
    """A situation at the table and the correct ruling in one decision tree.

    ``club`` is empty for the cases shipped in ``training/files/*.yaml`` (visible to every club,
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
    # Lengths (lib.limits): validators only, which the case form checks as a ModelForm.
    situation_nl = models.TextField(_("situatie (nl)"), validators=TEXT_LIMIT)
    situation_en = models.TextField(_("situatie (en)"), blank=True, validators=TEXT_LIMIT)
    tree_slug = models.CharField(_("beslisboom"), max_length=80, db_index=True)
    expected_outcomes = models.JSONField(_("juiste uitkomst(en)"), default=list)
    expected_path = models.JSONField(_("modelpad"), default=list, blank=True)
    explanation_nl = models.TextField(_("uitleg (nl)"), validators=TEXT_LIMIT)
    explanation_en = models.TextField(_("uitleg (en)"), blank=True, validators=TEXT_LIMIT)
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
    # The code is for the club's own members unless the trainer opens the session to guests
    # (members of other clubs): they practise under their own club (practice.practice_club).
    open_to_guests = models.BooleanField(
        _("ook voor gasten"),
        default=False,
        help_text=_("Leden van andere clubs mogen met de code meedoen."),
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
