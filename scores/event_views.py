"""The pages of one board and one event of a club: a board's diagram, double-dummy table and
results; an event's scoring; deleting an event with its boards. The same rights as importing
(directors and admins of the club); another club's board or event answers 404.
"""

from __future__ import annotations

from django.contrib import messages
from django.db import transaction
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from clubs import access
from clubs.access import AuthenticatedHttpRequest
from scores import deals as store
from scores.deal_forms import EventScoringForm
from scores.deal_views import DEAL_ROLES
from scores.importing import find_event
from scores.models import Event, Scoring, StoredDeal
from scores.results import Compared


@require_http_methods(["GET"])
def board(request: AuthenticatedHttpRequest, slug: str, pk: int) -> HttpResponse:
    """One board: the hand diagram, its double-dummy table and every table's result."""
    club = access.get_club(request, slug, roles=DEAL_ROLES)
    stored = get_object_or_404(StoredDeal, pk=pk, club=club)
    siblings = list(
        StoredDeal.objects.filter(club=club, event=stored.event)
        .order_by("board", "section")
        .values_list("pk", flat=True)
    )
    at = siblings.index(stored.pk)
    event = find_event(club, stored.event)
    context = {
        "club": club,
        "stored": stored,
        "event": event,
        "deal": store.shown(stored),
        "results": store.results_table(
            [
                Compared(index, result, False, True)
                for index, result in enumerate(store.results_of(stored))
            ]
        ),
        "previous": siblings[at - 1] if at > 0 else None,
        "next": siblings[at + 1] if at + 1 < len(siblings) else None,
    }
    return render(request, "scores/board.html", context)


@require_POST
def event_scoring(request: AuthenticatedHttpRequest, slug: str, pk: int) -> HttpResponse:
    """Choose how the event was scored (what adjusted scores on its boards compare with)."""
    club = access.get_club(request, slug, roles=DEAL_ROLES)
    event = get_object_or_404(Event, pk=pk, club=club)
    form = EventScoringForm(request.POST)
    if form.is_valid():
        event.scoring = form.cleaned_data["scoring"]
        event.save(update_fields=["scoring"])
        label = Scoring(event.scoring).label
        messages.success(
            request,
            _("Telling van %(event)s: %(scoring)s.") % {"event": event.name, "scoring": label},
        )
    else:
        messages.error(request, _("Kies een telling uit de lijst."))
    return redirect("scores:deals", slug=club.slug)


@require_http_methods(["GET", "POST"])
def event_delete(request: AuthenticatedHttpRequest, slug: str, pk: int) -> HttpResponse:
    """Delete an event with all its boards and results, after a confirmation. Rulings on
    its boards keep everything of their own (an adjusted score keeps its other results)."""
    club = access.get_club(request, slug, roles=DEAL_ROLES)
    event = get_object_or_404(Event, pk=pk, club=club)
    boards = StoredDeal.objects.filter(club=club, event__iexact=event.name)
    if request.method == "POST":
        with transaction.atomic():
            count, _deleted = boards.delete()
            event.delete()
        messages.success(
            request,
            _("Wedstrijd %(event)s verwijderd met %(count)d spellen.")
            % {"event": event.name, "count": count},
        )
        return redirect("scores:deals", slug=club.slug)
    context = {"club": club, "event": event, "boards": boards.count()}
    return render(request, "scores/event_delete.html", context)
