"""A decision tree as a compact flowchart for one A4 landscape page (pure Python, no Django).

The screen diagram (:mod:`trees.diagram`) runs top-down with wide boxes; scaled onto paper its
text shrinks to a few points. This layout is made for paper instead: depth runs left to right
(columns), the branches are stacked top to bottom, and a box is narrow:

- a question shows its text (wrapped, at most a few lines) and below it one line per answer;
  the answer's arrow leaves the box on that line, so no label floats between the boxes;
- an outcome shows its title and the laws it cites.

Units are typographic points (pt) at scale 1: :data:`FONT` is the text size before the drawing
is fitted into :data:`PAGE_WIDTH` x :data:`PAGE_HEIGHT` (the part of an A4 landscape page under
the heading, see ``static/css/tree_print.css``). :func:`print_layout` tries a few box widths
and keeps the one that can be printed largest; ``font_on_paper`` is the text size that results.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from itertools import pairwise

from trees.diagram import depth_layers, isotonic, neighbours, reduce_crossings, shorten, wrap
from trees.spec import NodeSpec, TreeSpec

FONT = 7.0  # pt at scale 1
LINE = 8.4  # line height
CHAR = 0.54 * FONT  # average character width (Arial / Liberation Sans)
PAD = 2.5  # inside a box
GAP_X = 16.0  # between columns: room for the arrows to bend
GAP_Y = 4.0  # between boxes in a column
DUMMY_HEIGHT = 3.0  # an arrow passing through a column
MARGIN = 4.0
QUESTION_CHARS = 60  # a question shows about this much text (more lines in a narrow box)
OUTCOME_LINES = 3
LAW_LINES = 1
SWEEPS = 8
ROUNDS = 12
# The drawing area on paper: A4 landscape (297 x 210 mm) less 8 mm margins, the heading and
# the footer line (mm converted to pt).
PAGE_WIDTH = 280 / 25.4 * 72
PAGE_HEIGHT = 166 / 25.4 * 72
READABLE = 6.0  # pt: the smallest text size a director can read in a dim room
WRAPS = (14, 16, 18, 21, 24, 27, 30, 34)  # characters per line tried
BALANCE = (None, 1.0, 0.85, 0.7)  # tallest column allowed, as a part of the page's proportion


@dataclass
class Port:
    """One answer of a question: its line in the box and the arrow leaving there."""

    choice_key: str
    label: str
    full_label: str
    target: str
    y: float = 0.0  # relative to the box top


@dataclass
class Box:
    """A node (``node`` set) or a waypoint of an arrow crossing a column (``node`` None)."""

    key: str
    column: int
    height: float
    node: NodeSpec | None = None
    lines: list[str] = field(default_factory=list)
    ports: list[Port] = field(default_factory=list)
    laws: list[str] = field(default_factory=list)
    x: float = 0.0  # left
    y: float = 0.0  # top

    @property
    def dummy(self) -> bool:
        return self.node is None

    def entry(self) -> float:
        """Where arrows come in (and pass through a waypoint): the first text line."""
        return self.y if self.dummy else self.y + PAD + LINE / 2


@dataclass
class Link:
    source: str
    choice_key: str
    target: str
    chain: list[str]  # box keys from source to target, waypoints included
    points: list[tuple[float, float]] = field(default_factory=list)


@dataclass
class PrintLayout:
    boxes: dict[str, Box]
    links: list[Link]
    box_width: float
    width: float
    height: float

    @property
    def scale(self) -> float:
        """The factor that fits the drawing onto the page (above 1: it could be larger)."""
        return min(PAGE_WIDTH / self.width, PAGE_HEIGHT / self.height)

    @property
    def font_on_paper(self) -> float:
        return FONT * self.scale


@dataclass(frozen=True)
class Sheet:
    """The part of the drawing (from ``top`` to ``bottom``) printed on one page."""

    top: float
    bottom: float

    @property
    def height(self) -> float:
        return self.bottom - self.top


@dataclass
class PrintChart:
    """A layout and the pages it is printed on: one, unless no layout is readable on one."""

    plan: PrintLayout
    sheets: list[Sheet]

    @property
    def scale(self) -> float:
        """The factor every page is printed at (the smallest that fits each page)."""
        return min(
            min(PAGE_WIDTH / self.plan.width, PAGE_HEIGHT / sheet.height) for sheet in self.sheets
        )

    @property
    def font_on_paper(self) -> float:
        return FONT * self.scale


def print_layout(tree: TreeSpec, language: str = "nl") -> PrintLayout:
    """The layout that prints this tree's text largest on one page, over a few box widths."""
    return max(_candidates(tree, language), key=lambda plan: plan.scale)


