"""Forms of the wizard: they validate and convert; the transitions are in ``wizard.py``."""

from __future__ import annotations

import copy
import functools
from datetime import date
from typing import Any, cast

from crispy_forms.helper import FormHelper
from crispy_forms.layout import Column, Field, Layout, Row
from django import forms
from django.core.validators import MinValueValidator
from django.forms.models import fields_for_model
from django.utils.translation import gettext_lazy as _

from lib import limits
from lib.auction import AuctionError, read_auction
from lib.bridge import Seat, board_dealer
from lib.fields import DayField, day_in_range
from lib.widgets import MemoNumberInput, MemoTextInput
from rulings import pairs
from rulings.models import Ruling
from rulings.wizard import CONTEXT_FIELDS, REQUIRED_TO_SAVE

KEY_MAX = 80
# A step or revision as the page writes it: ASCII digits, at most nine (a longer one is no
# answer; int() would also take other scripts' digits).
_COUNT = r"\A[0-9]{1,9}\Z"


class AnswerForm(forms.Form):
    """One answer as a step's form posts it: the node answered, its step number, the revision
    the page was rendered with, and the choice. Keys are slugs; surrounding spaces are
    ignored."""

    node = forms.SlugField(max_length=KEY_MAX)
    step = forms.RegexField(_COUNT, strip=True)
    revision = forms.RegexField(_COUNT, strip=True)
    choice = forms.SlugField(max_length=KEY_MAX)

    def clean_step(self) -> int:
        step = int(self.cleaned_data["step"])
        MinValueValidator(1)(step)
        return step

    def clean_revision(self) -> int:
        return int(self.cleaned_data["revision"])


class HandOverForm(forms.Form):
    """ "Verder met de beslisboom …" as an outcome page posts it: the outcome that hands over,
    the ruling's revision the page was rendered with, and the tree to go on in."""

    outcome = forms.SlugField(max_length=KEY_MAX)
    revision = forms.RegexField(_COUNT, strip=True)
    tree = forms.SlugField(max_length=KEY_MAX)

    def clean_revision(self) -> int:
        return int(self.cleaned_data["revision"])


class FirstAnswerForm(AnswerForm):
    """The first answer of a ruling, posted on the draft page before the ruling exists: it
    also names the snapshot, the club and the day of play (as ISO, ``views._draft_defaults``)."""

    snapshot = forms.RegexField(r"\A[0-9a-f]{64}\Z", strip=True)
    club = forms.SlugField(max_length=60, required=False)
    played_on = forms.RegexField(r"\A[0-9]{4}-[0-9]{2}-[0-9]{2}\Z", strip=True, required=False)

    def clean_played_on(self) -> date | None:
        written = self.cleaned_data["played_on"]
        if not written:
            return None
        try:
            day = date.fromisoformat(written)
        except ValueError:
            message = forms.DateField.default_error_messages["invalid"]
            raise forms.ValidationError(message, code="invalid") from None
        if not day_in_range(day):
            raise forms.ValidationError(DayField.default_error_messages["range"], code="range")
        return day


