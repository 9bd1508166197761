"""A tree file's ``finder`` block: the words directors use for the irregularity, and other words
for it (pure Python, no Django).

``nl``/``en`` are what a director calls it ("denkpauze", "renonce"); ``synonyms`` are words that
mean it without naming it ("pauze", "aarzelen", "slow"). Both are searched by the start page
(:mod:`trees.finder`) and by the archive; synonyms only add words to find a tree by.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

__all__ = ["Finder"]


@dataclass(frozen=True)
class Finder:
    nl: tuple[str, ...] = ()
    en: tuple[str, ...] = ()
    synonyms_nl: tuple[str, ...] = ()
    synonyms_en: tuple[str, ...] = ()

    def __bool__(self) -> bool:
        return bool(self.nl or self.en or self.has_synonyms)

    @property
    def has_synonyms(self) -> bool:
        return bool(self.synonyms_nl or self.synonyms_en)

    def canonical(self) -> dict[str, Any] | None:
        """What the tree's content hash covers: nothing for a tree without finder words, and
        no synonym fields for a tree without synonyms, so both keep the version they had
        before these fields existed."""
        if not self:
            return None
        data: dict[str, Any] = {"nl": list(self.nl), "en": list(self.en)}
        if self.has_synonyms:
            data["synonyms_nl"] = list(self.synonyms_nl)
            data["synonyms_en"] = list(self.synonyms_en)
        return data

    def fields(self) -> dict[str, str]:
        """The ``Tree`` row's columns: one word or phrase per line."""
        return {column: "\n".join(getattr(self, name)) for column, name in _COLUMNS.items()}

    @classmethod
    def of_row(cls, row: Any) -> Finder:
        """The finder of a ``Tree`` row (:meth:`fields` read back)."""
        return cls(**{name: _lines(getattr(row, column)) for column, name in _COLUMNS.items()})


# The Tree row's column for each field.
_COLUMNS = {
    "finder_nl": "nl",
    "finder_en": "en",
    "synonyms_nl": "synonyms_nl",
    "synonyms_en": "synonyms_en",
}


def _lines(text: str) -> tuple[str, ...]:
    return tuple(line for line in text.splitlines() if line)
