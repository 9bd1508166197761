"""The evening a director is working on, remembered for the session: the date of play, the
event and the round of the last board details saved, offered on the next ruling's form so they
are not typed again on every ruling (issue 30). Kept in the session only (one laptop, one
evening); a ruling's own values always come first."""

from __future__ import annotations

from datetime import date
from typing import Any

from django.http import HttpRequest

KEY = "leidraad_evening"
REMEMBERED = ("played_on", "event", "round")


def remember(request: HttpRequest, cleaned: dict[str, Any]) -> None:
    """Keep the date, event and round just saved (those given; an empty one is not kept)."""
    kept = dict(request.session.get(KEY) or {})
    for name in REMEMBERED:
        value = cleaned.get(name)
        if value in (None, ""):
            continue
        kept[name] = value.isoformat() if isinstance(value, date) else value
    request.session[KEY] = kept


def recalled(request: HttpRequest) -> dict[str, Any]:
    """What :func:`remember` kept, with the date as a date again."""
    kept = dict(request.session.get(KEY) or {})
    if isinstance(kept.get("played_on"), str):
        try:
            kept["played_on"] = date.fromisoformat(kept["played_on"])
        except ValueError:
            del kept["played_on"]
    return {name: kept[name] for name in REMEMBERED if name in kept}
