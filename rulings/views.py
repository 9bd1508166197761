"""Wizard pages: start, steps, outcome, context, defer/resume, save, and the final ruling.

Every page works as plain POST → redirect → GET; with htmx the step swaps in place (the
``step`` partial of ``rulings/wizard_step.html``) and the URL of the step shown is pushed, so
the browser's back and forward buttons and a reload show the same step. Going back is a plain
link to an earlier step; only answering it differently changes the ruling (``wizard.answer``).
"""

from __future__ import annotations

import uuid as uuid_lib
from collections.abc import Callable
from contextlib import nullcontext
from datetime import date
from typing import Any
from urllib.parse import urlencode

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.db import IntegrityError, connection, transaction
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django_htmx.http import push_url

from clubs.access import (
    AuthenticatedHttpRequest,
    clubs,
    get_by_member,
    get_club,
    get_for_user,
    memberships,
    roles_in,
)
from clubs.models import Role
from laws.models import Edition
from lib import htmx
from lib.urls import quick_reverse
from rulings import wizard
from rulings.forms import ContextForm, StartForm, TableForm, read_answer
from rulings.models import Ruling, Status
from rulings.steps import StepView, draft_view, open_rulings, step_view
from rulings.wizard import WizardError
from trees import lookup, snapshot
from trees.models import Tree, TreeSnapshot, localised_titles

STEP_TEMPLATE = "rulings/wizard_step.html"
DIRECTING = (Role.DIRECTOR, Role.ADMIN)


def _check_directs(request: HttpRequest, ruling: Ruling) -> Ruling:
    """Only the ruling's own director, or an admin of its club, may continue it."""
    if ruling.director_id != request.user.pk and Role.ADMIN not in roles_in(
        request, ruling.club_id
    ):
        raise PermissionDenied
    return ruling


def _ruling_to_direct(request: HttpRequest, uuid: uuid_lib.UUID) -> Ruling:
    """The ruling, if the user may continue it. Another club's ruling is 404, a colleague's
    403."""
    return _check_directs(request, get_by_member(request, Ruling, "uuid", uuid))


def state_url(ruling: Ruling, number: int | None = None) -> str:
    """The URL of step ``number`` (default: where the ruling stands now)."""
    if ruling.is_free and ruling.status != Status.FINAL:
        return quick_reverse("wizard:free", ruling.uuid)
    current = len(ruling.path) + 1
    at_end = number is None or number >= current
    if ruling.status == Status.FINAL or not ruling.snapshot_id:
        return quick_reverse("archive:detail", ruling.uuid)
    if at_end and ruling.outcome_key:
        return quick_reverse("wizard:ruling", ruling.uuid)
    return quick_reverse("wizard:step", ruling.uuid, current if at_end else number)


def _render_step(
    request: HttpRequest,
    view: StepView,
    ruling: Ruling | None,
    error: str = "",
    **extra: Any,
) -> HttpResponse:
    context = {"view": view, "ruling": ruling, "error": error, **extra}
    if ruling is not None:
        context.setdefault("answer_url", quick_reverse("wizard:answer", ruling.uuid))
        if view.is_outcome and "context_form" not in context and not extra.get("lazy_context"):
            context["context_form"] = ContextForm.for_ruling(ruling)
    return htmx.render(request, STEP_TEMPLATE, context, partial="step")


def _show(
    request: HttpRequest, ruling: Ruling, number: int | None = None, error: str = ""
) -> HttpResponse:
    """The response after a POST: with htmx the step itself (URL pushed), else a redirect.
    The question a search opened the tree at (``vraag``) goes along to the next step."""
    toward = request.POST.get("vraag", "")
    url = state_url(ruling, number)
    if toward:
        url = f"{url}?{urlencode({'vraag': toward})}"
    if not htmx.is_partial(request):
        if error:
            messages.warning(request, error)
        return redirect(url)
    if ruling.status == Status.FINAL or not ruling.snapshot_id:
        return htmx.redirect(request, url)
    view = step_view(ruling, number, toward)
    # The outcome comes at once; its context form (the slowest part to render) follows with
    # a second htmx request, so the director reads the ruling sooner (make bench).
    return push_url(_render_step(request, view, ruling, error, lazy_context=True), url)


# --------------------------------------------------------------------------------------------
# Start


def _edition_for(day: date, codes: list[str]) -> str:
    """The edition in force on ``day``: the latest whose year is not after it (codes are years)."""
    years = sorted((code for code in codes if code.isascii() and code.isdigit()), key=int)
    earlier = [code for code in years if int(code) <= day.year]
    return (earlier or years or [""])[-1]


