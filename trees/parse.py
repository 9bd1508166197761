"""Reading decision tree files (``trees/files/<slug>.yaml``, format in docs/TREE_FORMAT.md).

Parsing checks the *shape* of the document and raises :class:`~trees.spec.TreeError` on the first
structural problem (bad YAML, unknown or missing fields, wrong types, malformed keys); the *rules*
of a good tree are checked by :func:`trees.validate.validate`. Errors raised from a file are
prefixed with the file (``trees/files/x.yaml: node 'foo': ...``).

The shape is declared as types read by the project's one schema library (:mod:`lib.schema`,
pydantic v2); pydantic's first error in file order is worded as authors have always read it
(:func:`_wording`), then the frozen :class:`~trees.spec.TreeSpec` is built from the checked data.
"""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path as FilePath
from typing import Annotated, Any, Literal, NotRequired

import yaml
from annotated_types import MinLen
from pydantic import AfterValidator, BeforeValidator
from pydantic_core import ErrorDetails, PydanticCustomError

# pydantic reads a TypedDict only from typing_extensions before Python 3.12.
from typing_extensions import TypedDict

from laws import keys
from lib import schema, yamltext
from lib.schema import Bool, LanguageText, Str
from trees.options import OptionSpec
from trees.spec import (
    CHOOSERS,
    OFFENDER_ROLES,
    PHASES,
    ChoiceSpec,
    Finder,
    NodeSpec,
    OutcomeSpec,
    Text,
    TreeError,
    TreeSpec,
)

__all__ = ["SLUG_RE", "load_tree_file", "parse_tree"]

SLUG_RE = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
NOT_SLUG = "is not a lowercase slug (a-z, 0-9, '-')"

# --------------------------------------------------------------------------------------------
# YAML that refuses duplicate keys (YAML would keep the last silently)


class _UniqueKeyLoader(yaml.SafeLoader):
    """A safe loader that refuses duplicate mapping keys."""


def _construct_mapping(loader: yaml.SafeLoader, node: yaml.MappingNode) -> dict[Any, Any]:
    loader.flatten_mapping(node)
    mapping: dict[Any, Any] = {}
    for key_node, value_node in node.value:
        key = loader.construct_object(key_node, deep=True)
        if key in mapping:
            raise yaml.constructor.ConstructorError(
                None, None, f"duplicate key {key!r}", key_node.start_mark
            )
        mapping[key] = loader.construct_object(value_node, deep=True)
    return mapping


_UniqueKeyLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_mapping)


class _FastUniqueKeyLoader(yamltext.FastSafeLoader):
    """The same, on libyaml's parser (``lib.yamltext``)."""


_FastUniqueKeyLoader.add_constructor(
    yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_mapping
)

# --------------------------------------------------------------------------------------------
# The shape of a tree file. Texts are kept without surrounding spaces (Python's strip, as
# always); an empty optional part counts as absent.


def _problem(text: str, *, alone: bool = False) -> PydanticCustomError:
    """What a type cannot say, worded after the place's name ("edition is empty") or alone."""
    return PydanticCustomError("alone" if alone else "named", "{text}", {"text": text})


def _strip(value: Any) -> Any:
    return value.strip() if isinstance(value, str) else value


def _slug(value: str) -> str:
    if not SLUG_RE.match(value):
        raise _problem(f"{value!r} {NOT_SLUG}")
    return value


def _node_key(value: str) -> str:  # matched as written, not stripped
    if not SLUG_RE.match(value):
        raise _problem(NOT_SLUG)
    return value


def _words(words: list[str] | None) -> tuple[str, ...]:
    """A finder's words, each on one line (a ``Tree`` row keeps one per line)."""
    if any(not word for word in words or ()):
        raise _problem("has an empty word")
    if any("\n" in word for word in words or ()):
        raise _problem("has a word with a line break")
    return tuple(words or ())


