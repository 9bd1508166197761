"""Where a director begins: the home page (the open rulings to resume) and the start page
(the trees that match the words typed, the recently used first; each start gets a fresh
ruling id). The wizard itself is in ``rulings/views.py``.
"""

from __future__ import annotations

import uuid as uuid_lib
from datetime import date
from urllib.parse import urlencode

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_GET

from clubs.access import AuthenticatedHttpRequest, clubs, memberships
from laws.models import Edition
from lib import htmx
from rulings.forms import StartForm
from rulings.models import Ruling
from rulings.steps import open_rulings
from rulings.views import DIRECTING
from trees import lookup
from trees.models import Tree, localised_titles


def home(request: AuthenticatedHttpRequest) -> HttpResponse:
    club_ids = {m.club_id for m in memberships(request)}
    rulings = open_rulings(request.user, club_ids)
    titles = localised_titles(r.tree_slug for r in rulings) if rulings else {}
    return render(request, "rulings/home.html", {"open_rulings": rulings, "tree_titles": titles})


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
