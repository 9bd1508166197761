"""Recording and amending a ruling's adjusted score: a transition (a planner written by the one
writer, ``rulings.transitions.run``) whose ``score_adjusted`` audit event is written in the
same transaction, as ``archive.reviews`` does for a review."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from clubs.models import User
from rulings import audit, transitions
from rulings.models import Ruling, Status
from rulings.transitions import Planned, Planner
from scores import adjusted
from scores.models import AdjustedScore, Kind


class StaleScore(Exception):
    """The ruling's chain moved on since the form was shown: nothing was written."""


def allows_adjustment(ruling: Ruling) -> bool:
    """A final ruling whose outcome says an adjusted score may be due, or a final free
    ruling: no tree says for it whether a score is due, so the director decides."""
    outcome = ruling.outcome if isinstance(ruling.outcome, dict) else {}
    if ruling.status != Status.FINAL:
        return False
    return ruling.is_free or bool(outcome.get("adjusted_score"))


def current(ruling: Ruling) -> AdjustedScore | None:
    return AdjustedScore.objects.select_related("recorded_by").filter(ruling=ruling).first()


def of(ruling: Ruling) -> AdjustedScore | None:
    """The ruling's score through its relation: no query when the page fetched the ruling
    with ``select_related("adjusted_score__recorded_by")`` (the record page does)."""
    try:
        return ruling.adjusted_score
    except AdjustedScore.DoesNotExist:
        return None


def _side(rows: list[adjusted.Row], artificial: str, percent: int | None) -> dict[str, Any]:
    return {"rows": adjusted.rows_json(rows), "artificial": artificial, "percent": percent}


def _percent(ruling: Ruling, artificial: str) -> int | None:
    club = ruling.club
    return {
        "plus": club.average_plus_percent,
        "average": club.average_percent,
        "minus": club.average_minus_percent,
    }.get(artificial)


def plan_record(user: User, cleaned: dict[str, Any]) -> Planner:
    """Store the form's score (creating or amending it), with its audit event.

    ``cleaned["sequence"]`` is the chain's length when the form was shown; if the chain has
    moved since (another amendment, a review, a double click), :class:`StaleScore` is raised
    and nothing changes.
    """
    kind = cleaned["kind"]
    artificial = kind == Kind.ARTIFICIAL
    non_art = cleaned.get("non_artificial", "") if artificial else ""
    off_art = cleaned.get("off_artificial", "") if artificial else ""

    def plan(ruling: Ruling, at: datetime) -> Planned:
        if ruling.audit_sequence != cleaned["sequence"]:
            raise StaleScore
        score = AdjustedScore.objects.filter(ruling=ruling).first()
        amended = score is not None
        values: dict[str, Any] = {
            "kind": kind,
            "scoring": cleaned["scoring"],
            "offending_side": cleaned["offending_side"],
            "non_offending_rows": adjusted.rows_json(cleaned.get("non_rows", [])),
            "offending_rows": adjusted.rows_json(cleaned.get("off_rows", [])),
            "non_offending_artificial": non_art,
            "offending_artificial": off_art,
            "non_offending_percent": _percent(ruling, non_art) if artificial else None,
            "offending_percent": _percent(ruling, off_art) if artificial else None,
            "field": list(cleaned.get("field", [])),
            "recorded_by": user,
            "recorded_at": at,
        }
        score = score or AdjustedScore(ruling=ruling)
        for name, value in values.items():
            setattr(score, name, value)
        data = {
            "kind": kind,
            "scoring": values["scoring"],
            "offending_side": values["offending_side"],
            "non_offending": _side(
                cleaned.get("non_rows", []), non_art, values["non_offending_percent"]
            ),
            "offending": _side(
                cleaned.get("off_rows", []) or cleaned.get("non_rows", []),
                off_art,
                values["offending_percent"],
            ),
            "field": values["field"],
            "amended": amended,
        }
        entries = [(audit.Action.SCORE_ADJUSTED, data)]
        return Planned((), entries, rows=[score], touches=False)

    return plan


def record(ruling: Ruling, user: User, cleaned: dict[str, Any]) -> AdjustedScore:
    """Store the form's score (:func:`plan_record`) and return it."""
    transitions.run(ruling, user, None, plan_record(user, cleaned))
    score = current(ruling)
    assert score is not None  # just stored
    return score
