"""The one language pick: Dutch first, English where the user asked for it and it exists.

Leidraad keeps every user text in Dutch and, where written, English. :func:`active_language`
turns Django's active language (``"en"``, ``"en-gb"``, ``None`` …) into ``"nl"`` or ``"en"``;
:func:`pick` chooses between a Dutch and an English text, falling back to Dutch when the English
one is empty; :func:`pick_text` does the same for a ``{"nl": …, "en": …}`` mapping as stored in
tree snapshots and rulings.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Literal

from django.utils.translation import get_language

Language = Literal["nl", "en"]


def normalise(language: str | None) -> Language:
    """``"en"`` for any English variant (``en``, ``en-gb``, ``EN``), else ``"nl"``."""
    return "en" if (language or "").strip().lower().startswith("en") else "nl"


def active_language() -> Language:
    """The language of the current request (or of ``translation.override``)."""
    return normalise(get_language())


def pick(nl: str | None, en: str | None = None, language: str | None = None) -> str:
    """``en`` when the language (default: the active one) is English and ``en`` is filled,
    else ``nl`` (or ``en`` when there is no Dutch text at all)."""
    nl = nl or ""
    en = en or ""
    wanted = normalise(language) if language is not None else active_language()
    if wanted == "en" and en:
        return en
    return nl or en


def pick_text(text: Mapping[str, str] | None, language: str | None = None) -> str:
    """:func:`pick` for a mapping with ``nl`` and ``en`` keys (either may be missing)."""
    if not text:
        return ""
    return pick(text.get("nl"), text.get("en"), language)
