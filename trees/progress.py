"""How far a director is from an outcome: the progress hint of a wizard step (pure, no Django).

"Vraag 3 van ongeveer 6": 3 is the question being answered, 6 the questions answered so far
plus the most questions any way on from here can still ask. The longest remaining path is
used (not the shortest or an average) so the hint never promises fewer questions than come:
the total only shrinks as answers cut branches away, it never grows past what was shown.

The table is the same for every ruling on a snapshot, so :func:`remaining_for` computes it
once per snapshot digest and process (snapshots never change; see :mod:`trees.snapshot`).
"""

from __future__ import annotations

import threading
from collections.abc import Mapping
from dataclasses import dataclass

from trees.spec import Snapshot, TreeSpec

__all__ = ["Progress", "clear_cache", "progress", "remaining_for", "remaining_questions"]

CACHE_SIZE = 256


def remaining_questions(tree: TreeSpec) -> dict[str, int]:
    """For every node, the most questions on any path from it to an outcome, itself included
    (an outcome: 0). A choice pointing to an unknown node, or back to a node on the current
    path (a cycle, refused by the validator), counts as ending there."""
    nodes = {node.key: node for node in tree.nodes}
    longest: dict[str, int] = {}
    on_path: set[str] = set()

    def visit(key: str) -> int:
        if key in longest:
            return longest[key]
        node = nodes[key]
        if node.is_outcome:
            longest[key] = 0
            return 0
        on_path.add(key)
        after = [
            visit(choice.target)
            for choice in node.choices
            if choice.target in nodes and choice.target not in on_path
        ]
        on_path.discard(key)
        longest[key] = 1 + max(after, default=0)
        return longest[key]

    for key in nodes:
        visit(key)
    return longest


@dataclass(frozen=True)
class Progress:
    """The step's number and about how many questions the ruling will have in all."""

    number: int
    total: int


def progress(remaining: Mapping[str, int], node_key: str, number: int) -> Progress | None:
    """The hint for question ``number`` at ``node_key`` (None for an outcome or an unknown
    node): the ``number - 1`` questions before it plus the longest way on from it."""
    left = remaining.get(node_key, 0)
    if left < 1:
        return None
    return Progress(number=number, total=number - 1 + left)


_cache: dict[str, dict[str, int]] = {}
_lock = threading.Lock()


def remaining_for(tree: Snapshot) -> Mapping[str, int]:
    """:func:`remaining_questions` of a snapshot, computed once per digest and process."""
    if not tree.digest:
        return remaining_questions(tree.tree)
    with _lock:
        known = _cache.get(tree.digest)
    if known is not None:
        return known
    table = remaining_questions(tree.tree)
    with _lock:
        if len(_cache) >= CACHE_SIZE:
            _cache.pop(next(iter(_cache)))
        _cache[tree.digest] = table
    return table


def clear_cache() -> None:
    with _lock:
        _cache.clear()
