"""An adjusted score (Law 12C) as recorded with a ruling, and what it means for both sides.

Pure Python (no Django): the model ``scores.models.AdjustedScore`` stores the rows as JSON and
hands them here as an :class:`Adjustment`; :func:`evaluate` gives, per side, the score of each
row and the weighted matchpoints or IMPs against the other results of the board.

Kinds:

* ``assigned`` (12C1(b)): one result per side, weight 100 %;
* ``weighted`` (12C1(c)): rows of result and weight summing to 100 %; the offending side may
  get different rows (its own weighting) from the non-offending side;
* ``artificial`` (12C2): average plus / average / average minus per side, as percentages the
  club set (60/50/40 by default) and the score keeps; at IMPs +3 / 0 / −3 (Law 12C2(c)).

``field`` holds the North-South scores of the board at the other tables, as a scoring program
lists them. The scoring of the event says what they are compared with:

* ``mp`` matchpoints: each side's rows are matchpointed against the field (from its view);
* ``imps`` IMPs against the other table of a match, and ``ximp`` cross-IMPs: every other
  result is a comparison, the weighted IMPs averaged over them;
* ``butl`` Butler: the weighted IMPs against the datum of the field
  (:func:`scores.calculator.datum`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import Any

from lib.bridge import BridgeError, Seat, Side, Vulnerability, board_vulnerability
from scores.calculator import (
    ContractError,
    datum,
    parse_contract,
    percentage,
    weighted_imps,
    weighted_matchpoints,
)
from scores.deal import north_south_score

__all__ = [
    "ARTIFICIAL_IMPS",
    "KINDS",
    "SCORINGS",
    "Adjustment",
    "Row",
    "RowResult",
    "SideResult",
    "SideScore",
    "contract_problem",
    "evaluate",
    "read_rows",
    "rows_json",
    "summary",
    "vulnerability_of_board",
]

KINDS = ("assigned", "weighted", "artificial")
SCORINGS = ("mp", "imps", "ximp", "butl")
ARTIFICIAL = ("plus", "average", "minus")
# Law 12C2(c): at IMPs average plus is +3 IMPs, average 0, average minus −3.
ARTIFICIAL_IMPS: dict[str, int] = {"plus": 3, "average": 0, "minus": -3}


@dataclass(frozen=True)
class Row:
    """One possible result: the contract with its result (``4SX-2``), declarer and weight (%)."""

    contract: str
    declarer: str
    weight: Fraction

    def __post_init__(self) -> None:
        if self.declarer not in Seat.values:
            raise ValueError(f"Onbekende leider '{self.declarer}': gebruik N, E, S of W.")
        parse_contract(self.contract)  # ContractError (a ValueError) says why
        if not 0 < self.weight <= 100:
            raise ValueError(f"Gewicht {float(self.weight):g} % moet tussen 0 en 100 liggen.")

    @property
    def notation(self) -> str:
        parsed = parse_contract(self.contract)
        return parsed.notation if parsed is not None else "pass"

    def to_json(self) -> dict[str, Any]:
        """A whole weight as a number, a fractional one as decimal text (``"33.33"``): the
        audit chain refuses floats, which PostgreSQL's jsonb would not keep as written."""
        weight = self.weight
        shown: int | str = (
            int(weight)
            if weight.denominator == 1
            else format(Decimal(weight.numerator) / Decimal(weight.denominator), "f")
        )
        return {"contract": self.notation, "declarer": self.declarer, "weight": shown}


def read_rows(data: Any) -> tuple[Row, ...]:
    """Rows from their stored JSON (a list of objects); ValueError for anything else."""
    if not isinstance(data, list):
        raise ValueError("rows must be a list")
    rows = []
    for item in data:
        if not isinstance(item, Mapping) or set(item) != {"contract", "declarer", "weight"}:
            raise ValueError("a row has contract, declarer and weight")
        weight = item["weight"]
        if isinstance(weight, bool) or not isinstance(weight, int | float | str):
            raise ValueError("a row's weight is a number")
        try:
            exact = Fraction(str(weight))
        except ValueError:
            raise ValueError(f"weight '{weight}' is not a number") from None
        if not isinstance(item["contract"], str) or not isinstance(item["declarer"], str):
            raise ValueError("a row's contract and declarer are text")
        rows.append(Row(item["contract"], item["declarer"], exact))
    return tuple(rows)


def rows_json(rows: Sequence[Row]) -> list[dict[str, Any]]:
    return [row.to_json() for row in rows]


@dataclass(frozen=True)
class SideScore:
    """What one side gets: rows (assigned, weighted) or an artificial score and its percent."""

    rows: tuple[Row, ...] = ()
    artificial: str = ""
    percent: int | None = None


@dataclass(frozen=True)
class Adjustment:
    kind: str
    offending_side: Side
    non_offending: SideScore
    offending: SideScore
    scoring: str = "mp"
    field: tuple[int, ...] = ()


