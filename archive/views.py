"""The club's archive of rulings: the list and the statistics (the record page of one ruling,
its reviews and appeal are in ``archive.record``; the CSV export in ``archive.csv_export``).

Every page works as plain GET forms and POST → redirect; htmx only swaps the list or the
statistics in place (``#results``) and pushes the filter state into the URL. Every member of a
club sees its rulings and their reviews; reviewers (and admins) review and handle appeals; admins
transfer bundles. Other clubs' rulings answer 404.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import NamedTuple

from django.core.paginator import Paginator
from django.db.models import Case, TextField, Value, When
from django.db.models.fields.json import KT
from django.http import HttpRequest, HttpResponse
from django.utils import formats
from django.views.decorators.http import require_GET

from archive import filters, search, stats
from clubs.access import clubs, requested_club, roles_in
from lib import htmx
from lib.i18n import active_language
from lib.text import names_edition
from rulings.models import FREE_SLUG, Ruling, Status

PER_PAGE = 25

# --------------------------------------------------------------------------------------------
# Archive


LIST_FIELDS = (
    "uuid",
    "club_id",
    "mode",
    "status",
    "tree_slug",
    "tree_title",
    "edition_code",
    "outcome_key",
    "played_on",
    "table",
    "board",
    "created_at",
    "review_verdict",
    "appeal_status",
    "director__username",
    "director__first_name",
    "director__last_name",
)


def _page_rulings(ids: Iterable[int]) -> list[Ruling]:
    """The rulings of one page, in the page's order, with only what the list shows. Paging
    over ids first keeps the sort away from the large JSON columns; the outcome's title is read
    from the JSON of these few rows only."""
    ids = list(ids)
    rows = (
        Ruling.objects.filter(pk__in=ids)
        .select_related("director")
        .only(*LIST_FIELDS)
        .annotate(
            outcome_title=KT(f"outcome__title__{active_language()}"),
            outcome_title_nl=KT("outcome__title__nl"),
            # A free ruling's outcome is titled "Vrije arbitrage" like its tree column: the
            # list shows its decision instead (written in one language, kept as Dutch).
            free_decision=Case(
                When(tree_slug=FREE_SLUG, then=KT("outcome__ruling__nl")),
                default=Value(""),
                output_field=TextField(),
            ),
        )
    )
    by_pk = {ruling.pk: ruling for ruling in rows}
    return [by_pk[pk] for pk in ids if pk in by_pk]


class Row(NamedTuple):
    """A ruling in the list with its tree's title as shown: a ruling records the Dutch title,
    the loaded tree's is in the active language (and is shown while the tree exists)."""

    ruling: Ruling
    title: str
    edition: str  # the edition beside the title, "" when the title already names it


def _rows(rulings: list[Ruling], titles: dict[str, str]) -> list[Row]:
    rows = []
    for ruling in rulings:
        title = titles.get(ruling.tree_slug) or ruling.tree_title
        edition = "" if names_edition(title, ruling.edition_code) else ruling.edition_code
        rows.append(Row(ruling, title, edition))
    return rows


@require_GET
def archive(request: HttpRequest) -> HttpResponse:
    club = requested_club(request)
    filterset = filters.for_request(request, club)
    ids = filterset.qs.values_list("pk", flat=True)
    paginator = (
        search.CappedPaginator(ids, PER_PAGE, search.COUNT_CAP)
        if filters.searches_text(filterset)
        else Paginator(ids, PER_PAGE)
    )
    page = paginator.get_page(request.GET.get("page"))
    page.object_list = _page_rulings(page.object_list)
    context = {
        "club": club,
        "clubs": clubs(request),
        "club_roles": roles_in(request, club),
        "filter": filterset,
        "page": page,
        "rulings": page.object_list,
        "rows": _rows(page.object_list, filterset.tree_titles),
        "capped": getattr(paginator, "capped", False),
        "cap": formats.number_format(search.COUNT_CAP, force_grouping=True),
        "refused": filters.refused(filterset),
    }
    status = 400 if context["refused"] else None
    return htmx.render(request, "archive/archive.html", context, partial="results", status=status)


# --------------------------------------------------------------------------------------------
# Statistics


@require_GET
def statistics(request: HttpRequest) -> HttpResponse:
    club = requested_club(request)
    # Final rulings unless the status filter says otherwise ("Alle" includes open ones): a
    # committee counts decisions, not rulings still being made.
    filterset = filters.for_request(request, club, defaults={"status": Status.FINAL})
    tallies = filterset.tallies()
    counts = (
        stats.Counts.of(stats.groups(filterset.qs))
        if tallies is None
        else stats.Counts.of_tallies(tallies)
    )
    total, breakdowns = stats.summarise(counts, filterset.qs, filterset.tree_titles)
    cleaned = filterset.form.cleaned_data if filterset.form.is_valid() else {}
    summary = stats.summary(
        counts,
        next(b.rows for b in breakdowns if b.key == "irregularity"),
        stats.reviewed_and_appealed(filterset.qs, tallies),
        (cleaned.get("date_from"), cleaned.get("date_to")),
    )
    context = {
        "club": club,
        "clubs": clubs(request),
        "filter": filterset,
        "total": total,
        "with_adjusted_score": stats.with_adjusted_score(filterset.qs),
        "disagreement": stats.disagreement_per_tree(filterset.qs, tallies, filterset.tree_titles),
        "breakdowns": breakdowns,
        "summary": summary,
        "only_final": cleaned.get("status") == Status.FINAL,
        "query": filterset.data.urlencode(),
        "refused": filters.refused(filterset),
    }
    status = 400 if context["refused"] else None
    return htmx.render(
        request, "archive/statistics.html", context, partial="results", status=status
    )
