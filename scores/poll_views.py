"""A ruling's player poll (issue 33): /arbitrages/<uuid>/peiling/.

- ``poll``: the director's page: prepare or change the poll, the tally with its 16B1(b)
  suggestion, the answers, a form to type in the answers of a poll sheet, and links to the
  polling screen and the sheet.
- ``screen``: the polling screen for the director's own device handed to the polled player:
  only the hand, the auction and a bidding box with the legal calls; earlier answers are never
  shown. After an answer it says to hand the device back. A plain form, no JavaScript needed.
- ``sheet``: the poll on one printed page, with rows to fill in.

Directors, reviewers and admins of the ruling's club; other members 403, other clubs 404.
Every write is a planner of ``rulings.polling`` with its audit event.
"""

from __future__ import annotations

from typing import Any
from uuid import UUID

from django.contrib import messages
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from clubs.access import AuthenticatedHttpRequest, get_for_user
from clubs.models import Role
from lib.bridge import Seat
from rulings import polling
from rulings.errors import WizardError
from rulings.models import Poll, PollAnswer, Ruling
from rulings.poll_models import poll_of
from scores import polls
from scores.poll_forms import AnswerForm, PrepareForm, TypedAnswerForm

POLL_ROLES = (Role.DIRECTOR, Role.REVIEWER)  # the admin role includes them


def _ruling(request: AuthenticatedHttpRequest, uuid: UUID) -> Ruling:
    return get_for_user(
        request, Ruling.objects.select_related("club", "poll"), roles=POLL_ROLES, uuid=uuid
    )


def _existing(ruling: Ruling) -> Poll:
    poll = poll_of(ruling)
    if poll is None:
        raise Http404
    return poll


def _prepare_form(ruling: Ruling, poll: Poll | None, data: Any = None) -> PrepareForm:
    if poll is not None:
        initial: dict[str, Any] = {
            "dealer": poll.dealer,
            "vulnerability": poll.vulnerability,
            "auction": poll.auction,
            "hand": poll.hand,
            "question": poll.question,
            "table_call": poll.table_call,
        }
    else:
        initial = polls.initial_for(ruling)
    initial["sequence"] = ruling.audit_sequence
    return PrepareForm(
        data,
        initial=initial,
        deal_hand=lambda seat: polls.hand_from_deal(ruling, Seat(seat)),
    )


def _page(
    request: AuthenticatedHttpRequest,
    ruling: Ruling,
    prepare_form: PrepareForm | None = None,
    typed_form: TypedAnswerForm | None = None,
    status: int = 200,
) -> HttpResponse:
    poll = poll_of(ruling)
    view = None
    if poll is not None:
        answers = list(PollAnswer.objects.filter(poll=poll))
        view = polls.view_of(poll, answers, ruling)
        typed_form = typed_form or TypedAnswerForm(
            auction=view.auction, initial={"seen": len(answers)}
        )
    context = {
        "ruling": ruling,
        "poll": view,
        "form": prepare_form or _prepare_form(ruling, poll),
        "typed_form": typed_form,
        "record": reverse("archive:detail", args=[ruling.uuid]),
    }
    return render(request, "scores/poll.html", context, status=status)


@require_GET
def poll(request: AuthenticatedHttpRequest, uuid: UUID) -> HttpResponse:
    return _page(request, _ruling(request, uuid))


@require_POST
def prepare(request: AuthenticatedHttpRequest, uuid: UUID) -> HttpResponse:
    ruling = _ruling(request, uuid)
    form = _prepare_form(ruling, poll_of(ruling), request.POST)
    if not form.is_valid():
        return _page(request, ruling, prepare_form=form, status=400)
    values = {name: form.cleaned_data[name] for name in polling.POLL_FIELDS}
    try:
        polling.prepare(ruling, request.user, values, form.cleaned_data["sequence"])
    except polling.PollLocked:
        messages.warning(
            request,
            _(
                "De peiling heeft al antwoorden: de hand en de bieding liggen vast. Trek de "
                "antwoorden in om ze te wijzigen; de vraag en de bieding aan tafel mogen wel."
            ),
        )
        return _page(request, ruling, prepare_form=form, status=409)
    except polling.StalePoll:
        messages.warning(
            request, _("De peiling is intussen gewijzigd; controleer en probeer opnieuw.")
        )
        return _page(
            request, Ruling.objects.select_related("club", "poll").get(pk=ruling.pk), status=409
        )
    except WizardError as error:
        messages.error(request, str(error))
        return redirect("scores:poll", uuid=ruling.uuid)
    messages.success(request, _("De peiling is opgeslagen."))
    return redirect("scores:poll", uuid=ruling.uuid)