_Line = Annotated[Str, AfterValidator(_strip)]
_Text = LanguageText  # stripped when built (_text)
_Slug = Annotated[_Line, AfterValidator(_slug)]
_Absent = BeforeValidator(lambda value: value or None)  # help: "" or {} is no help
_Cites = list[_Line] | None
_Words = Annotated[list[_Line] | None, _Absent, AfterValidator(_words)]
# The values of trees.spec; a phase or chooser may have spaces around it, as ever.
_Phase = Annotated[Literal[PHASES], BeforeValidator(_strip)]  # type: ignore[valid-type]
_Chooser = Annotated[Literal[CHOOSERS], BeforeValidator(_strip)]  # type: ignore[valid-type]
_Offender = Literal[OFFENDER_ROLES]  # type: ignore[valid-type]


class _Synonyms(TypedDict, total=False):
    __pydantic_config__ = schema.OBJECT  # type: ignore[misc]
    nl: _Words
    en: _Words


class _Finder(_Synonyms, total=False):
    synonyms: Annotated[_Synonyms | None, _Absent]


# Required fields first: of several missing, the first is named.


class _Choice(TypedDict):
    __pydantic_config__ = schema.OBJECT  # type: ignore[misc]
    key: _Slug
    label: _Text
    next: _Slug
    cites: NotRequired[_Cites]
    offender: NotRequired[_Offender | None]


class _Option(TypedDict):
    __pydantic_config__ = schema.OBJECT  # type: ignore[misc]
    label: _Text
    cites: NotRequired[_Cites]
    chosen_by: NotRequired[_Line]
    chosen_if: NotRequired[_Line | None]


class _Outcome(TypedDict):
    __pydantic_config__ = schema.OBJECT  # type: ignore[misc]
    title: _Text
    ruling: _Text
    announce: _Text
    options: NotRequired[Annotated[_Text | None, _Absent]]
    chooser: NotRequired[_Chooser]
    adjusted_score: NotRequired[Bool | None]
    unauthorised_information: NotRequired[Bool | None]
    see_tree: NotRequired[_Slug | None]
    option_list: NotRequired[list[_Option] | None]
    resume_at: NotRequired[_Slug | None]


class _Node(TypedDict, total=False):
    __pydantic_config__ = schema.OBJECT  # type: ignore[misc]
    question: _Text
    outcome: _Outcome
    help: Annotated[_Text | None, _Absent]
    cites: _Cites
    choices: list[_Choice] | None
    poll: Bool | None


def _one_kind(node: Any) -> Any:
    """A question or an outcome; judged once the node's fields are known (else those are named)."""
    if isinstance(node, dict) and all(name in _Node.__annotations__ for name in node):
        if ("question" in node) == ("outcome" in node):
            raise _problem("a node has exactly one of 'question' and 'outcome'", alone=True)
        if "outcome" in node and node.get("poll") is True:
            raise _problem("poll: only a question is answered by a poll", alone=True)
    return node


_Nodes = dict[
    Annotated[Str, AfterValidator(_node_key)], Annotated[_Node, BeforeValidator(_one_kind)]
]


class _TreeFile(TypedDict):
    __pydantic_config__ = schema.OBJECT  # type: ignore[misc]
    slug: _Slug
    edition: Annotated[_Line, MinLen(1)]
    phase: _Phase
    title: _Text
    description: NotRequired[Annotated[_Text | None, _Absent]]
    notes: NotRequired[_Line | None]
    finder: NotRequired[_Finder | None]
    start: _Slug
    nodes: Annotated[_Nodes, MinLen(1)]


# --------------------------------------------------------------------------------------------
# Pydantic's first error in the file, worded as the hand-written reader worded it (each message
# is pinned in tests/trees/test_parse.py)

_SHAPES: dict[str, Any] = {"": _TreeFile, "nodes": _Node, "choices": _Choice, "outcome": _Outcome}
_SHAPES.update(option_list=_Option, finder=_Finder, synonyms=_Synonyms)  # by field; else a text
_LIST_OF = {"cites": " of law references", "choices": "", "option_list": " of options"}
# A mapping's own problems come before those of its values, as the old reader checked them.
_FIRST = {"[key]": 0, "invalid_key": 1, "extra_forbidden": 2, "missing": 3}


