"""An adjusted score recorded the way the form does it (scores.recording), for the archive,
CSV and transfer tests: 12C1(c) 60 % 4S= by North, 40 % 4S-1 by North, East-West offending."""

from __future__ import annotations

from fractions import Fraction

from clubs.models import User
from rulings.models import Ruling
from scores import adjusted, recording
from scores.models import AdjustedScore

SUMMARY = "weighted mp; NS 60% 4S= N + 40% 4S-1 N; EW (offending) same; field NS 620 650 -100"


def record_weighted(ruling: Ruling, user: User) -> AdjustedScore:
    ruling.refresh_from_db()
    cleaned = {
        "kind": "weighted",
        "scoring": "mp",
        "offending_side": "EW",
        "non_rows": [
            adjusted.Row("4S=", "N", Fraction(60)),
            adjusted.Row("4S-1", "N", Fraction(40)),
        ],
        "off_rows": [],
        "field": [620, 650, -100],
        "sequence": ruling.audit_sequence,
    }
    return recording.record(ruling, user, cleaned)
