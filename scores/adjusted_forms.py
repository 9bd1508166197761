"""The adjusted-score form: a fixed number of rows per side, so it works without JavaScript.

Blank rows are ignored. The offending side's rows may stay blank: it then gets the same rows
as the non-offending side (12C1(c) allows a different weighting for each side).
"""

from __future__ import annotations

import re
from decimal import Decimal
from fractions import Fraction
from typing import Any

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from lib.bridge import Seat, Side
from scores import adjusted
from scores.models import Artificial, Kind, Scoring

ROWS_PER_SIDE = 4
SIDES = ("non", "off")  # field prefixes: the non-offending and the offending side
DECLARER_CHOICES = [("", "–"), *Seat.choices]
_FIELD_SPLIT = re.compile(r"[\s,;]+")


def row_names(side: str, number: int) -> tuple[str, str, str]:
    return (f"{side}_contract_{number}", f"{side}_declarer_{number}", f"{side}_weight_{number}")


class AdjustedScoreForm(forms.Form):
    kind = forms.ChoiceField(
        label=gettext_lazy("Soort arbitrale score"),
        choices=Kind.choices,
        widget=forms.RadioSelect,
        initial=Kind.WEIGHTED,
    )
    scoring = forms.ChoiceField(
        label=gettext_lazy("Telling"),
        choices=Scoring.choices,
        widget=forms.RadioSelect,
        initial=Scoring.MATCHPOINTS,
    )
    offending_side = forms.ChoiceField(
        label=gettext_lazy("Overtredende partij"), choices=Side.choices, widget=forms.RadioSelect
    )
    non_artificial = forms.ChoiceField(
        label=gettext_lazy("Niet-overtredende partij"),
        choices=[("", "–"), *Artificial.choices],
        required=False,
    )
    off_artificial = forms.ChoiceField(
        label=gettext_lazy("Overtredende partij"),
        choices=[("", "–"), *Artificial.choices],
        required=False,
    )
    field = forms.CharField(
        label=gettext_lazy("Andere uitslagen van dit spel (NZ-scores)"),
        required=False,
        help_text=gettext_lazy(
            "Scores van Noord-Zuid aan de andere tafels, gescheiden door spaties of komma’s, "
            "bijvoorbeeld: 420 450 -50 170. Bij IMP's: de score aan de andere tafel."
        ),
    )
    # The audit sequence the form was shown at: a stale or repeated submission is refused.
    sequence = forms.IntegerField(widget=forms.HiddenInput)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for side in SIDES:
            for number in range(1, ROWS_PER_SIDE + 1):
                contract, declarer, weight = row_names(side, number)
                self.fields[contract] = forms.CharField(
                    label=gettext_lazy("Contract en resultaat"),
                    required=False,
                    max_length=20,
                    widget=forms.TextInput(attrs={"placeholder": "4SX-2", "size": 8}),
                )
                self.fields[declarer] = forms.ChoiceField(
                    label=gettext_lazy("Leider"), choices=DECLARER_CHOICES, required=False
                )
                self.fields[weight] = forms.DecimalField(
                    label=gettext_lazy("Gewicht (%)"),
                    required=False,
                    min_value=Decimal("0.01"),
                    max_value=Decimal(100),
                    decimal_places=2,
                    widget=forms.NumberInput(attrs={"step": "any", "size": 5}),
                )
        # Bootstrap's classes: an unstyled select sat on the same line as its label.
        for field in self.fields.values():
            widget = field.widget
            if isinstance(widget, forms.Select):
                widget.attrs.setdefault("class", "form-select")
            elif isinstance(widget, forms.TextInput | forms.NumberInput):
                widget.attrs.setdefault("class", "form-control")

    def row_fields(self, side: str) -> list[tuple[Any, Any, Any]]:
        """Bound fields per row, for the template."""
        return [
            tuple(self[name] for name in row_names(side, number))  # type: ignore[misc]
            for number in range(1, ROWS_PER_SIDE + 1)
        ]

    @property
    def side_sections(self) -> list[tuple[str, list[tuple[Any, Any, Any]], str]]:
        """(prefix, rows, legend) per side, for the template."""
        return [
            ("non", self.row_fields("non"), _("Niet-overtredende partij")),
            ("off", self.row_fields("off"), _("Overtredende partij (leeg: dezelfde weging)")),
        ]

    def clean_field(self) -> list[int]:
        text = self.cleaned_data["field"].strip()
        scores = []
        for part in filter(None, _FIELD_SPLIT.split(text)):
            try:
                value = int(part.replace("−", "-"))
            except ValueError:
                raise forms.ValidationError(
                    _("‘%(value)s’ is geen score; typ hele getallen, bijvoorbeeld 420 of -50.")
                    % {"value": part}
                ) from None
            if value % 10 or abs(value) > 7600:
                raise forms.ValidationError(
                    _("‘%(value)s’ kan geen bridgescore zijn.") % {"value": part}
                )
            scores.append(value)
        return scores

    def _rows(self, side: str, kind: str) -> list[adjusted.Row]:
        rows = []
        for number in range(1, ROWS_PER_SIDE + 1):
            contract_name, declarer_name, weight_name = row_names(side, number)
            contract = (self.cleaned_data.get(contract_name) or "").strip()
            declarer = self.cleaned_data.get(declarer_name) or ""
            weight = self.cleaned_data.get(weight_name)
            if not contract and not declarer and weight is None:
                continue  # a blank row is ignored
            problem = adjusted.contract_problem(contract) if contract else None
            if not contract:
                self.add_error(contract_name, _("Vul het contract met resultaat in (4S=)."))
            elif problem:
                self.add_error(contract_name, problem)
            if not declarer and contract.lower() not in ("pass", "pas"):
                self.add_error(declarer_name, _("Kies de leider."))
            if weight is None and kind == Kind.ASSIGNED:
                weight = Decimal(100)
            if weight is None and weight_name not in self.errors:
                self.add_error(weight_name, _("Geef het gewicht in procenten."))
            if contract and not problem and weight is not None:
                rows.append(adjusted.Row(contract, declarer or "N", Fraction(str(weight))))
        return rows

    def _check_weights(self, side: str, rows: list[adjusted.Row], kind: str) -> None:
        first = row_names(side, 1)[0]
        if kind == Kind.ASSIGNED and len(rows) > 1:
            self.add_error(first, _("Een toegekende score is één uitslag (12C1(b))."))
            return
        total = sum((row.weight for row in rows), Fraction(0))
        if rows and total != 100:
            self.add_error(
                first,
                _("De gewichten tellen op tot %(total)s %%; samen moeten ze 100 %% zijn.")
                % {"total": f"{float(total):g}"},
            )

    def clean(self) -> dict[str, Any]:
        super().clean()
        cleaned = self.cleaned_data
        kind = cleaned.get("kind")
        if kind == Kind.ARTIFICIAL:
            for side in SIDES:
                if not cleaned.get(f"{side}_artificial"):
                    self.add_error(
                        f"{side}_artificial", _("Kies gemiddeld plus, gemiddeld of min.")
                    )
            cleaned["non_rows"], cleaned["off_rows"] = [], []
            return cleaned
        if kind not in (Kind.ASSIGNED, Kind.WEIGHTED):
            return cleaned
        for side in SIDES:
            rows = self._rows(side, kind)
            self._check_weights(side, rows, kind)
            cleaned[f"{side}_rows"] = rows
        if not cleaned["non_rows"] and row_names("non", 1)[0] not in self.errors:
            self.add_error(
                row_names("non", 1)[0], _("Geef minstens één uitslag voor de niet-overtreders.")
            )
        if cleaned["off_rows"] == cleaned["non_rows"]:
            cleaned["off_rows"] = []  # the same rows: stored once
        return cleaned


def initial_from(score: Any) -> dict[str, Any]:
    """The form's initial values from a stored ``AdjustedScore`` (amending it)."""
    initial: dict[str, Any] = {
        "kind": score.kind,
        "scoring": score.scoring,
        "offending_side": score.offending_side,
        "non_artificial": score.non_offending_artificial,
        "off_artificial": score.offending_artificial,
        "field": " ".join(str(value) for value in score.field),
    }
    for side, stored in (("non", score.non_offending_rows), ("off", score.offending_rows)):
        for number, row in enumerate(adjusted.read_rows(stored), 1):
            if number > ROWS_PER_SIDE:
                break
            contract, declarer, weight = row_names(side, number)
            initial[contract] = row.notation
            initial[declarer] = row.declarer
            initial[weight] = Decimal(str(float(row.weight)))
    return initial
