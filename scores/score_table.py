"""The other results of a board from a PBN ``[ScoreTable "..."]`` section. Pure Python.

A scoring program writes one row per table that played the board. The tag value names the
columns, separated by ``;``, each with an optional width and alignment after a backslash
(``Score_NS\\6R``) and an optional sort sign before it (``+Score_NS``); the rows follow on the
next lines, values separated by spaces, a value with spaces in double quotes, ``-`` for empty.

The North-South score of a row is, in this order: ``Score_NS``; minus ``Score_EW``; ``Score``
with its side (``"NS 420"``, ``"EW 100"``; an artificial ``A+`` or ``60%`` is left out); or computed
from ``Contract`` (or ``Contract_NS``), ``Declarer`` and ``Result`` (tricks taken, or ``=``,
``+1``, ``-2``) at the board's vulnerability. A row without any of these (every value ``-``)
is a table that did not play the board and is left out. Anything else that cannot be read is a
:class:`ScoreTableError` naming its line; the PBN reader turns it into a ``PbnError``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from scores.deal import DealError, Seat, Vulnerability, north_south_score

__all__ = ["MAX_SCORE", "ScoreTableError", "read_score_table"]

# The largest score a board can give (7NTXX= vulnerable with all overtricks is below it), and
# the same bound as the adjusted-score form's field, so whatever is read can be prefilled there.
MAX_SCORE = 7600

_TOKEN = re.compile(r'"(?P<quoted>(?:[^"\\]|\\.)*)"|(?P<plain>[^\s"]+)')
_EMPTY = "-"
_CONTRACT_COLUMNS = ("contract", "contract_ns")
_PASSED = frozenset({"PASS", "PAS", "AP", "ALL PASS"})
_SIDE_SCORE = re.compile(r"^(?P<side>NS|EW)\s+(?P<score>[-−]?\d+)$", re.IGNORECASE)
_ARTIFICIAL = re.compile(r"^(A[+=-]?|\d+(\.\d+)?\s*%)$", re.IGNORECASE)


class ScoreTableError(ValueError):
    """A score table that cannot be read; ``line`` is 1-based."""

    def __init__(self, line: int, problem: str) -> None:
        self.line = line
        self.problem = problem
        super().__init__(f"Regel {line}: {problem}")


@dataclass(frozen=True)
class _Columns:
    """Positions of the columns a North-South score is read from (None when absent)."""

    count: int
    score_ns: int | None
    score_ew: int | None
    score: int | None  # "NS 420" / "EW 100": the score with the side it counts for
    contract: int | None
    declarer: int | None
    result: int | None


def _column_name(spec: str) -> str:
    """``+Score_NS\\6R`` → ``score_ns``: without sort sign, width and alignment."""
    return spec.strip().lstrip("+-").split("\\", 1)[0].strip().lower()


def _columns(value: str, line: int) -> _Columns:
    names = [_column_name(spec) for spec in value.split(";")]
    if not any(names):
        raise ScoreTableError(line, "[ScoreTable] noemt geen kolommen.")

    def position(*wanted: str) -> int | None:
        for name in wanted:
            if name in names:
                return names.index(name)
        return None

    columns = _Columns(
        count=len(names),
        score_ns=position("score_ns"),
        score_ew=position("score_ew"),
        score=position("score"),
        contract=position(*_CONTRACT_COLUMNS),
        declarer=position("declarer"),
        result=position("result"),
    )
    if all(
        at is None for at in (columns.score_ns, columns.score_ew, columns.score, columns.contract)
    ):
        raise ScoreTableError(
            line,
            "[ScoreTable] heeft geen kolom Score_NS, Score_EW, Score of Contract; uit deze "
            "tabel is geen uitslag te lezen.",
        )
    return columns


def _values(text: str) -> list[str]:
    """The values of a row; an unquoted ``;`` starts a comment to the end of the line."""
    values: list[str] = []
    for found in _TOKEN.finditer(text):
        plain = found.group("plain")
        if plain is not None and plain.startswith(";"):
            break
        values.append(plain if plain is not None else found.group("quoted"))
    return values


def _score(text: str, line: int, column: str) -> int:
    try:
        score = int(text.replace("−", "-"))
    except ValueError:
        raise ScoreTableError(
            line, f"{column} '{text}' is geen score (een geheel getal, of - voor leeg)."
        ) from None
    if score % 10 or abs(score) > MAX_SCORE:
        raise ScoreTableError(line, f"{column} '{text}' kan geen bridgescore zijn.")
    return score


def _side_score(text: str, line: int) -> int | None:
    """A ``Score`` value as North-South's: ``NS 420`` or ``EW -100``; None for an artificial
    score (``A+``, ``60%``), which no other table's matchpoints are compared with."""
    if _ARTIFICIAL.match(text):
        return None
    found = _SIDE_SCORE.match(text)
    if found is None:
        raise ScoreTableError(
            line, f"Score '{text}' noemt geen kant en score (bijvoorbeeld \"NS 420\")."
        )
    score = _score(found.group("score"), line, "Score")
    return score if found.group("side").upper() == "NS" else -score


def _get(values: Sequence[str], index: int | None) -> str:
    """The value in a column, or "" when the column is absent or the value is ``-``."""
    if index is None:
        return ""
    value = values[index].strip()
    return "" if value == _EMPTY else value


def _computed(
    values: Sequence[str], columns: _Columns, vulnerability: Vulnerability, line: int
) -> int:
    contract = _get(values, columns.contract)
    declarer = _get(values, columns.declarer)
    result = _get(values, columns.result)
    if contract.upper() in _PASSED:
        return 0
    if not declarer:
        raise ScoreTableError(line, f"contract {contract} zonder leider (kolom Declarer).")
    try:
        seat = Seat.read(declarer)
    except DealError as error:
        raise ScoreTableError(line, str(error)) from None
    try:
        return north_south_score(f"{contract} {result}".strip(), seat, vulnerability)
    except ValueError as error:
        raise ScoreTableError(line, str(error)) from None


def _row_score(
    values: Sequence[str], columns: _Columns, vulnerability: Vulnerability, line: int
) -> int | None:
    """The North-South score of one row; None for a table that did not play the board."""
    if len(values) != columns.count:
        raise ScoreTableError(
            line,
            f"de uitslagregel heeft {len(values)} {'waarde' if len(values) == 1 else 'waarden'}, "
            f"de [ScoreTable] {columns.count} kolommen (een lege waarde is -, een waarde met "
            "spaties staat tussen aanhalingstekens).",
        )
    score_ns = _get(values, columns.score_ns)
    if score_ns:
        return _score(score_ns, line, "Score_NS")
    score_ew = _get(values, columns.score_ew)
    if score_ew:
        return -_score(score_ew, line, "Score_EW")
    score = _get(values, columns.score)
    if score:
        return _side_score(score, line)
    if _get(values, columns.contract):
        return _computed(values, columns, vulnerability, line)
    return None


def read_score_table(
    value: str, tag_line: int, rows: Sequence[tuple[int, str]], vulnerability: Vulnerability
) -> tuple[int, ...]:
    """The North-South scores of the rows (``(line, text)``) of a ``[ScoreTable value]``, in
    file order; :class:`ScoreTableError` for the first row that cannot be read."""
    columns = _columns(value, tag_line)
    scores: list[int] = []
    for line, text in rows:
        values = _values(text)
        if not values:
            continue  # a line holding only a comment
        score = _row_score(values, columns, vulnerability, line)
        if score is not None:
            scores.append(score)
    return tuple(scores)
