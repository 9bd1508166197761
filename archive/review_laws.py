"""The law references a reviewer types, checked against the ruling's own edition.

A review can never be edited, so what it cites must exist: ``99Z`` parses as a key but no
edition has it. Whether a key exists is the one key checker's answer (``laws.index``), as for
trees, training cases and free rulings. The key grammar reads ``50d`` as the 1963-style
lettered item ``50(d)``; in an edition with sections the same keystrokes mean section ``50D``,
so each typed item is tried in both readings and the one the edition holds wins (the
grammar's reading first).
"""

from __future__ import annotations

from dataclasses import dataclass

from laws import keys
from laws.edition_law import index_of
from laws.index import Unknown
from laws.models import Article


@dataclass(frozen=True)
class CheckedLaw:
    """A cited key as stored (canonical) with the title of its article in the edition."""

    key: str
    title: str


class UnknownLaw(ValueError):
    """A typed item that is a key but not one of the edition's (``99Z``), with the nearest
    keys the edition holds (``laws.index.Unknown``)."""

    def __init__(self, typed: str, unknown: Unknown) -> None:
        super().__init__(f"{typed!r}: {unknown.english()}")
        self.typed = typed
        self.unknown = unknown
        self.key = unknown.key
        self.edition = unknown.edition


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
    :class:`UnknownLaw` for a key the edition lacks (the one key checker, ``laws.index``). An
    edition without law text loaded cannot refute anything: its keys pass unchecked, without
    titles."""
    typed = keys.list_items(text)
    options: list[tuple[str, list[keys.Key]]] = []
    for item in typed:
        try:
            options.append((item, readings(item)))
        except keys.InvalidKey as error:
            raise keys.InvalidKey(item, error.reason) from None
    if not options:
        return []
    index = index_of(edition)
    if not index.articles:
        return _unique([CheckedLaw(str(group[0]), "") for _item, group in options])
    titles = dict(
        Article.objects.filter(
            edition__code=edition, number__in={key.number for _i, group in options for key in group}
        ).values_list("number", "title")
    )
    checked = []
    for item, group in options:
        match = next((key for key in group if index.holds(str(key))), None)
        if match is None:
            unknown = index.unknown(str(group[0]))
            assert unknown is not None
            raise UnknownLaw(item.strip(), unknown)
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
