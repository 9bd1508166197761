"""The parts of a ruling a transfer bundle carries, one small serialiser per kind.

A ruling travels with its children: steps, reviews, audit events and (from bundle version 2)
its adjusted score, a list of at most one item. Each kind is one
:class:`Child` in :data:`CHILDREN` (the bundle key, the model, how it is read back and checked);
the export, the import and the comparison of a known ruling loop over that dict, so a new kind
of child (an adjusted score, say) is added here, in one place. Values travel as JSON: times as
UTC ISO 8601 with microseconds (as the audit hash covers them), users as usernames.
"""

from __future__ import annotations

import uuid as uuid_lib
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, date, datetime
from decimal import Decimal
from typing import Any

from django.contrib.auth import get_user_model
from django.core.exceptions import ObjectDoesNotExist, ValidationError
from django.db import models
from django.db.backends.base.operations import BaseDatabaseOperations
from django.db.models import Prefetch, QuerySet
from django.utils import timezone
from django.utils.dateparse import parse_datetime

from archive.models import Review
from lib import limits
from lib.fields import EARLIEST_DAY, LATEST_DAY
from rulings import audit
from rulings.models import AuditEvent, Ruling, Step
from scores.models import AdjustedScore
from transfer import shapes

__all__ = [
    "CHILDREN",
    "CHILD_SKIP",
    "Child",
    "fields_of",
    "parse",
    "plain",
    "register",
    "serialise",
]

User = get_user_model()
CHILD_SKIP = {"id", "ruling"}


# --------------------------------------------------------------------------------------------
# Values


def plain(value: Any) -> Any:
    if isinstance(value, datetime):
        return audit.iso(value if timezone.is_aware(value) else value.replace(tzinfo=UTC))
    if isinstance(value, date):
        return value.isoformat()
    if isinstance(value, uuid_lib.UUID | Decimal):
        return str(value)
    return value


def fields_of(model: type[models.Model], skip: set[str]) -> list[models.Field]:
    return [f for f in model._meta.concrete_fields if f.name not in skip]


def _is_user(f: models.Field) -> bool:
    return f.is_relation and f.related_model is User


def serialise(obj: models.Model, fields: list[models.Field]) -> dict[str, Any]:
    data: dict[str, Any] = {}
    for f in fields:
        if _is_user(f):
            related = getattr(obj, f.name)
            data[f.name] = related.get_username() if related is not None else None
        elif f.is_relation:
            data[f.name] = getattr(obj, f.attname)
        else:
            data[f.name] = plain(f.value_from_object(obj))
    return data


def _json_type_fits(f: models.Field, value: Any) -> bool:
    """Whether ``value`` has the JSON type ``_serialise`` writes for ``f``."""
    if isinstance(f, models.JSONField):
        return True
    if isinstance(f, models.BooleanField):
        return isinstance(value, bool)
    if isinstance(f, models.IntegerField):
        return isinstance(value, int) and not isinstance(value, bool)
    return isinstance(value, str)  # text, dates, times, uuids and decimals travel as text


RANGE = f"{limits.EARLIEST_DATE.year} to a year from now"
DAYS = f"{EARLIEST_DAY.year} to {LATEST_DAY.year}"


