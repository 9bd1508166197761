"""One schema library for the hand-written readers (pydantic v2), with the error texts they
have always given.

A reader declares its shape as a type (a ``TypedDict`` with ``extra="forbid"``, ``list``,
``dict``, a fixed ``tuple``, ``Literal``, strict scalars) and asks :func:`problems` where a value
does not fit. Pydantic's own messages ("Input should be a valid dictionary") and locations are
turned into the lines our messages and tests know: ``where.key[0]: must be an object``,
``where: unknown key(s) a, b``, ``where.key: is missing``, ``where: must be one of a, b``.
Scalars are strict: ``True`` is no number and ``1`` no text, as the JSON a file carries means.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Annotated, Any

from pydantic import BeforeValidator, ConfigDict, Strict, TypeAdapter, ValidationError
from pydantic_core import ErrorDetails, PydanticCustomError
from typing_extensions import TypedDict

# Every object shape forbids keys it does not name (a misspelt key is refused, not ignored).
OBJECT = ConfigDict(extra="forbid")

Str = Annotated[str, Strict()]
Bool = Annotated[bool, Strict()]
Int = Annotated[int, Strict()]


class LanguageText(TypedDict, total=False):
    """A text per language as stored (snapshots, rulings, bundles): either may be missing or
    null, no other language."""

    __pydantic_config__ = OBJECT  # type: ignore[misc]
    nl: Str | None
    en: Str | None


def fixed_list(*items: Any) -> Any:
    """A list of exactly ``len(items)`` values, each of its own shape (``["node", "ja"]``)."""
    size = len(items)

    def check(value: Any) -> Any:
        if not isinstance(value, list) or len(value) != size:
            raise PydanticCustomError("fixed_list", "must be a list of {size}", {"size": size})
        return value

    return Annotated[tuple[items], BeforeValidator(check)]  # type: ignore[valid-type]


_NAMES = {
    "dict_type": "must be an object",
    "model_type": "must be an object",
    "list_type": "must be a list",
    "string_type": "must be str",
    "bool_type": "must be bool",
    "int_type": "must be int",
    "missing": "is missing",
}


@functools.cache
def adapter(shape: Any) -> TypeAdapter[Any]:
    """The validator of ``shape``, built once per shape (building one takes milliseconds)."""
    plain = {str: Str, bool: Bool, int: Int}.get(shape, shape)
    return TypeAdapter(plain)


def check(value: Any, shape: Any) -> tuple[Any, list[ErrorDetails]]:
    """``value`` as ``shape`` reads it and no errors, or None and pydantic's error details (for
    a reader that words its own messages, ``training/files.py``)."""
    try:
        return adapter(shape).validate_python(value), []
    except ValidationError as error:
        return None, error.errors(include_url=False)


def problems(value: Any, shape: Any, where: str = "") -> list[str]:
    """Where ``value`` does not have ``shape``, as readable lines (empty when it fits)."""
    try:
        adapter(shape).validate_python(value)
    except ValidationError as error:
        return _lines(error, where or "value")
    return []


def place(where: str, loc: Sequence[int | str]) -> str:
    """``where`` followed by a location: keys as ``.key``, list positions as ``[0]``."""
    return where + "".join(f"[{part}]" if isinstance(part, int) else f".{part}" for part in loc)


def _lines(error: ValidationError, where: str) -> list[str]:
    found: list[str] = []
    unknown: dict[tuple[Any, ...], list[str]] = {}
    for item in error.errors(include_url=False):
        loc = _structural(item["loc"])
        kind = item["type"]
        if kind == "extra_forbidden":
            unknown.setdefault(tuple(loc[:-1]), []).append(str(loc[-1]))
            continue
        found.append(f"{place(where, loc)}: {_message(kind, item)}")
    for parent, keys in unknown.items():
        found.insert(0, f"{place(where, parent)}: unknown key(s) {', '.join(sorted(keys))}")
    return list(dict.fromkeys(found))


def _structural(loc: Sequence[int | str]) -> list[int | str]:
    """The location without pydantic's names of union members and tagged choices (parts like
    ``'function-after[...]'`` or ``'nullable[str]'``): only keys and positions remain."""
    return [part for part in loc if isinstance(part, int) or "[" not in part]


def _message(kind: str, item: Any) -> str:
    if kind == "literal_error":
        expected = item.get("ctx", {}).get("expected", "")
        return "must be one of " + expected.replace("'", "").replace(" or ", ", ")
    if kind in _NAMES:
        return _NAMES[kind]
    return str(item["msg"])