@require_GET
def start(request: AuthenticatedHttpRequest) -> HttpResponse:
    directing = clubs(request, roles=DIRECTING)
    codes = list(
        Edition.objects.filter(trees__isnull=False).distinct().values_list("code", flat=True)
    )
    form = StartForm(
        request.GET or None,
        editions=codes,
        clubs=[(club.slug, club.name) for club in directing],
        initial={"datum": timezone.localdate()},
    )
    data = form.cleaned_data if form.is_valid() else {}
    day = data.get("datum") or timezone.localdate()
    edition = data.get("editie") or _edition_for(day, codes)
    query = data.get("q", "").strip()

    # Every edition's trees ranked together (trees/lookup.py), so a word that only an older
    # edition's tree has is told apart from a weak match in this edition.
    found = lookup.find(Tree.objects.select_related("edition"), query)
    trees = [item for item in found if item.tree.edition.code == edition]
    recent_slugs = list(
        dict.fromkeys(
            Ruling.objects.filter(director=request.user)
            .order_by("-created_at")
            .values_list("tree_slug", flat=True)[:50]
        )
    )
    if query:
        # Best match first, whatever the phase: the first tree is the one Enter takes.
        recent: list[lookup.Result] = []
        groups = [("found", trees)]
    else:
        trees = sorted(trees, key=lambda item: (item.tree.phase, item.tree.title.casefold()))
        recent = sorted(
            (item for item in trees if item.tree.slug in recent_slugs),
            key=lambda item: recent_slugs.index(item.tree.slug),
        )
        groups = [
            (phase, [item for item in trees if item.tree.phase == phase and item not in recent])
            for phase in ("auction", "play")
        ]
    # Nothing in this edition: the editions that do have a tree for these words.
    elsewhere = [item.tree for item in found if item.tree.edition.code != edition]
    club = data.get("club") or (directing[0].slug if directing else "")
    context = {
        "form": form,
        "edition": edition,
        "recent": recent,
        "groups": [(phase, items) for phase, items in groups if items],
        "count": len(trees),
        "ambiguous": bool(query) and lookup.ambiguous(trees),
        "elsewhere": elsewhere if query and not trees else [],
        "query": query,
        "link_query": {"datum": day.isoformat(), "club": club},
        "can_direct": bool(directing),
        # No tree for these words (or none that fits): a free ruling, the words carried along.
        "free_url": reverse("wizard:free_start")
        + "?"
        + urlencode({"q": query, "datum": day, "club": club}),
    }
    return htmx.render(request, "rulings/wizard_start.html", context, partial="trees")


@require_GET
def start_tree(request: HttpRequest, slug: str) -> HttpResponse:
    """A fresh ruling id for every start, in the URL: going back to this page after the first
    answer finds the ruling instead of starting a second one."""
    if not Tree.objects.filter(slug=slug).exists():
        raise Http404
    url = reverse("wizard:draft", args=[slug, uuid_lib.uuid4()])
    query = request.GET.urlencode()
    return redirect(f"{url}?{query}" if query else url)


def _draft_defaults(request: HttpRequest) -> dict[str, Any]:
    directing = clubs(request, roles=DIRECTING)
    if not directing:
        raise PermissionDenied
    wanted = request.GET.get("club", "")
    club = next((c for c in directing if c.slug == wanted), directing[0])
    played_on = request.GET.get("datum", "")
    try:
        played_on = date.fromisoformat(played_on).isoformat()
    except ValueError:
        played_on = timezone.localdate().isoformat()
    return {"draft_club": club, "draft_played_on": played_on}


@never_cache
def draft(request: AuthenticatedHttpRequest, slug: str, uuid: uuid_lib.UUID) -> HttpResponse:
    """The first question of a ruling that starts with its first answer."""
    if request.method == "POST":
        try:
            return _begin(request, slug, uuid)
        except (Http404, PermissionDenied):
            started = _if_started(request, uuid)
            if started is None:
                raise
            return started
    if Ruling.objects.filter(uuid=uuid).exists():
        return redirect(state_url(_ruling_to_direct(request, uuid), 1))
    try:
        tree = wizard.start(slug)
    except WizardError:
        raise Http404 from None
    context = {
        "answer_url": reverse("wizard:draft", args=[slug, uuid]),
        **_draft_defaults(request),
    }
    return _render_step(
        request, draft_view(tree, toward=request.GET.get("vraag", "")), None, **context
    )


def _if_started(request: AuthenticatedHttpRequest, uuid: uuid_lib.UUID) -> HttpResponse | None:
    """A refused first answer for a ruling that exists already (a resubmitted form, the back
    button) is an answer to that ruling. Asked only on refusal: the usual first answer creates
    the ruling without reading first (make bench), and a taken uuid fails its insert."""
    if Ruling.objects.filter(uuid=uuid).exists():
        return _answer_existing(request, _ruling_to_direct(request, uuid))
    return None