@dataclass(frozen=True)
class RowResult:
    contract: str
    declarer: str
    weight: float
    side_score: int | None  # from the side's view; None when the vulnerability is unknown


@dataclass(frozen=True)
class SideResult:
    side: Side
    offending: bool
    rows: tuple[RowResult, ...]
    artificial: str
    expected: float | None  # the weighted score, from the side's view
    matchpoints: float | None
    top: int | None
    percentage: float | None
    imps: float | None
    datum: int | None = None  # Butler: the field's datum, from the side's view


def _side_view(ns_score: int, side: Side) -> int:
    return ns_score if side is Side.NS else -ns_score


def _row_results(
    score: SideScore, side: Side, vulnerability: Vulnerability | None
) -> tuple[RowResult, ...]:
    results = []
    for row in score.rows:
        side_score = None
        if vulnerability is not None:
            ns = north_south_score(row.contract, Seat(row.declarer), vulnerability)
            side_score = _side_view(ns, side)
        results.append(RowResult(row.notation, row.declarer, float(row.weight), side_score))
    return tuple(results)


def _artificial(score: SideScore, side: Side, offending: bool, adj: Adjustment) -> SideResult:
    top = 2 * len(adj.field) if adj.field else None
    percent = float(score.percent) if score.percent is not None else None
    mp = percent * top / 100 if percent is not None and top else None
    imp = float(ARTIFICIAL_IMPS[score.artificial]) if adj.scoring != "mp" else None
    return SideResult(
        side=side,
        offending=offending,
        rows=(),
        artificial=score.artificial,
        expected=None,
        matchpoints=mp if adj.scoring == "mp" else None,
        top=top if adj.scoring == "mp" else None,
        percentage=percent if adj.scoring == "mp" else None,
        imps=imp,
    )


def _side(
    score: SideScore, side: Side, offending: bool, adj: Adjustment, vul: Vulnerability | None
) -> SideResult:
    if adj.kind == "artificial":
        return _artificial(score, side, offending, adj)
    rows = _row_results(score, side, vul)
    weighted = [(r.side_score, Fraction(str(r.weight))) for r in rows if r.side_score is not None]
    expected = mp = pct = imp = None
    top = level = None
    if weighted and len(weighted) == len(rows):
        expected = float(sum((s * w for s, w in weighted), Fraction(0)) / 100)
        field = [_side_view(ns, side) for ns in adj.field]
        if field and adj.scoring == "mp":
            mp = weighted_matchpoints(weighted, field)
            top = 2 * len(field)
            pct = percentage(mp, len(field))
        elif field and adj.scoring == "butl":
            level = _side_view(datum(adj.field), side)
            imp = weighted_imps(weighted, level)
        elif field:
            imp = sum(weighted_imps(weighted, other) for other in field) / len(field)
    return SideResult(side, offending, rows, "", expected, mp, top, pct, imp, level)


def evaluate(
    adjustment: Adjustment, vulnerability: Vulnerability | None
) -> tuple[SideResult, SideResult]:
    """Both sides' results: the non-offending side first, then the offending side.

    Without a vulnerability (no board number, no deal) the rows are shown without scores.
    """
    offending = adjustment.offending_side
    return (
        _side(adjustment.non_offending, offending.other, False, adjustment, vulnerability),
        _side(adjustment.offending, offending, True, adjustment, vulnerability),
    )


def _rows_text(rows: Sequence[Row]) -> str:
    return " + ".join(f"{float(r.weight):g}% {r.notation} {r.declarer}" for r in rows)


def _side_text(score: SideScore, kind: str) -> str:
    if kind == "artificial":
        shown = f" {score.percent}%" if score.percent is not None else ""
        name = "average" if score.artificial == "average" else f"average {score.artificial}"
        return name + shown
    return _rows_text(score.rows)


def summary(adjustment: Adjustment) -> str:
    """One line for a CSV cell: ``weighted mp; NS 60% 4S= N + 40% 4S-1 N; EW (offending) …``."""
    offending = adjustment.offending_side
    first = _side_text(adjustment.non_offending, adjustment.kind)
    second = _side_text(adjustment.offending, adjustment.kind)
    parts = [f"{adjustment.kind} {adjustment.scoring}", f"{offending.other.value} {first}"]
    parts.append(f"{offending.value} (offending) {'same' if second == first else second}")
    if adjustment.field:
        parts.append("field NS " + " ".join(str(score) for score in adjustment.field))
    return "; ".join(parts)


def vulnerability_of_board(board: int | None) -> Vulnerability | None:
    """The board's vulnerability in the standard cycle; None without a board number."""
    if not board:
        return None
    try:
        return board_vulnerability(board)
    except BridgeError:
        return None


def contract_problem(text: str) -> str | None:
    """The calculator's reason why ``text`` is not a contract, or None when it reads."""
    try:
        parse_contract(text)
    except ContractError as error:
        return str(error)
    return None
