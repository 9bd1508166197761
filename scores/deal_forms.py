"""Forms for deals: a PBN file upload, and four typed hands for a ruling's board."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _
from django_stubs_ext import StrOrPromise

from lib.bridge import SEATS, Seat, Vulnerability
from scores.deal import Deal, DealError
from scores.deals import typed_deal
from scores.importing import event_name
from scores.models import Scoring
from scores.pbn import MAX_BYTES, PbnError, decode_pbn, parse_pbn


class PbnImportForm(forms.Form):
    """A PBN file and the event its boards belong to; the file is read in ``clean`` so that a
    bad file is refused in place, naming the line."""

    file = forms.FileField(
        label=_("PBN-bestand"),
        help_text=_("Zoals het dupliceerapparaat of het rekenprogramma het schrijft (.pbn)."),
    )
    event = forms.CharField(
        label=_("Wedstrijd of zitting"),
        max_length=200,
        required=False,
        help_text=_(
            "Zoals de wedstrijdleider hem bij een arbitrage invult. Leeg: de naam uit het "
            "bestand ([Event])."
        ),
    )

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        upload = data.get("file")
        if upload is None:
            return data
        if upload.size is not None and upload.size > MAX_BYTES:
            self.add_error("file", _("Dit bestand is te groot voor een PBN-bestand."))
            return data
        try:
            text = decode_pbn(upload.read())
            pbn = parse_pbn(text)
        except PbnError as error:
            self.add_error("file", str(error))
            return data
        event = event_name(data.get("event") or "") or event_name(pbn.event)[:200]
        if not event:
            self.add_error(
                "event", _("Het bestand noemt geen wedstrijd: vul de naam van de wedstrijd in.")
            )
            return data
        data["event"] = event
        data["text"] = text  # carried by the confirmation of a re-import
        data["pbn"] = pbn
        return data


_HAND_HELP = _(
    "Schoppen.harten.ruiten.klaveren, bijvoorbeeld AHV.B109.876.5432 (A H V B of A K Q J; "
    "leeg: renons)."
)


def _hand_field(label: StrOrPromise) -> forms.CharField:
    return forms.CharField(
        label=label,
        max_length=40,
        help_text=_HAND_HELP,
        widget=forms.TextInput(attrs={"autocomplete": "off", "spellcheck": "false"}),
    )


class EventScoringForm(forms.Form):
    """How an event was scored: what an adjusted score on its boards is compared with."""

    scoring = forms.ChoiceField(label=_("Telling"), choices=Scoring.choices)


class TypedDealForm(forms.Form):
    """The four hands of a ruling's board; dealer and vulnerability default to the board
    number's place in the standard cycle."""

    north = _hand_field(Seat.NORTH.label)
    east = _hand_field(Seat.EAST.label)
    south = _hand_field(Seat.SOUTH.label)
    west = _hand_field(Seat.WEST.label)
    dealer = forms.ChoiceField(label=_("Gever"), choices=Seat.choices)
    vulnerability = forms.ChoiceField(label=_("Kwetsbaarheid"), choices=Vulnerability.choices)

    def __init__(self, *args: Any, board: int, event: str = "", **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.board = board
        self.event = event

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        fields = ("north", "east", "south", "west")
        if any(name not in data for name in fields) or self.errors:
            return data
        hands = {seat: data[name] for seat, name in zip(SEATS, fields, strict=True)}
        try:
            data["deal"] = self._deal(data, hands)
        except DealError as error:
            raise forms.ValidationError(str(error)) from None
        return data

    def _deal(self, data: dict[str, Any], hands: dict[Seat, str]) -> Deal:
        return typed_deal(
            self.board,
            hands,
            event=self.event,
            dealer=Seat(data["dealer"]),
            vulnerability=Vulnerability(data["vulnerability"]),
        )
