"""Deal pages: a club's events and their boards with a PBN upload, and typing the hands of a
ruling's board. Directors and admins of the club; other members 403, other clubs 404."""

from __future__ import annotations

from uuid import UUID

from django.contrib import messages
from django.db import IntegrityError
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from clubs import access
from clubs.access import AuthenticatedHttpRequest
from clubs.models import Role
from rulings.models import Ruling
from scores import deals as store
from scores.deal import SEATS, board_dealer, board_vulnerability
from scores.deal_forms import PbnImportForm, TypedDealForm

DEAL_ROLES = [Role.DIRECTOR]  # the admin role includes it


def deals(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    """The club's events with their boards, and the form to import a PBN file."""
    club = access.get_club(request, slug, roles=DEAL_ROLES)
    form = PbnImportForm(request.POST or None, request.FILES or None)
    if request.method == "POST" and form.is_valid():
        upload = form.cleaned_data["file"]
        try:
            summary = store.import_deals(
                club,
                form.cleaned_data["event"],
                form.cleaned_data["deals"],
                upload.name,
                request.user,
            )
        except IntegrityError:  # the same new event imported at the same moment elsewhere
            busy = _("Deze wedstrijd werd tegelijk elders ingelezen; lees het bestand opnieuw in.")
            messages.warning(request, busy)
            return redirect("scores:deals", slug=club.slug)
        text = ngettext(
            "%(count)d spel ingelezen voor %(event)s",
            "%(count)d spellen ingelezen voor %(event)s",
            summary.total,
        ) % {"count": summary.total, "event": summary.event}
        if summary.replaced:
            text += " " + _("(%(new)d nieuw, %(replaced)d vervangen).") % {
                "new": len(summary.added),
                "replaced": len(summary.replaced),
            }
        else:
            text += "."
        messages.success(request, text)
        return redirect("scores:deals", slug=club.slug)
    status = 400 if request.method == "POST" else 200
    context = {"club": club, "form": form, "events": store.events(club)}
    return render(request, "scores/deals.html", context, status=status)


def ruling_deal(request: AuthenticatedHttpRequest, uuid: UUID) -> HttpResponse:
    """Type the four hands of the ruling's board (stored for the club, event and board)."""
    ruling = access.get_for_user(
        request, Ruling.objects.select_related("club"), roles=DEAL_ROLES, uuid=uuid
    )
    record = reverse("archive:detail", args=[ruling.uuid])
    if ruling.board is None:
        context = {"ruling": ruling, "record": record, "form": None, "current": None}
        return render(request, "scores/ruling_deal.html", context)
    current = store.deal_for(ruling)
    initial: dict[str, str] = {
        "dealer": board_dealer(ruling.board).value,
        "vulnerability": board_vulnerability(ruling.board).value,
    }
    if current is not None:
        deal = current.to_deal()
        initial = {
            "dealer": current.dealer,
            "vulnerability": current.vulnerability,
            **{seat.name.lower(): deal.hand(seat).pbn for seat in SEATS},
        }
    form = TypedDealForm(
        request.POST or None, board=ruling.board, event=ruling.event, initial=initial
    )
    if request.method == "POST" and form.is_valid():
        store.store_typed(ruling.club, form.cleaned_data["deal"], request.user)
        messages.success(request, _("Het spel is opgeslagen."))
        return redirect(record + "#spel")
    status = 400 if request.method == "POST" else 200
    context = {"ruling": ruling, "record": record, "form": form, "current": current}
    return render(request, "scores/ruling_deal.html", context, status=status)
