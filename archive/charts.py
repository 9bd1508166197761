"""Accessible horizontal bar charts as inline SVG, rendered on the server (no chart library).

The SVG is an image with a title and a description (``role="img"``, ``aria-labelledby``); the
page shows the same numbers in a table, which is what screen readers and print rely on.
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

LABEL_CHARS = 32


def _shorten(label: str, limit: int = LABEL_CHARS) -> str:
    return label if len(label) <= limit else label[: limit - 1].rstrip() + "…"


def bar_chart(
    chart_id: str,
    title: str,
    rows: Sequence[tuple[str, int]],
    *,
    description: str = "",
    width: int = 560,
    bar_height: int = 22,
    gap: int = 6,
    label_width: int = 220,
) -> str:
    """An SVG bar chart of ``rows`` (label, count), one bar per row, in the order given."""
    title_id, desc_id = f"{chart_id}-title", f"{chart_id}-desc"
    peak = max((value for _label, value in rows), default=0)
    plot = width - label_width - 60
    height = max(len(rows), 1) * (bar_height + gap) + gap
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="bar-chart" id="{escape(chart_id)}"'
        f' role="img" aria-labelledby="{escape(title_id)} {escape(desc_id)}"'
        f' viewBox="0 0 {width} {height}" width="100%" preserveAspectRatio="xMinYMin meet">',
        f'<title id="{escape(title_id)}">{escape(title)}</title>',
        f'<desc id="{escape(desc_id)}">{escape(description or _describe(rows))}</desc>',
    ]
    for index, (label, value) in enumerate(rows):
        y = gap + index * (bar_height + gap)
        bar = round(plot * value / peak) if peak else 0
        middle = y + bar_height / 2
        parts.append(
            f"<g><title>{escape(label)}: {value}</title>"
            f'<text x="{label_width - 8}" y="{middle}" text-anchor="end"'
            f' dominant-baseline="middle" class="bar-label">{escape(_shorten(label))}</text>'
            f'<rect x="{label_width}" y="{y}" width="{max(bar, 1) if value else 0}"'
            f' height="{bar_height}" rx="2" class="bar"></rect>'
            f'<text x="{label_width + bar + 6}" y="{middle}" dominant-baseline="middle"'
            f' class="bar-value">{value}</text></g>'
        )
    parts.append("</svg>")
    return "".join(parts)


def _describe(rows: Sequence[tuple[str, int]]) -> str:
    return "; ".join(f"{label}: {value}" for label, value in rows)