def _checked(f: models.Field, value: Any) -> Any:
    """``value`` as ``f`` holds it, checked as a form or the model would: the type, the
    choices, the model's validators (ranges, lengths), and times and dates within
    :mod:`lib.limits` (a date in the year 9999 breaks every page that shows it in local
    time)."""
    if value is None:
        if not f.null:
            raise ValidationError("may not be empty")
        return None
    value = f.to_python(value)
    blank = f.blank and value in f.empty_values
    if f.choices and not blank and value not in {choice for choice, _label in f.flatchoices}:
        allowed = ", ".join(repr(choice) for choice, _label in f.flatchoices)
        raise ValidationError(f"{value!r} is not one of {allowed}")
    f.run_validators(value)
    if isinstance(f, models.IntegerField):
        # The columns' range on every database (SQLite takes any 64-bit number, PostgreSQL
        # an integer only to 2**31): a bundle fits on the laptop and on the server alike.
        low, high = BaseDatabaseOperations.integer_field_ranges[f.get_internal_type()]
        if not low <= value <= high:
            raise ValidationError(f"{value} lies outside {low}–{high}")
    if isinstance(value, str) and len(value) > limits.BUNDLE_TEXT_MAX:
        raise ValidationError(f"longer than {limits.BUNDLE_TEXT_MAX} characters")
    if isinstance(value, datetime):
        if timezone.is_naive(value):
            raise ValidationError("time without time zone")
        if not limits.time_in_range(value):
            raise ValidationError(f"{value.isoformat()} lies outside {RANGE}")
    elif isinstance(value, date) and not limits.date_in_range(value):
        raise ValidationError(f"{value.isoformat()} lies outside {DAYS}")
    return value


def parse(model: type[models.Model], fields: list[models.Field], raw: dict, where: str) -> dict:
    """Bundle values converted to Python values for ``fields`` (users stay usernames)."""
    unknown = set(raw) - {f.name for f in fields}
    if unknown:
        raise ValueError(f"{where}: unknown field(s) {', '.join(sorted(unknown))}")
    values: dict[str, Any] = {}
    for f in fields:
        if f.name not in raw:
            continue
        value = raw[f.name]
        if _is_user(f):
            if value is not None and not (isinstance(value, str) and value):
                raise ValueError(f"{where}: {f.name} must be a username")
            values[f.name] = value
            continue
        if value is not None and not f.is_relation and not _json_type_fits(f, value):
            # to_python() would turn it into the field's type (a list into the text "[]"),
            # so what is stored would differ from what the audit chain was verified with.
            raise ValueError(f"{where}: {f.name}: wrong type {type(value).__name__}")
        try:
            value = _checked(f, value)
        except ValidationError as error:
            raise ValueError(f"{where}: {f.name}: {' '.join(error.messages)}") from None
        except (TypeError, OverflowError):
            # A field's to_python() expects the JSON type it was exported as (a date string,
            # a number); anything else in a hand-made bundle is refused, not a crash.
            raise ValueError(f"{where}: {f.name}: wrong type {type(value).__name__}") from None
        values[f.attname if f.is_relation else f.name] = value
    return values


def as_list(value: Any, where: str) -> list[dict[str, Any]]:
    if not isinstance(value, list) or not all(isinstance(item, dict) for item in value):
        raise ValueError(f"{where} must be a list of objects")
    return value


def shape_message(problems: list[str]) -> str:
    """The first few places where a bundle's content has an unexpected shape."""
    more = f" (and {len(problems) - 3} more)" if len(problems) > 3 else ""
    return "unexpected content: " + "; ".join(problems[:3]) + more


# --------------------------------------------------------------------------------------------
# Children


