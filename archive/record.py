"""The record of one ruling (/arbitrages/<uuid>/): the one page a saved ruling has, on screen
and on paper; its reviews (checked, then confirmed before they are saved), its appeal status and
the printable appeal form.

Every member of the ruling's club reads the record; reviewers (and admins) review and handle
appeals. Other clubs' rulings answer 404. Every form is a plain POST; a review takes two: the
first shows the canonical law keys for confirmation, the second (``confirmed``, with the head of
the audit chain the reviewer read as ``seen``) saves it, once. With JavaScript both steps swap
the review box in place (its named partial, ``lib.htmx.render``), so neither POST lands in the
browser's history; a form with errors comes back with 400, a stale confirmation with 409.
"""

from __future__ import annotations

from collections.abc import Iterable
from itertools import pairwise
from typing import Any
from uuid import UUID

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from archive import auction_views
from archive.auction_views import AUCTION_ROLES
from archive.forms import AppealForm, ReviewForm
from archive.reviews import StaleAppeal, StaleReview, record_review, set_appeal
from clubs.access import AuthenticatedHttpRequest, get_for_user, roles_in
from clubs.models import Role
from lib import htmx, times
from lib.i18n import pick, pick_text
from rulings import audit, audit_text, free, hand_over, law_titles, legal_basis
from rulings.forms import AuctionForm
from rulings.models import AppealStatus, Ruling, Status, Verdict
from scores import polls
from scores.deal_views import DEAL_ROLES
from scores.deals import shown_deal_for
from trees import snapshot
from trees.models import Tree

REVIEW_ROLES = (Role.REVIEWER, Role.ADMIN)


def _get_ruling_for_user(
    request: HttpRequest, uuid: UUID, roles: Iterable[str] | None = None
) -> Ruling:
    return get_for_user(
        request,
        # The adjusted score and the board's result (scores/_adjusted_score.html,
        # scores/_board_result.html) come in the same query.
        Ruling.objects.select_related(
            "director", "club", "adjusted_score__recorded_by", "board_result", "poll"
        ),
        roles=roles,
        uuid=uuid,
    )


def record_basis(ruling: Ruling) -> list[dict[str, Any]]:
    """The ruling's legal basis as the record, its print and the outcome page show it: its
    stored rows, with the law text the ruling recorded (rulings/legal_basis.py)."""
    keys = [row.key for row in ruling.legal_basis.all()]
    tree = snapshot.find(ruling.snapshot_id) if keys else None
    # Continued from another tree: the law text its parts recorded too (rulings/hand_over.py).
    recorded = hand_over.basis_law(ruling) if ruling.handed_over else ruling.outcome or {}
    return law_titles.localised(legal_basis.shown(keys, recorded, tree), ruling.edition_code)


def tree_parts(ruling: Ruling, facts: list[Any], title: str) -> list[dict[str, Any]]:
    """The facts per tree of a ruling continued in another tree, in order: each earlier tree
    with its answers and the outcome that handed over, then the current tree. Empty for a
    ruling of one tree (the page lists its facts as they are)."""
    if not ruling.handed_over:
        return []
    parts = []
    for part in hand_over.parts_shown(ruling):
        mine = [step for step in facts if part["first"] <= step.order <= part["last"]]
        parts.append({**part, "facts": mine})
    done = parts[-1]["last"]
    current = {"title": title, "outcome_title": "", "facts": [s for s in facts if s.order > done]}
    whole = [*parts, current]
    for part, following in pairwise(whole):
        part["next_title"] = following["title"]
    return whole


def _shown_title(ruling: Ruling, tree_row: tuple[str, str, str] | None) -> str:
    """The ruling's title in the reader's language: a free ruling's own, the loaded tree's,
    else the Dutch title the ruling recorded."""
    if ruling.is_free:
        return pick_text(free.TITLE)
    if tree_row is not None:
        return pick(tree_row[1], tree_row[2]) or ruling.tree_title
    return ruling.tree_title


