"""Wizard pages: the first question and answer, steps, outcome, context, defer/resume, save.

Every page works as plain POST → redirect → GET; with htmx the step swaps in place (the
``step`` partial of ``rulings/wizard_step.html``) and the URL of the step shown is pushed, so
the browser's back and forward buttons and a reload show the same step. Going back is a plain
link to an earlier step; only answering it differently changes the ruling (``wizard.answer``).
"""

from __future__ import annotations

import uuid as uuid_lib
from collections.abc import Callable
from datetime import date
from typing import Any
from urllib.parse import urlencode

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django_htmx.http import push_url

from clubs.access import (
    AuthenticatedHttpRequest,
    clubs,
    get_club,
    get_for_user,
    roles_in,
)
from clubs.models import Club, Role
from lib import htmx
from lib.fields import day_in_range
from rulings import hand_over as handing
from rulings import polling, session_memory, wizard
from rulings.forms import AnswerForm, ContextForm, FirstAnswerForm, HandOverForm, TableForm
from rulings.models import Ruling, Status
from rulings.steps import StepView, draft_view, step_view
from rulings.wizard import WizardError
from trees import snapshot
from trees.models import TreeSnapshot
from trees.spec import Snapshot

STEP_TEMPLATE = "rulings/wizard_step.html"
# How an htmx step carries the table form (see _show).
WHOLE, KEPT, ON_OPEN = "whole", "kept", "on_open"
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
    return _check_directs(request, get_for_user(request, Ruling.objects.all(), uuid=uuid))


def state_url(ruling: Ruling, number: int | None = None) -> str:
    """The URL of step ``number`` (default: where the ruling stands now)."""
    if ruling.is_free and ruling.status != Status.FINAL:
        return reverse("wizard:free", args=[ruling.uuid])
    current = len(ruling.path) + 1
    at_end = number is None or number >= current
    if ruling.status == Status.FINAL or not ruling.snapshot_id:
        return reverse("archive:detail", args=[ruling.uuid])
    if at_end and ruling.outcome_key:
        return reverse("wizard:ruling", args=[ruling.uuid])
    return reverse("wizard:step", args=[ruling.uuid, current if at_end else number])


def _render_step(
    request: HttpRequest,
    view: StepView,
    ruling: Ruling | None,
    error: str = "",
    **extra: Any,
) -> HttpResponse:
    context = {"view": view, "ruling": ruling, "error": error, **extra}
    if ruling is not None:
        context.setdefault("answer_url", reverse("wizard:answer", args=[ruling.uuid]))
        if view.is_outcome and "context_form" not in context and not extra.get("lazy_context"):
            context["context_form"] = ContextForm.for_ruling(
                ruling, session_memory.recalled(request)
            )
        if not view.is_outcome and extra.get("table_part", WHOLE) == WHOLE:
            context.setdefault("table_form", TableForm.for_ruling(ruling))
        if view.node.poll:  # a question a player poll answers (16B1(b)): its tally beside it
            context["poll_tally"] = polling.beside(ruling)
    return htmx.render(request, STEP_TEMPLATE, context, partial="step")


def _show(
    request: HttpRequest,
    ruling: Ruling,
    number: int | None = None,
    error: str = "",
    table_part: str = WHOLE,
) -> HttpResponse:
    """The response after a POST: with htmx the step itself (URL pushed), else a redirect.
    The question a search opened the tree at (``vraag``) goes along to the next step.

    ``table_part``, how an htmx step carries the table form (round, table, board, pairs):
    KEPT after an answer on this ruling's question page, which shows the form (htmx keeps it,
    ``hx-preserve``, with what the director typed and did not save yet); ON_OPEN after a first
    answer (the draft page had none: the form is fetched when the director opens it); WHOLE
    otherwise."""
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
    return push_url(
        _render_step(request, view, ruling, error, lazy_context=True, table_part=table_part), url
    )


# --------------------------------------------------------------------------------------------
# The first question and its answer (the start and home pages: rulings/start_views.py)


def _draft_defaults(request: HttpRequest) -> dict[str, Any]:
    directing = clubs(request, roles=DIRECTING)
    if not directing:
        raise PermissionDenied
    wanted = request.GET.get("club", "")
    club = next((c for c in directing if c.slug == wanted), directing[0])
    played_on = request.GET.get("datum", "")
    try:
        day = date.fromisoformat(played_on)
    except ValueError:
        day = timezone.localdate()
    played_on = (day if day_in_range(day) else timezone.localdate()).isoformat()
    return {"draft_club": club, "draft_played_on": played_on}


