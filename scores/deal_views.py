"""Deal pages: a club's events with a PBN upload (and the confirmation of a re-import that
removes boards), and typing the hands of a ruling's board. Directors and admins of the club;
other members 403, other clubs 404. The pages of one board and one event are in
:mod:`scores.event_views`.
"""

from __future__ import annotations

from uuid import UUID

from django.contrib import messages
from django.core import signing
from django.db import IntegrityError
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_http_methods

from clubs import access
from clubs.access import AuthenticatedHttpRequest
from clubs.models import Club, Role
from lib.bridge import SEATS, board_dealer, board_vulnerability
from rulings.models import Ruling
from scores import deals as store
from scores import importing
from scores.deal_forms import PbnImportForm, TypedDealForm
from scores.models import Scoring
from scores.pbn import PbnError, PbnFile, parse_pbn

DEAL_ROLES = [Role.DIRECTOR]  # the admin role includes it
# A confirmation of a re-import carries the file itself, signed, for an hour.
_SALT = "scores.import-confirmation"
_CONFIRM_SECONDS = 3600
_WARNINGS_SHOWN = 20


def _summary_messages(request: AuthenticatedHttpRequest, summary: importing.ImportSummary) -> None:
    """What the import did, as ``import_pbn --json`` says it: boards, results, what was
    added, replaced and removed, the scoring, and every warning."""
    text = ngettext(
        "%(count)d spel ingelezen voor %(event)s",
        "%(count)d spellen ingelezen voor %(event)s",
        summary.boards,
    ) % {"count": summary.boards, "event": summary.event}
    text += ngettext(", met %(count)d uitslag", ", met %(count)d uitslagen", summary.results) % {
        "count": summary.results
    }
    text += " " + _("(%(new)d nieuw, %(replaced)d vervangen, %(removed)d verwijderd).") % {
        "new": len(summary.added),
        "replaced": len(summary.replaced),
        "removed": len(summary.removed),
    }
    text += " " + _("Telling: %(scoring)s.") % {"scoring": Scoring(summary.scoring).label}
    messages.success(request, text)
    for warning in summary.warnings[:_WARNINGS_SHOWN]:
        messages.warning(request, warning)
    hidden = len(summary.warnings) - _WARNINGS_SHOWN
    if hidden > 0:
        messages.warning(request, _("… en nog %(count)d waarschuwingen.") % {"count": hidden})


def _import(
    request: AuthenticatedHttpRequest,
    club: Club,
    event: str,
    pbn: PbnFile,
    text: str,
    source: str,
    remove: list[importing.BoardKey],
) -> HttpResponse:
    try:
        summary = importing.import_file(club, event, pbn, source, request.user, remove=remove)
    except importing.UnconfirmedRemoval as changed:  # the event changed since it was listed
        return _confirm(request, club, event, text, source, changed.missing)
    except IntegrityError:  # the same new event imported at the same moment elsewhere
        busy = _("Deze wedstrijd werd tegelijk elders ingelezen; lees het bestand opnieuw in.")
        messages.warning(request, busy)
        return redirect("scores:deals", slug=club.slug)
    _summary_messages(request, summary)
    return redirect("scores:deals", slug=club.slug)


def _confirm(
    request: AuthenticatedHttpRequest,
    club: Club,
    event: str,
    text: str,
    source: str,
    missing: list[importing.BoardKey],
) -> HttpResponse:
    """The boards a re-import would remove, with a form that imports the same file."""
    payload = signing.dumps(
        {"club": club.pk, "event": event, "source": source, "text": text, "remove": missing},
        salt=_SALT,
        compress=True,
    )
    context = {
        "club": club,
        "event": event,
        "source": source,
        "missing": [importing.board_label(key) for key in missing],
        "payload": payload,
    }
    return render(request, "scores/import_confirm.html", context)


def _confirmed(request: AuthenticatedHttpRequest, club: Club) -> HttpResponse:
    try:
        data = signing.loads(request.POST["payload"], salt=_SALT, max_age=_CONFIRM_SECONDS)
        if data["club"] != club.pk:
            raise signing.BadSignature
        pbn = parse_pbn(data["text"])
    except (signing.BadSignature, PbnError, KeyError, TypeError):
        messages.error(
            request, _("Deze bevestiging is verlopen of ongeldig; lees het bestand opnieuw in.")
        )
        return redirect("scores:deals", slug=club.slug)
    remove = [(str(section), int(board)) for section, board in data["remove"]]
    return _import(request, club, data["event"], pbn, data["text"], data["source"], remove)


@require_http_methods(["GET", "POST"])
def deals(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    """The club's events with their boards, and the form to import a PBN file."""
    club = access.get_club(request, slug, roles=DEAL_ROLES)
    if request.method == "POST" and "payload" in request.POST:
        return _confirmed(request, club)
    form = PbnImportForm(request.POST or None, request.FILES or None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        name = data["file"].name or "upload.pbn"
        missing = importing.missing_boards(club, data["event"], data["pbn"])
        if missing:
            return _confirm(request, club, data["event"], data["text"], name, missing)
        return _import(request, club, data["event"], data["pbn"], data["text"], name, [])
    status = 400 if request.method == "POST" else 200
    context = {
        "club": club,
        "form": form,
        "events": store.events(club),
        "scorings": Scoring.choices,
    }
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
            **{seat.name.lower(): deal.hand(seat).typed for seat in SEATS},
        }
    form = TypedDealForm(
        request.POST or None, board=ruling.board, event=ruling.event, initial=initial
    )
    if request.method == "POST" and form.is_valid():
        store.store_typed(ruling.club, form.cleaned_data["deal"], request.user, current)
        messages.success(request, _("Het spel is opgeslagen."))
        return redirect(record + "#spel")
    status = 400 if request.method == "POST" else 200
    context = {"ruling": ruling, "record": record, "form": form, "current": current}
    return render(request, "scores/ruling_deal.html", context, status=status)
