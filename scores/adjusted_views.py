"""Recording and amending a ruling's adjusted score: /arbitrages/<uuid>/score/.

Directors record it once the ruling is final and its outcome allows an adjustment; reviewers
and admins of the club amend it later. Another club's ruling answers 404, a member without
one of these roles 403. The form is a plain POST → redirect; "Voorbeeld" shows the effect on
both sides without saving, so it works without JavaScript.
"""

from __future__ import annotations

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
from rulings.models import Ruling
from scores import adjusted, deals, recording
from scores import adjusted_forms as forms
from scores.models import Kind

RECORD_ROLES = (Role.DIRECTOR, Role.REVIEWER, Role.ADMIN)
AMEND_ROLES = (Role.REVIEWER, Role.ADMIN)


def _initial(ruling: Ruling) -> dict[str, object]:
    score = recording.current(ruling)
    if score is not None:
        return forms.initial_from(score)
    return {"offending_side": adjusted.side_of_seat(ruling.offender_seat) or ""}


def _board_results(initial: dict[str, object], deal: deals.DealView | None) -> int:
    """Prefill the other results from the PBN file when the director typed none; how many."""
    if initial.get("field") or deal is None or not deal.stored.results:
        return 0
    initial["field"] = " ".join(str(score) for score in deal.stored.results)
    return len(deal.stored.results)


def _preview(form: forms.AdjustedScoreForm, ruling: Ruling, deal: deals.DealView | None) -> object:
    data = form.cleaned_data
    offending = data["offending_side"]
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
    preview = None
    status = 200
    from_file = 0  # the number of other results prefilled from the PBN file
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
        initial = {**_initial(ruling), "sequence": ruling.audit_sequence}
        from_file = _board_results(initial, deal)
        form = forms.AdjustedScoreForm(initial=initial)
    context = {
        "ruling": ruling,
        "club": ruling.club,
        "form": form,
        "existing": existing,
        "preview": preview,
        "deal": deal,
        "from_file": from_file,
        "vulnerability": deals.vulnerability_of(ruling, deal),
    }
    return render(request, "scores/record.html", context, status=status)
