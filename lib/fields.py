"""Form fields that keep hostile ids away from the database."""

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
