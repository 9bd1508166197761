"""Where apps built on the law text plug into it, so that ``laws`` never imports them.

The decision trees (``trees``) cite articles: the article page lists the trees that cite it,
and a fresh import of an edition must point those citations at the new rows. ``trees``
registers both in its ``AppConfig.ready``; ``laws`` only calls what was registered. Trees and
training cases also register the keys they cite, which an import's dry run checks.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypedDict

from django.dispatch import Signal

if TYPE_CHECKING:
    from laws.models import Article


class Use(TypedDict):
    """Something that cites an article, as the article page lists it."""

    title: str
    url: str
    keys: list[str]


UseFinder = Callable[["Article"], list[Use]]
_finders: list[UseFinder] = []
# The keys something cites in an edition (by its code): trees, training cases.
CitedKeys = Callable[[str], set[str]]
_cited: list[CitedKeys] = []

# Sent after an edition's text was imported (``edition=`` the Edition); a receiver returns how
# many of its own references it pointed at the new rows.
edition_imported = Signal()


def register_uses(finder: UseFinder) -> UseFinder:
    if finder not in _finders:
        _finders.append(finder)
    return finder


def uses_of(article: Article) -> list[Use]:
    """Everything registered that cites ``article`` or one of its provisions."""
    return [use for finder in _finders for use in finder(article)]


def register_cited_keys(finder: CitedKeys) -> CitedKeys:
    if finder not in _cited:
        _cited.append(finder)
    return finder


def cited_keys(code: str) -> set[str]:
    """Every key something registered cites in edition ``code`` (an import's dry run lists
    the ones still without official text)."""
    return {key for finder in _cited for key in finder(code)}


def relink_after_import(edition: object) -> int:
    """Tell the apps that cite law text that ``edition`` was imported; the number relinked."""
    # django-stubs types a receiver's answer as ``str | None``; ours answer a count.
    answers: list[tuple[Any, Any]] = edition_imported.send(sender=None, edition=edition)
    return sum(count for _, count in answers if count)
