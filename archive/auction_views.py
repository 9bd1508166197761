"""The auction on the ruling's record: /arbitrages/<uuid>/bieding/ (issue 33).

The record shows the bidding diagram with a one-line form for the club's directors, reviewers
and admins, before and after the final save alike: each change is an ``auction_edited`` audit
event written by the one writer (``rulings.auction_edit``). The dealer is the stored deal's,
else the board number's; a dealer typed in front (``O: p 1h``) overrides both. Without
JavaScript the form posts here and comes back to the record; with htmx the section is swapped
in place. A form with errors answers 400 and a stale one 409, in place, with what was typed.
"""

from __future__ import annotations

from typing import Any
from uuid import UUID

from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from clubs.access import AuthenticatedHttpRequest, get_for_user
from clubs.models import Role
from lib import htmx
from lib.bridge import Seat, board_dealer
from rulings import transitions
from rulings.auction_edit import StaleAuction, plan_auction
from rulings.errors import WizardError
from rulings.forms import AuctionForm
from rulings.models import Ruling, Status
from scores.deals import deal_for

AUCTION_ROLES = (Role.DIRECTOR, Role.REVIEWER, Role.ADMIN)
TEMPLATE = "archive/auction.html"


def dealer_of(ruling: Ruling) -> Seat | None:
    """The stored deal's dealer, else the board number's; None without either."""
    stored = deal_for(ruling)
    if stored is not None:
        return Seat(stored.dealer)
    return board_dealer(ruling.board) if ruling.board else None


def editable(ruling: Ruling) -> bool:
    return ruling.status != Status.DISCARDED


def _section(
    request: AuthenticatedHttpRequest, ruling: Ruling, form: AuctionForm | None, status: int
) -> HttpResponse:
    context: dict[str, Any] = {"ruling": ruling, "club": ruling.club, "auction_form": form}
    return htmx.render(request, TEMPLATE, context, partial="section", status=status)


@require_http_methods(["GET", "POST"])
def auction(request: AuthenticatedHttpRequest, uuid: UUID) -> HttpResponse:
    ruling = get_for_user(
        request, Ruling.objects.select_related("club"), roles=AUCTION_ROLES, uuid=uuid
    )
    record_url = reverse("archive:detail", args=[ruling.uuid]) + "#bieding"
    if request.method == "GET" or not editable(ruling):
        return redirect(record_url)
    form = AuctionForm(request.POST, dealer=dealer_of(ruling))
    if not form.is_valid():
        return _section(request, ruling, form, 400)
    try:
        transitions.run(
            ruling,
            request.user,
            None,
            plan_auction(form.cleaned_data["auction"], form.cleaned_data["sequence"]),
        )
    except (StaleAuction, WizardError):
        ruling.refresh_from_db()
        fresh = request.POST.copy()
        fresh["sequence"] = str(ruling.audit_sequence)
        form = AuctionForm(fresh, dealer=dealer_of(ruling))
        form.is_valid()
        form.add_error(
            None, _("De arbitrage is intussen gewijzigd. Controleer de bieding en sla opnieuw op.")
        )
        return _section(request, ruling, form, 409)
    if htmx.is_partial(request):
        return _section(request, ruling, AuctionForm.for_ruling(ruling, dealer_of(ruling)), 200)
    messages.success(request, _("De bieding is vastgelegd."))
    return redirect(record_url)
