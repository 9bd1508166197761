from django import forms
from django.contrib.auth import password_validation
from django.contrib.auth.forms import AuthenticationForm, BaseUserCreationForm
from django.core.validators import MaxLengthValidator
from django.utils.text import slugify
from django.utils.translation import gettext_lazy as _

from clubs.models import Club, User


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
    language = forms.ChoiceField(choices=User._meta.get_field("language").choices)
    next = forms.CharField(required=False)


__all__ = ["LanguageForm", "SetupForm", "password_validation"]


class LoginForm(AuthenticationForm):
    """Django's login form, refusing a user name longer than the column holds before it is
    checked: Django only sets the field's ``maxlength`` attribute, so a longer name reached
    ``authenticate``, and django-axes could not record the failed attempt on PostgreSQL
    (its column holds 255 characters) — a server error instead of "wrong name or password"."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["username"]
        field.validators.append(MaxLengthValidator(field.max_length))
