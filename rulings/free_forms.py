"""The form of a free ruling: laws, decision, announcement (the board details are the
wizard's :class:`~rulings.forms.ContextForm`, posted in the same form)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from laws import keys
from laws.index import message
from laws.models import Edition
from lib import limits
from rulings import free


class FreeForm(forms.Form):
    laws = forms.CharField(
        label=gettext_lazy("Wetsartikelen"),
        required=False,
        max_length=400,
        help_text=gettext_lazy("Gescheiden door komma’s, bijvoorbeeld: 68, 70D1"),
    )
    decision = forms.CharField(
        label=gettext_lazy("Beslissing"),
        required=False,
        max_length=limits.DECISION_MAX,
        widget=forms.Textarea(attrs={"rows": 4}),
        help_text=gettext_lazy("Wat de wedstrijdleider beslist, en waarom."),
    )
    announcement = forms.CharField(
        label=gettext_lazy("Wat aan tafel is gezegd"),
        required=False,
        max_length=limits.SAID_MAX,
        widget=forms.Textarea(attrs={"rows": 3}),
    )
    revision = forms.IntegerField(min_value=0, widget=forms.HiddenInput)

    def __init__(self, *args: Any, edition: Edition, for_save: bool = False, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.edition = edition
        self.for_save = for_save
        if for_save:
            self.fields["decision"].required = True

    def clean_laws(self) -> list[str]:
        try:
            found = list(dict.fromkeys(keys.canonical_list(self.cleaned_data["laws"])))
        except keys.InvalidKey as error:
            raise forms.ValidationError(
                _("‘%(value)s’ is geen wetsverwijzing (bijvoorbeeld 68 of 70D1).")
                % {"value": error.text.strip()}
            ) from None
        unknown = free.unknown_laws(self.edition, found)
        if unknown:
            raise forms.ValidationError([message(item) for item in unknown])
        if self.for_save and not found:
            raise forms.ValidationError(_("Kies minstens één wetsartikel."))
        return found

    def content(self) -> free.Content:
        data = self.cleaned_data
        return free.Content(
            laws=tuple(data["laws"]),
            decision=data["decision"].strip(),
            announcement=data["announcement"].strip(),
        )


def with_law(text: str, key: str) -> str:
    """The typed list of laws with ``key`` added at the end (once)."""
    parts = [part.strip() for part in text.split(",") if part.strip()]
    try:
        present = {keys.canonical(part) for part in parts if keys.try_parse(part)}
        added = keys.canonical(key)
    except keys.InvalidKey:
        return text
    if added not in present:
        parts.append(added)
    return ", ".join(parts)
