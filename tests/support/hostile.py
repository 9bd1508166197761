"""Hostile data for the Hypothesis tests, and the check that a page shows it only as text.

``assert_inert`` parses a page and fails on anything a payload could have smuggled in as markup:
a ``<script>`` that is not one of our static files, an event-handler attribute, a
``javascript:`` URL, an element that loads content from elsewhere, or a markup payload found
verbatim (unescaped) in the page.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser
from typing import Any

from hypothesis import strategies as st

# Payloads that are markup: if one of them appears verbatim in a page, it was not escaped.
MARKUP = [
    "<script>alert(1)</script>",
    '"><img src=x onerror=alert(1)>',
    "'><svg/onload=alert(1)>",
    '<a href="javascript:alert(1)">klik</a>',
    "<iframe src=//evil.example></iframe>",
    "</textarea><script>alert(1)</script>",
    '<div hx-get="/arbitrages/" hx-trigger="load">x</div>',
    "<style>body{display:none}</style>",
    '" autofocus onfocus="alert(1)',
]
# Text that is not markup but is known to break careless code: template syntax, spreadsheet
# formulas, SQL, paths, bidirectional overrides, combining marks, NUL, digits that Python's
# str.isdigit() accepts but int() does not, and numbers too large for a database column.
ODD = [
    "{{ 7|add:7 }}{% now 'Y' %}",
    '=HYPERLINK("http://evil.example","klik")',
    "+31 6 1234",
    "-2+3",
    "@SUM(A1:A9)",
    "' OR '1'='1' --",
    "../../etc/passwd",
    "%00%0d%0a",
    "\u202eredro\u202c",
    "\u200f\u05e9\u05dc\u05d5\u05dd\u200e",
    "e\u0301\u0301\u0301\u0301\u0301",
    "Z\u0351\u0352\u0353\u0354\u0355\u0356\u0357\u0358\u0359",
    "\x00",
    "a\x00b",
    "\ufeff\u200b\u2028\u2029",
    "𝕏😀🂡♠♥♦♣",
    "\r\n\r\n\t",
    "²",
    "١٢",
    "32768",
    "2147483648",
    "99999999999999999999999",
    "-1",
    "0",
    "1e3",
    "NaN",
    " ",
    "",
]

unicode_text = st.text(
    alphabet=st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=80
)
markup = st.sampled_from(MARKUP)
wrapped_markup = st.builds(lambda a, p, b: a + p + b, unicode_text, markup, unicode_text)
huge = st.sampled_from([5_000, 60_000]).map(lambda n: (MARKUP[0] + "ä" * n)[:n])

hostile_text = st.one_of(markup, wrapped_markup, st.sampled_from(ODD), unicode_text, huge)
number_like = st.one_of(
    st.integers(min_value=-(2**70), max_value=2**70).map(str),
    st.sampled_from(ODD),
    unicode_text,
)
json_scalar = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=False, allow_infinity=False),
    hostile_text,
)
json_value = st.recursive(
    json_scalar,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4),
        st.dictionaries(st.text(max_size=10), inner, max_size=4),
    ),
    max_leaves=12,
)


def markup_in(values: Any) -> list[str]:
    """The markup payloads contained in ``values`` (any nesting of dicts, lists and strings)."""
    found: list[str] = []
    stack = [values]
    while stack:
        value = stack.pop()
        if isinstance(value, dict):
            stack.extend(value.values())
        elif isinstance(value, list | tuple):
            stack.extend(value)
        elif isinstance(value, str):
            found.extend(p for p in MARKUP if p in value)
    return found


class _Collector(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.problems: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        for name, value in attrs:
            if name.startswith("on"):
                self.problems.append(f"<{tag} {name}=…> event handler")
            if value and re.match(r"\s*(javascript|vbscript|data:text/html)", value, re.I):
                self.problems.append(f"<{tag} {name}={value[:40]!r}> script URL")
        if tag == "script" and not (values.get("src") or "").startswith("/static/"):
            self.problems.append(f"<script src={values.get('src')!r}> not a static file")
        if tag in {"iframe", "object", "embed", "frame", "base"}:
            self.problems.append(f"<{tag}> element")
        if tag == "meta" and (values.get("http-equiv") or "").lower() == "refresh":
            self.problems.append("<meta http-equiv=refresh>")
        if tag == "img" and not re.match(r"(/static/|data:image/)", values.get("src") or ""):
            self.problems.append(f"<img src={values.get('src')!r}>")

    handle_startendtag = handle_starttag


def assert_inert(response, payloads: Any = ()) -> None:
    """The response shows user data only as text (see the module docstring)."""
    assert response.status_code < 500, response.status_code
    content_type = response.get("Content-Type", "")
    body = b"".join(response.streaming_content) if response.streaming else response.content
    text = body.decode("utf-8", errors="replace")
    if "html" not in content_type:
        return
    for payload in markup_in(payloads):
        assert payload not in text, f"payload shown unescaped: {payload!r}"
    collector = _Collector()
    collector.feed(text)
    collector.close()
    assert not collector.problems, collector.problems
