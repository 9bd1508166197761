"""Forms of the wizard: they validate and convert; the transitions are in ``wizard.py``."""

from __future__ import annotations

import copy
import functools
import re
from dataclasses import dataclass, replace
from datetime import date
from typing import Any, cast

from crispy_forms.helper import FormHelper
from crispy_forms.layout import Column, Field, Layout, Row
from django import forms
from django.forms.models import fields_for_model
from django.http import QueryDict
from django.utils.translation import gettext_lazy as _

from lib.widgets import MemoNumberInput
from rulings.models import Ruling
from rulings.wizard import CONTEXT_FIELDS, REQUIRED_TO_SAVE

KEY_MAX = 80


# Every answer is read here, so not with a Django form: a form copies its fields for each
# instance, which cost a tenth of a whole bare request per answer (make bench). The rules are
# a form's: keys are slugs, numbers whole and not negative, surrounding spaces ignored.
_KEY = re.compile(rf"[-a-zA-Z0-9_]{{1,{KEY_MAX}}}")
_NUMBER = re.compile(r"[0-9]{1,9}")  # a step or revision; a longer one is no answer
_DIGEST = re.compile(r"[0-9a-f]{64}")
_CLUB = re.compile(r"[-a-zA-Z0-9_]{0,60}")
_ISO_DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")


@dataclass(frozen=True)
class Answer:
    """One answer as a step's form posts it: the node answered, its step number, the
    revision the page was rendered with, and the choice. The first answer of a ruling (on the
    draft page, before the ruling exists) also names the snapshot, the club and the day."""

    node: str
    step: int
    revision: int
    choice: str
    snapshot: str = ""
    club: str = ""
    played_on: date | None = None


def read_answer(data: QueryDict, first: bool = False) -> Answer | None:
    """The answer posted in ``data``, or None when a field is missing or malformed; with
    ``first``, the draft page's answer that creates the ruling."""
    node, step, revision, choice = (
        data.get(name, "").strip() for name in ("node", "step", "revision", "choice")
    )
    if not (
        _KEY.fullmatch(node)
        and _KEY.fullmatch(choice)
        and _NUMBER.fullmatch(step)
        and _NUMBER.fullmatch(revision)
        and int(step) >= 1
    ):
        return None
    answer = Answer(node, int(step), int(revision), choice)
    if not first:
        return answer
    snapshot, club, played_on = (
        data.get(name, "").strip() for name in ("snapshot", "club", "played_on")
    )
    if not _DIGEST.fullmatch(snapshot) or not _CLUB.fullmatch(club):
        return None
    day = None
    if played_on:
        # Written by the page as ISO (views._draft_defaults).
        if not _ISO_DATE.fullmatch(played_on):
            return None
        try:
            day = date.fromisoformat(played_on)
        except ValueError:
            return None
    return replace(answer, snapshot=snapshot, club=club, played_on=day)


class StartForm(forms.Form):
    """The filters of the start page: search text, edition (or 'follow the date'), date."""

    AUTO = ""

    q = forms.CharField(label=_("Zoek een onregelmatigheid"), required=False, max_length=100)
    editie = forms.ChoiceField(label=_("Editie"), required=False)
    datum = forms.DateField(
        label=_("Speeldatum"), required=False, widget=forms.DateInput(attrs={"type": "date"})
    )
    club = forms.ChoiceField(label=_("Club"), required=False)

    def __init__(self, *args: Any, editions: list[str], clubs: list[tuple[str, str]], **kwargs):
        super().__init__(*args, **kwargs)
        cast(forms.ChoiceField, self.fields["editie"]).choices = [
            (self.AUTO, _("Volgens de speeldatum")),
            *((code, code) for code in editions),
        ]
        cast(forms.ChoiceField, self.fields["club"]).choices = clubs
        if len(clubs) < 2:
            self.fields["club"].widget = forms.HiddenInput()


