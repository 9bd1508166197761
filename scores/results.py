"""A board's results at the tables that played it, as a scoring program wrote them into a PBN
file, and the ones an adjusted score is compared with. Pure Python.

A :class:`TableResult` is one row: North-South's score (or an artificial score such as ``A+``,
which no other table is compared with), the contract with its result and declarer when the file
gives them, where it was played (section or match, table, room, pairs) and how many tables had
it (PBN's ``Multiplicity``). :func:`comparison` picks the other results for an adjusted score:
every other table, or at IMPs against the other table of a match only the own match's, and
never the ruling's own table's result.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, fields
from typing import Any

__all__ = ["ARTIFICIAL_SCORES", "Compared", "TableResult", "comparison", "own_result"]

# What scoring programs write for an artificial score: average plus, average, average minus
# (A= is Ruter's average), or a percentage.
ARTIFICIAL_SCORES = ("A+", "A", "A=", "A-")


@dataclass(frozen=True)
class TableResult:
    score: int | None  # North-South's score; None for an artificial score
    contract: str = ""  # calculator notation with the result ("4HX-1", "pass"), or as written
    declarer: str = ""  # N, E, S, W, or "" when passed out or not written
    artificial_ns: str = ""  # "A+", "A", "A-", "60%": North-South's artificial score
    artificial_ew: str = ""
    section: str = ""  # the section or match the table played in
    table: int | None = None
    room: str = ""  # Open or Closed at teams
    ns: str = ""  # North-South's pair number and/or names
    ew: str = ""
    count: int = 1  # how many tables had this result (PBN's Multiplicity)

    @property
    def artificial(self) -> bool:
        return self.score is None

    def to_json(self) -> dict[str, Any]:
        """The fields that differ from their default (``score`` always): compact JSON."""
        data: dict[str, Any] = {"score": self.score}
        for item in fields(self)[1:]:
            value = getattr(self, item.name)
            if value != item.default:
                data[item.name] = value
        return data

    @classmethod
    def from_json(cls, data: Any) -> TableResult:
        """A result from :meth:`to_json`'s shape; ValueError for anything else."""
        if not isinstance(data, Mapping) or "score" not in data:
            raise ValueError("a table result is an object with a score")
        known = {item.name: item for item in fields(cls)}
        values: dict[str, Any] = {}
        for name, value in data.items():
            if name not in known:
                raise ValueError(f"unknown field {name!r} in a table result")
            values[name] = value
        result = cls(**values)
        if result.score is not None and (
            isinstance(result.score, bool) or not isinstance(result.score, int)
        ):
            raise ValueError("a table result's score is a whole number")
        return result


def own_result(results: Sequence[TableResult], table: int | None) -> int | None:
    """The index of the ruling's own table's result: the one result played at ``table``;
    None when no table is known or the file does not tell it apart (no table numbers, or the
    same table number in two sections or rooms)."""
    if table is None:
        return None
    found = [index for index, result in enumerate(results) if result.table == table]
    if len(found) != 1 or results[found[0]].count != 1:
        return None
    return found[0]


@dataclass(frozen=True)
class Compared:
    """One result of the board as the adjusted-score form lists it."""

    index: int
    result: TableResult
    own: bool  # the ruling's own table: left out, shown struck through
    used: bool  # compared with (another section's or match's table is not, at teams)


def comparison(
    results: Sequence[TableResult], own: int | None, scoring: str
) -> tuple[list[Compared], tuple[int, ...]]:
    """Each result with its part in the comparison, and the North-South scores compared
    with (a result of ``count`` tables counts ``count`` times; artificial scores not at all).

    At IMPs against the other table of a match (``imps``) only the own match's other tables
    count, when the own table is known and the file names its match; every other scoring
    compares with every other table."""
    own_section = results[own].section if own is not None else ""
    listed: list[Compared] = []
    field: list[int] = []
    for index, result in enumerate(results):
        is_own = index == own
        used = not is_own and not (
            scoring == "imps" and own_section and result.section != own_section
        )
        listed.append(Compared(index, result, is_own, used))
        if used and result.score is not None:
            field.extend([result.score] * result.count)
    return listed, tuple(field)
