"""Training pages (*oefenen*): cases, practice feedback and free exploration (the sessions
are in ``training/session_views.py``).

Thin views: access checks through ``clubs.access`` (404 for other clubs' data), logic in
``training/`` (files, grading, practice, explore). Every htmx request has a plain equivalent
(a link or a form post).
"""

from __future__ import annotations

import uuid as uuid_lib

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.db.models import Count
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from clubs.access import AuthenticatedHttpRequest, clubs, get_for_user, roles_in
from clubs.models import Role
from lib import htmx
from lib.fields import parse_id
from lib.i18n import active_language
from lib.text import prose
from rulings import wizard
from rulings.forms import ContextForm, FirstAnswerForm
from rulings.models import Mode, Ruling
from rulings.steps import StepView, draft_view, step_view
from training import files, grading, practice
from training.explore import explore_walk, split_path
from training.forms import JoinForm, TrainingCaseForm
from training.models import SessionParticipant, TrainingCase, TrainingResult, TrainingSession
from training.tags import tag_name
from trees.models import Tree, TreeSnapshot
from trees.snapshot import get as snapshot_get

TRAINERS = [Role.TRAINER]


def _club_ids(request: AuthenticatedHttpRequest) -> list[int]:
    return [club.pk for club in clubs(request)]


def _get_case_for_user(request: AuthenticatedHttpRequest, pk: int) -> TrainingCase:
    """A shipped case, a case of one of the user's clubs, or a case of a session the user
    joined as a guest; 404 otherwise."""
    case = (
        practice.cases_for(_club_ids(request)).filter(pk=pk).first()
        or TrainingCase.objects.filter(pk=pk, sessions__participants__user=request.user).first()
    )
    if case is None:
        raise Http404
    return case


def _get_own_case_for_trainer(request: AuthenticatedHttpRequest, pk: int) -> TrainingCase:
    """A club's own case, for a trainer of that club (shipped cases change only in files)."""
    return get_for_user(request, TrainingCase.objects.all(), roles=TRAINERS, pk=pk)


def _get_session_for_trainer(request: AuthenticatedHttpRequest, pk: int) -> TrainingSession:
    return get_for_user(
        request, TrainingSession.objects.select_related("club", "trainer"), roles=TRAINERS, pk=pk
    )


def _get_session_for_participant(request: AuthenticatedHttpRequest, pk: int) -> TrainingSession:
    participant = (
        SessionParticipant.objects.filter(session_id=pk, user=request.user)
        .select_related("session__club", "session__trainer")
        .first()
    )
    if participant is None:
        raise Http404
    return participant.session


def _get_attempt_for_user(request: AuthenticatedHttpRequest, uuid: uuid_lib.UUID) -> Ruling:
    """A practice ruling: the trainee's own, or any of the club's for its trainers, and a
    guest's practice in one of the club's sessions for the club's trainers."""
    practices = Ruling.objects.filter(mode=Mode.TRAINING, training_case__isnull=False)
    practices = practices.select_related("training_case", "training_session", "director")
    try:
        ruling = get_for_user(request, practices, uuid=uuid)
    except Http404:
        trainer_clubs = [club.pk for club in clubs(request, TRAINERS)]
        guest = practices.filter(uuid=uuid, training_session__club_id__in=trainer_clubs).first()
        if guest is None:
            raise
        return guest
    if ruling.director_id != request.user.pk and Role.TRAINER not in roles_in(
        request, ruling.club_id
    ):
        raise Http404
    return ruling


def _can_edit(request: AuthenticatedHttpRequest, case: TrainingCase) -> bool:
    return case.club_id is not None and Role.TRAINER in roles_in(request, case.club_id)


# --------------------------------------------------------------------------------------------
# Overview and history


