"""Names of training-case tags in the active language.

Case files write tags in Dutch (``per-ongeluk``); ``training/data/tags.yaml`` names the shipped
ones in English. A tag a trainer typed for a club's own case has no entry and is shown as typed.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

from lib import yamltext
from lib.i18n import active_language

TAGS_FILE = Path(__file__).resolve().parent / "data" / "tags.yaml"


@cache
def english_names() -> dict[str, str]:
    data = yamltext.load(TAGS_FILE.read_text(encoding="utf-8")) or {}
    return {str(tag): str(name) for tag, name in data.items()}


def tag_name(tag: str) -> str:
    """The tag as a reader of the active language says it: Dutch with spaces for hyphens, or the
    English name of a shipped tag."""
    if active_language() == "en":
        return english_names().get(tag, tag)
    return tag.replace("-", " ")