@lru_cache(maxsize=64)
def print_chart(tree: TreeSpec, language: str = "nl") -> PrintChart:
    """One page when the text is readable on it (:data:`READABLE`); else the layout that is
    printed largest when cut in two across a gap between the boxes."""
    plans = _candidates(tree, language)
    one = PrintChart(max(plans, key=lambda plan: plan.scale), [Sheet(0.0, 0.0)])
    one.sheets = [Sheet(0.0, one.plan.height)]
    if one.font_on_paper >= READABLE:
        return one
    two = [PrintChart(plan, split(plan)) for plan in plans]
    return max([one, *two], key=lambda chart: chart.scale)


def _candidates(tree: TreeSpec, language: str) -> list[PrintLayout]:
    return [layout_with(tree, language, chars, balance) for chars in WRAPS for balance in BALANCE]


def split(plan: PrintLayout) -> list[Sheet]:
    """Two pages, cut between boxes where the taller page is lowest; a box the cut crosses is
    printed whole on both pages (it shows where the drawing continues)."""
    nodes = [box for box in plan.boxes.values() if not box.dummy]

    def sheets(cut: float) -> list[Sheet]:
        across = [box for box in nodes if box.y < cut < box.y + box.height]
        first = max([cut, *(box.y + box.height + GAP_Y / 2 for box in across)])
        second = min([cut, *(box.y - GAP_Y / 2 for box in across)])
        return [Sheet(0.0, min(first, plan.height)), Sheet(max(second, 0.0), plan.height)]

    cuts = {box.y - GAP_Y / 2 for box in nodes} | {box.y + box.height + GAP_Y / 2 for box in nodes}
    inside = [cut for cut in cuts if 0 < cut < plan.height] or [plan.height / 2]
    return min(
        (sheets(cut) for cut in inside),
        key=lambda pair: max(sheet.height for sheet in pair),
    )


def layout_with(
    tree: TreeSpec, language: str, chars: int, balance: float | None = None
) -> PrintLayout:
    """Columns by longest path (as on screen), boxes ``chars`` characters wide. With
    ``balance``, outcomes move right out of columns taller than that part of the height the
    page's proportions allow for the drawing's width."""
    column_of = depth_layers(tree)
    box_width = chars * CHAR + 2 * PAD
    boxes = {node.key: _box(node, column_of[node.key], chars, language) for node in tree.nodes}
    count = max(column_of.values(), default=0) + 1
    width = 2 * MARGIN + count * box_width + (count - 1) * GAP_X
    if balance is not None:
        _balance(tree, boxes, width * PAGE_HEIGHT / PAGE_WIDTH * balance)
    links = _links(tree, boxes)
    columns = _initial_order(tree, boxes, links, count)
    before, after = neighbours(boxes, (link.chain for link in links))
    reduce_crossings(columns, before, after)
    height = _place_y(columns, boxes, before, after)
    for box in boxes.values():
        box.x = MARGIN + box.column * (box_width + GAP_X)
    _route(boxes, links, box_width)
    return PrintLayout(boxes=boxes, links=links, box_width=box_width, width=width, height=height)


