"""The club's archive of rulings: list, detail, review and statistics (the CSV export is in
``archive.csv_export``).

Every page works as plain GET forms and POST → redirect; htmx only swaps the list or the
statistics in place (``#results``) and pushes the filter state into the URL. Every member of a
club sees its rulings and their reviews; reviewers (and admins) review and handle appeals; admins
transfer bundles. Other clubs' rulings answer 404.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, NamedTuple
from uuid import UUID

from django import forms
from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.core.paginator import Paginator
from django.db.models.fields.json import KT
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import formats
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET, require_POST

from archive import filters, search, stats
from archive.reviews import record_review, set_appeal
from clubs.access import AuthenticatedHttpRequest, clubs, get_for_user, requested_club, roles_in
from clubs.models import Role
from laws import keys
from lib import htmx
from lib.i18n import active_language
from lib.text import names_edition, unique_citations
from rulings import audit, audit_text
from rulings.models import AppealStatus, Ruling, Status, Verdict
from trees import citations, snapshot
from trees.models import Tree, TreeSnapshot

PER_PAGE = 25
REVIEW_ROLES = (Role.REVIEWER, Role.ADMIN)

# --------------------------------------------------------------------------------------------
# Forms


class ReviewForm(forms.Form):
    verdict = forms.ChoiceField(
        label=gettext_lazy("Oordeel"), choices=Verdict.choices, widget=forms.RadioSelect
    )
    comment = forms.CharField(
        label=gettext_lazy("Toelichting"), widget=forms.Textarea(attrs={"rows": 3})
    )
    corrected_ruling = forms.CharField(
        label=gettext_lazy("Gecorrigeerde uitspraak"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text=gettext_lazy("Verplicht bij ‘aangepast’ en ‘herroepen’."),
    )
    corrected_citations = forms.CharField(
        label=gettext_lazy("Wetsartikelen van de gecorrigeerde uitspraak"),
        required=False,
        help_text=gettext_lazy("Gescheiden door komma’s, bijvoorbeeld: 27B1(a), 23A"),
    )

    def clean_corrected_citations(self) -> list[str]:
        try:
            return keys.canonical_list(self.cleaned_data["corrected_citations"])
        except keys.InvalidKey as error:
            raise forms.ValidationError(
                _("‘%(value)s’ is geen wetsverwijzing (bijvoorbeeld 27B1(a)).")
                % {"value": error.text.strip()}
            ) from None

    def clean(self) -> dict[str, Any]:
        super().clean()
        cleaned = self.cleaned_data
        correcting = cleaned.get("verdict") in (Verdict.AMENDED, Verdict.OVERTURNED)
        if correcting and not cleaned.get("corrected_ruling", "").strip():
            self.add_error(
                "corrected_ruling",
                _("Geef de gecorrigeerde uitspraak bij een aangepaste of herroepen arbitrage."),
            )
        if (
            correcting
            and not cleaned.get("corrected_citations")
            and "corrected_citations" in cleaned
        ):
            self.add_error(
                "corrected_citations",
                _("Noem de wetsartikelen van de gecorrigeerde uitspraak."),
            )
        return cleaned


class AppealForm(forms.Form):
    status = forms.ChoiceField(
        choices=[
            (AppealStatus.OPEN, AppealStatus.OPEN),
            (AppealStatus.SETTLED, AppealStatus.SETTLED),
        ],
        widget=forms.HiddenInput,
    )
    note = forms.CharField(
        label=gettext_lazy("Toelichting"), widget=forms.Textarea(attrs={"rows": 2})
    )


# --------------------------------------------------------------------------------------------
# Helpers


def _get_ruling_for_user(
    request: HttpRequest, uuid: UUID, roles: Iterable[str] | None = None
) -> Ruling:
    return get_for_user(
        request, Ruling.objects.select_related("director", "club"), roles=roles, uuid=uuid
    )


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
    }
    return htmx.render(request, "rulings/archive.html", context, partial="results")


# --------------------------------------------------------------------------------------------
# Detail, review and appeal


def _outcome_citations(ruling: Ruling, outcome: dict[str, Any]) -> list[dict[str, Any]]:
    """The outcome's citations as shown: from its own copy, else from the tree snapshot."""
    if "citations" in outcome or not (ruling.snapshot_id and ruling.outcome_key):
        return outcome.get("citations", [])
    try:
        tree = snapshot.get(ruling.snapshot_id)
    except TreeSnapshot.DoesNotExist:
        return []
    if not tree.has_node(ruling.outcome_key):
        return []
    return [law.to_json() for law in tree.citations(ruling.outcome_key)]


