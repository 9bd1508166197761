"""Form fields that keep hostile ids away from the database."""

from datetime import date
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

# The range of a 64-bit primary key. SQLite raises OverflowError for a larger number instead
# of finding nothing, which would turn a forged form into a server error.
MAX_ID = 2**63 - 1


def _is_id(value: object) -> bool:
    text = str(value).strip()
    return text.isascii() and text.isdigit() and int(text) <= MAX_ID


def parse_id(value: object) -> int | None:
    """A primary key from a query string, or None for anything no row can have."""
    return int(str(value).strip()) if _is_id(value) else None


class IdConverter:
    """``<id:pk>`` in a URL: Django's ``int`` converter accepts any run of digits, and a
    number beyond the column's range must be a 404, not an OverflowError."""

    regex = "[0-9]{1,18}"

    def to_python(self, value: str) -> int:
        return int(value)

    def to_url(self, value: int) -> str:
        return str(value)


class IdRangeMixin(forms.Field):
    """Refuses a value that is no possible primary key before the choice field looks it up."""

    def clean(self, value: Any) -> Any:
        values = value if isinstance(value, list | tuple) else [value]
        if any(v not in self.empty_values and not _is_id(v) for v in values):
            raise forms.ValidationError(_("Kies een van de mogelijkheden."), code="invalid_choice")
        return super().clean(value)


class ModelChoiceField(IdRangeMixin, forms.ModelChoiceField):
    pass


class ModelMultipleChoiceField(IdRangeMixin, forms.ModelMultipleChoiceField):
    pass


# The days a club plays on, and the range every date a user types must fall in. A date form
# field takes any year from 1 to 9999; the day after 9999-12-31 overflows (a server error in
# the statistics) and the year 1 or 9999 is always a typo.
EARLIEST_DAY = date(1900, 1, 1)
LATEST_DAY = date(2099, 12, 31)


def day_in_range(day: date) -> bool:
    return EARLIEST_DAY <= day <= LATEST_DAY


def day_input(**attrs: str) -> forms.DateInput:
    return forms.DateInput(
        attrs={"type": "date", "min": EARLIEST_DAY.isoformat(), "max": LATEST_DAY.isoformat()}
        | attrs,
        format="%Y-%m-%d",
    )


class DayField(forms.DateField):
    """A date from 1900 to 2099 (a date of play, a filter's bound, 'saved since')."""

    default_error_messages = {"range": _("Geef een datum tussen 1900 en 2099.")}

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("widget", day_input())
        super().__init__(**kwargs)

    def validate(self, value: Any) -> None:
        super().validate(value)
        if isinstance(value, date) and not day_in_range(value):
            raise forms.ValidationError(self.error_messages["range"], code="range")
