"""The law references a reviewer types, checked against the ruling's own edition.

A review can never be edited, so what it cites must exist: ``99Z`` parses as a key but no
edition has it. The key grammar reads ``50d`` as the 1963-style lettered item ``50(d)``; in an
edition with sections the same keystrokes mean section ``50D``, so each typed item is tried in
both readings and the one the edition holds wins (the grammar's reading first).
"""

from __future__ import annotations

from dataclasses import dataclass

from laws import keys
from laws.models import Article, Provision


@dataclass(frozen=True)
class CheckedLaw:
    """A cited key as stored (canonical) with the title of its article in the edition."""

    key: str
    title: str


class UnknownLaw(ValueError):
    """A typed item that is a key but not one of the edition's (``99Z``)."""

    def __init__(self, typed: str, key: str, edition: str) -> None:
        super().__init__(f"{typed!r} ({key}) is not in edition {edition}")
        self.typed = typed
        self.key = key
        self.edition = edition


def readings(typed: str) -> list[keys.Key]:
    """The keys ``typed`` may mean: the grammar's reading, then (when the first letter after
    the article number is small, as in ``50d``) that letter as a section. Raises
    :class:`keys.InvalidKey` when the grammar refuses the text."""
    found = [keys.parse(typed)]
    digits = False
    for index, char in enumerate(typed):
        if char.isdigit():
            digits = True
        elif digits and char.isalpha():
            if char.islower():
                other = keys.try_parse(typed[:index] + char.upper() + typed[index + 1 :])
                if other is not None and other not in found:
                    found.append(other)
            break
    return found


def check(edition: str, text: str) -> list[CheckedLaw]:
    """The canonical keys of the typed list ``text`` that the edition holds, in the order
    typed, each once. Raises :class:`keys.InvalidKey` for an item that is no key and
    :class:`UnknownLaw` for a key the edition lacks. An edition without law text loaded
    cannot refute anything: its keys pass unchecked, without titles."""
    typed = keys.list_items(text)
    options: list[tuple[str, list[keys.Key]]] = []
    for item in typed:
        try:
            options.append((item, readings(item)))
        except keys.InvalidKey as error:
            raise keys.InvalidKey(item, error.reason) from None
    if not options:
        return []
    numbers = {key.number for _item, group in options for key in group}
    titles = dict(
        Article.objects.filter(edition__code=edition, number__in=numbers).values_list(
            "number", "title"
        )
    )
    if not titles and not Article.objects.filter(edition__code=edition).exists():
        return _unique([CheckedLaw(str(group[0]), "") for _item, group in options])
    wanted = [str(key) for _item, group in options for key in group if not key.is_article]
    held = set(
        Provision.objects.filter(article__edition__code=edition, key__in=wanted).values_list(
            "key", flat=True
        )
    )
    checked = []
    for item, group in options:
        match = next(
            (key for key in group if key.number in titles and (key.is_article or str(key) in held)),
            None,
        )
        if match is None:
            raise UnknownLaw(item.strip(), str(group[0]), edition)
        checked.append(CheckedLaw(str(match), titles[match.number]))
    return _unique(checked)


def _unique(laws: list[CheckedLaw]) -> list[CheckedLaw]:
    seen: set[str] = set()
    unique = []
    for law in laws:
        if law.key not in seen:
            seen.add(law.key)
            unique.append(law)
    return unique
