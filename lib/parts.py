"""Rendered template parts kept per process, for parts of a page that depend only on a few
known values (a snapshot, a node, the language) and are rendered on every wizard step."""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any

from django.template.loader import render_to_string
from django.utils.safestring import SafeString, mark_safe


class RenderedParts:
    """``template`` rendered once per key; a full store starts again (the keys are few in
    practice: snapshots × nodes × languages)."""

    def __init__(self, template: str, size: int = 4096) -> None:
        self.template = template
        self.size = size
        self._html: dict[Hashable, SafeString] = {}

    def get(self, key: Hashable, context: Callable[[], dict[str, Any]]) -> SafeString:
        """The part for ``key``; ``context`` is called only when it must be rendered. The key
        must hold everything the template reads."""
        html = self._html.get(key)
        if html is None:
            html = self.render(context())
            if len(self._html) >= self.size:
                self._html.clear()
            self._html[key] = html
        return html

    def render(self, context: dict[str, Any]) -> SafeString:
        """The part rendered now and not kept (for values that are not a key, such as a
        submitted form with its errors)."""
        return mark_safe(render_to_string(self.template, context))

    def __len__(self) -> int:
        return len(self._html)

    def clear(self) -> None:
        self._html.clear()