@functools.cache
def _context_field_prototypes() -> dict[str, forms.Field]:
    """The context fields, built once per process (``fields_for_model`` is slow enough to
    show in every wizard step); forms get deep copies (``_context_fields``)."""
    fields = fields_for_model(Ruling, fields=CONTEXT_FIELDS)
    fields["played_on"].widget = forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")
    # A plain form does not run the model's validators: give the ranges to the form fields.
    # Rounds and tables stop at 999: a larger number is a typo, and beyond 32,767 PostgreSQL's
    # smallint column would refuse it with a server error.
    for name, low, high in (
        ("round", 1, 999),
        ("table", 1, 999),
        ("board", 1, 128),
        ("contract_level", 1, 7),
    ):
        fields[name] = forms.IntegerField(
            label=fields[name].label,
            required=False,
            min_value=low,
            max_value=high,
            widget=MemoNumberInput,
        )
    fields["notes"].widget.attrs.update(rows=3)
    # The denomination includes no trump: "Kleur" alone made directors look for SA elsewhere.
    fields["contract_strain"].label = _("Kleur / SA")
    for name in ("offender_seat", "declarer_seat", "contract_strain"):
        fields[name].choices = [("", "–"), *fields[name].choices[1:]]
    return fields


def _context_fields() -> dict[str, forms.Field]:
    """Fresh copies of the context fields: a form may change a field (label, required)."""
    return copy.deepcopy(_context_field_prototypes())


def _table_fields() -> dict[str, forms.Field]:
    prototypes = _context_field_prototypes()
    return {name: copy.deepcopy(prototypes[name]) for name in TableForm.FIELDS}


class TableForm(forms.Form):
    """Round, table and board, given at any step: they tell the director's open rulings apart
    on the home page long before the board details are filled in at the outcome."""

    FIELDS = ("round", "table", "board")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields.update(_table_fields())
        for field in self.fields.values():
            field.widget.attrs.update(inputmode="numeric", style="max-width: 7rem")

    @classmethod
    def for_ruling(cls, ruling: Ruling) -> TableForm:
        return cls(initial={name: getattr(ruling, name) for name in cls.FIELDS})


class ContextForm(forms.Form):
    """The table context of a ruling. A plain form (not a ModelForm) so validating it does not
    change the ruling in memory before the wizard compares old and new values."""

    def __init__(self, *args: Any, for_save: bool = False, mode: str = "live", **kwargs):
        super().__init__(*args, **kwargs)
        self.fields.update(_context_fields())
        if mode == "live":
            for name in REQUIRED_TO_SAVE:
                # Marked before the director presses "Definitief opslaan", not only refused
                # then; required in the form only when saving ("Gegevens bewaren" keeps a
                # partial context).
                field = self.fields[name]
                field.label = _("%(label)s (verplicht)") % {"label": field.label}
                field.widget.attrs["aria-describedby"] = "context-required-note"
                field.required = for_save
        self.helper = FormHelper()
        self.helper.form_tag = False
        self.helper.disable_csrf = True  # the surrounding form has its token
        self.helper.layout = Layout(
            Row(Column("played_on", css_class="col-md-4"), Column("event", css_class="col-md-8")),
            Row(
                Column("round", css_class="col-4 col-md-2"),
                Column("table", css_class="col-4 col-md-2"),
                Column("board", css_class="col-4 col-md-2"),
                Column("offender_seat", css_class="col-6 col-md-3"),
                Column("declarer_seat", css_class="col-6 col-md-3"),
            ),
            # A third of a phone is narrower than "Contracthoogte": two columns there.
            Row(
                Column("contract_level", css_class="col-6 col-sm-4"),
                Column("contract_strain", css_class="col-6 col-sm-4"),
                Column("contract_doubled", css_class="col-6 col-sm-4"),
            ),
            Field("notes"),
        )

    @classmethod
    def for_ruling(cls, ruling: Ruling, **kwargs: Any) -> ContextForm:
        initial = {name: getattr(ruling, name) for name in CONTEXT_FIELDS}
        return cls(initial=initial, mode=ruling.mode, **kwargs)

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        level = data.get("contract_level")
        if (data.get("contract_strain") or data.get("contract_doubled")) and not level:
            self.add_error("contract_level", _("Geef de hoogte van het contract (1–7)."))
        if level and not data.get("contract_strain"):
            self.add_error("contract_strain", _("Geef de kleur van het contract."))
        return data
