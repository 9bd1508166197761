"""The print flowchart's layout (trees/print_layout.py): every shipped tree is readable on A4
landscape, on one page where it can be, its boxes never overlap and every answer has its arrow."""

from __future__ import annotations

import pytest

from trees.loading import TREES_DIR
from trees.parse import load_tree_file
from trees.print_layout import (
    CHAR,
    PAD,
    PAGE_HEIGHT,
    PAGE_WIDTH,
    READABLE,
    overlaps,
    print_chart,
    split,
)
from trees.spec import TreeSpec

TREE_FILES = sorted(p for p in TREES_DIR.glob("*.yaml") if not p.name.endswith(".cases.yaml"))
# Too big to read on one page with any layout tried (70 boxes): printed on two.
TWO_PAGES = {"strafkaart"}


def test_all_shipped_trees_are_covered():
    assert len(TREE_FILES) >= 18


@pytest.mark.parametrize("path", TREE_FILES, ids=lambda path: path.stem)
@pytest.mark.parametrize("language", ["nl", "en"])
def test_every_tree_prints_readably_and_fits_its_pages(path, language):
    tree = load_tree_file(path)
    chart = print_chart(tree, language)
    assert chart.font_on_paper >= READABLE, (tree.slug, chart.font_on_paper)
    assert len(chart.sheets) == (2 if tree.slug in TWO_PAGES else 1)
    for sheet in chart.sheets:
        # The fit scale really puts each page inside the A4 drawing area.
        assert chart.plan.width * chart.scale <= PAGE_WIDTH + 0.01
        assert sheet.height * chart.scale <= PAGE_HEIGHT + 0.01
    assert overlaps(chart.plan) == []


@pytest.mark.parametrize("path", TREE_FILES, ids=lambda path: path.stem)
def test_every_node_is_drawn_and_every_answer_has_an_arrow_to_its_target(path):
    tree = load_tree_file(path)
    plan = print_chart(tree).plan
    drawn = {key for key, box in plan.boxes.items() if not box.dummy}
    assert drawn == {node.key for node in tree.nodes}
    arrows = {(link.source, link.choice_key, link.target) for link in plan.links}
    answers = {(n.key, c.key, c.target) for n in tree.nodes for c in n.choices}
    assert arrows == answers
    for link in plan.links:
        xs = [x for x, _y in link.points]
        assert xs == sorted(xs)  # arrows always run left to right
        source, target = plan.boxes[link.source], plan.boxes[link.target]
        assert source.column < target.column
    for box in plan.boxes.values():
        # Text lines fit the box's width (by the width estimate used for the layout).
        assert all(len(line) * CHAR <= plan.box_width - 2 * PAD + 0.01 for line in box.lines)


def chain(length: int) -> TreeSpec:
    """A tree of ``length`` yes/no questions in a row, each with a side outcome."""
    from trees.spec import ChoiceSpec, NodeSpec, OutcomeSpec, Text

    outcome = OutcomeSpec(ruling=Text("r", "r"), announce=Text("a", "a"))
    nodes = []
    for i in range(length):
        nxt = f"q{i + 1}" if i + 1 < length else "end"
        nodes.append(
            NodeSpec(
                key=f"q{i}",
                kind="question",
                text=Text(f"Vraag {i} met wat tekst erbij?", f"Question {i}?"),
                choices=(
                    ChoiceSpec("ja", Text("Ja", "Yes"), f"o{i}"),
                    ChoiceSpec("nee", Text("Nee", "No"), nxt),
                ),
            )
        )
        nodes.append(
            NodeSpec(
                f"o{i}",
                "outcome",
                Text(f"Uitkomst {i}", f"Outcome {i}"),
                cites=("50D1",),
                outcome=outcome,
            )
        )
    nodes.append(NodeSpec("end", "outcome", Text("Einde", "End"), outcome=outcome))
    return TreeSpec(
        slug="keten",
        edition="2017",
        phase="play",
        title=Text("Keten", "Chain"),
        description=Text("", ""),
        notes="",
        start="q0",
        nodes=tuple(nodes),
    )


def test_a_small_tree_is_printed_large_and_a_cut_only_where_it_helps():
    small = print_chart(chain(2))
    assert len(small.sheets) == 1
    assert small.font_on_paper > 10
    # 40 columns deep: too wide to read, and a cut across would not make it narrower, so it
    # stays on one page (known limit: the pages are only ever cut across).
    deep = print_chart(chain(40))
    assert deep.font_on_paper < READABLE
    assert len(deep.sheets) == 1


def test_a_split_covers_the_whole_drawing_and_cuts_no_box_in_half():
    plan = print_chart(load_tree_file(TREES_DIR / "strafkaart.yaml")).plan
    first, second = split(plan)
    assert first.top == 0
    assert second.bottom == pytest.approx(plan.height)
    assert second.top <= first.bottom  # no gap: every box is on at least one page
    for box in plan.boxes.values():
        if not box.dummy:
            whole_on_first = box.y + box.height <= first.bottom
            whole_on_second = box.y >= second.top
            assert whole_on_first or whole_on_second, box.key