def _begin(request: AuthenticatedHttpRequest, slug: str, uuid: uuid_lib.UUID) -> HttpResponse:
    data = read_answer(request.POST, first=True)
    if data is None:
        started = _if_started(request, uuid)
        if started is not None:
            return started
        messages.warning(request, _("Dit formulier was onvolledig. Er is niets opgeslagen."))
        return redirect("wizard:draft", slug, uuid)
    try:
        tree = snapshot.get(data.snapshot)
    except TreeSnapshot.DoesNotExist:
        raise Http404 from None
    if tree.slug != slug:
        raise Http404
    club = get_club(request, data.club, roles=DIRECTING) if data.club else None
    if club is None:
        directing = clubs(request, roles=DIRECTING)
        if not directing:
            raise PermissionDenied
        club = directing[0]
    try:
        # A taken uuid rolls back only this write: inside a transaction a savepoint; outside
        # one the write is one statement (PostgreSQL) or its own transaction already.
        with transaction.atomic() if connection.in_atomic_block else nullcontext():
            result = wizard.begin(
                uuid=uuid,
                club=club,
                director=request.user,
                tree=tree,
                node_key=data.node,
                choice_key=data.choice,
                played_on=data.played_on,
            )
    except WizardError as error:
        started = _if_started(request, uuid)
        if started is not None:
            return started
        view = draft_view(tree)
        if not htmx.is_partial(request):
            messages.warning(request, error.message)
            return redirect("wizard:draft", slug, uuid)
        context = {
            "answer_url": reverse("wizard:draft", args=[slug, uuid]),
            "draft_club": club,
            "draft_played_on": (data.played_on or timezone.localdate()).isoformat(),
        }
        return _render_step(request, view, None, error.message, **context)
    except IntegrityError:
        # The ruling exists: this form was submitted before, or two first answers came at once
        # (a double click) and the other one created it; treat this one as an answer to it.
        return _answer_existing(request, _ruling_to_direct(request, uuid))
    return _show(request, result.ruling, result.number)


# --------------------------------------------------------------------------------------------
# Steps


@never_cache
@require_GET
def ruling(request: HttpRequest, uuid: uuid_lib.UUID) -> HttpResponse:
    """Where the ruling stands: the final ruling, the outcome, or the current question."""
    found = get_for_user(request, Ruling.objects.all(), uuid=uuid)
    if found.training_case_id:
        # A practice belongs with its case: the situation above the question, and feedback
        # instead of a final live ruling at the end.
        return redirect("training:attempt", uuid=found.uuid)
    if found.status == Status.FINAL or not found.snapshot_id:
        if found.is_free and found.status != Status.FINAL:
            return redirect(state_url(found))  # a free draft goes on in its own form
        # A saved ruling has one page, its record in the archive; old links still lead there
        # (for good once it is final: a final ruling never reopens).
        return redirect("archive:detail", uuid=found.uuid, permanent=found.status == Status.FINAL)
    _check_directs(request, found)
    return _render_step(request, step_view(found), found)


@never_cache
@require_GET
def step(request: HttpRequest, uuid: uuid_lib.UUID, number: int) -> HttpResponse:
    found = _ruling_to_direct(request, uuid)
    if number < 1:
        raise Http404
    if found.training_case_id:
        return redirect(f"{reverse('training:attempt', args=[found.uuid])}?stap={number}")
    current = len(found.path) + 1
    if (
        found.status == Status.FINAL
        or not found.snapshot_id
        or number > current
        or (number == current and found.outcome_key)
    ):
        return redirect(state_url(found))
    return _render_step(request, step_view(found, number, request.GET.get("vraag", "")), found)


def _answer_existing(request: AuthenticatedHttpRequest, found: Ruling) -> HttpResponse:
    data = read_answer(request.POST)
    if data is None:
        return _show(request, found, error=str(WizardError.MESSAGES[WizardError.NOT_A_CHOICE]))
    try:
        result = wizard.answer(
            found, data.node, data.step, data.choice, request.user, revision=data.revision
        )
    except WizardError as error:
        return _show(request, found, error=error.message)
    return _show(request, found, result.number)


@require_POST
def answer(request: AuthenticatedHttpRequest, uuid: uuid_lib.UUID) -> HttpResponse:
    return _answer_existing(request, _ruling_to_direct(request, uuid))


# --------------------------------------------------------------------------------------------
# Outcome: context, defer, resume, save


def _context_response(
    request: HttpRequest, found: Ruling, form: ContextForm, saved: bool = False
) -> HttpResponse:
    if htmx.is_partial(request):
        context = {"ruling": found, "context_form": form, "context_saved": saved}
        return htmx.render(request, STEP_TEMPLATE, context, partial="context")
    return _render_step(request, step_view(found), found, context_form=form)


