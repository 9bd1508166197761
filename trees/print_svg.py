"""The print flowchart (:mod:`trees.print_layout`) as inline SVG, one ``<svg>`` per page.

Every page shows the same drawing through its own viewBox (the part of the drawing on that
page); when a tree needs two pages, a dashed line marks where the drawing goes on.
"""

from __future__ import annotations

from collections.abc import Callable
from html import escape

from trees.print_layout import FONT, LINE, PAD, Box, PrintChart, PrintLayout, Sheet
from trees.spec import TreeSpec

ARROW_ID = "print-arrow"
FONT_FAMILY = "Arial, 'Liberation Sans', Helvetica, sans-serif"


def _path(points: list[tuple[float, float]]) -> str:
    """Horizontal curves between consecutive points, straight through a waypoint's column."""
    (x0, y0), rest = points[0], points[1:]
    parts = [f"M{x0:.1f},{y0:.1f}"]
    for x1, y1 in rest:
        if abs(y1 - y0) < 0.5:
            parts.append(f"L{x1:.1f},{y1:.1f}")
        else:
            mid = (x0 + x1) / 2
            parts.append(f"C{mid:.1f},{y0:.1f} {mid:.1f},{y1:.1f} {x1:.1f},{y1:.1f}")
        x0, y0 = x1, y1
    return " ".join(parts)


def _box(box: Box, width: float, start: bool, link: str, language: str) -> list[str]:
    node = box.node
    assert node is not None  # only node boxes are drawn
    outcome = node.is_outcome
    fill, stroke = ("#e8f5e9", "#2e7d32") if outcome else ("#ffffff", "#1f4e79")
    out = [
        f'<a href="{escape(link)}" class="node {node.kind}{" start" if start else ""}" '
        f'data-key="{escape(node.key)}"><title>{escape(node.text.get(language))}</title>'
        f'<rect x="{box.x:.1f}" y="{box.y:.1f}" width="{width:.1f}" height="{box.height:.1f}" '
        f'rx="{5 if outcome else 1}" fill="{fill}" stroke="{stroke}" '
        f'stroke-width="{2.2 if start else 0.9}"/>'
    ]
    x = box.x + PAD
    y = box.y + PAD + LINE - 2
    lines = [(line, "") for line in box.lines] + [(law, "law") for law in box.laws]
    for i, (line, kind) in enumerate(lines):
        css = f' class="{kind}" font-style="italic"' if kind else ""
        out.append(f'<text x="{x:.1f}" y="{y + i * LINE:.1f}"{css}>{escape(line)}</text>')
    if box.ports:
        rule = box.y + PAD + len(box.lines) * LINE + 1.5
        out.append(
            f'<line x1="{box.x:.1f}" x2="{box.x + width:.1f}" y1="{rule:.1f}" y2="{rule:.1f}" '
            f'stroke="{stroke}" stroke-width="0.5"/>'
        )
    for port in box.ports:
        out.append(
            f'<text class="answer" x="{box.x + width - PAD:.1f}" y="{box.y + port.y + 2.4:.1f}" '
            f'text-anchor="end" font-weight="bold">{escape(port.label)}'
            f"<title>{escape(port.full_label)}</title></text>"
        )
    out.append("</a>")
    return out


def _drawing(tree: TreeSpec, plan: PrintLayout, link: Callable[[str], str], language: str) -> str:
    out = [
        "<defs>"
        f'<marker id="{ARROW_ID}" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="5" '
        'markerHeight="5" orient="auto"><path d="M0,0 L10,5 L0,10 z" fill="#5c6670"/></marker>'
        "</defs>",
        '<g class="edges" fill="none" stroke="#5c6670" stroke-width="0.8">',
    ]
    for edge in plan.links:
        out.append(
            f'<path data-source="{escape(edge.source)}" data-target="{escape(edge.target)}" '
            f'd="{_path(edge.points)}" marker-end="url(#{ARROW_ID})"/>'
        )
    out.append(f'</g><g class="nodes" font-size="{FONT}" fill="#212529">')
    for box in plan.boxes.values():
        if box.node is not None:
            out += _box(box, plan.box_width, box.key == tree.start, link(box.key), language)
    out.append("</g>")
    return "".join(out)


def render_pages(
    tree: TreeSpec,
    chart: PrintChart,
    *,
    href: Callable[[str], str],
    title: str,
    description: str,
    language: str = "nl",
) -> list[str]:
    """One ``<svg>`` per page, each named ``title``; a red dashed line marks the cut."""
    plan = chart.plan
    drawing = _drawing(tree, plan, href, language)
    pages = []
    count = len(chart.sheets)
    for number, sheet in enumerate(chart.sheets, start=1):
        pages.append(_page(plan, sheet, drawing, title, description, number, count))
    return pages


def _page(
    plan: PrintLayout,
    sheet: Sheet,
    drawing: str,
    title: str,
    description: str,
    number: int,
    count: int,
) -> str:
    width = plan.width
    top, height = sheet.top, sheet.height
    ident = f"print-title-{number}"
    marker = ""
    if count > 1:
        y = sheet.bottom - 0.5 if number < count else top + 0.5
        marker = (
            f'<g class="continuation"><line x1="0" x2="{width:.1f}" y1="{y:.1f}" y2="{y:.1f}" '
            'stroke="#c92a2a" stroke-width="1" stroke-dasharray="4 3"/></g>'
        )
    return (
        f'<svg class="tree-print-chart" role="group" aria-labelledby="{ident}" '
        f'data-font="{FONT}" data-page="{number}" width="{width:.0f}pt" height="{height:.0f}pt" '
        f'viewBox="0 {top:.1f} {width:.1f} {height:.1f}" font-family="{FONT_FAMILY}">'
        f'<title id="{ident}">{escape(title)}</title><desc>{escape(description)}'
        f"</desc>{drawing}{marker}</svg>"
    )
