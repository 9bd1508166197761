from typing import Any, cast

from django import forms
from django.conf import settings
from django.contrib.auth import password_validation
from django.contrib.auth.forms import AuthenticationForm, BaseUserCreationForm, PasswordResetForm
from django.core.validators import MaxLengthValidator
from django.utils.text import capfirst, slugify
from django.utils.translation import gettext_lazy as _

from clubs.models import Club, Role, User


class SetupForm(BaseUserCreationForm):
    """The first administrator and the first club, on a fresh install."""

    club_name = forms.CharField(label=_("Naam van de club"), max_length=200)

    class Meta:
        model = User
        fields = ["username", "first_name", "last_name", "email"]
        labels = {"username": _("Gebruikersnaam")}

    def clean_club_name(self) -> str:
        name = self.cleaned_data["club_name"].strip()
        if not slugify(name):
            raise forms.ValidationError(_("Geef de club een naam met letters of cijfers."))
        return name

    def create_club(self) -> Club:
        name = self.cleaned_data["club_name"]
        return Club.objects.create(name=name, slug=slugify(name)[:60])


class LanguageForm(forms.Form):
    language = forms.ChoiceField(choices=settings.LANGUAGES)  # as User.language
    next = forms.CharField(required=False)


__all__ = ["LanguageForm", "SetupForm", "password_validation"]


class LoginForm(AuthenticationForm):
    """Django's login form, refusing a user name longer than the column holds before it is
    checked: Django only sets the field's ``maxlength`` attribute, so a longer name reached
    ``authenticate``, and django-axes could not record the failed attempt on PostgreSQL
    (its column holds 255 characters) — a server error instead of "wrong name or password"."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        field = cast(forms.CharField, self.fields["username"])
        field.validators.append(MaxLengthValidator(field.max_length))


ROLE_CHOICES = [(role.value, capfirst(role.label)) for role in Role]


def role_field(**kwargs) -> forms.MultipleChoiceField:
    return forms.MultipleChoiceField(
        label=_("Rollen in de club"),
        choices=ROLE_CHOICES,
        widget=forms.CheckboxSelectMultiple,
        help_text=_("Een beheerder heeft ook alle andere rollen en beheert de leden."),
        error_messages={"required": _("Kies minstens één rol.")},
        **kwargs,
    )


class InviteForm(forms.ModelForm):
    """A new member: a user without a password, who sets one through a one-time link."""

    roles = role_field(initial=[Role.DIRECTOR])

    class Meta:
        model = User
        fields = ["username", "first_name", "last_name", "email"]
        labels = {"username": _("Gebruikersnaam"), "email": _("E-mailadres (niet verplicht)")}
        help_texts = {
            "username": _("Hiermee logt de nieuwe gebruiker in: letters, cijfers en @.+-_")
        }

    def __init__(self, *args: Any, club: Club | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.club = club

    def clean_username(self) -> str:
        username = self.cleaned_data["username"]
        taken = User.objects.filter(username__iexact=username)
        if self.club is not None and taken.filter(memberships__club=self.club).exists():
            raise forms.ValidationError(_("Deze gebruiker is al lid van uw club."), code="member")
        if taken.exists():
            # Names are unique across the installation, so a taken name cannot be given; the
            # message says no more than that (not that the name exists, nor in which club).
            raise forms.ValidationError(unavailable_name(), code="taken")
        return username


def unavailable_name() -> str:
    return str(
        _(
            "Deze gebruikersnaam is niet beschikbaar. Kies een andere, bijvoorbeeld met de naam "
            "van uw club erin."
        )
    )


class RolesForm(forms.Form):
    roles = role_field()

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["roles"].error_messages["required"] = _(
            "Kies minstens één rol. Wilt u iemand uit de club halen, gebruik dan "
            "'Uit de club verwijderen'."
        )


class ForgottenPasswordForm(PasswordResetForm):
    """Django's reset by e-mail, also for a user whose password an admin has reset or who never
    set one after an invitation (every account here is a local one)."""

    def get_users(self, email):
        field = User.get_email_field_name()
        return (
            user
            for user in User._default_manager.filter(**{f"{field}__iexact": email}, is_active=True)
            if getattr(user, field).casefold() == email.casefold()
        )


class ScoreSettingsForm(forms.ModelForm):
    """The club's percentages for an artificial adjusted score (Law 12C2)."""

    class Meta:
        model = Club
        fields = ["average_plus_percent", "average_percent", "average_minus_percent"]
        widgets = {
            name: forms.NumberInput(attrs={"min": 0, "max": 100, "class": "form-control"})
            for name in fields
        }

    def clean(self) -> dict[str, Any]:
        super().clean()
        cleaned = self.cleaned_data
        plus = cleaned.get("average_plus_percent")
        average = cleaned.get("average_percent")
        minus = cleaned.get("average_minus_percent")
        if (
            plus is not None
            and average is not None
            and minus is not None
            and not (plus >= average >= minus)
        ):
            raise forms.ValidationError(
                _("Gemiddeld plus is minstens gemiddeld, en gemiddeld minstens gemiddeld min.")
            )
        return cleaned


class PollSettingsForm(forms.ModelForm):
    """When a player poll suggests a logical alternative (16B1(b)): the club's thresholds."""

    class Meta:
        model = Club
        fields = ["poll_consider_percent", "poll_choose_minimum", "poll_minimum_answers"]
        widgets = {
            name: forms.NumberInput(attrs={"min": 1, "class": "form-control"}) for name in fields
        }