@require_POST
def typed(request: AuthenticatedHttpRequest, uuid: UUID) -> HttpResponse:
    """An answer from a poll sheet, typed in by the director."""
    ruling = _ruling(request, uuid)
    poll = _existing(ruling)
    form = TypedAnswerForm(request.POST, auction=polls.auction_of(poll))
    if not form.is_valid():
        return _page(request, ruling, typed_form=form, status=400)
    return _record(request, poll, form, reverse("scores:poll", args=[ruling.uuid]) + "#antwoorden")


def _record(
    request: AuthenticatedHttpRequest, poll: Poll, form: AnswerForm, target: str
) -> HttpResponse:
    try:
        polling.record_answer(poll, request.user, form.cleaned_data, form.cleaned_data["seen"])
    except polling.StalePoll:
        messages.warning(request, _("Dit antwoord was al opgeslagen."))
    except WizardError as error:
        messages.error(request, str(error))
    else:
        messages.success(request, _("Het antwoord is opgeslagen."))
    return redirect(target)


@require_http_methods(["GET", "POST"])
def screen(request: AuthenticatedHttpRequest, uuid: UUID) -> HttpResponse:
    """The polled player's screen: hand, auction, bidding box; after an answer, "hand the
    device back" (``?klaar=1``) with a button for the next player."""
    ruling = _ruling(request, uuid)
    poll = _existing(ruling)
    auction = polls.auction_of(poll)
    status = 200
    if request.method == "POST":
        form = AnswerForm(request.POST, auction=auction)
        if form.is_valid():
            target = reverse("scores:poll_screen", args=[ruling.uuid]) + "?klaar=1"
            return _record(request, poll, form, target)
        status = 400
    else:
        seen = PollAnswer.objects.filter(poll=poll).count()
        form = AnswerForm(auction=auction, initial={"seen": seen})
    context = {
        "ruling": ruling,
        "poll": poll,
        "hand": polls.hand_lines(poll.hand),
        "diagram": polls.diagram(auction),
        "box": polls.bidding_box(auction),
        "form": form,
        "done": request.method == "GET" and request.GET.get("klaar") == "1",
        "chosen": form["call"].value() or "",
        "considered": form["considered"].value() or [],
    }
    return render(request, "scores/poll_screen.html", context, status=status)


@require_POST
def withdraw(request: AuthenticatedHttpRequest, uuid: UUID, pk: int) -> HttpResponse:
    """Take an answer back (typed wrong, or not a peer): kept, marked, no longer counted."""
    ruling = _ruling(request, uuid)
    poll = _existing(ruling)
    try:
        if polling.withdraw(poll, request.user, pk):
            messages.success(request, _("Het antwoord is ingetrokken; het telt niet meer mee."))
    except WizardError as error:
        messages.error(request, str(error))
    return redirect(reverse("scores:poll", args=[ruling.uuid]) + "#antwoorden")


@require_GET
def sheet(request: AuthenticatedHttpRequest, uuid: UUID) -> HttpResponse:
    """The poll on paper: hand, auction, question and rows for eight players."""
    ruling = _ruling(request, uuid)
    poll = _existing(ruling)
    auction = polls.auction_of(poll)
    context = {
        "ruling": ruling,
        "poll": poll,
        "hand": polls.hand_lines(poll.hand),
        "diagram": polls.diagram(auction),
        "seat": auction.next_seat.label if auction is not None else "",
        "rows": range(8),
    }
    return render(request, "scores/poll_sheet.html", context)