def index(request: AuthenticatedHttpRequest) -> HttpResponse:
    cases = practice.cases_for(_club_ids(request))
    tree = request.GET.get("boom", "")
    if tree:
        cases = cases.filter(tree_slug=tree)
    trainer_clubs = clubs(request, TRAINERS)
    tree_choices = files.tree_choices(active_language())
    titles = dict(tree_choices)
    context = {
        "cases": [(case, titles.get(case.tree_slug, case.tree_slug)) for case in cases],
        "tree": tree,
        "tree_choices": tree_choices,
        "scores": practice.tree_scores(request.user),
        "join_form": JoinForm(),
        "is_trainer": bool(trainer_clubs),
        "trainer_sessions": TrainingSession.objects.filter(club__in=trainer_clubs)
        .annotate(participant_count=Count("participants"))
        .order_by("-created_at")[:10],
        "my_sessions": TrainingSession.objects.filter(
            participants__user=request.user, closed_at__isnull=True
        ).order_by("-created_at"),
    }
    return render(request, "training/index.html", context)


def history(request: AuthenticatedHttpRequest) -> HttpResponse:
    attempts = (
        Ruling.objects.filter(director=request.user, mode=Mode.TRAINING)
        .exclude(training_case=None)
        .select_related("training_case", "training_result")
        .order_by("-created_at")[:200]
    )
    context = {
        "attempts": attempts,
        "scores": practice.tree_scores(request.user),
    }
    return render(request, "training/history.html", context)


# --------------------------------------------------------------------------------------------
# Cases


