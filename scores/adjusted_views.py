"""Recording and amending a ruling's adjusted score: /arbitrages/<uuid>/score/.

Directors record it once the ruling is final and its outcome allows an adjustment; reviewers
and admins of the club amend it later. Another club's ruling answers 404, a member without
one of these roles 403. The form is a plain POST → redirect; "Voorbeeld" shows the effect on
both sides without saving, so it works without JavaScript.

Where the board's results came from a PBN file, the form compares with them as the event was
scored: its own table's result (the one played at the ruling's table, or the row the director
marks with "dit is deze tafel", ``?eigen=<row>``) is left out and shown struck through.
"""

from __future__ import annotations

from dataclasses import dataclass
from uuid import UUID

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from clubs.access import AuthenticatedHttpRequest, get_for_user, roles_in
from clubs.models import Role
from lib.bridge import Side, side_of
from lib.fields import parse_id
from rulings.models import Ruling
from scores import adjusted, board_result, deals, recording, result_views
from scores import adjusted_forms as forms
from scores.importing import find_event
from scores.models import Kind, Scoring
from scores.results import Compared, comparison, own_result

RECORD_ROLES = (Role.DIRECTOR, Role.REVIEWER, Role.ADMIN)
AMEND_ROLES = (Role.REVIEWER, Role.ADMIN)


def _initial(ruling: Ruling, scoring: str, field: tuple[int, ...]) -> dict[str, object]:
    score = recording.current(ruling)
    if score is not None:
        return forms.initial_from(score)
    side = side_of(ruling.offender_seat)
    initial: dict[str, object] = {
        "offending_side": side.value if side is not None else "",
        "scoring": scoring,
        "field": " ".join(str(result) for result in field),
    }
    # The form starts from the board's result after the rectification, at 100 %.
    stored = result_views.current(ruling)
    contract = result_views.contract_of(ruling)
    if stored is not None and contract is not None:
        names = forms.row_names("non", 1)
        written = board_result.notation(contract, stored.after_rectification)
        initial |= dict(zip(names, (written, contract.declarer.value, 100), strict=True))
    return initial


@dataclass(frozen=True)
class _Board:
    """The board's results from the file as this form compares with them."""

    scoring: str  # the event's
    rows: list[Compared]
    field: tuple[int, ...]
    own: int | None
    marked: bool  # the own table was marked by the director (?eigen=)

    @property
    def scoring_label(self) -> str:
        return str(Scoring(self.scoring).label)


def _board(
    request: AuthenticatedHttpRequest, ruling: Ruling, deal: deals.DealView | None
) -> _Board:
    if deal is None:
        return _Board(Scoring.MATCHPOINTS, [], (), None, False)
    event = find_event(ruling.club, deal.stored.event)
    scoring = event.scoring if event is not None else Scoring.MATCHPOINTS
    chosen = request.POST.get("scoring", "")
    results = deals.results_of(deal.stored)
    marked = parse_id(request.GET.get("eigen", ""))
    own = (
        marked
        if marked is not None and marked < len(results)
        else own_result(results, ruling.table)
    )
    rows, field = comparison(results, own, chosen if chosen in Scoring.values else scoring)
    return _Board(scoring, rows, field, own, own == marked)


def _preview(form: forms.AdjustedScoreForm, ruling: Ruling, deal: deals.DealView | None) -> object:
    data = form.cleaned_data
    offending = Side(data["offending_side"])
    non_rows = tuple(data.get("non_rows", []))
    artificial = data["kind"] == Kind.ARTIFICIAL
    club = ruling.club
    percents = {
        "plus": club.average_plus_percent,
        "average": club.average_percent,
        "minus": club.average_minus_percent,
    }
    adjustment = adjusted.Adjustment(
        kind=data["kind"],
        offending_side=offending,
        non_offending=adjusted.SideScore(
            non_rows, data.get("non_artificial", ""), percents.get(data.get("non_artificial", ""))
        ),
        offending=adjusted.SideScore(
            tuple(data.get("off_rows", [])) or non_rows,
            data.get("off_artificial", "") if artificial else "",
            percents.get(data.get("off_artificial", "")),
        ),
        scoring=data["scoring"],
        field=tuple(data.get("field", [])),
    )
    return adjusted.evaluate(adjustment, deals.vulnerability_of(ruling, deal))


@require_http_methods(["GET", "POST"])
def record(request: AuthenticatedHttpRequest, uuid: UUID) -> HttpResponse:
    ruling = get_for_user(
        request, Ruling.objects.select_related("club"), roles=RECORD_ROLES, uuid=uuid
    )
    if not recording.allows_adjustment(ruling):
        raise Http404
    existing = recording.current(ruling)
    if existing is not None and not roles_in(request, ruling.club_id) & set(AMEND_ROLES):
        raise PermissionDenied
    deal = deals.shown_deal_for(ruling)
    board = _board(request, ruling, deal)
    preview = None
    status = 200
    if request.method == "POST":
        form = forms.AdjustedScoreForm(request.POST)
        if form.is_valid() and "preview" in request.POST:
            preview = _preview(form, ruling, deal)
        elif form.is_valid():
            try:
                recording.record(ruling, request.user, form.cleaned_data)
            except recording.StaleScore:
                fresh = request.POST.copy()
                fresh["sequence"] = str(Ruling.objects.get(pk=ruling.pk).audit_sequence)
                form = forms.AdjustedScoreForm(fresh)
                form.is_valid()
                form.add_error(
                    None,
                    _(
                        "De arbitrage is intussen gewijzigd (een andere score of beoordeling). "
                        "Controleer de score hieronder en sla opnieuw op."
                    ),
                )
                status = 409
            else:
                messages.success(request, _("De arbitrale score is vastgelegd."))
                return redirect(reverse("archive:detail", args=[ruling.uuid]) + "#arbitrale-score")
        else:
            status = 400
    else:
        initial = {
            **_initial(ruling, board.scoring, board.field),
            "sequence": ruling.audit_sequence,
        }
        form = forms.AdjustedScoreForm(initial=initial)
    context = {
        "ruling": ruling,
        "club": ruling.club,
        "form": form,
        "existing": existing,
        "preview": preview,
        "deal": deal,
        "board": board,
        "results": deals.results_table(board.rows) if board.rows else None,
        "own_url": request.path,
        "vulnerability": deals.vulnerability_of(ruling, deal),
    }
    return render(request, "scores/record.html", context, status=status)