def _box(node: NodeSpec, column: int, chars: int, language: str) -> Box:
    text = node.text.get(language)
    if node.is_outcome:
        lines = wrap(text, chars, OUTCOME_LINES)
        laws = wrap(" · ".join(node.cites), chars, LAW_LINES) if node.cites else []
        height = (len(lines) + len(laws)) * LINE + 2 * PAD
        return Box(node.key, column, height, node=node, lines=lines, laws=laws)
    lines = wrap(text, chars, max(3, -(-QUESTION_CHARS // chars)))
    ports = []
    for i, choice in enumerate(node.choices):
        label = choice.label.get(language)
        y = PAD + (len(lines) + i) * LINE + LINE / 2 + 3
        ports.append(Port(choice.key, shorten(label, chars - 2), label, choice.target, y))
    height = (len(lines) + len(ports)) * LINE + 2 * PAD + 3  # a rule between text and answers
    return Box(node.key, column, height, node=node, lines=lines, ports=ports)


def _stacks(tree: TreeSpec, boxes: dict[str, Box]) -> dict[int, float]:
    """Per column, the height of its boxes and of the arrows passing through, stacked."""
    stacks: dict[int, float] = {}
    for node in tree.nodes:
        box = boxes[node.key]
        stacks[box.column] = stacks.get(box.column, 0.0) + box.height + GAP_Y
        for choice in node.choices:
            if tree.has_node(choice.target):
                for column in range(box.column + 1, boxes[choice.target].column):
                    stacks[column] = stacks.get(column, 0.0) + DUMMY_HEIGHT + GAP_Y
    return stacks


def _balance(tree: TreeSpec, boxes: dict[str, Box], limit: float) -> None:
    """Move outcomes (nothing follows them, so any later column will do) one column right, the
    tallest first, while their column is taller than ``limit``; never past the last column."""
    last = max((box.column for box in boxes.values()), default=0)
    for column in range(last):
        while _stacks(tree, boxes).get(column, 0.0) > limit:
            movable = [
                boxes[node.key]
                for node in tree.nodes
                if node.is_outcome and not node.choices and boxes[node.key].column == column
            ]
            if not movable:
                break
            max(movable, key=lambda box: box.height).column += 1


def _links(tree: TreeSpec, boxes: dict[str, Box]) -> list[Link]:
    """A link per answer; one that skips columns gets a waypoint (added to ``boxes``) in each
    column in between."""
    links: list[Link] = []
    for node in tree.nodes:
        for choice in node.choices:
            if not tree.has_node(choice.target):
                continue
            chain = [node.key]
            for column in range(boxes[node.key].column + 1, boxes[choice.target].column):
                waypoint = f"~{node.key}~{choice.key}~{column}"
                boxes[waypoint] = Box(waypoint, column, DUMMY_HEIGHT)
                chain.append(waypoint)
            chain.append(choice.target)
            links.append(Link(node.key, choice.key, choice.target, chain))
    return links


def _initial_order(
    tree: TreeSpec, boxes: dict[str, Box], links: list[Link], count: int
) -> list[list[str]]:
    """Box keys per column: depth-first from the start, answers in file order (so the first
    answer's branch is drawn on top)."""
    columns: list[list[str]] = [[] for _ in range(count)]
    seen: set[str] = set()
    outgoing: dict[str, list[Link]] = {}
    for link in links:
        outgoing.setdefault(link.source, []).append(link)
    todo = [node.key for node in reversed(tree.nodes)]
    if tree.has_node(tree.start):
        todo.append(tree.start)
    while todo:
        key = todo.pop()
        if key in seen:
            continue
        seen.add(key)
        columns[boxes[key].column].append(key)
        for link in reversed(outgoing.get(key, [])):
            for waypoint in link.chain[1:-1]:
                if waypoint not in seen:
                    seen.add(waypoint)
                    columns[boxes[waypoint].column].append(waypoint)
            todo.append(link.target)
    return columns


def _place_y(
    columns: list[list[str]],
    boxes: dict[str, Box],
    before: dict[str, list[str]],
    after: dict[str, list[str]],
) -> float:
    """y: each column as close as possible to its neighbours' centres (least squares under the
    minimum gaps, solved exactly per column), a few rounds back and forth. Returns the height."""

    def centre(key: str) -> float:
        return boxes[key].y + boxes[key].height / 2

    def place(keys: list[str], desired: dict[str, float]) -> None:
        offsets = [0.0]
        for a, b in pairwise(keys):
            offsets.append(offsets[-1] + (boxes[a].height + boxes[b].height) / 2 + GAP_Y)
        weights = [3.0 if boxes[key].dummy else 1.0 for key in keys]
        shifted = isotonic([desired[key] - offsets[i] for i, key in enumerate(keys)], weights)
        for i, key in enumerate(keys):
            boxes[key].y = shifted[i] + offsets[i] - boxes[key].height / 2

    for keys in columns:
        place(keys, {key: 0.0 for key in keys})
    count = len(columns)
    for sweep in range(ROUNDS):
        order = range(1, count) if sweep % 2 == 0 else range(count - 2, -1, -1)
        for index in order:
            keys = columns[index]
            desired = {}
            for key in keys:
                linked = [centre(n) for n in before[key] + after[key]]
                desired[key] = sum(linked) / len(linked) if linked else centre(key)
            place(keys, desired)
    top = min((box.y for box in boxes.values()), default=0.0)
    bottom = max((box.y + box.height for box in boxes.values()), default=0.0)
    for box in boxes.values():
        box.y += MARGIN - top
    return bottom - top + 2 * MARGIN


def _route(boxes: dict[str, Box], links: list[Link], box_width: float) -> None:
    """Arrow points: out of the source's right side on the answer's line, straight through
    each waypoint's column, into the target's left side on its first line."""
    for link in links:
        source = boxes[link.source]
        port = next(p for p in source.ports if p.choice_key == link.choice_key)
        link.points = [(source.x + box_width, source.y + port.y)]
        for waypoint in link.chain[1:-1]:
            passing = boxes[waypoint]
            link.points += [(passing.x, passing.y), (passing.x + box_width, passing.y)]
        target = boxes[link.target]
        link.points.append((target.x, target.entry()))


def overlaps(plan: PrintLayout) -> list[tuple[str, str]]:
    """Pairs of node boxes that overlap (none in a good layout)."""
    nodes = [box for box in plan.boxes.values() if not box.dummy]
    found = []
    for i, a in enumerate(nodes):
        for b in nodes[i + 1 :]:
            if (
                a.x < b.x + plan.box_width
                and b.x < a.x + plan.box_width
                and a.y < b.y + b.height
                and b.y < a.y + a.height
            ):
                found.append((a.key, b.key))
    return found
