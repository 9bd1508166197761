"""Throttling "Wachtwoord vergeten?": every request could send an e-mail (20 requests sent 20
e-mails, issue 35). Counted in the database, so every server process sees the same counts.

- per e-mail address: at most ``PER_ADDRESS`` e-mails an hour; a further request is answered
  like any other ("sent" when the address is known), but nothing is sent;
- per client (``lib.client``, behind a trusted proxy the client it names): at most
  ``PER_CLIENT`` requests an hour, then the page says to wait (429).
"""

from __future__ import annotations

import hashlib
from datetime import timedelta

from django.http import HttpRequest
from django.utils import timezone

from clubs.models import ResetRequest
from lib.client import client_address

PER_ADDRESS = 3
PER_CLIENT = 10
WINDOW = timedelta(hours=1)
KEPT = timedelta(days=1)


def email_hash(email: str) -> str:
    return hashlib.sha256(email.strip().casefold().encode()).hexdigest()


def _client(request: HttpRequest) -> str | None:
    address = client_address(request)
    return str(address) if address else None


def client_exhausted(request: HttpRequest) -> bool:
    client = _client(request)
    if client is None:
        return False
    return (
        ResetRequest.objects.filter(at__gte=timezone.now() - WINDOW, client=client).count()
        >= PER_CLIENT
    )


def may_send(request: HttpRequest, email: str) -> bool:
    """Record the request; whether an e-mail may go to ``email`` now."""
    now = timezone.now()
    digest = email_hash(email)
    sent = ResetRequest.objects.filter(at__gte=now - WINDOW, email_hash=digest).count()
    ResetRequest.objects.filter(at__lt=now - KEPT).delete()
    ResetRequest.objects.create(email_hash=digest, client=_client(request))
    return sent < PER_ADDRESS
