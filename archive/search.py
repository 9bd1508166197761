"""Free-text search in the archive: words in the notes, the event and the outcome's texts.

Searching by ``icontains`` read every ruling's notes and six texts out of its outcome JSON:
3.5 s at 200,000 rulings on SQLite, 9 s on PostgreSQL (make bench). The database's own text
index answers instead, kept up to date by the database on every write (the SQL is frozen in
``archive/migrations/0003_free_text_search.py``):

- SQLite: an FTS5 table (``rulings_ruling_search``, contentless: the text stays in the ruling)
  filled by triggers; its tokenizer ignores case and accents (``één`` finds ``een``).
- PostgreSQL: a GIN index on ``to_tsvector('simple', …)`` of the same texts (case ignored;
  accents count, as PostgreSQL has no accent folding without an extension).

Both find rulings containing every word typed, as a whole word or the start of one:
``dinsdag`` finds ``Dinsdagavond``, ``avond`` does not.
"""

# ruff: noqa: S608, S611 - SQL built from the constant names below; search words are parameters.
from __future__ import annotations

import re
from functools import cached_property

from django.core.paginator import Paginator
from django.db import connection
from django.db.models import QuerySet
from django.db.models.expressions import RawSQL

MAX_WORDS = 8
FTS_TABLE = "rulings_ruling_search"
# The outcome's texts searched: (part, language).
OUTCOME_TEXTS = [(part, lang) for part in ("title", "ruling", "announce") for lang in ("nl", "en")]
_WORD = re.compile(r"\w+")


def words(text: str) -> list[str]:
    """The words of a search, as the text index splits them (letters and digits)."""
    return _WORD.findall(text.replace("_", " "))[:MAX_WORDS]


def _document(vendor: str, row: str = "") -> str:
    """The searched text of a ruling as one SQL expression: of the trigger's ``NEW`` or
    ``OLD`` row, or (no ``row``) of the table's own columns, as an index expression needs."""
    prefix = f"{row}." if row else ""
    if vendor == "postgresql":
        parts = [
            f"coalesce({prefix}outcome #>> '{{{part},{lang}}}', '')" for part, lang in OUTCOME_TEXTS
        ]
    else:
        parts = [
            f"coalesce(json_extract({prefix}outcome, '$.{part}.{lang}'), '')"
            for part, lang in OUTCOME_TEXTS
        ]
    return " || ' ' || ".join([f"{prefix}notes", f"{prefix}event", *parts])


def matching(rulings: QuerySet, text: str) -> QuerySet:
    """``rulings`` that contain every word of ``text`` (whole, or as the start of a word)."""
    found = words(text)
    if not found:
        return rulings
    if connection.vendor == "sqlite":
        query = " AND ".join(f'"{word}"*' for word in found)
        ids = RawSQL(f"SELECT rowid FROM {FTS_TABLE} WHERE {FTS_TABLE} MATCH %s", [query])
    elif connection.vendor == "postgresql":
        query = " & ".join(f"{word}:*" for word in found)
        ids = RawSQL(
            f"SELECT id FROM rulings_ruling WHERE to_tsvector('simple', "
            f"{_document('postgresql')}) @@ to_tsquery('simple', %s)",
            [query],
        )
    else:
        raise NotImplementedError(f"free-text search for {connection.vendor}")
    return rulings.filter(pk__in=ids)


# A search for a common word matches most of the archive, and counting every match is what made
# the list slow (make bench: 166 ms on SQLite, 391 ms on PostgreSQL at 200,000 rulings, most
# of it the paginator's COUNT). With free text the list counts at most COUNT_CAP + 1 matches,
# says "more than COUNT_CAP" when there are more, and pages through the first COUNT_CAP.
COUNT_CAP = 1000


class CappedPaginator(Paginator):
    """A paginator over at most ``cap`` objects, which counts no further than ``cap + 1``;
    ``capped`` tells whether there were more."""

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