@never_cache
@require_http_methods(["GET", "POST"])
def context(request: AuthenticatedHttpRequest, uuid: uuid_lib.UUID) -> HttpResponse:
    """POST: keep the table context. GET (htmx): the form, loaded after the outcome."""
    found = _ruling_to_direct(request, uuid)
    if request.method == "GET":
        if not htmx.is_partial(request) or found.status == Status.FINAL or not found.outcome_key:
            return redirect(state_url(found))
        return _context_response(request, found, ContextForm.for_ruling(found))
    form = ContextForm(request.POST, mode=found.mode)
    if not form.is_valid():
        return _context_response(request, found, form)
    try:
        wizard.edit_context(found, form.cleaned_data, request.user)
    except WizardError as error:
        return _show(request, found, error=error.message)
    if not htmx.is_partial(request):
        messages.success(request, _("De gegevens zijn bewaard."))
        return redirect(state_url(found))
    return _context_response(request, found, ContextForm.for_ruling(found), saved=True)


@require_POST
def table(request: AuthenticatedHttpRequest, uuid: uuid_lib.UUID) -> HttpResponse:
    """Round, table and board at any step (the rest of the details follow at the outcome)."""
    found = _ruling_to_direct(request, uuid)
    form = TableForm(request.POST)
    context: dict[str, Any]
    if form.is_valid():
        try:
            wizard.edit_context(found, form.cleaned_data, request.user)
        except WizardError as error:
            return _show(request, found, error=error.message)
        if not htmx.is_partial(request):
            messages.success(request, _("Tafel en spel zijn bewaard."))
            return redirect(state_url(found))
        # The saved values, as every step shows them (wizard_tags.table_fields).
        context = {"ruling": found, "table_form": None, "table_saved": True}
    elif not htmx.is_partial(request):
        messages.warning(request, _("Tafel en spel niet bewaard: controleer de getallen."))
        return redirect(state_url(found))
    else:
        context = {"ruling": found, "table_form": form, "table_saved": False}
    return htmx.render(request, STEP_TEMPLATE, context, partial="table")


@require_POST
def save(request: AuthenticatedHttpRequest, uuid: uuid_lib.UUID) -> HttpResponse:
    found = _ruling_to_direct(request, uuid)
    form = ContextForm(request.POST, for_save=True, mode=found.mode)
    if not form.is_valid():
        return _context_response(request, found, form)
    try:
        wizard.save(found, request.user, context=form.cleaned_data)
    except WizardError as error:
        return _show(request, found, error=error.message)
    messages.success(request, _("De arbitrage is definitief opgeslagen."))
    url = state_url(found)
    return htmx.redirect(request, url)


def _set_aside(
    request: AuthenticatedHttpRequest, found: Ruling, move: Callable[[], object], done: str
) -> HttpResponse:
    """Defer or discard: back home with ``done``, or back to the ruling saying why not."""
    try:
        move()
    except WizardError as error:
        messages.warning(request, error.message)
        return redirect(state_url(found))
    messages.info(request, done)
    return redirect("home")


@require_POST
def defer(request: AuthenticatedHttpRequest, uuid: uuid_lib.UUID) -> HttpResponse:
    found = _ruling_to_direct(request, uuid)
    return _set_aside(
        request,
        found,
        lambda: wizard.defer(found, request.user),
        _("De arbitrage is uitgesteld. U vindt haar op de startpagina om te hervatten."),
    )


@require_POST
def discard(request: AuthenticatedHttpRequest, uuid: uuid_lib.UUID) -> HttpResponse:
    found = _ruling_to_direct(request, uuid)
    reason = request.POST.get("reason", "").strip()[:200]
    return _set_aside(
        request,
        found,
        lambda: wizard.discard(found, request.user, reason),
        _("De arbitrage is verworpen. Ze blijft bewaard in het archief (status ‘verworpen’)."),
    )


@require_POST
def resume(request: AuthenticatedHttpRequest, uuid: uuid_lib.UUID) -> HttpResponse:
    found = _ruling_to_direct(request, uuid)
    try:
        wizard.resume(found, request.user)
    except WizardError as error:
        messages.warning(request, error.message)
    return redirect(state_url(found))


# --------------------------------------------------------------------------------------------
# Home


def home(request: AuthenticatedHttpRequest) -> HttpResponse:
    club_ids = {m.club_id for m in memberships(request)}
    rulings = open_rulings(request.user, club_ids)
    titles = localised_titles(r.tree_slug for r in rulings) if rulings else {}
    return render(request, "rulings/home.html", {"open_rulings": rulings, "tree_titles": titles})