class StartForm(forms.Form):
    """The filters of the start page: search text, edition (or 'follow the date'), date."""

    AUTO = ""

    q = forms.CharField(label=_("Zoek een onregelmatigheid"), required=False, max_length=100)
    editie = forms.ChoiceField(label=_("Editie"), required=False)
    datum = DayField(label=_("Speeldatum"), required=False)
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
    # A date of play from 1900 to 2099: the year 1 or 9999 is a typo (issue 35).
    fields["played_on"] = DayField(label=fields["played_on"].label, required=False)
    # A plain form does not run the model's validators: give the ranges to the form fields.
    # Rounds and tables stop at 999: a larger number is a typo, and beyond 32,767 PostgreSQL's
    # smallint column would refuse it with a server error.
    for name, low, high in (
        ("round", 1, limits.ROUND_TABLE_MAX),
        ("table", 1, limits.ROUND_TABLE_MAX),
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
    # A TextField's validators do not reach a plain form: the length is given here
    # (lib.limits; the transfer bundle reader checks the model's validator).
    fields["notes"] = forms.CharField(
        label=fields["notes"].label,
        required=False,
        max_length=limits.NOTES_MAX,
        widget=forms.Textarea(attrs={"rows": 3}),
    )
    # The auction on one line (lib.auction); ContextForm.clean reads it with the dealer.
    fields["auction"] = forms.CharField(
        label=fields["auction"].label,
        required=False,
        max_length=limits.AUCTION_MAX,
        help_text=_(
            "Biedingen met spaties: 1h p 2sa x … ap (alle pas). Na een bieding: ! alert, "
            '? tempo, "uitleg gegeven", [afspraak volgens systeemkaart]. Gever volgt uit '
            "het spelnummer; een andere gever vooraan: ‘O: p 1h’."
        ),
        widget=forms.TextInput(
            attrs={
                "autocomplete": "off",
                "autocapitalize": "off",
                "spellcheck": "false",
                "class": "font-monospace",
                "data-auction-input": "",
            }
        ),
    )
    # A number or two names; the club's psyche register compares them (rulings.pairs).
    for name, label in (("pair_ns", _("Paar NZ")), ("pair_ew", _("Paar OW"))):
        fields[name].label = label
        fields[name].widget = MemoTextInput(
            attrs={
                **fields[name].widget.attrs,
                "placeholder": _("nummer of namen"),
                "autocomplete": "off",
                "maxlength": limits.PAIR_MAX,
            }
        )
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
    on the home page long before the board details are filled in at the outcome. The pairs
    too: a pair named early shows what the club recorded about it (rulings.pairs) while the
    director still asks his questions."""

    FIELDS = ("round", "table", "board", "pair_ns", "pair_ew")
    NUMBERS = ("round", "table", "board")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields.update(_table_fields())
        for name in self.NUMBERS:
            self.fields[name].widget.attrs.update(inputmode="numeric", style="max-width: 7rem")
        for name in ("pair_ns", "pair_ew"):
            self.fields[name].widget.attrs.update(style="max-width: 14rem")

    @classmethod
    def for_ruling(cls, ruling: Ruling) -> TableForm:
        return cls(initial={name: getattr(ruling, name) for name in cls.FIELDS})


class ContextForm(forms.Form):
    """The table context of a ruling. A plain form (not a ModelForm) so validating it does not
    change the ruling in memory before the wizard compares old and new values."""

    # ``record``: whether saving records the offending pair in the psyche register (ALWAYS:
    # the psyche tree; OFFERED: a box to tick; "": neither, e.g. a free ruling or a practice).
    ALWAYS = "always"
    OFFERED = "offered"

    def __init__(
        self,
        *args: Any,
        for_save: bool = False,
        mode: str = "live",
        record: str = "",
        **kwargs: Any,
    ):
        super().__init__(*args, **kwargs)
        self.fields.update(_context_fields())
        self.for_save = for_save
        self.record = record
        if record == self.OFFERED:
            self.fields["record_pair"] = forms.BooleanField(
                label=_("Vastleggen in het psycheregister (psyche of afwijking van dit paar)"),
                required=False,
                help_text=_(
                    "Het paar van de overtreder; een volgende arbitrage van dit paar toont het."
                ),
            )
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
            Row(
                Column("played_on", css_class="col-md-4"),
                # The club's imported events are offered (a datalist in wizard_step.html).
                Column(Field("event", list="club-events"), css_class="col-md-8"),
            ),
            Row(
                Column("round", css_class="col-4 col-md-2"),
                Column("table", css_class="col-4 col-md-2"),
                # The boards of the chosen event with a stored deal (a datalist too).
                Column(Field("board", list="event-boards"), css_class="col-4 col-md-2"),
                Column("offender_seat", css_class="col-6 col-md-3"),
                Column("declarer_seat", css_class="col-6 col-md-3"),
            ),
            Row(
                Column("pair_ns", css_class="col-6 col-md-4"),
                Column("pair_ew", css_class="col-6 col-md-4"),
            ),
            *([Field("record_pair")] if record == self.OFFERED else []),
            # A third of a phone is narrower than "Contracthoogte": two columns there.
            Row(
                Column("contract_level", css_class="col-6 col-sm-4"),
                Column("contract_strain", css_class="col-6 col-sm-4"),
                Column("contract_doubled", css_class="col-6 col-sm-4"),
            ),
            Field("auction"),
            Field("notes"),
        )

    @staticmethod
    def record_for(ruling: Ruling) -> str:
        if pairs.always_records(ruling):
            return ContextForm.ALWAYS
        return ContextForm.OFFERED if pairs.may_record(ruling) else ""

    @classmethod
    def posted(cls, data: Any, ruling: Ruling, for_save: bool = False) -> ContextForm:
        return cls(data, for_save=for_save, mode=ruling.mode, record=cls.record_for(ruling))

    @classmethod
    def for_ruling(
        cls, ruling: Ruling, remembered: dict[str, Any] | None = None, **kwargs: Any
    ) -> ContextForm:
        """The ruling's details; where it has none yet, the date, event and round the director
        saved last this session (``rulings.session_memory``)."""
        initial = {name: getattr(ruling, name) for name in CONTEXT_FIELDS}
        for name, value in (remembered or {}).items():
            if initial.get(name) in (None, ""):
                initial[name] = value
        kwargs.setdefault("record", cls.record_for(ruling))
        return cls(initial=initial, mode=ruling.mode, **kwargs)

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        level = data.get("contract_level")
        if (data.get("contract_strain") or data.get("contract_doubled")) and not level:
            self.add_error("contract_level", _("Geef de hoogte van het contract (1–7)."))
        if level and not data.get("contract_strain"):
            self.add_error("contract_strain", _("Geef de kleur van het contract."))
        self._clean_auction(data)
        wanted = self.record == self.ALWAYS or data.get("record_pair")
        if self.for_save and wanted:
            name = pairs.missing(data)
            if name is not None and name not in self.errors:
                self.add_error(
                    name,
                    _("Nodig voor het psycheregister: de plaats van de overtreder en zijn paar."),
                )
        return data

    def _clean_auction(self, data: dict[str, Any]) -> None:
        """The typed auction as stored (``N: 1H P``): the dealer typed in front, else the
        board number's; refused with the call named when it is not legal."""
        typed = data.get("auction")
        if typed is None or "auction" in self.errors:
            return
        board = data.get("board")
        try:
            auction = read_auction(typed, board_dealer(board) if board else None)
        except AuctionError as error:
            self.add_error("auction", str(error))
            return
        data["auction"] = auction.stored() if auction is not None else ""


class AuctionForm(forms.Form):
    """The auction on the record page (``rulings.auction_edit``): one line as typed, with the
    chain's length when the form was shown (a stale form changes nothing)."""

    auction = forms.CharField(required=False, max_length=limits.AUCTION_MAX)
    sequence = forms.IntegerField(widget=forms.HiddenInput, min_value=0)

    def __init__(self, *args: Any, dealer: Seat | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.dealer = dealer
        prototype = _context_field_prototypes()["auction"]
        field = self.fields["auction"]
        field.label, field.help_text = prototype.label, prototype.help_text
        field.widget = copy.deepcopy(prototype.widget)

    @classmethod
    def for_ruling(cls, ruling: Ruling, dealer: Seat | None = None) -> AuctionForm:
        initial = {"auction": ruling.auction, "sequence": ruling.audit_sequence}
        return cls(initial=initial, dealer=dealer)

    def clean_auction(self) -> str:
        try:
            auction = read_auction(self.cleaned_data["auction"], self.dealer)
        except AuctionError as error:
            raise forms.ValidationError(str(error), code="auction") from None
        return auction.stored() if auction is not None else ""
