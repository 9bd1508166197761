"""Which law articles a ruling cites, kept on ``Ruling.cited_articles`` for the archive.

A ruling cites what its current path (the steps that are not superseded) and its outcome cite.
The archive filters on one article and the statistics count per article, so the article numbers
are stored denormalised as ``|27|47|``: ``cited_articles__contains="|27|"`` is exact (``|2|``
never matches ``|27|``), and grouping on the whole string gives few groups to count from.

The wizard and the bundle importer compute the value with :func:`articles_in` from the
citations of the current steps and the outcome.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping
from typing import Any

from laws import keys

MAX_LENGTH = 400


def article_number(key: str) -> str | None:
    """The article of a key (``27B1(a)`` → ``27``, ``Art. 52 a`` → ``52``); None if not a key."""
    return _article_number(key) if isinstance(key, str) else None


@functools.lru_cache(maxsize=4096)
def _article_number(key: str) -> str | None:
    # Every wizard answer asks this for each key cited along the ruling's path (make bench);
    # a key always names the same article, so it is parsed once per process.
    parsed = keys.try_parse(key)
    return parsed.number if parsed else None


def citation_keys(citations: Any) -> list[str]:
    """The keys of a citation snapshot: a list of keys, or of mappings with a ``key``."""
    keys: list[str] = []
    if isinstance(citations, str):
        citations = [citations]
    if not isinstance(citations, Iterable) or isinstance(citations, Mapping):
        return keys
    for item in citations:
        if isinstance(item, str):
            keys.append(item)
        elif isinstance(item, Mapping) and isinstance(item.get("key"), str):
            keys.append(item["key"])
    return keys


def outcome_keys(outcome: Any) -> list[str]:
    """The keys the outcome snapshot cites (``cites`` or ``citations``)."""
    if not isinstance(outcome, Mapping):
        return []
    return citation_keys(outcome.get("citations", outcome.get("cites", [])))


def articles_in(step_citations: Iterable[Any], outcome: Any) -> list[str]:
    """Sorted article numbers cited by the given step snapshots and the outcome."""
    keys = [key for citations in step_citations for key in citation_keys(citations)]
    keys += outcome_keys(outcome)
    numbers = {number for key in keys if (number := article_number(key))}
    return sorted(numbers, key=int)


def encode(articles: Iterable[str]) -> str:
    """``["27", "47"]`` → ``"|27|47|"``; empty for none. Never longer than the field."""
    text = "|" + "|".join(articles) + "|" if articles else ""
    while len(text) > MAX_LENGTH:
        text = text[: text.rstrip("|").rfind("|") + 1]
    return text


def decode(text: str) -> list[str]:
    return [part for part in (text or "").split("|") if part]


def lookup(article: str) -> str:
    """The ``cited_articles__contains`` value for one article (``"27"`` → ``"|27|"``)."""
    number = article_number(article)
    return f"|{number}|" if number else "|-|"
