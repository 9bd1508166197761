"""Article titles in the reader's language for a ruling's legal basis.

A ruling records its citations with the edition's (Dutch) article title; the edition's index
(``laws.edition_law``, kept per process) has the English title where one is written. Pages show
that one in English, the recorded one otherwise (issue 30: English titles on every law card).
"""

from __future__ import annotations

from typing import Any

from laws.edition_law import law_of
from lib.i18n import active_language


def localised(
    entries: list[dict[str, Any]], edition: str, language: str | None = None
) -> list[dict[str, Any]]:
    """``entries`` (``rulings.legal_basis.shown``) with ``article_title`` in ``language``
    (default: the active one) where the edition's index has it."""
    if (language or active_language()) != "en" or not entries:
        return entries
    index = law_of(edition).index
    shown = []
    for entry in entries:
        title = (
            index.title(str(entry.get("article") or "")).get("en") if entry.get("article") else ""
        )
        shown.append({**entry, "article_title": title} if title else entry)
    return shown
