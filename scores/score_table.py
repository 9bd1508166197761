"""The results of a board from a PBN ``[ScoreTable "..."]`` section. Pure Python.

A scoring program writes one row per table that played the board (or, with a ``Multiplicity``
column, one row per different result with the number of tables that had it). The tag value
names the columns, separated by ``;``, each with an optional width and alignment after a
backslash (``Score_NS\\6R``) and an optional sort sign before it (``+Score_NS``); the rows
follow, values separated by spaces, a value with spaces in double quotes, ``-`` for empty.

North-South's score of a row is, in this order: ``Score_NS``; minus ``Score_EW``; ``Score``
(``"NS 420"``, ``"EW 100"``, or declarer's score with a ``Declarer`` column); or computed from
``Contract`` (or ``Contract_NS``), ``Declarer`` and ``Result`` (tricks taken, or ``=``, ``+1``,
``-2``) at the board's vulnerability. An artificial score in a score column (``A+``, ``A``,
``A=``, ``A-``, ``60%``) is kept as such for its side. A row without any of these (every value
``-``) is a table that did not play the board and is left out. Where the table was played is
read from ``Section``, ``Table``, ``Room``, ``PairId_NS``/``PairId_EW`` and
``Names_NS``/``Names_EW``. Anything else that cannot be read is a :class:`ScoreTableError`
naming its line; the PBN reader turns it into a ``PbnError``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from lib.bridge import BridgeError, Seat, Vulnerability
from scores.calculator import parse_contract
from scores.deal import north_south_score
from scores.results import ARTIFICIAL_SCORES, TableResult

__all__ = [
    "MAX_SCORE",
    "ScoreTableError",
    "artificial_score",
    "bridge_score",
    "read_score_table",
    "result_of",
    "side_score",
]

# The largest score a board can give (7NTXX= vulnerable with all overtricks is below it), and
# the same bound as the adjusted-score form's field, so whatever is read can be prefilled there.
MAX_SCORE = 7600
MAX_MULTIPLICITY = 999

_EMPTY = "-"
_PASSED = frozenset({"PASS", "PAS", "PA", "AP", "ALL PASS", "PASSED"})
_SIDE_SCORE = re.compile(r"^(?P<side>NS|EW)\s+(?P<score>[-−+]?\d+)", re.IGNORECASE)
_PERCENT = re.compile(r"^\d{1,3}(\.\d+)?\s*%$")
_NUMBER = re.compile(r"^[-−+]?[0-9]+$")
_COLUMNS = (
    "table", "round", "section", "room", "pairid_ns", "pairid_ew", "names_ns", "names_ew",
    "contract", "contract_ns", "declarer", "result", "score_ns", "score_ew", "score",
    "multiplicity",
)  # fmt: skip


class ScoreTableError(ValueError):
    """A score table that cannot be read; ``line`` is 1-based."""

    def __init__(self, line: int, problem: str) -> None:
        self.line = line
        self.problem = problem
        super().__init__(f"Regel {line}: {problem}")


@dataclass(frozen=True)
class _Columns:
    count: int
    at: dict[str, int]  # column name (lower case, without sort sign and width) → position


def _column_name(spec: str) -> str:
    """``+Score_NS\\6R`` → ``score_ns``: without sort sign, width and alignment."""
    return spec.strip().lstrip("+-").split("\\", 1)[0].strip().lower()


def _columns(value: str, line: int) -> _Columns:
    names = [_column_name(spec) for spec in value.split(";")]
    if not any(names):
        raise ScoreTableError(line, "[ScoreTable] noemt geen kolommen.")
    at = {name: names.index(name) for name in _COLUMNS if name in names}
    if not {"score_ns", "score_ew", "score", "contract", "contract_ns"} & set(at):
        raise ScoreTableError(
            line,
            "[ScoreTable] heeft geen kolom Score_NS, Score_EW, Score of Contract; uit deze "
            "tabel is geen uitslag te lezen.",
        )
    return _Columns(len(names), at)


def artificial_score(text: str) -> str | None:
    """``A+``, ``A``, ``A-`` (``A=`` is read as ``A``) or a percentage; None for anything else."""
    shown = text.strip().upper().replace(" ", "")
    if shown in ARTIFICIAL_SCORES:
        return "A" if shown == "A=" else shown
    return shown if _PERCENT.match(shown) else None


def bridge_score(text: str, line: int, column: str) -> int:
    """A whole score a board can give (a multiple of 10 up to :data:`MAX_SCORE`)."""
    cleaned = text.strip().replace("−", "-")
    if not _NUMBER.match(cleaned):
        raise ScoreTableError(
            line, f"{column} '{text}' is geen score (een geheel getal, A+, A, A- of - voor leeg)."
        )
    if len(cleaned) > 6 or int(cleaned) % 10 or abs(int(cleaned)) > MAX_SCORE:
        raise ScoreTableError(line, f"{column} '{text}' kan geen bridgescore zijn.")
    return int(cleaned)


def result_of(
    contract: str, declarer: str, tricks: str, vulnerability: Vulnerability, line: int
) -> tuple[int, str, str]:
    """North-South's score, the contract's notation and the declarer's seat from what a
    table wrote: ``("4S", "N", "10")``, or ``("Pass", "", "")`` for a passed-out board."""
    if contract.upper() in _PASSED:
        return 0, "pass", ""
    if not declarer:
        raise ScoreTableError(line, f"contract {contract} zonder leider.")
    try:
        seat = Seat.read(declarer)
        written = f"{contract} {tricks}".strip()
        score = north_south_score(written, seat, vulnerability)
        parsed = parse_contract(written)
    except (BridgeError, ValueError) as error:
        raise ScoreTableError(line, str(error)) from None
    return score, parsed.notation if parsed is not None else "pass", seat.value


def _get(values: Sequence[str], columns: _Columns, *names: str) -> str:
    """The first filled value of the named columns; "" when absent or ``-``."""
    for name in names:
        if name in columns.at:
            value = values[columns.at[name]].strip()
            if value and value != _EMPTY:
                return value
    return ""


def _number(text: str) -> int | None:
    return int(text) if text.isascii() and text.isdigit() and len(text) <= 4 else None


def _multiplicity(text: str, line: int) -> int:
    count = _number(text) if text else 1
    if count is None or not 1 <= count <= MAX_MULTIPLICITY:
        raise ScoreTableError(
            line, f"Multiplicity '{text}' is geen aantal tafels (1 t/m {MAX_MULTIPLICITY})."
        )
    return count


def side_score(text: str, declarer: str, line: int) -> int:
    """A ``Score`` value as North-South's: ``NS 420``, ``EW 100``, or declarer's score."""
    found = _SIDE_SCORE.match(text.strip())
    if found is not None:
        score = bridge_score(found.group("score"), line, "Score")
        return score if found.group("side").upper() == "NS" else -score
    if declarer:
        try:
            seat = Seat.read(declarer)
        except BridgeError as error:
            raise ScoreTableError(line, str(error)) from None
        score = bridge_score(text, line, "Score")
        return score if seat in (Seat.NORTH, Seat.SOUTH) else -score
    raise ScoreTableError(
        line, f"Score '{text}' noemt geen kant en score (bijvoorbeeld \"NS 420\")."
    )


def _pair(values: Sequence[str], columns: _Columns, side: str) -> str:
    """A pair as the table names it: its number, its players' names, or both."""
    parts = (_get(values, columns, f"pairid_{side}"), _get(values, columns, f"names_{side}"))
    return " ".join(part for part in parts if part)


