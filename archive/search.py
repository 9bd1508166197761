"""Free-text search in the archive: words in the notes, the event and the outcome's texts.

Searching by ``icontains`` read every ruling's notes and six texts out of its outcome JSON:
3.5 s at 200,000 rulings on SQLite, 9 s on PostgreSQL (make bench). The database's own text
index answers instead, kept up to date by the database on every write (the SQL is frozen in
``archive/migrations/0003_free_text_search.py`` and ``0004_search_prefixes_and_vector.py``):

- SQLite: an FTS5 table (``rulings_ruling_search``, contentless: the text stays in the ruling)
  filled by triggers, with prefix indexes for short words; its tokenizer ignores case and
  accents (``één`` finds ``een``).
- PostgreSQL: a stored generated column ``search_vector`` (``to_tsvector('simple', …)`` of the
  same texts) with a GIN index (case ignored; accents count, as PostgreSQL has no accent
  folding without an extension).

Both find rulings containing every word typed, as a whole word or the start of one:
``dinsdag`` finds ``Dinsdagavond``, ``avond`` does not. A word that names a tree (its title,
finder words or synonyms, in either language: ``denkpauze``, ``hesitation``) also finds that
tree's rulings (:func:`matching`).

Before that, :func:`parse` takes out what a director types to find a place at the club rather
than a word in the notes: ``tafel 7``, ``spel 12``, ``ronde 3`` (or ``table 7``, ``board 12``,
``round 3``) become filters on those columns; the number would match no text anyway.
"""

# ruff: noqa: S608, S611 - SQL built from the constant names below; search words are parameters.
from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from django.core.paginator import Paginator
from django.db import connection
from django.db.models import BooleanField, Q, QuerySet
from django.db.models.expressions import Expression, RawSQL

from trees import lookup
from trees.models import Tree

MAX_WORDS = 8
FTS_TABLE = "rulings_ruling_search"
_WORD = re.compile(r"\w+")


# A field word, then its number: "tafel 7", "Spel:12", "round 3". Dutch and English, as the
# archive's own columns are labelled in either language.
FIELD_WORDS = {
    "tafel": "table",
    "table": "table",
    "spel": "board",
    "bord": "board",
    "board": "board",
    "ronde": "round",
    "round": "round",
}
_FIELD_TOKEN = re.compile(
    r"(?<!\w)(" + "|".join(FIELD_WORDS) + r")\s*:?\s*(\d{1,4})(?!\w)", re.IGNORECASE
)


@dataclass(frozen=True)
class Parsed:
    """A search split into column filters (``{"table": 7}``) and the words left to search."""

    fields: dict[str, int] = field(default_factory=dict)
    text: str = ""


def parse(text: str) -> Parsed:
    """Take ``tafel 7``/``spel 12``/``ronde 3`` (and English) out of ``text`` as column
    filters; when a column is named twice the first number counts."""
    fields: dict[str, int] = {}
    for match in _FIELD_TOKEN.finditer(text):
        fields.setdefault(FIELD_WORDS[match.group(1).lower()], int(match.group(2)))
    rest = " ".join(_FIELD_TOKEN.sub(" ", text).split())
    return Parsed(fields, rest)


def words(text: str) -> list[str]:
    """The words of a search, as the text index splits them (letters and digits)."""
    return _WORD.findall(text.replace("_", " "))[:MAX_WORDS]


class VectorMatch(Expression):
    """``search_vector @@ to_tsquery('simple', query)`` on the ruling table of the query it is
    used in (PostgreSQL). The column is not a model field (migration 0004 adds it), so the
    condition names its table itself: by the alias the query gives it, which a subquery
    changes (``U0`` in the statistics' ``Exists``), not by the table's name."""

    output_field = BooleanField()

    def __init__(self, query: str, alias: str = "") -> None:
        super().__init__()
        self.query, self.alias = query, alias

    def resolve_expression(self, query: Any = None, *args: Any, **kwargs: Any) -> VectorMatch:
        return VectorMatch(self.query, query.get_initial_alias())

    def relabeled_clone(self, change_map: Mapping[str, str]) -> VectorMatch:
        return VectorMatch(self.query, change_map.get(self.alias, self.alias))

    def as_sql(self, compiler: Any, connection: Any) -> tuple[str, list[Any]]:
        table = compiler.quote_name_unless_alias(self.alias)
        return f"{table}.search_vector @@ to_tsquery('simple', %s)", [self.query]


def _text_match(found: list[str]) -> Q:
    """Rulings whose text holds every word of ``found``, whole or as the start of a word."""
    if connection.vendor == "sqlite":
        query = " AND ".join(f'"{word}"*' for word in found)
        return Q(
            pk__in=RawSQL(f"SELECT rowid FROM {FTS_TABLE} WHERE {FTS_TABLE} MATCH %s", [query])
        )
    if connection.vendor == "postgresql":
        # On the row itself, against the stored vector (migration 0004): the planner combines
        # it with the club and mode filters instead of running a subquery over every ruling.
        return Q(VectorMatch(" & ".join(f"{word}:*" for word in found)))
    raise NotImplementedError(f"free-text search for {connection.vendor}")


def named_trees(found: list[str]) -> dict[str, list[str]]:
    """For each word, the trees whose title, finder words or synonyms hold it, in either
    language and in any form ("denkpauze", "hesitation"; ``trees.lookup.trees_named``)."""
    trees = list(Tree.objects.select_related("edition"))
    return {word: lookup.trees_named(trees, word) for word in found}


def matching(rulings: QuerySet, text: str) -> QuerySet:
    """``rulings`` on the table, board and round ``text`` names (:func:`parse`) that hold
    every other word of it: in their text (whole, or as the start of a word), or in the name
    of their tree. A ruling's text does not name its tree ("denkpauze" is in the tree's title
    and finder words, not in the outcome), so such a word also finds the tree's rulings:
    ``tree_slug IN (…)``, answered by that column's index. Asked of the tree rows at search
    time, not copied into the text index, so a synonym added to a tree finds its older rulings
    too."""
    parsed = parse(text)
    rulings = rulings.filter(**parsed.fields)
    found = words(parsed.text)
    if not found:
        return rulings
    named = named_trees(found)
    plain = [word for word in found if not named[word]]
    condition = _text_match(plain) if plain else Q()
    for word, slugs in named.items():
        if slugs:
            condition &= _text_match([word]) | Q(tree_slug__in=slugs)
    return rulings.filter(condition)


# A search for a common word matches most of the archive, and counting every match is what made
# the list slow (make bench: 166 ms on SQLite, 391 ms on PostgreSQL at 200,000 rulings, most
# of it the paginator's COUNT). With free text the list counts at most COUNT_CAP + 1 matches,
# says "more than COUNT_CAP" when there are more, and pages through the first COUNT_CAP.
COUNT_CAP = 1000


class CappedPaginator(Paginator):
    """A paginator over at most ``cap`` objects, which counts no further than ``cap + 1``;
    ``capped`` tells whether there were more."""

    object_list: QuerySet[Any]

    def __init__(self, object_list: QuerySet, per_page: int, cap: int = COUNT_CAP) -> None:
        super().__init__(object_list, per_page)
        self.cap = cap
        self.capped = False

    @cached_property
    def count(self) -> int:
        # Without the order, the database stops at cap + 1 matches instead of sorting them all.
        found = self.object_list.order_by()[: self.cap + 1].count()
        self.capped = found > self.cap
        return min(found, self.cap)
