"""Reading a stored snapshot's JSON (``TreeSnapshot.data``, a transfer bundle's snapshots) back
into :class:`trees.spec.Snapshot`: strict, since a bundle may come from elsewhere; the first odd
place is a :class:`SnapshotFormatError` naming it. :meth:`Snapshot.to_json` writes what this
reads; :meth:`Snapshot.from_json` is the entry point. Pure Python, no Django.

The shape is declared as types read by the project's one schema library (:mod:`lib.schema`,
pydantic v2), which words a misfit as these messages always were (``where.key: must be str``,
``where: unknown key(s) …``, ``where.key: is missing``); what a type cannot say (an outcome
node needs its outcome, the start and every choice lead to a node, an option list, a role) is
checked after it.
"""

from __future__ import annotations

from typing import Any, Literal, NotRequired

# pydantic reads a TypedDict only from typing_extensions before Python 3.12.
from typing_extensions import TypedDict

from lib import schema
from lib.schema import Bool, Str
from trees.options import read_options
from trees.order import reading_order
from trees.spec import (
    LAW_KINDS,
    OFFENDER_ROLES,
    ChoiceSpec,
    CitedLaw,
    NodeSpec,
    OutcomeSpec,
    Snapshot,
    SnapshotFormatError,
    Text,
    TreeSpec,
)

__all__ = ["read_cited_law", "read_snapshot"]

_Text = schema.LanguageText


# Fields in alphabetical order: of several missing keys, the first named is the first
# alphabetically, as the hand-written reader said it.


class _Citation(TypedDict):
    __pydantic_config__ = schema.OBJECT  # type: ignore[misc]
    article: Str
    article_title: Str
    edition: Str
    key: Str
    kind: Str  # one of trees.spec.LAW_KINDS, checked below (a number is "must be str")
    text: _Text | None


class _Choice(TypedDict):
    __pydantic_config__ = schema.OBJECT  # type: ignore[misc]
    citations: NotRequired[Any]  # the law text the answer cites: a list of _Citation, or empty
    key: Str
    label: NotRequired[_Text | None]
    offender: NotRequired[Str | None]  # one of OFFENDER_ROLES, checked below
    target: Str


class _Outcome(TypedDict):
    __pydantic_config__ = schema.OBJECT  # type: ignore[misc]
    adjusted_score: Bool
    announce: NotRequired[_Text | None]
    chooser: Str
    option_list: NotRequired[Any]  # read by trees.options.read_options
    options: NotRequired[_Text | None]
    resume_at: NotRequired[Str | None]
    ruling: NotRequired[_Text | None]
    see_tree: NotRequired[Str | None]
    unauthorised_information: Bool


class _Node(TypedDict):
    __pydantic_config__ = schema.OBJECT  # type: ignore[misc]
    choices: NotRequired[Any]  # a list of _Choice, or empty
    citations: list[_Citation]
    help: NotRequired[_Text | None]
    kind: Literal["question", "outcome"]  # trees.spec.KINDS
    outcome: NotRequired[Any]  # an _Outcome on an outcome node (a question's is not read)
    poll: NotRequired[Bool]
    text: NotRequired[_Text | None]


class _Snapshot(TypedDict):
    __pydantic_config__ = schema.OBJECT  # type: ignore[misc]
    edition: Str
    nodes: dict[str, Any]  # each an _Node, read in order (the first odd node is named)
    phase: Str | None
    slug: Str
    start: Str
    title: _Text | None
    version: Str


def _check(value: Any, shape: Any, where: str) -> None:
    odd = schema.problems(value, shape, where)
    if odd:
        raise SnapshotFormatError(odd[0])


def _text(value: dict[str, Any] | None) -> Text:
    return Text(value.get("nl") or "", value.get("en") or "") if value else Text("", "")


def _optional_text(value: dict[str, Any] | None) -> Text | None:
    return None if value is None else _text(value)


def _law(data: dict[str, Any], where: str) -> CitedLaw:
    if data["kind"] not in LAW_KINDS:
        raise SnapshotFormatError(f"{where}.kind: must be one of {', '.join(LAW_KINDS)}")
    text = data["text"]
    return CitedLaw(
        key=data["key"],
        edition=data["edition"],
        article=data["article"],
        article_title=data["article_title"],
        kind=data["kind"],
        text=_text(text) if text is not None else Text("", ""),
    )


