"""Form widgets whose HTML is remembered per process.

Django renders every widget through the template engine (``django/forms/widgets/*.html``), a
noticeable part of a wizard step, which shows the same empty table inputs (round, table, board,
the pairs) after a first answer (``make bench``). A widget's HTML is a function of its template
context alone (name, value, attributes, whether it is required) and of the form renderer, so it
is kept per those: the result is exactly what Django renders, only made once. The key holds the
whole context, so a value one director typed is only ever shown for that same value.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

from django import forms
from django.forms.renderers import BaseRenderer, get_default_renderer
from django.utils.functional import Promise
from django.utils.safestring import SafeString, mark_safe

# Distinct contexts kept; a full memo starts again (a handful of values is the normal case).
MEMO_SIZE = 2048
_memo: dict[Hashable, SafeString] = {}


def frozen(value: Any) -> Hashable:
    """``value`` as a hashable key; TypeError for anything without a stable one (an object),
    which is then rendered without the memo. A lazy translation is keyed by its text in the
    active language: that text is what the template writes."""
    if isinstance(value, dict):
        return ("dict", tuple(sorted((str(key), frozen(item)) for key, item in value.items())))
    if isinstance(value, list | tuple):
        return ("seq", tuple(frozen(item) for item in value))
    if value is None or type(value) in (str, int, float, bool):
        return (type(value).__name__, value)
    if isinstance(value, Promise):
        return ("str", str(value))
    raise TypeError(f"no memo key for {type(value).__name__}")


def clear_memo() -> None:
    _memo.clear()


class Memo(forms.Widget):
    """A widget rendered once per distinct context (mixed in before Django's widget)."""

    def render(
        self,
        name: str,
        value: Any,
        attrs: dict[str, Any] | None = None,
        renderer: BaseRenderer | None = None,
    ) -> SafeString:
        # What Widget.render does (context, then the renderer), with the memo in between.
        context = self.get_context(name, value, attrs)
        renderer = renderer or get_default_renderer()
        try:
            key = (self.template_name, frozen(context), renderer)
        except TypeError:
            return mark_safe(renderer.render(self.template_name, context))
        html = _memo.get(key)
        if html is None:
            if len(_memo) >= MEMO_SIZE:
                _memo.clear()
            html = _memo[key] = mark_safe(renderer.render(self.template_name, context))
        return html


class MemoNumberInput(Memo, forms.NumberInput):
    """A number input (``<input type="number">``) rendered once per distinct context."""


class MemoTextInput(Memo, forms.TextInput):
    """A text input rendered once per distinct context (the pairs at the table)."""