def _wording(errors: list[ErrorDetails], data: Any) -> str:
    """The message for the first of ``errors`` in the file (:func:`_order`)."""
    for error in errors:  # a node key that is no text is a key of the nodes mapping
        if error["loc"][-1:] == ("[key]",) and error["type"] == "string_type":
            error["loc"], error["type"] = error["loc"][:-1], "invalid_key"
    first = min(errors, key=lambda error: _order(error, data))
    kind, loc, value = first["type"], first["loc"], first["input"]
    if kind in ("invalid_key", "extra_forbidden", "missing"):  # of the mapping at loc[:-1]
        where, what, field = _place(loc[:-1], data)
        same = (e["loc"] for e in errors if e["type"] == kind and e["loc"][:-1] == loc[:-1])
        names = ", ".join(sorted(repr(str(name[-1])) for name in same))
        if kind == "invalid_key":
            message = f"{what}: field {value!r} must be a string (quote it)"
        elif kind == "extra_forbidden":
            allowed = ", ".join(sorted(_SHAPES.get(field, LanguageText).__annotations__))
            owner = "the tree" if len(loc) == 1 else what
            message = f"{owner}: unknown field {names} (allowed: {allowed})"
        elif len(loc) == 1:  # every missing field of the tree, the first of another mapping
            message = f"missing field {names}"
        else:
            message = f"{what}: missing field {loc[-1]!r}"
        return f"{where}: {message}" if where else message
    where, what, field = _place(loc, data)
    if kind == "dict_type":
        message = f"{what} must be a mapping"
    elif kind == "list_type":
        message = f"{what} must be a list{_LIST_OF.get(field, ' of words')}"
    elif kind == "too_short":
        message = f"{what} is empty"
    elif kind == "bool_type":
        message = f"{what} must be true or false, not {value!r}"
    elif kind == "literal_error" and field == "offender":
        message = f"{what} must be one of {', '.join(OFFENDER_ROLES)}"
    elif kind == "literal_error" and isinstance(value, str):
        values = PHASES if field == "phase" else CHOOSERS
        message = f"{what} {value.strip()!r} is not one of {', '.join(values)}"
    elif kind in ("string_type", "literal_error"):
        hint = " (quote it)" if isinstance(value, bool | int | float) else ""
        message = f"{what} must be a string{hint}, not {value!r}"
    else:  # one of ours (_problem)
        message = first["msg"] if kind == "alone" else f"{what} {first['msg']}"
    return f"{where}: {message}" if where else message


def _order(error: ErrorDetails, data: Any) -> tuple[int, ...]:
    """Where ``error`` stands in the file: the positions of its keys and items there."""
    loc = error["loc"]
    first = _FIRST.get("[key]" if loc[-1:] == ("[key]",) else error["type"])
    spots, value = [], data
    for part in loc if first is None else loc[:-1]:
        children = _children(value)
        spots.append(list(children).index(part) if part in children else -1)
        value = children.get(part)
    return (*spots, 9) if first is None else (*spots, -1, first)


def _place(loc: tuple[int | str, ...], data: Any) -> tuple[str, str, str]:
    """Where (``node 'x'``) and what (``choice 'ja': label``) ``loc`` is, named as the old reader
    named it, and the last field on the way (``label``)."""
    where, what, field, item, value = "", "the file", "", "", data
    for part in loc:
        value = _children(value).get(part)
        if part == "[key]":  # pydantic's name for a dict's key
            what = "node key"
        elif what == "nodes":
            where, what = f"node {part!r}", "the node"
        elif isinstance(part, int):  # a list's item (a finder word is named by its list)
            if field == "cites":
                what = "citation"
            elif field in ("choices", "option_list"):
                what = item = f"{'choice' if field == 'choices' else 'option'} {part + 1}"
                key = value.get("key") if field == "choices" and isinstance(value, dict) else None
                if isinstance(key, str) and SLUG_RE.match(key.strip()):
                    item = f"choice {key.strip()!r}"  # named by its key once that is good
        elif part in ("nl", "en"):
            what, field = f"{what} ({part})", part
        else:
            if item and part == "cites":  # a choice's or option's cites are named after it
                where, what = f"{where}: {item}", "cites"
            elif item and (item.startswith("choice") or part == "label"):
                what = f"{what if part == 'key' else item}: {part}"
            else:
                what = "finder synonyms" if part == "synonyms" else part
            field, item = part, ""
    return where, what, field


def _children(value: Any) -> dict[Any, Any]:
    """A mapping's values, or a list's by position."""
    if isinstance(value, dict):
        return value
    return dict(enumerate(value)) if isinstance(value, list) else {}