@never_cache
def draft(request: AuthenticatedHttpRequest, slug: str, uuid: uuid_lib.UUID) -> HttpResponse:
    """The first question of a ruling that starts with its first answer."""
    if request.method == "POST":
        return _first_answer(request, slug, uuid)
    if Ruling.objects.filter(uuid=uuid).exists():
        return redirect(state_url(_ruling_to_direct(request, uuid), 1))
    try:
        tree = wizard.start(slug)
    except WizardError:
        raise Http404 from None
    return _render_draft(request, tree, slug, uuid, **_draft_defaults(request))


def _render_draft(
    request: HttpRequest, tree: Snapshot, slug: str, uuid: uuid_lib.UUID, error: str = "", **extra
) -> HttpResponse:
    """The first question; on the way to the question a search opened the tree at (``vraag``:
    in the link, or sent back with a refused first answer)."""
    answer_url = reverse("wizard:draft", args=[slug, uuid])
    view = draft_view(tree, toward=request.GET.get("vraag") or request.POST.get("vraag", ""))
    return _render_step(request, view, None, error, answer_url=answer_url, **extra)


def _directing_club(request: AuthenticatedHttpRequest, slug: str) -> Club:
    """The club a new ruling is filed under: the one posted (where the user directs), else the
    user's first club as director."""
    if slug:
        return get_club(request, slug, roles=DIRECTING)
    directing = clubs(request, roles=DIRECTING)
    if not directing:
        raise PermissionDenied
    return directing[0]


def _first_answer(
    request: AuthenticatedHttpRequest, slug: str, uuid: uuid_lib.UUID
) -> HttpResponse:
    """The first answer starts the ruling (``wizard.begin``). For a uuid stored already (the
    form sent again, the back button, a double click) it is an answer to that ruling, which
    changes nothing or is refused as stale."""
    form = FirstAnswerForm(request.POST)
    if not form.is_valid():
        return _first_refused(
            request, slug, uuid, _("Dit formulier was onvolledig. Er is niets opgeslagen.")
        )
    data = form.cleaned_data
    try:
        tree = snapshot.get(data["snapshot"])
    except TreeSnapshot.DoesNotExist:
        raise Http404 from None
    if tree.slug != slug:
        raise Http404
    club = _directing_club(request, data["club"])
    try:
        result = wizard.begin(
            uuid=uuid,
            club=club,
            director=request.user,
            tree=tree,
            node_key=data["node"],
            choice_key=data["choice"],
            played_on=data["played_on"],
        )
    except WizardError as error:
        played_on = (data["played_on"] or timezone.localdate()).isoformat()
        context = {"draft_club": club, "draft_played_on": played_on}
        return _first_refused(request, slug, uuid, error.message, tree, context)
    # Nothing is written to a ruling stored already (see wizard.plan_first_answer): whose it
    # is, is checked before it is shown. The user's clubs are known by now (the club above).
    if not roles_in(request, result.ruling.club_id):
        raise Http404
    return _show(request, _check_directs(request, result.ruling), result.number, table_part=ON_OPEN)


def _first_refused(
    request: AuthenticatedHttpRequest,
    slug: str,
    uuid: uuid_lib.UUID,
    message: str,
    tree: Snapshot | None = None,
    context: dict[str, Any] | None = None,
) -> HttpResponse:
    """A refused first answer: where the ruling is stored already, that ruling with the
    reason; else the first question again."""
    if Ruling.objects.filter(uuid=uuid).exists():
        return _show(request, _ruling_to_direct(request, uuid), error=message)
    if tree is None or not htmx.is_partial(request):
        messages.warning(request, message)
        return redirect("wizard:draft", slug, uuid)
    return _render_draft(request, tree, slug, uuid, message, **(context or {}))


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


@require_POST
def answer(request: AuthenticatedHttpRequest, uuid: uuid_lib.UUID) -> HttpResponse:
    found = _ruling_to_direct(request, uuid)
    form = AnswerForm(request.POST)
    if not form.is_valid():
        refused = str(WizardError.MESSAGES[WizardError.NOT_A_CHOICE])
        return _show(request, found, error=refused, table_part=KEPT)
    data = form.cleaned_data
    try:
        result = wizard.answer(
            found,
            data["node"],
            data["step"],
            data["choice"],
            request.user,
            revision=data["revision"],
        )
    except WizardError as error:
        return _show(request, found, error=error.message, table_part=KEPT)
    return _show(request, found, result.number, table_part=KEPT)


