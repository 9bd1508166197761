"""Practice cases (*oefencasussen*), trainer sessions and the graded result of each practice
ruling. Training rulings are ordinary Ruling rows with mode=training; everything live
(archive, statistics, transfer) filters them out."""

from django.conf import settings
from django.core.validators import MaxLengthValidator
from django.db import models
from django.utils.translation import gettext_lazy as _

from clubs.models import Club
from lib import limits
from lib.auction import Auction, AuctionError, load_auction
from lib.bridge import Seat, Vulnerability
from lib.i18n import pick
from rulings.models import POLL_QUESTION, Ruling


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
    # The auction at the table (lib.auction's stored text, "N: 1H P 2H? P 4H", a tempo remark
    # marked "?") and the hand of the player whose call a poll asks about: a trainer polls the
    # room with them (training/room_polls.py, issue 33). Nullable, so that adding them is an
    # ALTER TABLE on SQLite: a NOT NULL column rebuilds the table, which drops the length
    # triggers of migration 0003. None and "" both mean "none".
    auction = models.TextField(_("bieding"), null=True, blank=True)  # noqa: DJ001
    poll_hand = models.CharField(  # noqa: DJ001
        _("hand voor een peiling"), max_length=40, null=True, blank=True
    )
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

    @property
    def parsed_auction(self) -> Auction | None:
        """The case's auction read (as ``Ruling.parsed_auction``, for the same diagram)."""
        try:
            return load_auction(self.auction or "")
        except AuctionError:
            return None


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


class RoomPoll(models.Model):
    """A trainer's poll of the room in a session (issue 33): the hand, the auction up to the
    decision and the question, from a case's auction and poll hand; each participant answers
    once from his own device, the trainer sees the tally (rulings/poll_tally.py)."""

    session = models.ForeignKey(TrainingSession, on_delete=models.CASCADE, related_name="polls")
    case = models.ForeignKey(
        TrainingCase, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    dealer = models.CharField(_("gever"), max_length=1, choices=Seat.choices)
    vulnerability = models.CharField(
        _("kwetsbaarheid"), max_length=4, choices=Vulnerability.choices, blank=True
    )
    hand = models.CharField(_("hand"), max_length=40)
    auction = models.CharField(_("bieding tot de beslissing"), max_length=400, blank=True)
    question = models.CharField(_("vraag"), max_length=200, default=POLL_QUESTION)
    table_call = models.CharField(_("bieding aan tafel"), max_length=4, blank=True)
    opened_at = models.DateTimeField()
    closed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-opened_at", "-pk"]
        verbose_name = _("peiling in een sessie")
        verbose_name_plural = _("peilingen in sessies")

    def __str__(self) -> str:
        return f"{self.question} ({self.session_id})"

    @property
    def is_open(self) -> bool:
        return self.closed_at is None


class RoomPollAnswer(models.Model):
    poll = models.ForeignKey(RoomPoll, on_delete=models.CASCADE, related_name="answers")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    call = models.CharField(_("gekozen bieding"), max_length=4)
    considered = models.JSONField(_("serieus overwogen"), default=list, blank=True)
    answered_at = models.DateTimeField()

    class Meta:
        ordering = ["poll", "answered_at", "pk"]
        constraints = [models.UniqueConstraint(fields=["poll", "user"], name="roompollanswer_once")]
        verbose_name = _("antwoord in een sessiepeiling")
        verbose_name_plural = _("antwoorden in sessiepeilingen")

    def __str__(self) -> str:
        return f"{self.user_id}: {self.call}"
