"""JSON from outside (an uploaded file) read without a server error, whatever it holds.

Python's own reader fails in three ways that are no ``JSONDecodeError``: nesting a few
thousand levels deep is a ``RecursionError`` (and deep nesting costs memory before that), a
number of more than 4,300 digits is a ``ValueError`` (the int-string limit), and a number
too large for a database column is an ``OverflowError`` only when it is written. :func:`loads`
refuses all three with :class:`UnsafeJSON` and a message saying what and where: nesting is
counted in the raw bytes *before* parsing, numbers and texts are checked after.
"""

from __future__ import annotations

import json
from typing import Any

# A Leidraad bundle nests about ten levels (bundle, ruling, step, citation, text); a tree
# snapshot a few more.
MAX_DEPTH = 40
# Numbers in our files are board numbers, sequences and scores: 2**53 is JavaScript's limit of
# exact integers and far below any database column's.
MAX_INT = 2**53
MAX_NUMBER_DIGITS = 30

_BRACKETS = bytes(range(256)).translate(None, b"[]{}")


class UnsafeJSON(ValueError):
    """The file is not JSON we read; the message says why."""


def nesting_depth(raw: bytes) -> int:
    """How deep ``raw``'s arrays and objects nest, counted without parsing: strings are cut
    out first (a bracket inside a text does not count), then only brackets remain."""
    # Escaped backslashes and quotes first; then every second piece between quotes is a text.
    plain = raw.replace(b"\\\\", b"").replace(b'\\"', b"")
    brackets = b"".join(plain.split(b'"')[0::2]).translate(None, _BRACKETS)
    depth = deepest = 0
    for byte in brackets:
        if byte in b"[{":
            depth += 1
            deepest = max(deepest, depth)
        else:
            depth -= 1
    return deepest


def _int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_NUMBER_DIGITS:
        raise UnsafeJSON(f"a number of {len(text)} digits")
    return int(text)


def _float(text: str) -> float:
    if len(text) > MAX_NUMBER_DIGITS + 10:
        raise UnsafeJSON(f"a number of {len(text)} characters")
    return float(text)


def _constant(text: str) -> float:
    raise UnsafeJSON(f"{text} is not a number")


def loads(raw: bytes | str, *, max_depth: int = MAX_DEPTH, max_text: int | None = None) -> Any:
    """Parse ``raw``; :class:`UnsafeJSON` for nesting deeper than ``max_depth``, an integer
    beyond ±2**53 or longer than 30 digits, and (with ``max_text``) a text longer than that;
    ``json.JSONDecodeError`` and ``UnicodeDecodeError`` as ``json.loads`` raises them."""
    data = raw.encode("utf-8") if isinstance(raw, str) else raw
    depth = nesting_depth(data)
    if depth > max_depth:
        raise UnsafeJSON(f"nested {depth} levels deep (at most {max_depth})")
    try:
        value = json.loads(raw, parse_int=_int, parse_float=_float, parse_constant=_constant)
    except RecursionError:  # a bracket the count above missed still cannot crash the server
        raise UnsafeJSON(f"nested deeper than {max_depth} levels") from None
    _check(value, "", max_text)
    return value


def _check(value: Any, where: str, max_text: int | None) -> None:
    if isinstance(value, bool):
        return
    if isinstance(value, int):
        if not -MAX_INT <= value <= MAX_INT:
            raise UnsafeJSON(f"{where or 'value'}: the number {value} is out of range")
    elif isinstance(value, float):
        if value != value or value in (float("inf"), float("-inf")):
            raise UnsafeJSON(f"{where or 'value'}: {value} is not a number")
    elif isinstance(value, str):
        if max_text is not None and len(value) > max_text:
            raise UnsafeJSON(
                f"{where or 'value'}: a text of {len(value)} characters (at most {max_text})"
            )
    elif isinstance(value, dict):
        for key, item in value.items():
            if max_text is not None and len(key) > max_text:
                raise UnsafeJSON(f"{where or 'value'}: a key of {len(key)} characters")
            _check(item, f"{where}.{key}" if where else str(key), max_text)
    elif isinstance(value, list):
        for index, item in enumerate(value):
            _check(item, f"{where}[{index}]", max_text)
