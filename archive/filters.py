"""The archive's filters, shared by the list, the statistics and the CSV export.

Every filter is a GET parameter, so a filtered view is a URL that can be shared, bookmarked and
reached with the back button. Training rulings are left out unless ``mode`` asks for them.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import django_filters
from django import forms
from django.contrib.auth import get_user_model
from django.contrib.auth.base_user import AbstractBaseUser
from django.db.models import Exists, F, OuterRef, Q, QuerySet
from django.http import HttpRequest, QueryDict
from django.utils.translation import gettext_lazy as _

from archive import search
from archive.models import RulingTally
from archive.stats import tree_titles
from clubs.models import Club
from laws.models import Edition
from lib.fields import DayField, day_input
from rulings.models import AppealStatus, Mode, Ruling, Status, Verdict
from scores.models import AdjustedScore
from trees import citations

MODE_ALL = "all"
# Filters whose unreadable value falls back to the default rather than refusing the page.
FALLBACK = frozenset({"mode", "sort"})
UNREVIEWED = "none"
# A committee's views (issue 30): the reviewer disagreed (amended or overturned), any appeal
# (open or settled), with or without an adjusted score.
DISAGREED = "disagreed"
DISAGREEING = (Verdict.AMENDED, Verdict.OVERTURNED)
ANY_APPEAL = "any"
WITH_SCORE, WITHOUT_SCORE = "yes", "no"
DATE_INPUT = day_input()
# Text fields whose typing filters (after a pause, with htmx): archive_filters.html listens on them.
LIVE_FILTER = "live-filter"

# The archive's sort choices: query value → ordering. Empty values (no date, table or board
# yet) come last on every database.
SORTS = {
    "-created": (F("created_at").desc(), F("pk").desc()),
    "created": (F("created_at").asc(), F("pk").asc()),
    "-played": (F("played_on").desc(nulls_last=True), F("created_at").desc(), F("pk").desc()),
    "played": (F("played_on").asc(nulls_last=True), F("created_at").asc(), F("pk").asc()),
    "tree": (F("tree_title").asc(), F("created_at").desc(), F("pk").desc()),
    "director": (F("director__username").asc(), F("created_at").desc(), F("pk").desc()),
    "table": (
        F("table").asc(nulls_last=True),
        F("board").asc(nulls_last=True),
        F("created_at").desc(),
        F("pk").desc(),
    ),
    "board": (
        F("board").asc(nulls_last=True),
        F("table").asc(nulls_last=True),
        F("created_at").desc(),
        F("pk").desc(),
    ),
}
SORT_LABELS = {
    "-created": _("Nieuwste eerst"),
    "created": _("Oudste eerst"),
    "-played": _("Speeldatum, nieuwste eerst"),
    "played": _("Speeldatum, oudste eerst"),
    "tree": _("Onregelmatigheid"),
    "director": _("Wedstrijdleider"),
    "table": _("Tafel"),
    "board": _("Spel"),
}


# The filters RulingTally answers besides mode, verdict, article and whole months of play:
# filter name → tally column.
TALLY_COLUMNS = {
    "tree": "tree_slug",
    "edition": "edition_code",
    "status": "status",
    "director": "director",
}
TALLIED = {*TALLY_COLUMNS, "mode", "verdict", "appeal", "article", "date_from", "date_to"}


def _verdict_q(value: str) -> Q:
    """The rulings (or tally rows) with this filter value of the review verdict."""
    if value == DISAGREED:
        return Q(review_verdict__in=DISAGREEING)
    return Q(review_verdict="" if value == UNREVIEWED else value)


def _appeal_q(value: str) -> Q:
    return ~Q(appeal_status="") if value == ANY_APPEAL else Q(appeal_status=value)


def directors_of(club: Club) -> QuerySet:
    """Users with at least one ruling in ``club`` (also imported directors without a login)."""
    has_ruling = Ruling.objects.filter(club=club, director=OuterRef("pk"))
    return get_user_model().objects.filter(Exists(has_ruling)).order_by("username")


def director_name(user: AbstractBaseUser) -> str:
    """A director as people know them: the full name, else the username."""
    full = f"{getattr(user, 'first_name', '')} {getattr(user, 'last_name', '')}".strip()
    return full or user.get_username()


class DirectorChoiceField(forms.ModelChoiceField):
    def label_from_instance(self, obj: Any) -> str:
        return director_name(obj)


class DirectorFilter(django_filters.ModelChoiceFilter):
    field_class = DirectorChoiceField


def trees(titles: dict[str, str]) -> list[tuple[str, str]]:
    """(slug, title) of the loaded trees (``titles``: ``stats.tree_titles()``), by title."""
    return sorted(titles.items(), key=lambda item: item[1].lower())


def editions() -> list[tuple[str, str]]:
    return [(code, code) for code in Edition.objects.values_list("code", flat=True)]


class DayFilter(django_filters.DateFilter):
    """A date bound from 1900 to 2099: 9999-12-31 made the statistics overflow (issue 28)."""

    field_class = DayField


class RulingFilter(django_filters.FilterSet):
    date_from = DayFilter(
        field_name="played_on", lookup_expr="gte", label=_("Van"), widget=DATE_INPUT
    )
    date_to = DayFilter(
        field_name="played_on", lookup_expr="lte", label=_("Tot en met"), widget=DATE_INPUT
    )
    director = DirectorFilter(
        queryset=get_user_model().objects.none(),
        label=_("Wedstrijdleider"),
        empty_label=_("Alle"),
    )
    tree = django_filters.ChoiceFilter(
        field_name="tree_slug", label=_("Onregelmatigheid"), empty_label=_("Alle")
    )
    edition = django_filters.ChoiceFilter(
        field_name="edition_code", label=_("Editie"), empty_label=_("Alle")
    )
    article = django_filters.CharFilter(
        method="filter_article",
        max_length=40,
        label=_("Wetsartikel"),
        widget=forms.TextInput(
            attrs={"inputmode": "numeric", "placeholder": "27", "class": LIVE_FILTER}
        ),
    )
    status = django_filters.ChoiceFilter(
        choices=Status.choices, label=_("Status"), empty_label=_("Alle")
    )
    mode = django_filters.ChoiceFilter(
        method="filter_mode",
        choices=[*Mode.choices, (MODE_ALL, _("alle"))],
        label=_("Modus"),
        empty_label=None,
    )
    table = django_filters.NumberFilter(
        label=_("Tafel"),
        min_value=0,
        max_value=999,
        widget=forms.NumberInput(attrs={"class": LIVE_FILTER}),
    )
    board = django_filters.NumberFilter(
        label=_("Spel"),
        min_value=1,
        max_value=128,
        widget=forms.NumberInput(attrs={"class": LIVE_FILTER}),
    )
    verdict = django_filters.ChoiceFilter(
        method="filter_verdict",
        choices=[
            (UNREVIEWED, _("nog niet beoordeeld")),
            *Verdict.choices,
            (DISAGREED, _("oneens met de wedstrijdleider (aangepast of herroepen)")),
        ],
        label=_("Oordeel"),
        empty_label=_("Alle"),
    )
    appeal = django_filters.ChoiceFilter(
        method="filter_appeal",
        choices=[
            (ANY_APPEAL, _("in beroep gegaan (open of afgehandeld)")),
            *(c for c in AppealStatus.choices if c[0]),
        ],
        label=_("Beroep"),
        empty_label=_("Alle"),
    )
    adjusted = django_filters.ChoiceFilter(
        method="filter_adjusted",
        choices=[(WITH_SCORE, _("met arbitrale score")), (WITHOUT_SCORE, _("zonder"))],
        label=_("Arbitrale score"),
        empty_label=_("Alle"),
    )
    q = django_filters.CharFilter(
        method="filter_text",
        max_length=200,
        label=_("Zoeken in aantekeningen en uitspraak"),
        help_text=_("‘tafel 7’, ‘spel 12’ of ‘ronde 3’ zoekt die tafel, dat spel of die ronde."),
        widget=forms.TextInput(attrs={"type": "search", "class": LIVE_FILTER}),
    )
    sort = django_filters.ChoiceFilter(
        method="filter_sort",
        choices=list(SORT_LABELS.items()),
        label=_("Sorteren"),
        empty_label=None,
    )

    class Meta:
        model = Ruling
        fields: list[str] = []

    def __init__(
        self,
        data: QueryDict | None = None,
        *args,
        club: Club,
        defaults: dict[str, str] | None = None,
        **kwargs,
    ) -> None:
        data = data.copy() if data is not None else QueryDict(mutable=True)
        data.setdefault("mode", Mode.LIVE)
        data.setdefault("sort", "-created")
        for name, value in (defaults or {}).items():
            data.setdefault(name, value)
        super().__init__(data, *args, **kwargs)
        self.club = club
        self.filters["director"].queryset = directors_of(club)
        # Read once per request: the statistics name the trees with them too.
        self.tree_titles = tree_titles()
        self.filters["tree"].extra["choices"] = trees(self.tree_titles)
        self.filters["edition"].extra["choices"] = editions()

    def tallies(self) -> QuerySet[RulingTally] | None:
        """The ``RulingTally`` rows counting the filtered rulings, or None when a filter needs
        the rulings themselves (table, board, free text, a date within a month, bad input)."""
        if not self.form.is_valid():
            return None
        cleaned = self.form.cleaned_data
        used = {name for name, value in cleaned.items() if value not in (None, "")}
        if used - TALLIED - {"sort"}:
            return None
        tallies = RulingTally.objects.filter(club=self.club)
        if cleaned.get("date_from"):
            if cleaned["date_from"].day != 1:
                return None
            tallies = tallies.filter(month__gte=f"{cleaned['date_from']:%Y-%m}")
        if cleaned.get("date_to"):
            if (cleaned["date_to"] + timedelta(days=1)).day != 1:
                return None
            tallies = tallies.exclude(month="").filter(month__lte=f"{cleaned['date_to']:%Y-%m}")
        for name, column in TALLY_COLUMNS.items():
            if cleaned.get(name):
                tallies = tallies.filter(**{column: cleaned[name]})
        if cleaned.get("mode") != MODE_ALL:
            tallies = tallies.filter(mode=cleaned.get("mode") or Mode.LIVE)
        if not cleaned.get("status"):
            tallies = tallies.exclude(status=Status.DISCARDED)
        if cleaned.get("verdict"):
            tallies = tallies.filter(_verdict_q(cleaned["verdict"]))
        if cleaned.get("appeal"):
            tallies = tallies.filter(_appeal_q(cleaned["appeal"]))
        if cleaned.get("article"):
            tallies = tallies.filter(cited_articles__contains=citations.lookup(cleaned["article"]))
        return tallies

    def filter_queryset(self, queryset: QuerySet) -> QuerySet:
        # A filter that cannot be read (a date in the year 9999, a table number no club has)
        # selects nothing: the page says what is wrong (``refused``), and a CSV download never
        # holds more than was asked for.
        if refused(self):
            return queryset.none()
        cleaned = self.form.cleaned_data
        if cleaned.get("mode") is None:
            queryset = queryset.filter(mode=Mode.LIVE)
        if not cleaned.get("status"):
            # Discarded rulings are kept, but shown only when asked for by their status.
            queryset = queryset.exclude(status=Status.DISCARDED)
        if cleaned.get("sort") is None:
            queryset = queryset.order_by(*SORTS["-created"])
        return super().filter_queryset(queryset)

    def filter_article(self, queryset: QuerySet, name: str, value: str) -> QuerySet:
        return queryset.filter(cited_articles__contains=citations.lookup(value))

    def filter_mode(self, queryset: QuerySet, name: str, value: str) -> QuerySet:
        return queryset if value == MODE_ALL else queryset.filter(mode=value)

    def filter_verdict(self, queryset: QuerySet, name: str, value: str) -> QuerySet:
        return queryset.filter(_verdict_q(value))

    def filter_appeal(self, queryset: QuerySet, name: str, value: str) -> QuerySet:
        return queryset.filter(_appeal_q(value))

    def filter_adjusted(self, queryset: QuerySet, name: str, value: str) -> QuerySet:
        scored = Exists(AdjustedScore.objects.filter(ruling=OuterRef("pk")))
        return queryset.filter(scored if value == WITH_SCORE else ~scored)

    def filter_text(self, queryset: QuerySet, name: str, value: str) -> QuerySet:
        return search.matching(queryset, value)

    def filter_sort(self, queryset: QuerySet, name: str, value: str) -> QuerySet:
        return queryset.order_by(*SORTS[value])


def for_request(
    request: HttpRequest, club: Club, defaults: dict[str, str] | None = None
) -> RulingFilter:
    """The club's rulings as the request's GET parameters filter them; ``defaults`` for the
    parameters the request does not have (an empty one, "Alle", counts as given)."""
    return RulingFilter(
        request.GET, queryset=Ruling.objects.filter(club=club), club=club, defaults=defaults
    )


def refused(filterset: RulingFilter) -> list[str]:
    """What is wrong with the filters, one message per field, in the user's language."""
    form = filterset.form
    return [  # An unknown mode or sort (an old link) falls back to the default instead.
        f"{form.fields[name].label}: {' '.join(str(m) for m in messages)}"
        if name in form.fields
        else " ".join(str(m) for m in messages)
        for name, messages in form.errors.items()
        if name not in FALLBACK
    ]


def searches_text(filterset: RulingFilter) -> bool:
    """Whether the filters include free text with at least one word to search for."""
    return filterset.form.is_valid() and bool(
        search.words(search.parse(filterset.form.cleaned_data.get("q") or "").text)
    )
