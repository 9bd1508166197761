"""A flowchart of a decision tree as inline SVG, laid out on the server (pure Python, no JS).

The tree is a directed acyclic graph. Layout in the usual layered way:
1. layers: every node goes one layer below its deepest parent (longest path from the start);
2. edges that skip layers get invisible waypoints in the layers in between;
3. the order inside each layer is improved by a few barycentre sweeps (fewer crossings);
4. x positions follow the neighbours' average, keeping boxes apart; y follows the layers.
Questions are square boxes, outcomes rounded and coloured; each box links to the outline entry
of the node (``#node-<key>``); edges carry the choice label. One node can be highlighted.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from html import escape
from itertools import pairwise

from trees.spec import NodeSpec, TreeSpec

BOX_WIDTH = 200
LINE_HEIGHT = 16
BOX_PADDING = 10
WRAP = 27  # characters per line in a box
MAX_LINES = 5
LABEL_CHARS = 20
GAP_X = 36
GAP_Y = 92
DUMMY_WIDTH = 16
MARGIN = 24
SWEEPS = 8

ARROW_ID = "tree-diagram-arrow"
TITLE_ID = "tree-diagram-title"
DESC_ID = "tree-diagram-desc"


def wrap(text: str, width: int = WRAP, max_lines: int = MAX_LINES) -> list[str]:
    """Greedy word wrap; the last line ends in an ellipsis when text was cut off."""
    lines: list[str] = []
    current = ""
    for word in text.split():
        while len(word) > width:  # a very long word: hard break
            if current:
                lines.append(current)
                current = ""
            lines.append(word[: width - 1] + "-")
            word = word[width - 1 :]
        candidate = f"{current} {word}".strip()
        if len(candidate) <= width:
            current = candidate
        else:
            lines.append(current)
            current = word
    if current:
        lines.append(current)
    if len(lines) > max_lines:
        lines = lines[:max_lines]
        last = lines[-1]
        lines[-1] = (last[: width - 1].rstrip() if len(last) >= width else last) + "…"
    return lines or [""]


def shorten(text: str, limit: int = LABEL_CHARS) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


@dataclass
class Item:
    """A box (node) or a waypoint (dummy) in one layer."""

    key: str
    layer: int
    width: float
    height: float
    node: NodeSpec | None = None
    lines: list[str] = field(default_factory=list)
    x: float = 0.0  # centre
    y: float = 0.0  # top

    @property
    def dummy(self) -> bool:
        return self.node is None


@dataclass
class Edge:
    source: str
    target: str
    choice_key: str
    label: str
    full_label: str
    chain: list[str]  # item keys from source to target, waypoints included
    points: list[tuple[float, float]] = field(default_factory=list)


@dataclass
class Layout:
    items: dict[str, Item]
    edges: list[Edge]
    width: float
    height: float


def depth_layers(tree: TreeSpec) -> dict[str, int]:
    """Longest-path layering from the start; nodes not reached are put in a last layer."""
    keys = [node.key for node in tree.nodes]
    targets = {
        node.key: [c.target for c in node.choices if tree.has_node(c.target)] for node in tree.nodes
    }
    layer: dict[str, int] = {}
    if tree.has_node(tree.start):
        # Kahn's order over the part reachable from the start.
        reachable = {tree.start}
        todo = [tree.start]
        while todo:
            for nxt in targets[todo.pop()]:
                if nxt not in reachable:
                    reachable.add(nxt)
                    todo.append(nxt)
        indegree = {key: 0 for key in reachable}
        for key in reachable:
            for nxt in targets[key]:
                indegree[nxt] += 1
        queue = [tree.start]
        layer[tree.start] = 0
        ordered = 0
        while queue:
            key = queue.pop(0)
            ordered += 1
            for nxt in targets[key]:
                layer[nxt] = max(layer.get(nxt, 0), layer[key] + 1)
                indegree[nxt] -= 1
                if indegree[nxt] == 0:
                    queue.append(nxt)
        if ordered < len(reachable):  # a cycle: fall back to breadth-first depth
            layer = {tree.start: 0}
            queue = [tree.start]
            while queue:
                key = queue.pop(0)
                for nxt in targets[key]:
                    if nxt not in layer:
                        layer[nxt] = layer[key] + 1
                        queue.append(nxt)
    last = max(layer.values(), default=-1) + 1
    for key in keys:
        layer.setdefault(key, last)
    return layer


def layout(tree: TreeSpec, language: str = "nl") -> Layout:
    layer_of = depth_layers(tree)
    items = _boxes(tree, layer_of, language)
    edges = _edges(tree, layer_of, items, language)
    layer_count = max((item.layer for item in items.values()), default=0) + 1
    layers = _initial_order(tree, items, edges, layer_count)
    up, down = neighbours(items, (edge.chain for edge in edges))
    reduce_crossings(layers, up, down)
    width = _place_x(layers, items, up, down)
    layer_top, layer_height, height = _place_y(layers, items)
    _route(items, edges, layer_top, layer_height)
    return Layout(items=items, edges=edges, width=width, height=height)


def _boxes(tree: TreeSpec, layer_of: dict[str, int], language: str) -> dict[str, Item]:
    """A box per node, as tall as its wrapped text."""
    items: dict[str, Item] = {}
    for node in tree.nodes:
        lines = wrap(node.text.get(language))
        items[node.key] = Item(
            key=node.key,
            layer=layer_of[node.key],
            width=BOX_WIDTH,
            height=len(lines) * LINE_HEIGHT + 2 * BOX_PADDING,
            node=node,
            lines=lines,
        )
    return items


def _edges(
    tree: TreeSpec, layer_of: dict[str, int], items: dict[str, Item], language: str
) -> list[Edge]:
    """An edge per choice; one that skips layers gets a waypoint (added to ``items``) in each
    layer in between."""
    edges: list[Edge] = []
    for node in tree.nodes:
        for choice in node.choices:
            if not tree.has_node(choice.target):
                continue
            chain = [node.key]
            start, end = layer_of[node.key], layer_of[choice.target]
            for layer in range(start + 1, end):
                dummy = f"~{node.key}~{choice.key}~{layer}"
                items[dummy] = Item(key=dummy, layer=layer, width=DUMMY_WIDTH, height=0)
                chain.append(dummy)
            chain.append(choice.target)
            label = choice.label.get(language)
            edges.append(Edge(node.key, choice.target, choice.key, shorten(label), label, chain))
    return edges


def _initial_order(
    tree: TreeSpec, items: dict[str, Item], edges: list[Edge], layer_count: int
) -> list[list[str]]:
    """The item keys per layer: depth-first from the start, following choices in file order."""
    layers: list[list[str]] = [[] for _ in range(layer_count)]
    seen: set[str] = set()

    def visit(key: str) -> None:
        if key in seen:
            return
        seen.add(key)
        layers[items[key].layer].append(key)
        for edge in edges:
            if edge.source == key:
                for link in edge.chain[1:]:
                    if link.startswith("~"):
                        if link not in seen:
                            seen.add(link)
                            layers[items[link].layer].append(link)
                    else:
                        visit(link)

    if tree.has_node(tree.start):
        visit(tree.start)
    for node in tree.nodes:
        visit(node.key)
    return layers


def neighbours(
    keys: Iterable[str], chains: Iterable[Sequence[str]]
) -> tuple[dict[str, list[str]], dict[str, list[str]]]:
    """Per key, the keys linked to it one layer before and one layer after, along each chain
    of an edge and its waypoints (the screen diagram's layers run down, the print's across)."""
    before: dict[str, list[str]] = {key: [] for key in keys}
    after: dict[str, list[str]] = {key: [] for key in keys}
    for chain in chains:
        for a, b in pairwise(chain):
            after[a].append(b)
            before[b].append(a)
    return before, after


def reduce_crossings(
    layers: list[list[str]], up: dict[str, list[str]], down: dict[str, list[str]]
) -> None:
    """Barycentre sweeps, alternately down and up: each layer ordered by where its neighbours
    in the layer just placed are."""

    def reorder(index: int, neighbours: dict[str, list[str]], reference: list[str]) -> None:
        position = {key: i for i, key in enumerate(reference)}
        current = layers[index]

        def barycentre(key: str) -> float:
            linked = [position[n] for n in neighbours[key] if n in position]
            return sum(linked) / len(linked) if linked else current.index(key)

        layers[index] = sorted(current, key=lambda key: (barycentre(key), current.index(key)))

    layer_count = len(layers)
    for sweep in range(SWEEPS):
        if sweep % 2 == 0:
            for index in range(1, layer_count):
                reorder(index, up, layers[index - 1])
        else:
            for index in range(layer_count - 2, -1, -1):
                reorder(index, down, layers[index + 1])


def _place_x(
    layers: list[list[str]],
    items: dict[str, Item],
    up: dict[str, list[str]],
    down: dict[str, list[str]],
) -> float:
    """x: each layer as close as possible to where its neighbours want it (least squares under
    the minimum distances between boxes, solved exactly per layer), a few rounds up and down.
    Returns the width of the drawing."""

    def place(index: int, desired: dict[str, float]) -> None:
        keys = layers[index]
        offsets = [0.0]
        for a, b in pairwise(keys):
            offsets.append(offsets[-1] + (items[a].width + items[b].width) / 2 + GAP_X)
        weights = [3.0 if items[key].dummy else 1.0 for key in keys]
        shifted = isotonic([desired[key] - offsets[i] for i, key in enumerate(keys)], weights)
        for i, key in enumerate(keys):
            items[key].x = shifted[i] + offsets[i]

    layer_count = len(layers)
    for index in range(layer_count):
        place(index, {key: 0.0 for key in layers[index]})  # compact, centred on 0
    for sweep in range(12):
        order = range(1, layer_count) if sweep % 2 == 0 else range(layer_count - 2, -1, -1)
        for index in order:
            desired = {}
            for key in layers[index]:
                linked = [items[n].x for n in up[key] + down[key]]
                desired[key] = sum(linked) / len(linked) if linked else items[key].x
            place(index, desired)

    left = min((item.x - item.width / 2 for item in items.values()), default=0.0)
    right = max((item.x + item.width / 2 for item in items.values()), default=0.0)
    for item in items.values():
        item.x += MARGIN - left
    return right - left + 2 * MARGIN


def _place_y(
    layers: list[list[str]], items: dict[str, Item]
) -> tuple[list[float], list[float], float]:
    """y: layers stacked, each as tall as its tallest box. Returns the top and height of each
    layer and the height of the drawing."""
    y: float = MARGIN
    layer_top: list[float] = []
    layer_height: list[float] = []
    for keys in layers:
        height = max((items[key].height for key in keys), default=0)
        layer_top.append(y)
        layer_height.append(height)
        for key in keys:
            items[key].y = y
        y += height + GAP_Y
    return layer_top, layer_height, y - GAP_Y + MARGIN


def _route(
    items: dict[str, Item],
    edges: list[Edge],
    layer_top: list[float],
    layer_height: list[float],
) -> None:
    """Edge points: leave the source at the bottom (spread out), pass each waypoint's layer
    top to bottom, enter the target at the top."""
    for key, item in items.items():
        if item.dummy:
            continue
        outgoing = [edge for edge in edges if edge.source == key]
        outgoing.sort(key=lambda edge: items[edge.chain[1]].x)
        for i, edge in enumerate(outgoing):
            spread = item.width * 0.7
            offset = 0.0 if len(outgoing) == 1 else -spread / 2 + spread * i / (len(outgoing) - 1)
            edge.points = [(item.x + offset, item.y + item.height)]
    for edge in edges:
        for link in edge.chain[1:-1]:
            waypoint = items[link]
            top = layer_top[waypoint.layer]
            edge.points += [(waypoint.x, top), (waypoint.x, top + layer_height[waypoint.layer])]
        target = items[edge.target]
        edge.points.append((target.x, target.y))


def isotonic(values: list[float], weights: list[float]) -> list[float]:
    """The non-decreasing sequence closest to ``values`` in weighted least squares (pool
    adjacent violators)."""
    blocks: list[list[float]] = []  # [mean, weight, count]
    for value, weight in zip(values, weights, strict=True):
        blocks.append([value, weight, 1])
        while len(blocks) > 1 and blocks[-2][0] > blocks[-1][0]:
            mean2, weight2, count2 = blocks.pop()
            mean1, weight1, count1 = blocks.pop()
            total = weight1 + weight2
            blocks.append([(mean1 * weight1 + mean2 * weight2) / total, total, count1 + count2])
    result: list[float] = []
    for mean, _weight, count in blocks:
        result += [mean] * int(count)
    return result


def _path(points: list[tuple[float, float]]) -> str:
    """Smooth vertical curves between consecutive points, straight where a waypoint runs down."""
    (x0, y0), rest = points[0], points[1:]
    parts = [f"M{x0:.1f},{y0:.1f}"]
    for x1, y1 in rest:
        if abs(x1 - x0) < 0.5:
            parts.append(f"L{x1:.1f},{y1:.1f}")
        else:
            mid = (y0 + y1) / 2
            parts.append(f"C{x0:.1f},{mid:.1f} {x1:.1f},{mid:.1f} {x1:.1f},{y1:.1f}")
        x0, y0 = x1, y1
    return " ".join(parts)


def _label_position(points: list[tuple[float, float]]) -> tuple[float, float]:
    """The middle of the first segment (on the curve: the midpoint of a symmetric cubic)."""
    (x0, y0), (x1, y1) = points[0], points[1]
    return (x0 + x1) / 2, (y0 + y1) / 2


def render_svg(
    tree: TreeSpec,
    *,
    language: str = "nl",
    highlight: str | None = None,
    href: Callable[[str], str] | None = None,
    title: str = "",
    description: str = "",
) -> str:
    """The diagram as an inline ``<svg>`` element (a string of escaped markup).

    ``href(key)`` gives each box's link (default ``#node-<key>``); ``highlight`` is a node key
    to mark (class ``highlight``, ``aria-current``); ``title`` and ``description`` become the
    SVG's ``<title>`` and ``<desc>``.
    """
    link = href or (lambda key: f"#node-{key}")
    plan = layout(tree, language)
    width, height = round(plan.width), round(plan.height)
    # A group, not an image: its boxes are links, and an image's content is presentational
    # (axe: nested-interactive).
    out: list[str] = [
        f'<svg class="tree-diagram" role="group" aria-labelledby="{TITLE_ID} {DESC_ID}" '
        f'width="{width}" height="{height}" viewBox="0 0 {width} {height}" '
        f'data-nodes="{len(tree.nodes)}">',
        f'<title id="{TITLE_ID}">{escape(title or tree.title.get(language))}</title>',
        f'<desc id="{DESC_ID}">{escape(description)}</desc>',
        "<defs>"
        f'<marker id="{ARROW_ID}" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" '
        'markerHeight="7" orient="auto-start-reverse">'
        '<path d="M0,0 L10,5 L0,10 z" fill="#5c6670"/></marker>'
        "</defs>",
        '<g class="edges" fill="none" stroke="#5c6670" stroke-width="1.4">',
    ]
    for edge in plan.edges:
        out.append(
            f'<path class="edge" data-source="{escape(edge.source)}" '
            f'data-target="{escape(edge.target)}" d="{_path(edge.points)}" '
            f'marker-end="url(#{ARROW_ID})"/>'
        )
    out.append("</g>")
    out.append('<g class="edge-labels" font-size="11" text-anchor="middle">')
    for edge in plan.edges:
        x, y = _label_position(edge.points)
        label_width = len(edge.label) * 6.2 + 8
        out.append(
            f'<g class="edge-label"><title>{escape(edge.full_label)}</title>'
            f'<rect x="{x - label_width / 2:.1f}" y="{y - 8:.1f}" width="{label_width:.1f}" '
            f'height="15" rx="3" fill="#ffffff" fill-opacity="0.9"/>'
            f'<text x="{x:.1f}" y="{y + 3.5:.1f}" fill="#343a40">{escape(edge.label)}</text></g>'
        )
    out.append("</g>")
    out.append('<g class="nodes" font-size="13">')
    for item in plan.items.values():
        node = item.node
        if node is None:
            continue
        classes = ["node", node.kind]
        if node.key == tree.start:
            classes.append("start")
        current = ""
        if node.key == highlight:
            classes.append("highlight")
            current = ' aria-current="step"'
        is_outcome = node.kind == "outcome"
        fill, stroke = ("#e8f5e9", "#2e7d32") if is_outcome else ("#ffffff", "#1f4e79")
        if node.key == highlight:
            fill, stroke = "#fff3bf", "#e8590c"
        radius = 14 if is_outcome else 2
        left = item.x - item.width / 2
        out.append(
            f'<a href="{escape(link(node.key))}" id="d-{escape(node.key)}" '
            f'class="{" ".join(classes)}" data-key="{escape(node.key)}" tabindex="-1"{current}>'
            f"<title>{escape(node.text.get(language))}</title>"
            f'<rect x="{left:.1f}" y="{item.y:.1f}" width="{item.width:.1f}" '
            f'height="{item.height:.1f}" rx="{radius}" fill="{fill}" stroke="{stroke}" '
            f'stroke-width="{3 if node.key == highlight else 1.5}"/>'
        )
        out.append(f'<text x="{item.x:.1f}" text-anchor="middle" fill="#212529">')
        for i, line in enumerate(item.lines):
            y = item.y + BOX_PADDING + LINE_HEIGHT * (i + 1) - 4
            out.append(f'<tspan x="{item.x:.1f}" y="{y:.1f}">{escape(line)}</tspan>')
        out.append("</text></a>")
    out.append("</g></svg>")
    return "".join(out)