# --------------------------------------------------------------------------------------------
# The frozen tree, built from checked data


def _text(data: dict[str, str | None] | None) -> Text:
    data = data or {}
    return Text(nl=(data.get("nl") or "").strip(), en=(data.get("en") or "").strip())


def _cites(texts: list[str] | None) -> tuple[str, ...]:
    """Canonical law keys; a bad one is kept as written, for validate() to name its node."""
    return tuple(
        text if (key := keys.try_parse(text)) is None else str(key) for text in texts or ()
    )


def _tree(data: dict[str, Any], source: str) -> TreeSpec:
    finder = data.get("finder") or {}
    synonyms = finder.get("synonyms") or {}
    return TreeSpec(
        slug=data["slug"],
        edition=data["edition"],
        phase=data["phase"],
        title=_text(data["title"]),
        description=_text(data.get("description")),
        notes=data.get("notes") or "",
        start=data["start"],
        nodes=tuple(_node(key, node) for key, node in data["nodes"].items()),
        finder=Finder(
            nl=finder.get("nl", ()),
            en=finder.get("en", ()),
            synonyms_nl=synonyms.get("nl", ()),
            synonyms_en=synonyms.get("en", ()),
        ),
        source=source,
    )


def _node(key: str, data: dict[str, Any]) -> NodeSpec:
    outcome = data.get("outcome")  # else a question (a node has exactly one)
    return NodeSpec(
        key=key,
        kind="outcome" if outcome else "question",
        text=_text(outcome["title"] if outcome else data["question"]),
        help=_text(data["help"]) if data.get("help") else None,
        cites=_cites(data.get("cites")),
        choices=tuple(
            ChoiceSpec(
                key=choice["key"],
                label=_text(choice["label"]),
                target=choice["next"],
                cites=_cites(choice.get("cites")),
                offender=choice.get("offender") or "",
            )
            for choice in data.get("choices") or ()
        ),
        outcome=_outcome(outcome) if outcome else None,
        poll=bool(data.get("poll")),
    )


def _outcome(data: dict[str, Any]) -> OutcomeSpec:
    return OutcomeSpec(
        ruling=_text(data["ruling"]),
        announce=_text(data["announce"]),
        options=_text(data["options"]) if data.get("options") else None,
        chooser=data.get("chooser", "none"),
        adjusted_score=bool(data.get("adjusted_score")),
        unauthorised_information=bool(data.get("unauthorised_information")),
        see_tree=data.get("see_tree"),
        option_list=tuple(
            OptionSpec(
                label=_text(option["label"]),
                cites=_cites(option.get("cites")),
                chosen_by=option.get("chosen_by", "none"),
                chosen_if=option.get("chosen_if") or "",
            )
            for option in data.get("option_list") or ()
        ),
        resume_at=data.get("resume_at"),
    )


# --------------------------------------------------------------------------------------------
# Reading


@lru_cache(maxsize=64)
def parse_tree(text: str, source: str = "") -> TreeSpec:
    """Parse a tree file's text. Raises TreeError (naming ``source`` and the node) on bad shape.

    A parse is kept per text and source: the tree is immutable, and the same files are read
    again and again (each load of the trees, the tests: about a tenth of their time)."""
    prefix = f"{source}: " if source else ""
    try:
        data = yamltext.load(text, fast=_FastUniqueKeyLoader, exact=_UniqueKeyLoader)
    except yaml.YAMLError as exc:
        raise TreeError(f"{prefix}invalid YAML: {exc}".replace("\n", " ")) from exc
    checked, errors = schema.check(data, _TreeFile)
    if errors:
        raise TreeError(prefix + _wording(errors, data))
    return _tree(checked, source)


def load_tree_file(path: str | FilePath, source: str | None = None) -> TreeSpec:
    """Read and parse one tree file; its slug must equal the file name without ``.yaml``."""
    file_path = FilePath(path)
    label = source if source is not None else str(path)
    try:
        text = file_path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise TreeError(f"{label}: cannot read the file: {exc}") from exc
    tree = parse_tree(text, label)
    if tree.slug != file_path.stem:
        raise TreeError(f"{label}: slug {tree.slug!r} must equal the file name {file_path.stem!r}")
    return tree
