"""The club's psyche register (rulings.pairs): every pair with the psyches and deviations
recorded against it, for the club's members only (another club's register is 404)."""

from __future__ import annotations

from django.http import HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from clubs.access import AuthenticatedHttpRequest, get_club
from rulings import pairs


@require_GET
def register(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    club = get_club(request, slug)
    context = {"club": club, "pairs": pairs.register(club.pk)}
    return render(request, "archive/pair_register.html", context)
