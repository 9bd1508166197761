"""Throttling guesses other than the login: after ``AXES_FAILURE_LIMIT`` failures a user is
locked out of that action, from that client (``lib.client``: behind a trusted proxy the client
it names), for ``AXES_COOLOFF_TIME`` — the login's own numbers, so the two behave alike.

Keyed on the user and the client together, like the login: a stranger cannot lock a user out,
and one user trying many clients is stopped by the per-user count of the other clients too
(``PER_USER_FACTOR`` times the limit)."""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest
from django.utils import timezone

from clubs.models import FailedAttempt, User
from lib.client import client_address

JOIN = "join"
PER_USER_FACTOR = 4


def _client(request: HttpRequest) -> str | None:
    address = client_address(request)
    return str(address) if address else None


def locked(kind: str, request: HttpRequest, user: User) -> bool:
    since = timezone.now() - settings.AXES_COOLOFF_TIME
    recent = FailedAttempt.objects.filter(kind=kind, user=user, at__gte=since)
    limit = settings.AXES_FAILURE_LIMIT
    if recent.filter(client=_client(request)).count() >= limit:
        return True
    return recent.count() >= limit * PER_USER_FACTOR


def failed(kind: str, request: HttpRequest, user: User) -> None:
    FailedAttempt.objects.filter(at__lt=timezone.now() - settings.AXES_COOLOFF_TIME * 4).delete()
    FailedAttempt.objects.create(kind=kind, user=user, client=_client(request))


def succeeded(kind: str, request: HttpRequest, user: User) -> None:
    FailedAttempt.objects.filter(kind=kind, user=user, client=_client(request)).delete()
