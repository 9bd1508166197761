"""Clubs, users and their roles: who may see and do what (see ``clubs/access.py``)."""

from django.conf import settings
from django.contrib.auth.models import AbstractUser
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.utils.translation import gettext_lazy as _


class User(AbstractUser):
    language = models.CharField(
        _("taal"), max_length=5, choices=settings.LANGUAGES, default=settings.LANGUAGE_CODE
    )


class Club(models.Model):
    name = models.CharField(_("naam"), max_length=200)
    slug = models.SlugField(_("korte naam"), max_length=60, unique=True)
    created_at = models.DateTimeField(auto_now_add=True)
    # Law 12C2: the percentages of an artificial adjusted score (average plus / average /
    # average minus). The Laws say "at least 60 %", "50 %", "at most 40 %"; some clubs and
    # regulations differ, so the club sets them. A recorded score keeps the values it used.
    average_plus_percent = models.PositiveSmallIntegerField(
        _("gemiddeld plus (%)"), default=60, validators=[MaxValueValidator(100)]
    )
    average_percent = models.PositiveSmallIntegerField(
        _("gemiddeld (%)"), default=50, validators=[MaxValueValidator(100)]
    )
    average_minus_percent = models.PositiveSmallIntegerField(
        _("gemiddeld min (%)"), default=40, validators=[MaxValueValidator(100)]
    )
    # Law 16B1(b): when a player poll suggests a logical alternative (rulings/poll_tally.py).
    # "A significant proportion would seriously consider it, some would choose it": how many
    # that is, the Laws leave to judgement, so the club sets it (README says why the defaults).
    poll_consider_percent = models.PositiveSmallIntegerField(
        _("serieus overwogen door minstens (%)"),
        default=25,
        validators=[MinValueValidator(1), MaxValueValidator(100)],
    )
    poll_choose_minimum = models.PositiveSmallIntegerField(
        _("gekozen door minstens (spelers)"),
        default=1,
        validators=[MinValueValidator(1), MaxValueValidator(50)],
    )
    poll_minimum_answers = models.PositiveSmallIntegerField(
        _("suggestie vanaf (antwoorden)"),
        default=4,
        validators=[MinValueValidator(1), MaxValueValidator(50)],
    )

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


class ResetRequest(models.Model):
    """One "Wachtwoord vergeten?" request, kept a day to throttle them (clubs/resets.py): the
    address as a hash (the request may name nobody's), and the client that asked."""

    email_hash = models.CharField(max_length=64, db_index=True)
    client = models.GenericIPAddressField(null=True, blank=True, db_index=True)
    at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        verbose_name = _("aanvraag wachtwoordlink")
        verbose_name_plural = _("aanvragen wachtwoordlink")

    def __str__(self) -> str:
        return f"{self.at:%Y-%m-%d %H:%M} {self.client or '?'}"


class FailedAttempt(models.Model):
    """A failed try at something guessable other than the login (django-axes counts those):
    a training session's join code. ``clubs/throttle.py`` locks a user out of it from that
    client after as many failures as the login allows."""

    kind = models.CharField(max_length=20)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    client = models.GenericIPAddressField(null=True, blank=True)
    at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        indexes = [models.Index(fields=["kind", "user", "at"], name="failed_attempt_recent")]
        verbose_name = _("mislukte poging")
        verbose_name_plural = _("mislukte pogingen")

    def __str__(self) -> str:
        return f"{self.kind} {self.at:%Y-%m-%d %H:%M}"
