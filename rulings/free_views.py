"""Pages of a free ruling (``rulings/free.py``): start, the form, and the law search.

The form is one plain POST form: "Gegevens bewaren" keeps a draft (it stays on the home page's
open rulings), "Definitief opslaan" makes it final and shows the ruling. Picking a law from the
search adds its key to the list of laws and shows the form again with everything typed kept;
with htmx the suggestions appear while typing, without JS after pressing "Zoeken".
"""

from __future__ import annotations

import uuid as uuid_lib
from dataclasses import dataclass
from datetime import date
from typing import Any

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse, QueryDict
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_http_methods

from clubs.access import AuthenticatedHttpRequest, clubs, get_club, get_for_user
from clubs.models import Club
from laws import keys
from laws.models import Edition
from lib import htmx
from lib.fields import day_in_range
from rulings import free
from rulings.errors import WizardError
from rulings.forms import ContextForm
from rulings.free_forms import FreeForm, with_law
from rulings.models import Ruling, Status
from rulings.transitions import CLOSED
from rulings.views import DIRECTING, _check_directs
from trees.snapshot import cite

TEMPLATE = "rulings/free_ruling.html"
LAWS_TEMPLATE = "rulings/free_laws.html"


def _edit_url(uuid: uuid_lib.UUID) -> str:
    return reverse("wizard:free", args=[uuid])


@require_GET
def start(request: AuthenticatedHttpRequest) -> HttpResponse:
    """A fresh id for every free ruling, in the URL (as the wizard's drafts): a repeated first
    save finds the ruling instead of making a second one."""
    if not clubs(request, roles=DIRECTING):
        raise PermissionDenied
    url = _edit_url(uuid_lib.uuid4())
    query = request.GET.urlencode()
    return redirect(f"{url}?{query}" if query else url)


def _club_for(request: AuthenticatedHttpRequest, slug: str) -> Club:
    club = get_club(request, slug, roles=DIRECTING) if slug else None
    if club is None:
        directing = clubs(request, roles=DIRECTING)
        if not directing:
            raise PermissionDenied
        club = directing[0]
    return club


@dataclass(frozen=True)
class Draft:
    """The free ruling a request is about: its uuid, the ruling once it exists, its edition and
    club."""

    uuid: uuid_lib.UUID
    ruling: Ruling | None
    edition: Edition
    club: Club


def _page(
    request: AuthenticatedHttpRequest,
    draft: Draft,
    form: FreeForm,
    context_form: ContextForm,
    search: str,
    status: int = 200,
) -> HttpResponse:
    context = {
        "uuid": draft.uuid,
        "ruling": draft.ruling,
        "edition": draft.edition,
        "club": draft.club,
        "form": form,
        "context_form": context_form,
        "search": search,
        "suggestions": free.suggest(draft.edition, search),
        "in_form": True,
        "chosen": _chosen(form, draft.edition),
        "nearest": free.nearest_tree(draft.edition, _words(form, search)),
    }
    return render(request, TEMPLATE, context, status=status)


def _words(form: FreeForm, search: str) -> str:
    """What the director has written so far: the words carried from the start page (or the
    law search) and the decision."""
    decision = form.data.get("decision", "") if form.is_bound else form.initial.get("decision")
    return f"{search} {decision or ''}"


def _chosen(form: FreeForm, edition: Edition) -> list[dict[str, Any]]:
    """The law text of the laws listed so far, to read before saving (typos left out: the
    form names them)."""
    typed = form.data.get("laws", "") if form.is_bound else form.initial.get("laws", "")
    wanted = [key for part in str(typed).split(",") if (key := keys.try_parse(part.strip()))]
    found = cite(edition, list(dict.fromkeys(str(key) for key in wanted)))
    return [law.to_json() for law in found.values()]


def _blank(
    request: AuthenticatedHttpRequest, ruling: Ruling | None, edition: Edition
) -> tuple[FreeForm, ContextForm]:
    """The forms of a GET: the ruling's values, or a new ruling's date from the start page."""
    if ruling is not None:
        content = free.content_of(ruling)
        initial = {
            "laws": ", ".join(content.laws),
            "decision": content.decision,
            "announcement": content.announcement,
            "revision": ruling.audit_sequence,
        }
        return FreeForm(initial=initial, edition=edition), ContextForm.for_ruling(ruling)
    try:
        day = date.fromisoformat(request.GET.get("datum", ""))
    except ValueError:
        day = None
    if day is not None and not day_in_range(day):
        day = None
    return (
        FreeForm(initial={"revision": 0}, edition=edition),
        ContextForm(initial={"played_on": day or timezone.localdate()}),
    )