def _cited_law(steps: list, outcome_citations: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The law text cited by the current path and the outcome, each text once, as the
    ruling's snapshots recorded it (in the ruling's edition, whatever changed since)."""
    shown = [step.citations for step in steps if not step.superseded]
    shown.append(outcome_citations)
    cited = [item for group in shown if isinstance(group, list) for item in group]
    return [
        {**entry, "shown_text": snapshot.pick(entry.get("text"))}
        for entry in unique_citations(cited)
    ]


def _detail_context(
    request: HttpRequest,
    ruling: Ruling,
    review_form: ReviewForm | None = None,
    appeal_form: AppealForm | None = None,
) -> dict[str, Any]:
    steps = list(ruling.steps.order_by("answered_at", "pk"))
    events = list(ruling.audit_events.order_by("sequence"))
    reviews = list(ruling.reviews.select_related("reviewer").order_by("created_at", "pk"))
    loaded = Tree.objects.filter(slug=ruling.tree_slug).values_list("version", flat=True).first()
    can_review = bool(roles_in(request, ruling.club_id) & set(REVIEW_ROLES))
    final = ruling.status == Status.FINAL
    outcome = ruling.outcome or {}
    next_appeal = (
        AppealStatus.SETTLED if ruling.appeal_status == AppealStatus.OPEN else AppealStatus.OPEN
    )
    return {
        "ruling": ruling,
        "club": ruling.club,
        "steps": steps,
        "outcome": outcome,
        "outcome_text": {
            part: snapshot.pick(outcome.get(part))
            for part in ("title", "ruling", "options", "announce")
        },
        "cited_law": _cited_law(steps, _outcome_citations(ruling, outcome)),
        "loaded_version": loaded,
        "tree_changed": loaded is not None and loaded != ruling.tree_version,
        "tree_gone": loaded is None,
        "events": audit_text.trail(ruling, events),
        "chain_problems": audit.verify(ruling),
        "reviews": reviews,
        "can_review": can_review and final,
        "review_form": review_form or ReviewForm(),
        "appeal_form": appeal_form or AppealForm(initial={"status": next_appeal}),
        "next_appeal": next_appeal,
        "articles": citations.decode(ruling.cited_articles),
    }


@require_GET
def detail(request: HttpRequest, uuid: UUID) -> HttpResponse:
    ruling = _get_ruling_for_user(request, uuid)
    return render(request, "rulings/detail.html", _detail_context(request, ruling))


def _reviewable(request: HttpRequest, uuid: UUID) -> Ruling:
    ruling = _get_ruling_for_user(request, uuid, roles=REVIEW_ROLES)
    if ruling.status != Status.FINAL:
        raise PermissionDenied
    return ruling


@require_POST
def review(request: AuthenticatedHttpRequest, uuid: UUID) -> HttpResponse:
    ruling = _reviewable(request, uuid)
    form = ReviewForm(request.POST)
    if not form.is_valid():
        context = _detail_context(request, ruling, review_form=form)
        return render(request, "rulings/detail.html", context, status=400)
    data = form.cleaned_data
    record_review(
        ruling,
        request.user,
        data["verdict"],
        data["comment"],
        data["corrected_ruling"],
        data["corrected_citations"],
    )
    messages.success(request, _("De beoordeling is opgeslagen."))
    return redirect(reverse("archive:detail", args=[ruling.uuid]) + "#beoordelingen")


@require_POST
def appeal(request: AuthenticatedHttpRequest, uuid: UUID) -> HttpResponse:
    ruling = _reviewable(request, uuid)
    form = AppealForm(request.POST)
    if form.is_valid():
        status = form.cleaned_data["status"]
        allowed = (
            AppealStatus.OPEN if ruling.appeal_status != AppealStatus.OPEN else AppealStatus.SETTLED
        )
        if status == allowed:
            set_appeal(ruling, request.user, status, form.cleaned_data["note"])
            if status == AppealStatus.OPEN:
                messages.success(request, _("De arbitrage staat nu in beroep."))
            else:
                messages.success(request, _("Het beroep is afgehandeld."))
        else:
            messages.warning(
                request, _("De beroepsstatus was al gewijzigd; er is niets veranderd.")
            )
        return redirect(reverse("archive:detail", args=[ruling.uuid]) + "#beroep")
    context = _detail_context(request, ruling, appeal_form=form)
    return render(request, "rulings/detail.html", context, status=400)


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
        "breakdowns": breakdowns,
        "summary": summary,
        "only_final": cleaned.get("status") == Status.FINAL,
        "query": filterset.data.urlencode(),
    }
    return htmx.render(request, "rulings/statistics.html", context, partial="results")