def _outcome_text(outcome: dict[str, Any]) -> dict[str, str]:
    return {
        part: snapshot.pick(outcome.get(part))
        for part in ("title", "ruling", "options", "announce")
    }


def _record_context(
    request: HttpRequest,
    ruling: Ruling,
    review_form: ReviewForm | None = None,
    appeal_form: AppealForm | None = None,
) -> dict[str, Any]:
    steps = list(ruling.steps.order_by("answered_at", "pk"))
    events = list(ruling.audit_events.select_related("actor").order_by("sequence"))
    reviews = list(ruling.reviews.select_related("reviewer").order_by("created_at", "pk"))
    chain_problems = audit.verify(ruling)  # on the stored times, before they are made shown
    times.displayable(ruling, *steps, *events, *reviews)
    tree_row = (
        Tree.objects.filter(slug=ruling.tree_slug)
        .values_list("version", "title_nl", "title_en")
        .first()
    )
    loaded = tree_row[0] if tree_row else None
    roles = roles_in(request, ruling.club_id)
    can_review = bool(roles & set(REVIEW_ROLES))
    outcome = ruling.outcome or {}
    facts = [step for step in steps if not step.superseded]
    next_appeal = (
        AppealStatus.SETTLED if ruling.appeal_status == AppealStatus.OPEN else AppealStatus.OPEN
    )
    title = _shown_title(ruling, tree_row)
    facts = [step for step in steps if not step.superseded]
    return {
        "ruling": ruling,
        "club": ruling.club,
        "title": title,
        "steps": steps,
        "facts": facts,
        "tree_parts": tree_parts(ruling, facts, title),
        # The player poll beside the director's answer (scores/_poll_record.html).
        "poll_record": polls.record_of(ruling, facts),
        "can_poll": bool(roles & {Role.DIRECTOR, Role.REVIEWER, Role.ADMIN}),
        "outcome": outcome,
        "outcome_text": _outcome_text(outcome),
        "basis": record_basis(ruling),
        "print_audit": request.GET.get("afdruk") == "audit",
        "loaded_version": loaded,
        "tree_changed": loaded is not None and loaded != ruling.tree_version,
        "tree_gone": loaded is None,
        "events": audit_text.trail(ruling, events),
        "chain_problems": chain_problems,
        "reviews": reviews,
        "can_review": can_review and ruling.status == Status.FINAL,
        "review_form": review_form or ReviewForm(edition=ruling.edition_code),
        "appeal_form": appeal_form or AppealForm(initial={"status": next_appeal}),
        "next_appeal": next_appeal,
        "deal": shown_deal_for(ruling),
        # Typing or importing the hands is for the club's directors (scores.deal_views).
        "can_edit_deal": bool(roles & set(DEAL_ROLES)),
        # The auction's form (archive/auction_views.py), also on a final ruling.
        "auction_form": AuctionForm.for_ruling(ruling)
        if roles & set(AUCTION_ROLES) and auction_views.editable(ruling)
        else None,
    }


@require_GET
def detail(request: HttpRequest, uuid: UUID) -> HttpResponse:
    ruling = _get_ruling_for_user(request, uuid)
    return render(request, "archive/detail.html", _record_context(request, ruling))


@require_GET
def appeal_form(request: HttpRequest, uuid: UUID) -> HttpResponse:
    """The appeal form on paper: the club, the ruling's facts and decision, room for the
    appellant's reasons and the signatures. Any member may print it for a player."""
    ruling = _get_ruling_for_user(request, uuid)
    steps = ruling.steps.filter(superseded=False).order_by("answered_at", "pk")
    context = {
        "ruling": ruling,
        "club": ruling.club,
        "facts": list(steps),
        "outcome_text": _outcome_text(ruling.outcome or {}),
        "reason_lines": range(8),
        "signature_roles": [
            _("Appellant"),
            _("Aanvoerder of partner"),
            _("Wedstrijdleider"),
            _("Beroepscommissie"),
        ],
    }
    return render(request, "archive/appeal_form.html", context)


