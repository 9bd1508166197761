"""The JSON shapes the pages expect of a ruling's fields and of a tree snapshot.

A snapshot is read by its own type (:meth:`trees.spec.Snapshot.from_json`); the shapes below
are those of the ruling's own JSON fields (its outcome, path, steps), which copy parts of it.

The wizard writes these values itself, so in normal use they always fit. A transfer bundle is
made elsewhere, though: a hand-edited one can carry a snapshot or an outcome whose audit chain
and digest verify but whose content is, say, a list where a text per language belongs. Checking
the shape on import keeps such a bundle out, with a message naming the place, instead of
letting it in to break every page that shows it.

Each shape is a type read by the project's one schema library (:mod:`lib.schema`, pydantic
v2): a ``TypedDict`` is an object with exactly these keys (``NotRequired`` ones may be left
out, ``| None`` ones may be null), scalars are strict. :func:`problems` names every place that
does not fit, in the words these checks have always used.
"""

from __future__ import annotations

from typing import Any, Literal, NotRequired

# pydantic reads a TypedDict only from typing_extensions before Python 3.12.
from typing_extensions import TypedDict

from lib import limits, schema
from lib.schema import Bool, Int, Str
from scores.adjusted import read_rows
from trees.options import read_options
from trees.spec import Snapshot, SnapshotFormatError

Text = schema.LanguageText  # a text per language


class Question(Text):
    """A step keeps the question as it was asked, with its help text."""

    help: NotRequired[Text | None]


class Citation(TypedDict):
    __pydantic_config__ = schema.OBJECT  # type: ignore[misc]
    key: Str
    edition: Str
    article: Str
    article_title: Str
    kind: Literal["official", "summary", "title", "missing"]
    text: Text


class Outcome(TypedDict):
    """Ruling.outcome once an outcome is reached (an empty object before)."""

    __pydantic_config__ = schema.OBJECT  # type: ignore[misc]
    key: Str
    title: NotRequired[Text | None]
    ruling: NotRequired[Text | None]
    options: NotRequired[Text | None]
    chooser: Str
    announce: NotRequired[Text | None]
    adjusted_score: Bool
    unauthorised_information: Bool
    see_tree: NotRequired[Str | None]
    # Every option when a side chooses (read by trees.options.read_options, below), and the
    # question play resumes at.
    option_list: NotRequired[Any]
    resume_at: NotRequired[Str | None]
    citations: list[Citation]


class HandedOverPart(TypedDict):
    """One earlier tree of a ruling continued in another (rulings/hand_over.py PART_KEYS)."""

    __pydantic_config__ = schema.OBJECT  # type: ignore[misc]
    tree: Str
    title: Text
    edition: Str
    version: Str
    snapshot: Str
    path: list[Any]  # checked as PATH in ruling_problems
    outcome_key: Str
    outcome: Outcome
    basis: list[Str]
    revision: Int


# The names the rest of the code uses for them.
TEXT = Text
QUESTION = Question
CITATION = Citation
OUTCOME = Outcome
PATH: Any = list[schema.fixed_list(Str, Str)]  # type: ignore[misc]
EARLIER_ANSWERS = dict[str, Str]
CITATIONS = list[Citation]
HANDED_OVER = list[HandedOverPart]


def problems(value: Any, shape: Any, where: str = "") -> list[str]:
    """Where ``value`` does not have ``shape``, as readable lines (empty when it fits)."""
    return schema.problems(value, shape, where)


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
        if isinstance(outcome, dict) and "option_list" in outcome:
            try:
                read_options(outcome["option_list"], f"{where}.outcome.option_list")
            except ValueError as error:
                found.append(str(error))
    elif outcome is not None and outcome != {}:
        found.append(f"{where}.outcome: must be an object")
    if "path" in fields:
        found += problems(fields["path"], PATH, f"{where}.path")
    if "earlier_answers" in fields:
        found += problems(fields["earlier_answers"], EARLIER_ANSWERS, f"{where}.earlier_answers")
    if "handed_over" in fields:
        found += problems(fields["handed_over"], HANDED_OVER, f"{where}.handed_over")
        for n, part in enumerate(fields["handed_over"] if not found else (), 1):
            found += problems(part["path"], PATH, f"{where}.handed_over[{n}].path")
        if not found and fields["handed_over"] and fields.get("tree_slug") == "vrij":
            found.append(f"{where}.handed_over: a free ruling has no trees")
    return found


def step_problems(fields: dict[str, Any], where: str = "step") -> list[str]:
    found: list[str] = []
    for name, shape in (("question", QUESTION), ("answer", TEXT), ("citations", CITATIONS)):
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
    found = [f"{where}.data: no fractional numbers"] if _has_float(data) else []
    for name, limit in EVENT_TEXTS.get(fields.get("action", ""), {}).items():
        text = data.get(name)
        if isinstance(text, str) and len(text) > limit:
            found.append(f"{where}.data.{name}: longer than {limit} characters")
    return found


# The texts a form limits (lib.limits) as the events that record them carry them: a bundle
# brings no longer ones than a form lets through.
EVENT_TEXTS: dict[str, dict[str, int]] = {
    "reviewed": {"comment": limits.DECISION_MAX, "corrected_ruling": limits.DECISION_MAX},
    "appeal_opened": {"note": limits.APPEAL_NOTE_MAX},
    "appeal_settled": {"note": limits.APPEAL_NOTE_MAX},
    "free_written": {"decision": limits.DECISION_MAX, "announcement": limits.SAID_MAX},
}


def review_problems(fields: dict[str, Any], where: str = "review") -> list[str]:
    if "corrected_citations" in fields:
        return problems(fields["corrected_citations"], list[Str], f"{where}.corrected_citations")
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
    found += problems(fields.get("field", []), list[Int], f"{where}.field")
    return found
