"""The tree content hash (a tree's version): SHA-256 over a canonical JSON of the parsed spec.
Pinned (tests/transfer/test_pinned_formats.py): a change here changes every tree's version.
Re-exported by :mod:`trees.spec`."""

from __future__ import annotations

import hashlib
import json
from dataclasses import asdict
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from trees.spec import TreeSpec

__all__ = ["canonical_data", "content_hash"]


def canonical_data(tree: TreeSpec) -> dict[str, Any]:
    """The spec as plain data (what the hash covers): everything except ``source``."""
    data = asdict(tree)
    data.pop("source", None)
    # Answers without citations hash as before answers could cite: unchanged trees keep
    # their version (and pinned hashes).
    for node in data["nodes"]:
        if not node["poll"]:  # questions no poll answers hash as before (issue 33)
            del node["poll"]
        for choice in node["choices"]:
            if not choice["cites"]:
                del choice["cites"]
            if not choice["offender"]:  # likewise answers that do not say who offended
                del choice["offender"]
        # Likewise outcomes without an option list or a resume point (issue 27A3, 27C).
        for name in ("option_list", "resume_at"):
            if node["outcome"] is not None and not node["outcome"][name]:
                del node["outcome"][name]
    # Trees written before finder words (or synonyms) existed keep the version they had.
    finder = tree.finder.canonical()
    if finder is None:
        data.pop("finder")
    else:
        data["finder"] = finder
    return data


def content_hash(tree: TreeSpec) -> str:
    """SHA-256 (hex) of a canonical JSON of the parsed spec: layout and comments don't count."""
    payload = json.dumps(
        canonical_data(tree), sort_keys=True, ensure_ascii=False, separators=(",", ":")
    )
    return hashlib.sha256(payload.encode("utf-8")).hexdigest()
