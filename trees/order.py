"""The order of a tree's nodes that every reader of a snapshot shares."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from trees.spec import NodeSpec


def reading_order(nodes: Sequence[NodeSpec], start: str) -> tuple[NodeSpec, ...]:
    """The nodes in the order a director meets them: depth first from ``start``, following the
    choices in their order; nodes that cannot be reached come last, by key. The stored JSON
    (hashed with sorted keys) does not depend on it."""
    by_key = {node.key: node for node in nodes}
    ordered: dict[str, NodeSpec] = {}
    pending = [start]
    while pending:
        key = pending.pop()
        if key in ordered or key not in by_key:
            continue
        ordered[key] = by_key[key]
        pending.extend(choice.target for choice in reversed(by_key[key].choices))
    rest = sorted(key for key in by_key if key not in ordered)
    return (*ordered.values(), *(by_key[key] for key in rest))