def _reviewable(request: HttpRequest, uuid: UUID) -> Ruling:
    ruling = _get_ruling_for_user(request, uuid, roles=REVIEW_ROLES)
    if ruling.status != Status.FINAL:
        raise PermissionDenied
    return ruling


# The review box of the record page, swapped in place by htmx.
REVIEW_BOX = "archive/review_section.html#review_box"


def _confirmation(
    request: HttpRequest, ruling: Ruling, form: ReviewForm, stale: bool = False
) -> HttpResponse:
    data = form.cleaned_data
    context = {
        "ruling": ruling,
        "club": ruling.club,
        "form": form,
        "verdict_label": Verdict(data["verdict"]).label,
        "laws": form.checked_laws,
        "citations_text": ", ".join(data["corrected_citations"]),
        "seen": ruling.audit_sequence,
        "stale": stale,
    }
    status = 409 if stale else 200
    return htmx.render(
        request, "archive/review_confirm.html", context, partial="box", status=status
    )


def _review_form(
    request: HttpRequest, ruling: Ruling, form: ReviewForm, status: int = 200
) -> HttpResponse:
    """The record page with ``form`` in its review box (with htmx: the box alone)."""
    context = _record_context(request, ruling, review_form=form)
    return htmx.render(request, "archive/detail.html", context, partial=REVIEW_BOX, status=status)


def _seen(request: HttpRequest) -> int | None:
    try:
        return int(request.POST.get("seen", ""))
    except ValueError:
        return None


@require_POST
def review(request: AuthenticatedHttpRequest, uuid: UUID) -> HttpResponse:
    """Check the review, show it for confirmation, and save it once confirmed."""
    ruling = _reviewable(request, uuid)
    form = ReviewForm(request.POST, edition=ruling.edition_code)
    if not form.is_valid():
        return _review_form(request, ruling, form, status=400)
    if "change" in request.POST:
        # "Wijzigen": back to the form on the record page, everything typed still in it.
        return _review_form(request, ruling, form)
    if request.POST.get("confirmed") != "1":
        return _confirmation(request, ruling, form)
    seen = _seen(request)
    if seen is None:
        return _confirmation(request, ruling, form, stale=True)
    data = form.cleaned_data
    try:
        record_review(
            ruling,
            request.user,
            data["verdict"],
            data["comment"],
            data["corrected_ruling"],
            data["corrected_citations"],
            seen=seen,
        )
    except StaleReview:
        ruling.refresh_from_db()
        return _confirmation(request, ruling, form, stale=True)
    messages.success(request, _("De beoordeling is opgeslagen."))
    return htmx.redirect(request, reverse("archive:detail", args=[ruling.uuid]) + "#beoordelingen")


@require_POST
def appeal(request: AuthenticatedHttpRequest, uuid: UUID) -> HttpResponse:
    ruling = _reviewable(request, uuid)
    form = AppealForm(request.POST)
    if form.is_valid():
        status = form.cleaned_data["status"]
        try:
            # The planner checks the status it starts from (archive.reviews.APPEAL_STARTS).
            set_appeal(ruling, request.user, status, form.cleaned_data["note"])
        except StaleAppeal:
            messages.warning(
                request, _("De beroepsstatus was al gewijzigd; er is niets veranderd.")
            )
        else:
            if status == AppealStatus.OPEN:
                messages.success(request, _("De arbitrage staat nu in beroep."))
            else:
                messages.success(request, _("Het beroep is afgehandeld."))
        return redirect(reverse("archive:detail", args=[ruling.uuid]) + "#beroep")
    context = _record_context(request, ruling, appeal_form=form)
    return render(request, "archive/detail.html", context, status=400)