@never_cache
@require_http_methods(["GET", "POST"])
def edit(request: AuthenticatedHttpRequest, uuid: uuid_lib.UUID) -> HttpResponse:
    found = Ruling.objects.filter(uuid=uuid)
    ruling = get_for_user(request, found, uuid=uuid) if found.exists() else None
    if ruling is not None and not ruling.is_free:
        raise Http404
    if ruling is not None and ruling.status in CLOSED:
        # A repeated "Definitief opslaan", or the back button to a saved ruling: the record.
        if request.method == "POST":
            messages.warning(request, str(WizardError.MESSAGES[CLOSED[ruling.status]]))
        final = ruling.status == Status.FINAL
        return redirect("archive:detail" if final else "wizard:ruling", uuid=uuid)
    if ruling is not None:
        _check_directs(request, ruling)
        edition = Edition.objects.filter(code=ruling.edition_code).first()
        club = ruling.club
    else:
        edition = free.current_edition()
        club = _club_for(request, request.POST.get("club") or request.GET.get("club", ""))
    if edition is None:
        raise Http404
    draft = Draft(uuid, ruling, edition, club)
    if request.method == "POST":
        return _post(request, draft)
    form, context_form = _blank(request, ruling, edition)
    search = request.GET.get("q", "").strip()[:100] if ruling is None else ""
    return _page(request, draft, form, context_form, search)


def _post(request: AuthenticatedHttpRequest, draft: Draft) -> HttpResponse:
    action = request.POST.get("action", "")
    adding = request.POST.get("add", "")
    search = request.POST.get("wet", "").strip()[:100]
    if adding or action == "search":
        # Not a save: the form again, the law added, everything typed kept.
        data: QueryDict = request.POST.copy()
        if adding:
            data["laws"] = with_law(data.get("laws", ""), adding)
        form = FreeForm(data, edition=draft.edition)
        return _page(request, draft, form, ContextForm(data), search)
    final = action == "final"
    form = FreeForm(request.POST, edition=draft.edition, for_save=final)
    context_form = ContextForm(request.POST, for_save=final)
    if not (form.is_valid() and context_form.is_valid()):
        return _page(request, draft, form, context_form, search, status=400)
    try:
        _store(request, draft, form, context_form, final)
    except WizardError as error:
        messages.warning(request, error.message)
        return redirect(_edit_url(draft.uuid))
    if final:
        messages.success(request, _("De arbitrage is definitief opgeslagen."))
        return redirect("archive:detail", uuid=draft.uuid)
    saved = _("De gegevens zijn bewaard. U vindt de arbitrage op de startpagina om verder te gaan.")
    messages.success(request, saved)
    return redirect(_edit_url(draft.uuid))


def _store(
    request: AuthenticatedHttpRequest,
    draft: Draft,
    form: FreeForm,
    context_form: ContextForm,
    final: bool,
) -> Ruling:
    content, context = form.content(), context_form.cleaned_data
    ruling = draft.ruling
    if ruling is None:
        # Also the second of two first saves at once (a double click): free.create then
        # saves the ruling the first one made, as the form was rendered.
        return free.create(
            uuid=draft.uuid,
            club=draft.club,
            director=request.user,
            edition=draft.edition,
            content=content,
            context=context,
            final=final,
        )
    revision = form.cleaned_data["revision"]
    free.record(ruling, content, context, request.user, revision=revision, final=final)
    return ruling


@require_GET
def laws(request: AuthenticatedHttpRequest) -> HttpResponse:
    """Laws of the current edition for the words typed: the form's suggestions (htmx), or a
    page of them with links to the law text."""
    edition = free.current_edition()
    if edition is None:
        raise Http404
    search = request.GET.get("wet", "").strip()[:100]
    context = {
        "edition": edition,
        "search": search,
        "suggestions": free.suggest(edition, search),
        "in_form": htmx.is_partial(request),
    }
    return htmx.render(request, LAWS_TEMPLATE, context, partial="suggestions")
