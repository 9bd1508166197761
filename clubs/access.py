"""Club isolation: every view fetches club data through these helpers.

A user sees only the clubs they belong to. An object of another club is answered with 404
(its existence is not revealed); a member without the needed role gets 403.
"""

from collections.abc import Iterable
from typing import TypeVar
from weakref import WeakKeyDictionary

from django.core.exceptions import ObjectDoesNotExist, PermissionDenied, ValidationError
from django.db import models
from django.http import Http404, HttpRequest

from clubs.models import Club, Membership, Role, User
from lib.htmx import HtmxHttpRequest

M = TypeVar("M", bound=models.Model)


class AuthenticatedHttpRequest(HtmxHttpRequest):
    """A request to a view behind ``LoginRequiredMiddleware``: ``request.user`` is a ``User``,
    never ``AnonymousUser``. Views annotate their request with it instead of narrowing."""

    user: User


# The memberships of a request, fetched once; dropped with the request.
_memberships: WeakKeyDictionary[HttpRequest, list[Membership]] = WeakKeyDictionary()


def memberships(request: HttpRequest) -> list[Membership]:
    """The user's memberships, fetched once per request."""
    if not request.user.is_authenticated:
        return []
    cached = _memberships.get(request)
    if cached is None:
        cached = _memberships_of(request.user.pk)
        _memberships[request] = cached
    return cached


def _memberships_of(user_id: int) -> list[Membership]:
    return list(Membership.objects.filter(user_id=user_id).select_related("club").order_by("pk"))


def roles_in(request: HttpRequest, club: Club | int) -> set[str]:
    club_id = club if isinstance(club, int) else club.pk
    roles = {m.role for m in memberships(request) if m.club_id == club_id}
    if Role.ADMIN in roles:
        roles |= set(Role.values)
    return roles


def clubs(request: HttpRequest, roles: Iterable[str] | None = None) -> list[Club]:
    """The user's clubs, optionally only those where the user holds one of ``roles``."""
    wanted = set(roles) if roles else None
    seen: dict[int, Club] = {}
    for m in memberships(request):
        if wanted is None or roles_in(request, m.club_id) & wanted:
            seen.setdefault(m.club_id, m.club)
    return sorted(seen.values(), key=lambda c: c.name)


def require_role(request: HttpRequest, club: Club | int, roles: Iterable[str]) -> None:
    held = roles_in(request, club)
    if not held:
        raise Http404
    if not held & set(roles):
        raise PermissionDenied


def get_club(request: HttpRequest, slug: str, roles: Iterable[str] | None = None) -> Club:
    for club in clubs(request):
        if club.slug == slug:
            if roles:
                require_role(request, club, roles)
            return club
    raise Http404


def get_for_user(
    request: HttpRequest,
    queryset: models.QuerySet[M],
    roles: Iterable[str] | None = None,
    club_field: str = "club",
    **lookup: object,
) -> M:
    """Fetch one object of ``queryset`` whose ``club_field`` is one of the user's clubs."""
    cached = _memberships.get(request)
    club_ids: object
    if cached is not None:
        club_ids = {m.club_id for m in cached}
    elif request.user.is_authenticated:
        # The user's clubs as a subquery: one query instead of two when nothing else in the
        # request needs the memberships (a wizard step, make bench).
        club_ids = Membership.objects.filter(user=request.user).values("club_id")
    else:
        club_ids = ()
    try:
        obj = queryset.get(**{f"{club_field}__in": club_ids}, **lookup)
    except (ObjectDoesNotExist, ValidationError, ValueError, TypeError):
        raise Http404 from None
    if roles:
        club_id = getattr(obj, f"{club_field}_id")
        require_role(request, club_id, roles)
    return obj


def requested_club(request: HttpRequest, roles: Iterable[str] | None = None) -> Club:
    """The club named by ``?club=`` (one of the user's), else the user's first club."""
    slug = request.GET.get("club") or request.POST.get("club")
    if slug:
        return get_club(request, slug, roles)
    mine = clubs(request, roles=roles)
    if mine:
        return mine[0]
    if clubs(request):
        raise PermissionDenied
    raise Http404


def get_member(request: HttpRequest, club: Club, user_id: int) -> User:
    """A member of ``club``, which must be one of the user's clubs (fetch it with ``get_club``
    first, which also checks the role): 404 for a user outside that club."""
    if club.pk not in {m.club_id for m in memberships(request)}:
        raise Http404
    member = User.objects.filter(pk=user_id, memberships__club=club).distinct().first()
    if member is None:
        raise Http404
    return member
