"""Finding a tree by the words a director types: "verzaakt", "kaart gevallen", "denkpauze".

Pure Python over a handful of trees (one query loads them): every word typed must match, case
and accents ignored, as a whole word or the start of one, in the tree's finder words, title or
description. Trees rank by where the words matched: a finder word or the title counts more than
the description, and a whole word more than the start of one. So "beurt" finds the lead out of
turn before the insufficient bid, whose description only mentions a turn in passing.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Protocol, TypeVar

_WORD = re.compile(r"\w+")
# Weight of a match by where it is found, whole word / start of a word.
WEIGHTS = {"finder": (6, 4), "title": (5, 3), "description": (2, 1)}


class Findable(Protocol):
    title_nl: str
    title_en: str
    description_nl: str
    description_en: str
    finder_nl: str
    finder_en: str


def fold(text: str) -> str:
    """Lower case without accents: ``Één`` and ``een`` are the same word."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    return "".join(char for char in decomposed if not unicodedata.combining(char))


def words(text: str) -> list[str]:
    return _WORD.findall(fold(text))


@dataclass(frozen=True)
class Haystack:
    """The folded words of a tree, per place."""

    finder: frozenset[str]
    title: frozenset[str]
    description: frozenset[str]

    @classmethod
    def of(cls, tree: Findable) -> Haystack:
        def bag(*texts: str) -> frozenset[str]:
            return frozenset(word for text in texts for word in words(text))

        return cls(
            finder=bag(tree.finder_nl, tree.finder_en),
            title=bag(tree.title_nl, tree.title_en),
            description=bag(tree.description_nl, tree.description_en),
        )

    def score(self, query: Sequence[str]) -> int:
        """0 unless every word of ``query`` matches somewhere; else the summed weights."""
        total = 0
        for word in query:
            best = 0
            for place, (whole, start) in WEIGHTS.items():
                bag: frozenset[str] = getattr(self, place)
                if word in bag:
                    best = max(best, whole)
                elif any(candidate.startswith(word) for candidate in bag):
                    best = max(best, start)
            if not best:
                return 0
            total += best
        return total


T = TypeVar("T", bound=Findable)


def rank(trees: Iterable[T], query: str) -> list[T]:
    """The trees matching every word of ``query``, best first (ties by title)."""
    typed = words(query)
    if not typed:
        return sorted(trees, key=lambda tree: fold(tree.title_nl))
    scored = [(Haystack.of(tree).score(typed), tree) for tree in trees]
    return [
        tree
        for score, tree in sorted(scored, key=lambda pair: (-pair[0], fold(pair[1].title_nl)))
        if score
    ]
