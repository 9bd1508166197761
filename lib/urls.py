"""URLs of the wizard's hot path, reversed once per process and route.

Django's ``reverse`` finds the route and checks every argument against its pattern on each
call: the six or so addresses on a wizard step (answer, defer, table, previous step, the
pushed URL…) cost about a tenth of a bare request (``make bench``). :func:`quick_reverse`
reverses a route once with marker arguments and afterwards only puts the real ones in their
place. It takes uuids and whole numbers not below zero, the arguments whose converters
(``uuid``, ``int`` and ``lib.fields.IdConverter``) write them as ``str`` does; anything else
goes to ``reverse`` itself.
"""

from __future__ import annotations

import functools
import uuid
from typing import Any

from django.core.signals import setting_changed
from django.urls import get_script_prefix, get_urlconf, reverse

# Markers no argument equals: uuids of version 0, numbers of nine digits.
_UUIDS = tuple(uuid.UUID(int=0xC0DE00 + index) for index in range(4))
_NUMBERS = tuple(987654320 + index for index in range(4))


@functools.lru_cache(maxsize=256)
def _pieces(
    name: str, kinds: tuple[type, ...], prefix: str, urlconf: str | None
) -> tuple[str, ...]:
    """The text of the route between its arguments (one more piece than arguments)."""
    markers = [_UUIDS[i] if kind is uuid.UUID else _NUMBERS[i] for i, kind in enumerate(kinds)]
    rest = reverse(name, args=markers, urlconf=urlconf)
    pieces = []
    for marker in markers:
        head, rest = rest.split(str(marker), 1)
        pieces.append(head)
    return (*pieces, rest)


def quick_reverse(name: str, *args: Any) -> str:
    """``reverse(name, args=args)``, the route reversed only the first time (see above)."""
    kinds = tuple(type(arg) for arg in args)
    if len(args) > len(_UUIDS) or not all(
        kind is uuid.UUID or (kind is int and arg >= 0)
        for kind, arg in zip(kinds, args, strict=True)
    ):
        return reverse(name, args=args)
    pieces = _pieces(name, kinds, get_script_prefix(), get_urlconf())
    parts = [pieces[0]]
    for arg, piece in zip(args, pieces[1:], strict=True):
        parts += (str(arg), piece)
    return "".join(parts)


def _forget(*, setting: str, **kwargs: object) -> None:
    # Tests that change the URLconf (override_settings) change the routes.
    if setting == "ROOT_URLCONF":
        _pieces.cache_clear()


setting_changed.connect(_forget, dispatch_uid="lib.urls")
