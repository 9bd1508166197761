"""The finder (:mod:`trees.finder`) over the loaded trees: for the start page, the free
ruling's link to the nearest tree, and the archive's search by tree.

A tree's index is made once per process from its rows and kept by the row's id, version and
load time (a reloaded tree gets a new one); a search reads only the tree rows it is given.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from django.db.models import Prefetch, prefetch_related_objects

from trees import finder
from trees.finder import Found, TreeIndex
from trees.loading import spec_from_rows
from trees.models import Choice, Node, Tree
from trees.spec import Text

__all__ = [
    "AMBIGUOUS",
    "CUT",
    "Result",
    "ambiguous",
    "clear_cache",
    "find",
    "index_of",
    "trees_named",
]

# A tree is a result when it scores at least this share of the best match: a weaker one
# matched only words most trees share, and a long list hides the right one.
CUT = 0.3
# The second tree scores at least this share of the first: the words fit both, and the page
# says so (each result has its line saying when it applies).
AMBIGUOUS = 0.6
CACHE_SIZE = 256


@dataclass(frozen=True)
class Result:
    """A tree as the start page lists it: where to open it and one line saying when it
    applies."""

    tree: Tree
    when: Text
    question: str = ""  # the node key to open the tree at, "" for its start
    question_text: Text | None = None
    score: float = 0.0


_cache: dict[tuple[int, str, object], TreeIndex] = {}
_lock = threading.Lock()


def _key(tree: Tree) -> tuple[int, str, object]:
    return (tree.pk, tree.version, tree.loaded_at)


def index_of(trees: Sequence[Tree]) -> dict[int, TreeIndex]:
    """The index of each tree, by row id; made for the trees not seen before (their nodes
    and answers read in three queries)."""
    with _lock:
        known = {tree.pk: _cache[_key(tree)] for tree in trees if _key(tree) in _cache}
    missing = [tree for tree in trees if tree.pk not in known]
    if missing:
        prefetch_related_objects(
            missing,
            "edition",  # no query when the rows have it selected already
            Prefetch("nodes", queryset=Node.objects.order_by("order")),
            Prefetch(
                "nodes__choices", queryset=Choice.objects.select_related("target").order_by("order")
            ),
            "nodes__citations",
        )
        made = {tree.pk: TreeIndex.of(spec_from_rows(tree)) for tree in missing}
        with _lock:
            if len(_cache) + len(made) > CACHE_SIZE:
                _cache.clear()
            _cache.update({_key(tree): made[tree.pk] for tree in missing})
        known.update(made)
    return known


def clear_cache() -> None:
    with _lock:
        _cache.clear()


def find(trees: Iterable[Tree], query: str) -> list[Result]:
    """The trees for ``query``, best first, cut at :data:`CUT` of the best; every tree (in
    title order) when nothing is typed. Select the rows' edition: the results show it."""
    rows = list(trees)
    indexes = index_of(rows)
    by_slug = {tree.slug: tree for tree in rows}
    ranked = finder.rank((indexes[tree.pk] for tree in rows), query)
    best = ranked[0].score if ranked else 0.0
    return [
        _result(by_slug[found.slug], indexes[by_slug[found.slug].pk], found)
        for found in ranked
        if found.score >= CUT * best
    ]


def ambiguous(results: Sequence[Result]) -> bool:
    """Whether the first two results fit the words almost equally well."""
    return len(results) > 1 and results[1].score >= AMBIGUOUS * results[0].score


def _result(tree: Tree, index: TreeIndex, found: Found) -> Result:
    return Result(
        tree=tree,
        when=index.when,
        question=found.question,
        question_text=index.questions.get(found.question),
        score=found.score,
    )


def trees_named(trees: Iterable[Tree], word: str) -> list[str]:
    """The slugs of the trees whose title, finder words or synonyms hold ``word`` in some
    form (not a typo: the archive finds what was typed), for the archive's search."""
    rows = list(trees)
    indexes = index_of(rows)
    queries = finder.Query.of(word)
    return [tree.slug for tree in rows if queries and indexes[tree.pk].names(queries[0])]
