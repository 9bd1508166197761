"""The club's psyche register: psyches and deviations recorded per pair (issue 32, Law 40C1).

A player may psyche or deviate from his system as long as his partner has no more reason to
expect it than the opponents; repeated deviations become an implicit agreement that must be
disclosed. Whether a deviation is "repeated" is a question of the pair's history, so the club
keeps one: every live ruling of the psyche tree saved final, and any other live ruling whose
director asks for it, records the offending side's pair (``PairRecord``), written by the same
planner as the save (``wizard.plan_save``) with an audit event. A later ruling naming the same
pair (at either side of the table) shows what was recorded before, on its steps and its record.

A pair is what the director types: a pair number or two names. Two spellings of one pair are
one pair: the names are folded and put in alphabetical order (:func:`pair_key`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

from lib import limits
from lib.bridge import Side, side_of
from lib.i18n import pick_text
from rulings.audit import Action
from rulings.models import Mode, PairRecord, RecordKind, Ruling, Status
from trees.wording import fold

PSYCHE_TREE = "psyche"
# The psyche tree's first question tells a psyche from a deviation or mistake.
KIND_QUESTION = ("soort", "psyche")
# At most this many earlier records are shown on a ruling (the newest): enough to see a
# pattern, and a constant cost per page.
SHOWN = 12

# Between the two names of a pair: a dash, slash, ampersand, plus or comma, or "en"/"and".
_BETWEEN_NAMES = re.compile(r"\s*(?:[-–/&+,]|\ben\b|\band\b)\s*")


def pair_key(name: str) -> str:
    """The pair as compared: folded, spaces collapsed, names in alphabetical order.
    "De Vries - Jansen", "jansen/de vries" and "Jansen en De Vries" are one pair; "7" is "7"."""
    names = (" ".join(part.split()) for part in _BETWEEN_NAMES.split(fold(name)))
    return " - ".join(sorted(part for part in names if part))


def pair_at(ruling: Ruling, side: Side) -> str:
    return (ruling.pair_ns if side is Side.NS else ruling.pair_ew).strip()


def always_records(ruling: Ruling) -> bool:
    """A live ruling of the psyche tree is always recorded when saved."""
    return ruling.mode == Mode.LIVE and ruling.tree_slug == PSYCHE_TREE


def may_record(ruling: Ruling) -> bool:
    """The director may record any other live tree ruling (a misexplanation that was in
    fact a deviation from system)."""
    return ruling.mode == Mode.LIVE and not ruling.is_free and not always_records(ruling)


def kind_of(ruling: Ruling) -> str:
    if ruling.tree_slug == PSYCHE_TREE and list(KIND_QUESTION) in ruling.path:
        return RecordKind.PSYCHE
    return RecordKind.DEVIATION


def missing(values: dict[str, Any]) -> str | None:
    """For a form: the field a record still needs (the offender's seat, then his side's
    pair), or None."""
    side = side_of(values.get("offender_seat") or "")
    if side is None:
        return "offender_seat"
    name = "pair_ns" if side is Side.NS else "pair_ew"
    return None if (values.get(name) or "").strip() else name


def record(ruling: Ruling, at: datetime) -> tuple[list[PairRecord], list[tuple[str, dict]]]:
    """The record of the offending side's pair, with its audit entry, for the ruling as it is
    saved; nothing when the seat or the pair is not known."""
    side = side_of(ruling.offender_seat)
    if side is None or not pair_at(ruling, side):
        return [], []
    pair = pair_at(ruling, side)
    kind = kind_of(ruling)
    row = PairRecord(
        club_id=ruling.club_id,
        ruling=ruling,
        pair=pair,
        pair_key=pair_key(pair),
        side=side.value,
        kind=kind,
        recorded_at=at,
    )
    return [row], [(Action.PAIR_RECORDED, {"pair": pair, "side": side.value, "kind": kind})]


def rows_from_audit(ruling: Ruling, events: list[dict[str, Any]]) -> list[PairRecord]:
    """The register's row of an imported ruling, made again from its ``pair_recorded`` event
    (a transfer bundle carries the audit chain, not the register): nothing when it has none,
    or when the event does not read as one this module writes."""
    recorded = [e for e in events if e.get("action") == Action.PAIR_RECORDED]
    if not recorded or not isinstance(recorded[-1].get("data"), dict):
        return []
    data, at = recorded[-1]["data"], recorded[-1].get("at")
    pair, side, kind = data.get("pair"), data.get("side"), data.get("kind")
    valid = isinstance(pair, str) and 0 < len(pair.strip()) <= limits.PAIR_MAX
    if not valid or side not in Side.values or kind not in RecordKind.values:
        return []
    return [
        PairRecord(
            club_id=ruling.club_id,
            ruling=ruling,
            pair=pair.strip(),
            pair_key=pair_key(pair)[: limits.PAIR_MAX],
            side=side,
            kind=kind,
            recorded_at=at
            if isinstance(at, datetime)
            else ruling.finalised_at or ruling.updated_at,
        )
    ]


@dataclass(frozen=True)
class Earlier:
    """An earlier record as a ruling shows it."""

    uuid: Any
    pair: str
    side: str
    kind: str
    played_on: date | None
    event: str
    board: int | None
    tree_title: str
    outcome: str


def _earlier(row: PairRecord) -> Earlier:
    ruling = row.ruling
    return Earlier(
        uuid=ruling.uuid,
        pair=row.pair,
        side=str(Side(row.side).label),
        kind=str(RecordKind(row.kind).label),
        played_on=ruling.played_on,
        event=ruling.event,
        board=ruling.board,
        tree_title=ruling.tree_title,
        outcome=pick_text((ruling.outcome or {}).get("title") or {}) or ruling.outcome_key,
    )


def history(ruling: Ruling) -> list[Earlier]:
    """What the club recorded about the pairs at this ruling's table, other than this ruling
    itself, newest first (at most :data:`SHOWN`; one query, none when no pair is named). On a
    ruling being made that is what came before; on an older ruling's record, later records
    show too: the whole pattern is what a committee weighs."""
    keys = {pair_key(name) for name in (ruling.pair_ns, ruling.pair_ew) if name.strip()}
    keys.discard("")
    if not keys:
        return []
    rows = (
        PairRecord.objects.filter(
            club_id=ruling.club_id, pair_key__in=sorted(keys), ruling__status=Status.FINAL
        )
        .exclude(ruling_id=ruling.pk)
        .select_related("ruling")
        .order_by("-recorded_at")[:SHOWN]
    )
    return [_earlier(row) for row in rows]


@dataclass(frozen=True)
class PairHistory:
    """One pair of the register with its records, newest first."""

    pair: str
    key: str
    records: list[Earlier]


def register(club_id: int) -> list[PairHistory]:
    """The club's register: every pair with its records (one query), the pair with the most
    records first, then by name."""
    rows = (
        PairRecord.objects.filter(club_id=club_id, ruling__status=Status.FINAL)
        .select_related("ruling")
        .order_by("pair_key", "-recorded_at")
    )
    pairs: dict[str, PairHistory] = {}
    for row in rows:
        entry = pairs.setdefault(row.pair_key, PairHistory(row.pair, row.pair_key, []))
        entry.records.append(_earlier(row))
    return sorted(pairs.values(), key=lambda entry: (-len(entry.records), entry.key))
