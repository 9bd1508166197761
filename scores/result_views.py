"""The result of the board on the ruling's record: /arbitrages/<uuid>/uitslag/.

The record shows the contract from the board form with two numbers to fill in, the tricks made
and the tricks after the rectification, and the score each gives (``scores.board_result``).
The form posts here and comes back to the record; a form with errors (or a stale one: the
chain moved since it was shown) is shown again on a small page of its own, with 400 or 409.
Directors, reviewers and admins of the club record and change it; each change is an audit
event (``result_recorded``), written by the one writer like the adjusted score.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any
from uuid import UUID

from django import forms
from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods

from clubs.access import AuthenticatedHttpRequest, get_for_user
from clubs.models import Role, User
from rulings import audit, transitions
from rulings.models import Ruling, Status
from rulings.transitions import Planned, Planner
from scores import board_result, deals
from scores.models import BoardResult

# As for the adjusted score: the club's directors, reviewers and admins.
RESULT_ROLES = (Role.DIRECTOR, Role.REVIEWER, Role.ADMIN)


class StaleResult(Exception):
    """The ruling's chain moved on since the form was shown: nothing was written."""


class ResultForm(forms.Form):
    tricks_made = forms.IntegerField(
        label=gettext_lazy("Slagen gemaakt door de leider"), min_value=0, max_value=13
    )
    rectified_tricks = forms.IntegerField(
        label=gettext_lazy("Slagen na rechtzetting"),
        min_value=0,
        max_value=13,
        required=False,
        help_text=gettext_lazy("Leeg: geen rechtzetting in slagen (dezelfde als gemaakt)."),
    )
    sequence = forms.IntegerField(widget=forms.HiddenInput)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for name in ("tricks_made", "rectified_tricks"):
            self.fields[name].widget.attrs.update(inputmode="numeric", style="max-width: 6rem")


def form_for(ruling: Ruling) -> ResultForm:
    stored = current(ruling)
    initial: dict[str, Any] = {"sequence": ruling.audit_sequence}
    if stored is not None:
        initial |= {"tricks_made": stored.tricks_made, "rectified_tricks": stored.rectified_tricks}
    return ResultForm(initial=initial)


def current(ruling: Ruling) -> BoardResult | None:
    try:
        return ruling.board_result
    except BoardResult.DoesNotExist:
        return None


def contract_of(ruling: Ruling) -> board_result.Contract | None:
    return board_result.contract_of(
        ruling.contract_level,
        ruling.contract_strain,
        ruling.contract_doubled,
        ruling.declarer_seat,
    )


def recordable(ruling: Ruling) -> bool:
    """A ruling with a contract and declarer that is not thrown away."""
    return ruling.status != Status.DISCARDED and contract_of(ruling) is not None


def plan_result(user: User, cleaned: dict[str, Any], contract: board_result.Contract) -> Planner:
    made = cleaned["tricks_made"]
    rectified = cleaned.get("rectified_tricks")

    def plan(ruling: Ruling, at: datetime) -> Planned:
        if ruling.audit_sequence != cleaned["sequence"]:
            raise StaleResult
        row = BoardResult.objects.filter(ruling=ruling).first() or BoardResult(ruling=ruling)
        if row.pk is not None and (row.tricks_made, row.rectified_tricks) == (made, rectified):
            return transitions.UNCHANGED
        row.tricks_made, row.rectified_tricks = made, rectified
        row.recorded_by, row.recorded_at = user, at
        data = {
            "declarer": contract.declarer.value,
            "tricks_made": made,
            "made": board_result.notation(contract, made),
            "rectified_tricks": rectified,
            "rectified": board_result.notation(contract, rectified)
            if rectified is not None
            else "",
        }
        return Planned((), [(audit.Action.RESULT_RECORDED, data)], rows=[row], touches=False)

    return plan


@require_http_methods(["GET", "POST"])
def result(request: AuthenticatedHttpRequest, uuid: UUID) -> HttpResponse:
    ruling = get_for_user(
        request,
        Ruling.objects.select_related("club", "board_result"),
        roles=RESULT_ROLES,
        uuid=uuid,
    )
    record_url = reverse("archive:detail", args=[ruling.uuid]) + "#uitslag"
    contract = contract_of(ruling)
    if request.method == "GET" or contract is None or not recordable(ruling):
        return redirect(record_url)
    form = ResultForm(request.POST)
    status = 400
    if form.is_valid():
        try:
            transitions.run(
                ruling, request.user, None, plan_result(request.user, form.cleaned_data, contract)
            )
        except StaleResult:
            # Shown again with the chain's head now, so a second save goes through.
            fresh = request.POST.copy()
            fresh["sequence"] = str(Ruling.objects.get(pk=ruling.pk).audit_sequence)
            form = ResultForm(fresh)
            form.is_valid()
            form.add_error(
                None,
                _("De arbitrage is intussen gewijzigd. Controleer de uitslag en sla opnieuw op."),
            )
            status = 409
        else:
            messages.success(request, _("De uitslag van het spel is vastgelegd."))
            return redirect(record_url)
    context = {
        "ruling": ruling,
        "club": ruling.club,
        "form": form,
        "contract": contract,
        "vulnerability": deals.vulnerability_of(ruling, None),
    }
    return render(request, "scores/result.html", context, status=status)
