"""The forms of the record page: a review (checked against the ruling's edition) and the appeal
status."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from archive import review_laws
from laws import keys
from laws.index import message
from lib import limits
from rulings.models import AppealStatus, Verdict


class ReviewForm(forms.Form):
    verdict = forms.ChoiceField(
        label=gettext_lazy("Oordeel"), choices=Verdict.choices, widget=forms.RadioSelect
    )
    # Lengths from lib.limits: every review is copied into the ruling's audit trail for good.
    comment = forms.CharField(
        label=gettext_lazy("Toelichting"),
        max_length=limits.DECISION_MAX,
        widget=forms.Textarea(attrs={"rows": 3}),
    )
    corrected_ruling = forms.CharField(
        label=gettext_lazy("Gecorrigeerde uitspraak"),
        required=False,
        max_length=limits.DECISION_MAX,
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text=gettext_lazy("Verplicht bij ‘aangepast’ en ‘herroepen’."),
    )
    corrected_citations = forms.CharField(
        label=gettext_lazy("Wetsartikelen van de gecorrigeerde uitspraak"),
        required=False,
        max_length=400,
        help_text=gettext_lazy("Gescheiden door komma’s, bijvoorbeeld: 27B1(a), 23A"),
    )

    def __init__(self, *args: Any, edition: str, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.edition = edition
        self.checked_laws: list[review_laws.CheckedLaw] = []

    def clean_corrected_citations(self) -> list[str]:
        try:
            self.checked_laws = review_laws.check(
                self.edition, self.cleaned_data["corrected_citations"]
            )
        except keys.InvalidKey as error:
            raise forms.ValidationError(
                _("‘%(value)s’ is geen wetsverwijzing (bijvoorbeeld 27B1(a)).")
                % {"value": error.text.strip()}
            ) from None
        except review_laws.UnknownLaw as error:
            raise forms.ValidationError(message(error.unknown)) from None
        return [law.key for law in self.checked_laws]

    def clean(self) -> dict[str, Any]:
        super().clean()
        cleaned = self.cleaned_data
        correcting = cleaned.get("verdict") in (Verdict.AMENDED, Verdict.OVERTURNED)
        if correcting and not cleaned.get("corrected_ruling", "").strip():
            self.add_error(
                "corrected_ruling",
                _("Geef de gecorrigeerde uitspraak bij een aangepaste of herroepen arbitrage."),
            )
        if (
            correcting
            and not cleaned.get("corrected_citations")
            and "corrected_citations" in cleaned
        ):
            self.add_error(
                "corrected_citations",
                _("Noem de wetsartikelen van de gecorrigeerde uitspraak."),
            )
        return cleaned


class AppealForm(forms.Form):
    status = forms.ChoiceField(
        choices=[
            (AppealStatus.OPEN, AppealStatus.OPEN),
            (AppealStatus.SETTLED, AppealStatus.SETTLED),
        ],
        widget=forms.HiddenInput,
    )
    note = forms.CharField(
        label=gettext_lazy("Toelichting"),
        max_length=limits.APPEAL_NOTE_MAX,
        widget=forms.Textarea(attrs={"rows": 2}),
    )