def case_detail(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    case = _get_case_for_user(request, pk)
    session = None
    if request.GET.get("sessie"):
        session_id = parse_id(request.GET["sessie"])
        if session_id is None:
            raise Http404
        session = _get_session_for_participant(request, session_id)
    attempts = (
        Ruling.objects.filter(director=request.user, mode=Mode.TRAINING, training_case=case)
        .select_related("training_result")
        .order_by("-created_at")
    )
    context = {
        "case": case,
        "session": session,
        "situation": prose(case.situation),
        "attempts": attempts,
        "can_edit": _can_edit(request, case),
        "can_copy": case.is_shipped and bool(clubs(request, TRAINERS)),
        "tree_title": practice.tree_title(case.tree_slug, active_language()),
    }
    return render(request, "training/case.html", context)


@require_POST
def case_start(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """A fresh ruling id for every start, in the URL (as in the wizard): going back to the
    first question after answering it finds the practice instead of starting a second one."""
    case = _get_case_for_user(request, pk)
    session = _posted_session(request, case)
    url = reverse("training:draft", args=[case.pk, uuid_lib.uuid4()])
    return redirect(f"{url}?sessie={session.pk}" if session else url)


def _posted_session(
    request: AuthenticatedHttpRequest, case: TrainingCase
) -> TrainingSession | None:
    raw = request.POST.get("sessie") or request.GET.get("sessie")
    if not raw:
        return None
    session_id = parse_id(raw)
    if session_id is None:
        raise Http404
    session = _get_session_for_participant(request, session_id)
    if not session.cases.filter(pk=case.pk).exists():
        raise Http404
    if not session.is_open:
        messages.info(request, _("De sessie is gesloten; u oefent nu buiten de sessie."))
        return None
    return session


def _render_practice(
    request: AuthenticatedHttpRequest,
    case: TrainingCase,
    view: StepView,
    ruling: Ruling | None,
    **extra,
) -> HttpResponse:
    """A step of a practice inside the wizard's own step template, with the Oefening banner
    and the situation above it (both outside ``#wizard``, so they stay when htmx swaps a step)."""
    context = {
        "view": view,
        "ruling": ruling,
        "case": case,
        "situation": prose(case.situation),
        "error": "",
        **extra,
    }
    if ruling is not None:
        context.setdefault("answer_url", reverse("wizard:answer", args=[ruling.uuid]))
        if view.is_outcome:
            context["context_form"] = ContextForm.for_ruling(ruling)
    # htmx swaps ``#wizard`` (the wizard's own step partial, which has the banner); the page
    # around it (situation, banner of a first question) stays.
    return htmx.render(
        request, "training/step.html", context, partial="rulings/wizard_step.html#step"
    )


@never_cache
def draft(request: AuthenticatedHttpRequest, pk: int, uuid: uuid_lib.UUID) -> HttpResponse:
    """The first question of a practice; the practice ruling is created by the first answer."""
    case = _get_case_for_user(request, pk)
    existing = Ruling.objects.filter(uuid=uuid).first()
    if existing is not None:
        return redirect("training:attempt", uuid=_own_practice(request, existing, case).uuid)
    session = _posted_session(request, case)
    if request.method == "POST":
        return _begin(request, case, session, uuid)
    try:
        tree = wizard.start(case.tree_slug)
    except wizard.WizardError:
        raise Http404 from None
    answer_url = request.get_full_path()
    return _render_practice(request, case, draft_view(tree), None, answer_url=answer_url)


def _own_practice(request: AuthenticatedHttpRequest, ruling: Ruling, case: TrainingCase) -> Ruling:
    """The user's own practice of ``case``; any other ruling is not found."""
    if ruling.director_id != request.user.pk or ruling.training_case_id != case.pk:
        raise Http404
    return ruling


def _begin(
    request: AuthenticatedHttpRequest,
    case: TrainingCase,
    session: TrainingSession | None,
    uuid: uuid_lib.UUID,
) -> HttpResponse:
    """The first answer starts the practice through the wizard's one first-answer flow
    (``wizard.begin``): sent twice (a double click), the second is an answer to the practice
    the first one made."""
    form = FirstAnswerForm(request.POST)
    if not form.is_valid():
        messages.warning(request, _("Dit formulier was onvolledig. Er is niets opgeslagen."))
        return redirect(request.get_full_path())
    data = form.cleaned_data
    try:
        tree = snapshot_get(data["snapshot"])
    except TreeSnapshot.DoesNotExist:
        raise Http404 from None
    if tree.slug != case.tree_slug:
        raise Http404
    try:
        result = practice.begin_practice(
            request.user, case, session, data["node"], data["choice"], tree=tree, ruling_uuid=uuid
        )
    except (practice.PracticeError, wizard.WizardError) as error:
        message = error.message if isinstance(error, wizard.WizardError) else str(error)
        messages.warning(request, message)
        return redirect(request.get_full_path())
    url = reverse("training:attempt", args=[_own_practice(request, result.ruling, case).uuid])
    return htmx.redirect(request, url)


def case_create(request: AuthenticatedHttpRequest) -> HttpResponse:
    trainer_clubs = clubs(request, TRAINERS)
    if not trainer_clubs:
        raise PermissionDenied
    initial = _copy_initial(request)
    form = TrainingCaseForm(request.POST or None, clubs=trainer_clubs, initial=initial)
    if request.method == "POST" and form.is_valid():
        case = form.save(commit=False)
        case.created_by = request.user
        case.save()
        messages.success(request, _("De casus is opgeslagen."))
        return redirect("training:case", pk=case.pk)
    return _render_case_form(request, form, None)


def case_edit(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    case = _get_own_case_for_trainer(request, pk)
    if case.club is None:  # not reached: found through one of the trainer's clubs
        raise Http404
    form = TrainingCaseForm(request.POST or None, instance=case, clubs=[case.club])
    if request.method == "POST" and form.is_valid():
        form.save()
        messages.success(request, _("De casus is opgeslagen."))
        return redirect("training:case", pk=case.pk)
    return _render_case_form(request, form, case)


def _copy_initial(request: AuthenticatedHttpRequest) -> dict:
    """Start values: a copy of a visible case (``?van=``), or a tree and path from the explore
    page (``?boom=…&pad=…``)."""
    initial: dict = {}
    source_id = parse_id(request.GET.get("van", ""))
    if source_id is not None:
        source = _get_case_for_user(request, source_id)
        initial = {
            name: getattr(source, name)
            for name in (
                "title_nl",
                "title_en",
                "tree_slug",
                "situation_nl",
                "situation_en",
                "explanation_nl",
                "explanation_en",
                "difficulty",
                "expected_outcomes",
            )
        }
        initial["path_answers"] = ", ".join(choice for _n, choice in source.expected_path)
        initial["cites_text"] = ", ".join(source.cites)
        initial["tags_text"] = ", ".join(source.tags)
    if request.GET.get("boom"):
        initial["tree_slug"] = request.GET["boom"]
    if request.GET.get("pad"):
        initial["path_answers"] = ", ".join(split_path(request.GET["pad"]))
    return initial


def _render_case_form(
    request: AuthenticatedHttpRequest, form: TrainingCaseForm, case
) -> HttpResponse:
    """The case form; an htmx request (the tree was changed) gets the form again with the
    outcomes of the chosen tree, keeping what was typed."""
    if htmx.is_partial(request) and request.method == "GET":
        form = TrainingCaseForm(
            initial={**form.initial, **request.GET.dict()},
            instance=case,
            clubs=form.clubs,
        )
    context = {"form": form, "case": case}
    return htmx.render(request, "training/case_form.html", context, partial="case-form")


# --------------------------------------------------------------------------------------------
# Feedback on an attempt


@never_cache
def attempt(request: AuthenticatedHttpRequest, uuid: uuid_lib.UUID) -> HttpResponse:
    """A practice: its feedback once graded, else (for the trainee) the step it is at."""
    ruling = _get_attempt_for_user(request, uuid)
    case = ruling.training_case
    if case is None:  # not reached: _get_attempt_for_user finds practices only
        raise Http404
    result = TrainingResult.objects.filter(ruling=ruling).first()
    if result is None:
        if ruling.director_id != request.user.pk:
            raise Http404
        number = parse_id(request.GET.get("stap", ""))  # '²' is a digit to isdigit(), not to int()
        view = step_view(ruling, number or None)
        return _render_practice(request, case, view, ruling)
    tree = grading.ruling_tree(ruling)
    language = active_language()
    context = {
        "ruling": ruling,
        "case": case,
        "result": result,
        "rows": grading.compare_rows(result, tree, language),
        "outcome_title": grading.outcome_title(tree, result.outcome_key, language),
        "expected_titles": [
            grading.outcome_title(tree, key, language) for key in result.expected_outcomes
        ],
        "situation": prose(case.situation),
        "explanation": prose(case.explanation),
        "law": grading.law_texts(ruling, case),
        "own": ruling.director_id == request.user.pk,
        "tags": [tag_name(tag) for tag in case.tags],
    }
    return render(request, "training/attempt.html", context)


@require_POST
def attempt_grade(request: AuthenticatedHttpRequest, uuid: uuid_lib.UUID) -> HttpResponse:
    ruling = _get_attempt_for_user(request, uuid)
    if ruling.director_id != request.user.pk:
        raise Http404
    try:
        grading.grade(ruling)
    except wizard.WizardError as error:
        messages.warning(request, error.message)
    url = reverse("training:attempt", args=[uuid])
    return htmx.redirect(request, url)


# --------------------------------------------------------------------------------------------
# Explore


def explore_index(request: AuthenticatedHttpRequest) -> HttpResponse:
    trees = Tree.objects.select_related("edition").order_by("phase", "edition__code", "title_nl")
    return render(request, "training/explore_index.html", {"trees": trees})


def explore(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    walk = explore_walk(slug, request.GET.get("pad", ""))
    if walk is None:
        raise Http404
    if walk.corrected:
        url = reverse("training:explore", args=[slug])
        query = f"?pad={','.join(walk.answers)}" if walk.answers else ""
        return redirect(f"{url}{query}")
    context = {"walk": walk, "can_make_case": bool(clubs(request, TRAINERS))}
    return htmx.render(request, "training/explore.html", context, partial="explore-main")