def _score(values: Sequence[str], columns: _Columns, declarer: str, line: int) -> int | None:
    """North-South's score from the score columns; None when none is filled."""
    score_ns, score_ew = _get(values, columns, "score_ns"), _get(values, columns, "score_ew")
    if score_ns:
        return bridge_score(score_ns, line, "Score_NS")
    if score_ew:
        return -bridge_score(score_ew, line, "Score_EW")
    score = _get(values, columns, "score")
    return side_score(score, declarer, line) if score else None


def _row(
    values: Sequence[str], columns: _Columns, vulnerability: Vulnerability, line: int
) -> TableResult | None:
    """The result of one row; None for a table that did not play the board."""
    if len(values) != columns.count:
        raise ScoreTableError(
            line,
            f"de uitslagregel heeft {len(values)} {'waarde' if len(values) == 1 else 'waarden'}, "
            f"de [ScoreTable] {columns.count} kolommen (een lege waarde is -, een waarde met "
            "spaties staat tussen aanhalingstekens).",
        )
    contract = _get(values, columns, "contract", "contract_ns")
    declarer = _get(values, columns, "declarer")
    tricks = _get(values, columns, "result")
    artificial_ns = artificial_score(_get(values, columns, "score_ns", "score")) or ""
    artificial_ew = artificial_score(_get(values, columns, "score_ew")) or ""
    score: int | None = None
    if not (artificial_ns or artificial_ew):
        score = _score(values, columns, declarer, line)
        if contract and (tricks or contract.upper() in _PASSED):
            computed, contract, declarer = result_of(
                contract, declarer, tricks, vulnerability, line
            )
            score = computed if score is None else score
        if score is None and contract:
            raise ScoreTableError(
                line, f"contract {contract}: de uitslag ontbreekt (kolom Result of een score)."
            )
        if score is None:
            return None
    return TableResult(
        score=score,
        contract=contract,
        declarer=declarer,
        artificial_ns=artificial_ns,
        artificial_ew=artificial_ew,
        section=_get(values, columns, "section"),
        table=_number(_get(values, columns, "table")),
        room=_get(values, columns, "room"),
        ns=_pair(values, columns, "ns"),
        ew=_pair(values, columns, "ew"),
        count=_multiplicity(_get(values, columns, "multiplicity"), line),
    )


def read_score_table(
    value: str,
    tag_line: int,
    rows: Sequence[tuple[int, Sequence[str]]],
    vulnerability: Vulnerability,
) -> tuple[TableResult, ...]:
    """The results of the rows (``(line, values)``) of a ``[ScoreTable value]``, in file
    order; :class:`ScoreTableError` for the first row that cannot be read."""
    columns = _columns(value, tag_line)
    found: list[TableResult] = []
    for line, values in rows:
        result = _row(values, columns, vulnerability, line)
        if result is not None:
            found.append(result)
    return tuple(found)
