"""Training sessions: a trainer opens one for chosen cases, trainees join it with its code and
practise its cases, the trainer follows their answers (and the room's poll, issue 33).

Access as everywhere: ``clubs.access`` (404 for other clubs' sessions); a trainee sees a
session only after joining it.
"""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from clubs import throttle
from clubs.access import AuthenticatedHttpRequest, clubs
from lib import htmx
from training import practice, room_polls
from training.forms import JoinForm, TrainingSessionForm
from training.models import SessionParticipant
from training.views import TRAINERS, _get_session_for_participant, _get_session_for_trainer


def session_create(request: AuthenticatedHttpRequest) -> HttpResponse:
    trainer_clubs = clubs(request, TRAINERS)
    if not trainer_clubs:
        raise PermissionDenied
    cases = practice.cases_for([c.pk for c in trainer_clubs])
    form = TrainingSessionForm(request.POST or None, clubs=trainer_clubs, cases=cases)
    if request.method == "POST" and form.is_valid():
        session = form.save(commit=False)
        session.club = form.chosen_club()
        session.trainer = request.user
        session.code = practice.new_join_code()
        session.save()
        form.save_m2m()
        return redirect("training:session", pk=session.pk)
    return render(request, "training/session_form.html", {"form": form})


def session_detail(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    session = _get_session_for_trainer(request, pk)
    cases, rows = practice.session_grid(session)
    context = {"session": session, "cases": cases, "rows": rows, "now": timezone.now()}
    context |= room_polls.trainer_context(session, cases)  # the room's poll (issue 33)
    return htmx.render(request, "training/session.html", context, partial="results")


@require_POST
def session_close(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    session = _get_session_for_trainer(request, pk)
    if session.is_open:
        session.closed_at = timezone.now()
        session.save(update_fields=["closed_at"])
        messages.success(request, _("De sessie is gesloten."))
    return redirect("training:session", pk=session.pk)


def join(request: AuthenticatedHttpRequest) -> HttpResponse:
    form = JoinForm(request.POST or request.GET or None)
    if request.method == "POST" and throttle.locked(throttle.JOIN, request, request.user):
        # Codes are short: guessing is throttled like the login (clubs/throttle.py).
        return render(request, "training/join.html", {"form": form, "locked": True}, status=429)
    if request.method == "POST" and form.is_valid():
        session = practice.find_open_session(form.cleaned_data["code"], request.user)
        if session is not None:
            throttle.succeeded(throttle.JOIN, request, request.user)
            SessionParticipant.objects.get_or_create(session=session, user=request.user)
            return redirect("training:session_practice", pk=session.pk)
        throttle.failed(throttle.JOIN, request, request.user)
        form.add_error("code", _("Er is geen open sessie met deze code in uw club."))
    status = 400 if request.method == "POST" else 200
    return render(request, "training/join.html", {"form": form}, status=status)


def session_practice(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    session = _get_session_for_participant(request, pk)
    cases, rows = practice.session_grid(session, only_user=request.user)
    cells = rows[0].cells if rows else []
    context = {"session": session, "items": list(zip(cases, cells, strict=True))}
    context |= room_polls.trainee_context(session, request.user)
    return render(request, "training/session_practice.html", context)
