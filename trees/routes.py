"""The way to a question found by a search: which answer leads there (pure, no Django).

The start page may open a tree at a question inside it ("strafkaart niet gespeeld" → the
penalty-card tree at "Moest hij op dat moment de strafkaart spelen?"). The wizard still asks
every question before it, each with the answer on the shortest way there pre-selected
(docs/TREE_FORMAT.md, "Opening a tree at a question"): every answer of a ruling stays a fact
the director established and confirmed, and an earlier answer that turns out different simply
leaves the way.

A snapshot never changes, so :func:`toward` is computed once per snapshot digest, question and
process.
"""

from __future__ import annotations

import threading
from collections import defaultdict, deque
from collections.abc import Mapping

from trees.spec import Snapshot, TreeSpec

__all__ = ["clear_cache", "shortest_answers", "toward"]

CACHE_SIZE = 1024


def shortest_answers(tree: TreeSpec, target: str) -> dict[str, str]:
    """For every question from which ``target`` can be reached, the answer on a shortest way
    there (of equal ones the first in the file); empty when ``target`` is not a question."""
    if not tree.has_node(target) or tree.node(target).is_outcome:
        return {}
    leading: dict[str, list[str]] = defaultdict(list)
    for node in tree.nodes:
        for choice in node.choices:
            leading[choice.target].append(node.key)
    distance = {target: 0}
    queue = deque([target])
    while queue:
        key = queue.popleft()
        for earlier in leading[key]:
            if earlier not in distance:
                distance[earlier] = distance[key] + 1
                queue.append(earlier)
    answers: dict[str, str] = {}
    for node in tree.nodes:
        if node.key == target or node.key not in distance:
            continue
        on_the_way = [c for c in node.choices if distance.get(c.target) == distance[node.key] - 1]
        if on_the_way:
            answers[node.key] = on_the_way[0].key
    return answers


_cache: dict[tuple[str, str], dict[str, str]] = {}
_lock = threading.Lock()


def toward(tree: Snapshot, target: str) -> Mapping[str, str]:
    """:func:`shortest_answers` of a snapshot, once per digest and target."""
    if not target:
        return {}
    if not tree.digest:
        return shortest_answers(tree.tree, target)
    key = (tree.digest, target)
    with _lock:
        found = _cache.get(key)
    if found is None:
        found = shortest_answers(tree.tree, target)
        with _lock:
            if len(_cache) >= CACHE_SIZE:
                _cache.clear()
            _cache[key] = found
    return found


def clear_cache() -> None:
    with _lock:
        _cache.clear()
