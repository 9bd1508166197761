"""Importing a PBN file into a club's event: all boards and results, or nothing.

An event is found by its name in any case ("dinsdag" is "Dinsdag"). Importing again replaces
the event: every board of the file is stored with its results, and the boards the new file
lacks are removed, but only those the caller confirmed (the deals page lists them first, the
command needs ``--remove-missing``); otherwise :class:`UnconfirmedRemoval` names them and
nothing is written. A new event takes its scoring from the file's ``[Scoring]`` tag; an
existing one keeps the scoring chosen on the deals page.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable
from dataclasses import dataclass, field
from typing import Any

from django.db import transaction
from django.utils import timezone

from clubs.models import Club, User
from scores.models import Event, Scoring, StoredDeal
from scores.pbn import Board, PbnFile

__all__ = [
    "BoardKey",
    "ImportSummary",
    "UnconfirmedRemoval",
    "board_label",
    "event_name",
    "find_event",
    "import_file",
    "missing_boards",
    "scoring_of",
    "stored_event",
]

BoardKey = tuple[str, int]  # (section, board number)


def event_name(text: str) -> str:
    """The stored form of an event name: spaces trimmed and runs of spaces made one, so that
    a name typed on the ruling finds the imported event."""
    return " ".join(text.split())


def board_label(key: BoardKey) -> str:
    """``7``, or ``7 (A)`` for board 7 of section A."""
    section, board = key
    return f"{board} ({section})" if section else str(board)


def find_event(club: Club, name: str) -> Event | None:
    """The club's event of this name, whatever its case."""
    return Event.objects.filter(club=club, name__iexact=event_name(name)).first()


def stored_event(club: Club, name: str, scoring: str = Scoring.MATCHPOINTS) -> Event:
    """The club's event of this name (any case), made with ``scoring`` when it is new."""
    found = find_event(club, name)
    if found is not None:
        return found
    return Event.objects.create(club=club, name=event_name(name), scoring=scoring)


def scoring_of(tag: str, boards: Collection[Board]) -> tuple[str, str | None]:
    """The scoring an event gets from the file's ``[Scoring]`` value, and a warning when the
    value is not one Leidraad knows (matchpoints then). ``IMP`` is IMPs against the other
    table where the file has teams' rooms, else cross-IMPs."""
    words = {word.strip().lower() for word in tag.replace(";", " ").split()}
    if any(word.startswith("butler") for word in words):
        return Scoring.BUTLER, None
    if any(word.startswith("cross") for word in words):
        return Scoring.CROSS_IMPS, None
    if words & {"imp", "imps"}:
        rooms = any(result.room for board in boards for result in board.results)
        return (Scoring.IMPS if rooms else Scoring.CROSS_IMPS), None
    if not words or words & {"mp", "matchpoints", "mp1", "mp2", "emp"}:
        return Scoring.MATCHPOINTS, None
    return Scoring.MATCHPOINTS, f"Telling '{tag}' uit het bestand onbekend: matchpunten gekozen."


class UnconfirmedRemoval(Exception):
    """The event has boards the new file lacks and their removal was not confirmed."""

    def __init__(self, missing: list[BoardKey]) -> None:
        self.missing = missing
        super().__init__(", ".join(board_label(key) for key in missing))


@dataclass(frozen=True)
class ImportSummary:
    event: str
    scoring: str
    added: list[BoardKey] = field(default_factory=list)
    replaced: list[BoardKey] = field(default_factory=list)
    removed: list[BoardKey] = field(default_factory=list)
    results: int = 0
    warnings: tuple[str, ...] = ()

    @property
    def boards(self) -> int:
        return len(self.added) + len(self.replaced)

    def as_json(self) -> dict[str, Any]:
        """What ``import_pbn --json`` prints and the deals page says."""
        return {
            "event": self.event,
            "scoring": self.scoring,
            "boards": self.boards,
            "results": self.results,
            "added": [board_label(key) for key in self.added],
            "replaced": [board_label(key) for key in self.replaced],
            "removed": [board_label(key) for key in self.removed],
            "warnings": list(self.warnings),
        }


def _lacking(stored: Iterable[BoardKey], pbn: PbnFile) -> list[BoardKey]:
    """The stored boards that the file lacks, in board order."""
    keys = {board.key for board in pbn.boards}
    return sorted((key for key in stored if key not in keys), key=lambda key: (key[1], key[0]))


def missing_boards(club: Club, name: str, pbn: PbnFile) -> list[BoardKey]:
    """The boards stored for the event that the file lacks: importing it removes them."""
    stored = StoredDeal.objects.filter(club=club, event__iexact=event_name(name))
    return _lacking(stored.values_list("section", "board"), pbn)


def _values(board: Board, source: str, user: User | None) -> dict[str, Any]:
    return {
        "dealer": board.deal.dealer.value,
        "vulnerability": board.deal.vulnerability.value,
        "cards": board.deal.pbn,
        "results": [result.to_json() for result in board.results],
        "source": source[:200],
        "entered_by": user,
    }


def import_file(
    club: Club,
    name: str,
    pbn: PbnFile,
    source: str,
    user: User | None = None,
    remove: Collection[BoardKey] = (),
    progress: Callable[[Board, bool], None] | None = None,
) -> ImportSummary:
    """Store the file's boards as the event ``name`` (all or nothing), replacing what was
    stored for it; ``remove`` must be exactly the boards the file lacks (see
    :func:`missing_boards`). ``progress(board, replaced)`` is called after each board."""
    scoring, warning = scoring_of(pbn.scoring, pbn.boards)
    now = timezone.now()
    with transaction.atomic():
        event = find_event(club, name)
        if event is None:
            event = Event.objects.create(club=club, name=event_name(name), scoring=scoring)
        else:
            warning = None  # the event keeps the scoring chosen for it
        Event.objects.filter(pk=event.pk).update(source=source[:200])
        rows = StoredDeal.objects.select_for_update().filter(club=club, event__iexact=event.name)
        existing = {(row.section, row.board): row for row in rows}
        missing = _lacking(existing, pbn)
        if set(missing) != set(remove):
            raise UnconfirmedRemoval(missing)
        StoredDeal.objects.filter(pk__in=[existing[key].pk for key in missing]).delete()
        added: list[BoardKey] = []
        replaced: list[BoardKey] = []
        new: list[StoredDeal] = []
        changed: list[StoredDeal] = []
        for board in pbn.boards:
            values = _values(board, source, user)
            row = existing.get(board.key)
            if row is None:
                new.append(
                    StoredDeal(
                        club=club,
                        event=event.name,
                        section=board.section,
                        board=board.deal.board,
                        **values,
                    )
                )
                added.append(board.key)
            else:
                for column, value in {**values, "event": event.name, "entered_at": now}.items():
                    setattr(row, column, value)
                changed.append(row)
                replaced.append(board.key)
            if progress is not None:
                progress(board, row is not None)
        StoredDeal.objects.bulk_create(new)
        StoredDeal.objects.bulk_update(
            changed,
            [
                "event",
                "dealer",
                "vulnerability",
                "cards",
                "results",
                "source",
                "entered_by",
                "entered_at",
            ],
        )
    warnings = pbn.warnings + ((warning,) if warning else ())
    return ImportSummary(event.name, event.scoring, added, replaced, missing, pbn.results, warnings)
