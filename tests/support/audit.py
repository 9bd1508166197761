"""Audit chains of a given shape for the tests of the chain and of its one writer."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from clubs.models import User
from rulings import transitions
from rulings.models import AuditEvent, Ruling
from rulings.transitions import Planned


def append(
    ruling: Ruling,
    action: str,
    actor: User | None,
    data: dict[str, Any] | None = None,
    at: datetime | None = None,
) -> AuditEvent:
    """One event appended to the stored ruling's chain, nothing else changed, written as every
    transition is (``rulings.transitions.run``: following a head moved by someone else)."""
    entry = (action, data or {})
    transitions.run(ruling, actor, at, lambda _ruling, _at: Planned((), [entry], touches=False))
    return ruling.audit_events.get(sequence=ruling.audit_sequence)