def read_cited_law(data: Any, where: str = "citation") -> CitedLaw:
    """One stored citation: the law text a node or an answer showed."""
    _check(data, _Citation, where)
    return _law(data, where)


def read_snapshot(data: Any, digest: str = "", where: str = "snapshot") -> Snapshot:
    """Read stored snapshot data; raises SnapshotFormatError naming the first odd place."""
    _check(data, _Snapshot, where)
    nodes_data: dict[str, Any] = data["nodes"]
    law: dict[str, CitedLaw] = {}
    nodes = []
    for key, raw in nodes_data.items():
        node, cited = _node(key, raw, f"{where}.nodes.{key}")
        nodes.append(node)
        law.update((item.key, item) for item in cited)
    start = data["start"]
    if start not in nodes_data:
        raise SnapshotFormatError(f"{where}.start: no node {start}")
    for node in nodes:
        for choice in node.choices:
            if choice.target not in nodes_data:
                raise SnapshotFormatError(
                    f"{where}.nodes.{node.key}: choice {choice.key} leads nowhere"
                )
    tree = TreeSpec(
        slug=data["slug"],
        edition=data["edition"],
        phase=data["phase"] or "",
        title=_text(data["title"]),
        description=Text("", ""),
        notes="",
        start=start,
        # PostgreSQL's jsonb does not keep the order of the stored nodes: put them in the
        # order Snapshot.of gives them, so a snapshot reads back equal on every database.
        nodes=reading_order(nodes, start),
    )
    return Snapshot(tree=tree, version=data["version"], law=law, digest=digest)


def _node(key: str, data: Any, where: str) -> tuple[NodeSpec, list[CitedLaw]]:
    """A node, and the law text it and its answers cite."""
    _check(data, _Node, where)
    kind = data["kind"]
    details = "outcome" if kind == "outcome" else "choices"
    if data.get(details) is None:
        raise SnapshotFormatError(f"{where}: {details} is missing")
    outcome = _outcome(data["outcome"], f"{where}.outcome") if kind == "outcome" else None
    choices, answer_law = _choices(data.get("choices") or [], f"{where}.choices")
    at = f"{where}.citations"
    own = [_law(item, f"{at}[{index}]") for index, item in enumerate(data["citations"])]
    node = NodeSpec(
        key=key,
        kind=kind,
        text=_text(data.get("text")),
        help=_optional_text(data.get("help")),
        cites=tuple(item.key for item in own),
        choices=choices,
        outcome=outcome,
        poll=data.get("poll", False),
    )
    return node, [*own, *answer_law]


def _outcome(data: Any, where: str) -> OutcomeSpec:
    _check(data, _Outcome, where)
    try:
        option_list = read_options(data.get("option_list") or [], f"{where}.option_list")
    except ValueError as error:
        raise SnapshotFormatError(str(error)) from None
    return OutcomeSpec(
        ruling=_text(data.get("ruling")),
        announce=_text(data.get("announce")),
        options=_optional_text(data.get("options")),
        chooser=data["chooser"],
        adjusted_score=data["adjusted_score"],
        unauthorised_information=data["unauthorised_information"],
        see_tree=data.get("see_tree") or None,
        option_list=option_list,
        resume_at=data.get("resume_at") or None,
    )


def _choices(data: Any, where: str) -> tuple[tuple[ChoiceSpec, ...], list[CitedLaw]]:
    """The choices, and the law text their answers cite."""
    _check(data, list[_Choice], where)
    result = []
    law: list[CitedLaw] = []
    for index, item in enumerate(data):
        offender = item.get("offender") or ""
        if offender and offender not in OFFENDER_ROLES:
            roles = ", ".join(OFFENDER_ROLES)
            raise SnapshotFormatError(f"{where}[{index}].offender: must be one of {roles}")
        at = f"{where}[{index}].citations"
        _check(item.get("citations") or [], list[_Citation], at)
        cited = [_law(entry, f"{at}[{n}]") for n, entry in enumerate(item.get("citations") or [])]
        law += cited
        result.append(
            ChoiceSpec(
                key=item["key"],
                label=_text(item.get("label")),
                target=item["target"],
                cites=tuple(entry.key for entry in cited),
                offender=offender,
            )
        )
    return tuple(result), law
