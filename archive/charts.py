"""Accessible horizontal bar charts as inline SVG, rendered on the server (no chart library).

The SVG is an image with a title and a description (``role="img"``, ``aria-labelledby``); the
page shows the same numbers in a table, which is what screen readers and print rely on.
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

# About as many characters as fit in ``label_width`` at the page's 14 px: a longer label wraps
# onto a second line, and what does not fit there ends in "…" (the whole label is the bar's
# tooltip and in the table under the chart).
LABEL_CHARS = 30
LABEL_LINES = 2
LINE_HEIGHT = 16


def _shorten(label: str, limit: int = LABEL_CHARS) -> str:
    return label if len(label) <= limit else label[: limit - 1].rstrip() + "…"


def label_lines(label: str, limit: int = LABEL_CHARS, lines: int = LABEL_LINES) -> list[str]:
    """``label`` wrapped at word boundaries into at most ``lines`` lines of ``limit``
    characters; the last line is shortened with "…" when the label is longer."""
    wrapped: list[str] = []
    words = label.split()
    while words and len(wrapped) < lines:
        line = words.pop(0)
        while words and len(line) + 1 + len(words[0]) <= limit:
            line += " " + words.pop(0)
        wrapped.append(line)
    if words:
        wrapped[-1] = _shorten(f"{wrapped[-1]} {' '.join(words)}", limit)
    return [_shorten(line, limit) for line in wrapped] or [""]


def _label(x: int, middle: float, lines: list[str]) -> str:
    first = middle - (len(lines) - 1) * LINE_HEIGHT / 2
    spans = "".join(
        f'<tspan x="{x}" y="{first + index * LINE_HEIGHT}">{escape(line)}</tspan>'
        for index, line in enumerate(lines)
    )
    return (
        f'<text x="{x}" y="{first}" text-anchor="end" dominant-baseline="middle"'
        f' class="bar-label">{spans}</text>'
    )


def bar_chart(
    chart_id: str,
    title: str,
    rows: Sequence[tuple[str, int]],
    *,
    description: str = "",
    width: int = 600,
    bar_height: int = 22,
    gap: int = 8,
    label_width: int = 250,
) -> str:
    """An SVG bar chart of ``rows`` (label, count), one bar per row, in the order given; a
    long label takes two lines and its row grows to fit."""
    title_id, desc_id = f"{chart_id}-title", f"{chart_id}-desc"
    peak = max((value for _label, value in rows), default=0)
    plot = width - label_width - 60
    labels = [label_lines(label) for label, _value in rows]
    heights = [max(bar_height, len(lines) * LINE_HEIGHT + 4) for lines in labels]
    height = sum(heights) + gap * (len(rows) + 1) if rows else bar_height + 2 * gap
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="bar-chart" id="{escape(chart_id)}"'
        f' role="img" aria-labelledby="{escape(title_id)} {escape(desc_id)}"'
        f' viewBox="0 0 {width} {height}" width="100%" preserveAspectRatio="xMinYMin meet">',
        f'<title id="{escape(title_id)}">{escape(title)}</title>',
        f'<desc id="{escape(desc_id)}">{escape(description or _describe(rows))}</desc>',
    ]
    top = gap
    for (label, value), lines, row_height in zip(rows, labels, heights, strict=True):
        middle = top + row_height / 2
        y = middle - bar_height / 2
        bar = round(plot * value / peak) if peak else 0
        parts.append(
            f"<g><title>{escape(label)}: {value}</title>"
            + _label(label_width - 8, middle, lines)
            + f'<rect x="{label_width}" y="{y}" width="{max(bar, 1) if value else 0}"'
            f' height="{bar_height}" rx="2" class="bar"></rect>'
            f'<text x="{label_width + bar + 6}" y="{middle}" dominant-baseline="middle"'
            f' class="bar-value">{value}</text></g>'
        )
        top += row_height + gap
    parts.append("</svg>")
    return "".join(parts)


def _describe(rows: Sequence[tuple[str, int]]) -> str:
    return "; ".join(f"{label}: {value}" for label, value in rows)
