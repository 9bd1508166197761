"""The progress hint's table (trees/progress.py): the longest remaining path, on a small tree
and on every shipped tree. No database."""

from __future__ import annotations

from dataclasses import replace

import pytest

from tests.support.tree_texts import GOOD
from tests.trees.test_tree_files import tree_files
from trees import progress
from trees.parse import load_tree_file, parse_tree
from trees.spec import Snapshot
from trees.validate import paths


def test_the_longest_remaining_path_counts_questions_only():
    tree = parse_tree(GOOD)
    # vraag-a → vraag-b → outcome is the longest way (the shortcut "weet-niet" is one question).
    assert progress.remaining_questions(tree) == {
        "vraag-a": 2,
        "vraag-b": 1,
        "uitkomst-a": 0,
        "uitkomst-b": 0,
        "uitkomst-c": 0,
    }


def test_the_hint_counts_answered_questions_and_the_way_on():
    remaining = progress.remaining_questions(parse_tree(GOOD))
    assert progress.progress(remaining, "vraag-a", 1) == progress.Progress(1, 2)
    assert progress.progress(remaining, "vraag-b", 2) == progress.Progress(2, 2)
    # Reached some other way (more questions before it), the total follows the real number.
    assert progress.progress(remaining, "vraag-b", 5) == progress.Progress(5, 5)
    assert progress.progress(remaining, "uitkomst-a", 3) is None
    assert progress.progress(remaining, "elders", 1) is None


def test_a_cycle_does_not_recurse_forever():
    tree = parse_tree(GOOD)
    looped = tree.node("vraag-b").choices[1]
    nodes = tuple(
        node
        if node.key != "vraag-b"
        else type(node)(
            key=node.key,
            kind=node.kind,
            text=node.text,
            choices=(node.choices[0], type(looped)(looped.key, looped.label, "vraag-a")),
        )
        for node in tree.nodes
    )
    table = progress.remaining_questions(replace(tree, nodes=nodes))
    assert table["vraag-a"] == 2


def test_the_table_is_computed_once_per_snapshot_digest():
    tree = parse_tree(GOOD)
    frozen = Snapshot(tree=tree, version="1", law={}, digest="a" * 64)
    first = progress.remaining_for(frozen)
    assert progress.remaining_for(frozen) is first
    progress.clear_cache()
    again = progress.remaining_for(frozen)
    assert again is not first
    assert again == first


@pytest.mark.parametrize("tree_file", tree_files(), ids=lambda p: p.stem)
def test_on_every_path_the_hint_never_promises_fewer_questions_than_come(tree_file):
    """Along every start-to-outcome path of a shipped tree: the total is never below the
    question's own number nor below the questions that path really asks, never grows from one
    question to the next, and the first question's total is the longest path."""
    tree = load_tree_file(tree_file)
    remaining = progress.remaining_questions(tree)
    every = paths(tree)
    assert remaining[tree.start] == max(len(path.steps) for path in every)
    for path in every:
        totals = []
        for number, (node_key, _choice) in enumerate(path.steps, start=1):
            hint = progress.progress(remaining, node_key, number)
            assert hint is not None
            assert hint.total >= hint.number
            assert hint.total >= len(path.steps)
            totals.append(hint.total)
        assert totals == sorted(totals, reverse=True)