@require_POST
def hand_over(request: AuthenticatedHttpRequest, uuid: uuid_lib.UUID) -> HttpResponse:
    """ "Verder met de beslisboom …": the same ruling goes on at the other tree's first
    question (rulings/hand_over.py). A stale or repeated form changes nothing."""
    found = _ruling_to_direct(request, uuid)
    form = HandOverForm(request.POST)
    refused = str(WizardError.MESSAGES[WizardError.NO_HAND_OVER])
    if not form.is_valid():
        return _show(request, found, error=refused)
    data = form.cleaned_data
    try:
        to = wizard.start(data["tree"])
        result = handing.hand_over(found, data["outcome"], data["revision"], to, request.user)
    except WizardError as error:
        return _show(request, found, error=error.message)
    return _show(request, found, result.number)


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
        remembered = session_memory.recalled(request)
        return _context_response(request, found, ContextForm.for_ruling(found, remembered))
    form = ContextForm.posted(request.POST, found)
    if not form.is_valid():
        return _context_response(request, found, form)
    try:
        wizard.edit_context(found, form.cleaned_data, request.user)
    except WizardError as error:
        return _show(request, found, error=error.message)
    session_memory.remember(request, form.cleaned_data)
    if not htmx.is_partial(request):
        messages.success(request, _("De gegevens zijn bewaard."))
        return redirect(state_url(found))
    return _context_response(request, found, ContextForm.for_ruling(found), saved=True)


@never_cache
@require_http_methods(["GET", "POST"])
def table(request: AuthenticatedHttpRequest, uuid: uuid_lib.UUID) -> HttpResponse:
    """Round, table and board at any step (the rest of the details follow at the outcome).
    GET: the form alone, for a step that sent it ON_OPEN (without htmx: the step itself)."""
    found = _ruling_to_direct(request, uuid)
    if request.method == "GET":
        if not htmx.is_partial(request):
            return redirect(state_url(found))
        shown = {"ruling": found, "table_form": TableForm.for_ruling(found)}
        return htmx.render(request, STEP_TEMPLATE, shown, partial="table_form")
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
        context = {"ruling": found, "table_form": TableForm.for_ruling(found), "table_saved": True}
    elif not htmx.is_partial(request):
        messages.warning(request, _("Tafel en spel niet bewaard: controleer de getallen."))
        return redirect(state_url(found))
    else:
        context = {"ruling": found, "table_form": form, "table_saved": False}
    return htmx.render(request, STEP_TEMPLATE, context, partial="table")


@require_POST
def save(request: AuthenticatedHttpRequest, uuid: uuid_lib.UUID) -> HttpResponse:
    found = _ruling_to_direct(request, uuid)
    form = ContextForm.posted(request.POST, found, for_save=True)
    if not form.is_valid():
        return _context_response(request, found, form)
    try:
        record = bool(form.cleaned_data.get("record_pair"))
        wizard.save(found, request.user, context=form.cleaned_data, record_pair=record)
    except WizardError as error:
        return _show(request, found, error=error.message)
    session_memory.remember(request, form.cleaned_data)
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


def _where(request: AuthenticatedHttpRequest, found: Ruling) -> dict[str, Any] | None:
    """The table and board sent with "Uitstellen" (both needed: three deferred rulings must
    tell apart at the end of the evening), or None when one is missing or not a number."""
    form = TableForm(
        {"round": found.round, **{name: request.POST.get(name) for name in ("table", "board")}}
    )
    if not form.is_valid() or None in (form.cleaned_data["table"], form.cleaned_data["board"]):
        return None
    return {name: form.cleaned_data[name] for name in ("table", "board")}


@require_POST
def defer(request: AuthenticatedHttpRequest, uuid: uuid_lib.UUID) -> HttpResponse:
    found = _ruling_to_direct(request, uuid)
    where = _where(request, found)
    if where is None:
        messages.warning(
            request, _("Niet uitgesteld: geef tafel en spel, zodat u de arbitrage terugvindt.")
        )
        return redirect(state_url(found))
    try:
        wizard.edit_context(found, where, request.user)
    except WizardError as error:
        messages.warning(request, error.message)
        return redirect(state_url(found))
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
    # Deferred at an outcome that waits for the end of play: back at the question it names.
    return redirect(state_url(found, wizard.resume_step(found)))
