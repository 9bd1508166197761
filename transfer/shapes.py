"""The JSON shapes the pages expect of a ruling's fields and of a tree snapshot.

A snapshot is read by its own type (:meth:`trees.spec.Snapshot.from_json`); the shapes below
are those of the ruling's own JSON fields (its outcome, path, steps), which copy parts of it.

The wizard writes these values itself, so in normal use they always fit. A transfer bundle is
made elsewhere, though: a hand-edited one can carry a snapshot or an outcome whose audit chain
and digest verify but whose content is, say, a list where a text per language belongs. Checking
the shape on import keeps such a bundle out, with a message naming the place, instead of
letting it in to break every page that shows it.

A shape is plain data: a Python type (``str``, ``bool``), :class:`Optional`, :class:`ListOf`,
:class:`MapOf`, :class:`OneOf`, a tuple (a fixed-length list) or a dict (an object with exactly
these keys; keys whose shape is :class:`Optional` may be left out).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from scores.adjusted import read_rows
from trees.spec import Snapshot, SnapshotFormatError


@dataclass(frozen=True)
class Optional:
    """May be missing or null."""

    shape: Any


@dataclass(frozen=True)
class ListOf:
    shape: Any


@dataclass(frozen=True)
class MapOf:
    """An object with any text keys, every value of ``shape``."""

    shape: Any


@dataclass(frozen=True)
class OneOf:
    values: tuple[str, ...]


TEXT = {"nl": Optional(str), "en": Optional(str)}
# A step keeps the question as it was asked, with its help text.
QUESTION = {**TEXT, "help": Optional(TEXT)}
CITATION = {
    "key": str,
    "edition": str,
    "article": str,
    "article_title": str,
    "kind": OneOf(("official", "summary", "title", "missing")),
    "text": TEXT,
}
OUTCOME_DETAILS = {
    "ruling": Optional(TEXT),
    "options": Optional(TEXT),
    "chooser": str,
    "announce": Optional(TEXT),
    "adjusted_score": bool,
    "unauthorised_information": bool,
    "see_tree": Optional(str),
}
# Ruling.outcome once an outcome is reached (an empty object before).
OUTCOME = {"key": str, "title": Optional(TEXT), **OUTCOME_DETAILS, "citations": ListOf(CITATION)}
PATH = ListOf((str, str))
EARLIER_ANSWERS = MapOf(str)


def problems(value: Any, shape: Any, where: str = "") -> list[str]:
    """Where ``value`` does not have ``shape``, as readable lines (empty when it fits)."""
    found: list[str] = []
    _check(value, shape, where or "value", found)
    return found


def _check(value: Any, shape: Any, where: str, found: list[str]) -> None:
    if isinstance(shape, Optional):
        if value is not None:
            _check(value, shape.shape, where, found)
    elif isinstance(shape, OneOf):
        if value not in shape.values:
            found.append(f"{where}: must be one of {', '.join(shape.values)}")
    elif isinstance(shape, ListOf):
        _check_list(value, shape, where, found)
    elif isinstance(shape, MapOf):
        _check_map(value, shape, where, found)
    elif isinstance(shape, tuple):
        _check_tuple(value, shape, where, found)
    elif isinstance(shape, dict):
        _check_object(value, shape, where, found)
    # bool is a subclass of int: a type check must not let True pass for a number or text.
    elif type(value) is not shape:
        found.append(f"{where}: must be {shape.__name__}")


def _check_list(value: Any, shape: ListOf, where: str, found: list[str]) -> None:
    if not isinstance(value, list):
        found.append(f"{where}: must be a list")
        return
    for index, item in enumerate(value):
        _check(item, shape.shape, f"{where}[{index}]", found)


def _check_map(value: Any, shape: MapOf, where: str, found: list[str]) -> None:
    if not isinstance(value, dict):
        found.append(f"{where}: must be an object")
        return
    for key, item in value.items():
        _check(item, shape.shape, f"{where}.{key}", found)


def _check_tuple(value: Any, shape: tuple[Any, ...], where: str, found: list[str]) -> None:
    """A list of fixed length whose items each have their own shape."""
    if not isinstance(value, list) or len(value) != len(shape):
        found.append(f"{where}: must be a list of {len(shape)}")
        return
    for index, (item, part) in enumerate(zip(value, shape, strict=True)):
        _check(item, part, f"{where}[{index}]", found)


def _check_object(value: Any, shape: dict[str, Any], where: str, found: list[str]) -> None:
    if not isinstance(value, dict):
        found.append(f"{where}: must be an object")
        return
    unknown = sorted(set(value) - set(shape))
    if unknown:
        found.append(f"{where}: unknown key(s) {', '.join(map(str, unknown))}")
    for key, part in shape.items():
        if key in value:
            _check(value[key], part, f"{where}.{key}", found)
        elif not isinstance(part, Optional):
            found.append(f"{where}.{key}: is missing")


def snapshot_problems(data: Any, where: str = "snapshot") -> list[str]:
    """Whether ``data`` reads as a tree snapshot: its shape, its start and every choice leading
    to a node in it. The reader is the snapshot type's own (``Snapshot.from_json``), so what a
    bundle brings in is exactly what the wizard and training can read; the first problem."""
    try:
        Snapshot.from_json(data, where=where)
    except SnapshotFormatError as error:
        return [str(error)]
    return []


def ruling_problems(fields: dict[str, Any], where: str = "ruling") -> list[str]:
    """The shape of a ruling's JSON fields (``fields`` as parsed from a bundle)."""
    found: list[str] = []
    outcome = fields.get("outcome")
    if outcome:  # an empty object is a ruling without an outcome yet
        found += problems(outcome, OUTCOME, f"{where}.outcome")
    elif outcome is not None and outcome != {}:
        found.append(f"{where}.outcome: must be an object")
    if "path" in fields:
        found += problems(fields["path"], PATH, f"{where}.path")
    if "earlier_answers" in fields:
        found += problems(fields["earlier_answers"], EARLIER_ANSWERS, f"{where}.earlier_answers")
    return found