@dataclass(frozen=True)
class Child:
    """One kind of child of a ruling in a bundle."""

    key: str  # the list in the bundle's ruling: "steps"
    label: str  # one item, in messages: "step"
    model: type[models.Model]
    related: str  # the related name on Ruling
    queryset: Callable[[], QuerySet]  # how the export reads them (order, related users)
    problems: Callable[[dict[str, Any], str], list[str]]  # shapes of its JSON fields
    user: str | None = None  # a user field, travelling as a username
    user_required: bool = False
    # Checks of the raw items before they are parsed (the audit chain is verified as sent).
    check_raw: Callable[[list[dict[str, Any]], dict[str, Any], str], None] | None = None
    # A one-to-one child (the adjusted score): at most one item, read as the relation itself.
    single: bool = False

    def fields(self) -> list[models.Field]:
        return fields_of(self.model, CHILD_SKIP)

    def prefetch(self) -> Prefetch:
        return Prefetch(self.related, queryset=self.queryset())

    def serialise(self, ruling: Ruling) -> list[dict[str, Any]]:
        fields = self.fields()
        return [serialise(item, fields) for item in self.items(ruling)]

    def items(self, ruling: Ruling) -> list[models.Model]:
        if not self.single:
            return list(getattr(ruling, self.related).all())
        try:
            return [getattr(ruling, self.related)]
        except ObjectDoesNotExist:
            return []

    def parse(self, raw: dict[str, Any], ruling: dict[str, Any], where: str) -> list[dict]:
        """The bundle's items of this kind for one ruling, parsed and checked."""
        items = as_list(raw.get(self.key, []), f"{where}: {self.key}")
        if self.single and len(items) > 1:
            raise ValueError(f"{where}: {self.key}: at most one {self.label}")
        if self.check_raw is not None:
            self.check_raw(items, ruling, where)
        fields = self.fields()
        parsed = [
            parse(self.model, fields, item, f"{where}, {self.label} {n}")
            for n, item in enumerate(items, 1)
        ]
        odd = [
            problem
            for n, item in enumerate(parsed, 1)
            for problem in self.problems(item, f"{where}, {self.label} {n}")
        ]
        if odd:
            raise ValueError(shape_message(odd))
        if self.user and self.user_required:
            for n, item in enumerate(parsed, 1):
                if not item.get(self.user):
                    raise ValueError(f"{where}, {self.label} {n}: {self.user} is missing")
        return parsed

    def usernames(self, items: list[dict[str, Any]]) -> set[str]:
        return {item[self.user] for item in items if item.get(self.user)} if self.user else set()

    def build(self, ruling: Ruling, values: dict[str, Any], users: Any) -> models.Model:
        if self.user:
            values = {**values, self.user: users[values.get(self.user)]}
        return self.model(ruling=ruling, **values)


CHILDREN: dict[str, Child] = {}


def register(child: Child) -> Child:
    CHILDREN[child.key] = child
    return child


def event_row(event: dict[str, Any]) -> tuple[Any, ...]:
    """A bundle event as the row ``rulings.audit.chain_problems`` checks: the time parsed
    (None when it is missing or no time with a zone), absent values as the hash saw them."""
    try:
        at = parse_datetime(event["at"])
        if at is not None and timezone.is_naive(at):
            at = None
    except (KeyError, TypeError, AttributeError, ValueError):
        at = None
    return (
        event.get("sequence"),
        at,
        event.get("actor_name", ""),
        event.get("action", ""),
        event.get("data", {}),
        event.get("prev_hash", ""),
        event.get("hash", ""),
    )


def _verify_chain(events: list[dict[str, Any]], ruling: dict[str, Any], where: str) -> None:
    """The audit chain as sent, with the ruling's head: ``rulings.audit.chain_problems``, the
    check ``verify_audit`` runs on the database."""
    if not events:
        raise ValueError(f"{where}: no audit events")
    head = (ruling.get("audit_sequence", 0), ruling.get("audit_head", ""))
    problems = audit.chain_problems(ruling["uuid"], map(event_row, events), head)
    if problems:
        raise ValueError(f"{where}: audit chain broken: " + "; ".join(problems))


register(
    Child(
        key="steps",
        label="step",
        model=Step,
        related="steps",
        queryset=lambda: Step.objects.order_by("answered_at", "pk"),
        problems=shapes.step_problems,
    )
)
register(
    Child(
        key="reviews",
        label="review",
        model=Review,
        related="reviews",
        queryset=lambda: Review.objects.select_related("reviewer"),
        problems=shapes.review_problems,
        user="reviewer",
        user_required=True,
    )
)
register(
    Child(
        key="audit",
        label="event",
        model=AuditEvent,
        related="audit_events",
        queryset=lambda: AuditEvent.objects.order_by("sequence").select_related("actor"),
        problems=shapes.event_problems,
        user="actor",
        check_raw=_verify_chain,
    )
)
register(
    Child(
        key="adjusted_score",
        label="adjusted score",
        model=AdjustedScore,
        related="adjusted_score",
        queryset=lambda: AdjustedScore.objects.select_related("recorded_by"),
        problems=shapes.adjusted_score_problems,
        user="recorded_by",
        user_required=True,
        single=True,
    )
)
