"""A trainer polls the room (issue 33): /oefenen/sessies/<id>/peiling/….

- ``open_poll`` / ``close_poll`` (the session's trainer): a poll of one of the session's cases
  that carry an auction and a poll hand; the tally shows on the session page, refreshed with
  the results.
- ``answer`` (a participant of the session): the polling screen on his own device (the hand,
  the auction, a bidding box of the legal calls, the calls also considered), once.

Another club's session, or one the user did not join, answers 404; a member who is not the
club's trainer 403 (``training.views`` for the session itself).
"""

from __future__ import annotations

import contextlib

from django.contrib import messages
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from clubs.access import AuthenticatedHttpRequest
from lib.auction import Auction, AuctionError, parse_auction
from lib.fields import parse_id
from scores import polls
from scores.poll_forms import AnswerForm
from training import practice, room_polls
from training.models import RoomPoll, RoomPollAnswer
from training.views import _get_session_for_participant, _get_session_for_trainer


class RoomAnswerForm(AnswerForm):
    """A participant's answer: he is known, so no name or level; one answer each."""

    player = None  # type: ignore[assignment]
    level = None  # type: ignore[assignment]
    seen = None  # type: ignore[assignment]


@require_POST
def open_poll(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    session = _get_session_for_trainer(request, pk)
    cases, _rows = practice.session_grid(session)
    wanted = parse_id(request.POST.get("case", ""))
    case = next((c for c in room_polls.pollable(cases) if c.pk == wanted), None)
    if case is None or not session.is_open:
        messages.error(request, _("Kies een casus van deze sessie met een bieding en een hand."))
        return redirect("training:session", pk=session.pk)
    room_polls.open_for(session, case)
    messages.success(request, _("De peiling staat open: de cursisten zien hem bij de sessie."))
    return redirect("training:session", pk=session.pk)


@require_POST
def close_poll(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    session = _get_session_for_trainer(request, pk)
    poll = room_polls.current(session)
    if poll is not None:
        room_polls.close(poll)
    return redirect("training:session", pk=session.pk)


def _auction(poll: RoomPoll) -> Auction | None:
    try:
        return parse_auction(poll.auction, poll.dealer)
    except AuctionError:
        return None


@require_http_methods(["GET", "POST"])
def answer(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    session = _get_session_for_participant(request, pk)
    poll = RoomPoll.objects.filter(session=session, closed_at=None).first()
    if poll is None or not session.is_open:  # a closed session takes no more answers
        raise Http404
    auction = _auction(poll)
    answered = RoomPollAnswer.objects.filter(poll=poll, user=request.user).exists()
    status = 200
    form = RoomAnswerForm(request.POST or None, auction=auction)
    if request.method == "POST" and not answered:
        if form.is_valid():
            # A second answer (a double tap) is not stored: one answer each.
            with contextlib.suppress(room_polls.AlreadyAnswered):
                room_polls.answer(poll, request.user, form.cleaned_data)
            messages.success(request, _("Uw antwoord is doorgegeven aan de trainer."))
            return redirect("training:session_practice", pk=session.pk)
        status = 400
    context = {
        "session": session,
        "poll": poll,
        "answered": answered,
        "hand": polls.hand_lines(poll.hand),
        "diagram": polls.diagram(auction),
        "box": polls.bidding_box(auction),
        "form": form,
        "chosen": form["call"].value() or "",
        "considered": form["considered"].value() or [],
    }
    return render(request, "training/room_poll.html", context, status=status)