def step_problems(fields: dict[str, Any], where: str = "step") -> list[str]:
    found: list[str] = []
    for name, shape in (("question", QUESTION), ("answer", TEXT), ("citations", ListOf(CITATION))):
        if name in fields:
            found += problems(fields[name], shape, f"{where}.{name}")
    return found


def _has_float(value: Any) -> bool:
    if isinstance(value, float):
        return True
    if isinstance(value, dict):
        return any(_has_float(item) for item in value.values())
    if isinstance(value, list):
        return any(_has_float(item) for item in value)
    return False


def event_problems(fields: dict[str, Any], where: str = "event") -> list[str]:
    """An audit event's data: an object without fractional numbers. The wizard never writes
    one, and PostgreSQL's jsonb does not keep a float as written (``1.0e16`` comes back as
    ``10000000000000000``), so a chain verified with it would not verify once stored."""
    data = fields.get("data", {})
    if not isinstance(data, dict):
        return [f"{where}.data: must be an object"]
    return [f"{where}.data: no fractional numbers"] if _has_float(data) else []


def review_problems(fields: dict[str, Any], where: str = "review") -> list[str]:
    if "corrected_citations" in fields:
        return problems(fields["corrected_citations"], ListOf(str), f"{where}.corrected_citations")
    return []


def adjusted_score_problems(fields: dict[str, Any], where: str = "adjusted score") -> list[str]:
    """An adjusted score's rows as ``scores.adjusted.read_rows`` reads them (contracts the
    calculator reads, known seats, weights), and its other results as whole numbers."""
    found: list[str] = []
    for name in ("non_offending_rows", "offending_rows"):
        try:
            read_rows(fields.get(name, []))
        except ValueError as error:
            found.append(f"{where}.{name}: {error}")
    found += problems(fields.get("field", []), ListOf(int), f"{where}.field")
    return found
