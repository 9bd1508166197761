"""Who imports which rulings, and the record of it in each ruling's chain (issue 28 item 3).

A bundle's audit chains prove that nothing changed since they were hashed, not who hashed them
(docs/SECURITY.md, "What the audit chain proves"): anyone can write a bundle whose chains
verify. So the import itself is put on the record, and limited:

* each imported ruling's chain gains an ``imported`` event by the importing user, with the
  file's name and SHA-256, and the import is kept as an :class:`~transfer.models.ImportRecord`
  (which the club's administrator can take back, :mod:`transfer.undo`);
* a director imports only rulings he directed himself; an administrator those of any member
  of his club; the command line (the server's operator) any member's;
* a ruling whose director is not a member of the importing club is refused: a bundle never
  attributes a ruling to someone the club does not know. (Reviewers and other actors in a
  ruling's trail who are not members still become inactive placeholders, ``name@club``: their
  names are part of the hashed history.)
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

from clubs.models import Club, Membership, Role, User
from rulings import audit
from rulings.models import AuditEvent, Ruling
from transfer.models import ImportRecord


@dataclass(frozen=True)
class Source:
    """Who imports, and from which file. ``user`` None: the command line, without ``--user``."""

    user: User | None
    file_name: str
    sha256: str
    # Whether rulings of other directors may be imported (an administrator, the command line).
    anyone: bool

    @classmethod
    def of(cls, user: User | None, file_name: str, raw: bytes, club: Club) -> Source:
        anyone = (
            user is None
            or Membership.objects.filter(user=user, club=club, role=Role.ADMIN).exists()
        )
        return cls(user, file_name[:255], hashlib.sha256(raw).hexdigest(), anyone)


def attribution_problems(
    directors: Iterable[tuple[str, str]], club: Club, source: Source
) -> list[str]:
    """Why rulings ((uuid, director username) pairs) may not be imported by ``source``."""
    pairs = list(directors)
    members = set(
        User.objects.filter(
            username__in={name for _uuid, name in pairs}, memberships__club=club
        ).values_list("username", flat=True)
    )
    problems = []
    for uuid, name in pairs:
        if name not in members:
            problems.append(
                f"ruling {uuid}: director {name!r} is not a member of {club.slug}; "
                "add the user to the club first"
            )
        elif not source.anyone and source.user is not None and name != source.user.username:
            problems.append(
                f"ruling {uuid}: directed by {name!r}; a director imports only his own "
                "rulings, an administrator those of every member"
            )
    return problems


def start(club: Club, source: Source, at: datetime) -> ImportRecord:
    """The import on the record (its rulings are added chunk by chunk, :func:`add`)."""
    return ImportRecord.objects.create(
        club=club,
        imported_by=source.user,
        file_name=source.file_name,
        sha256=source.sha256,
        at=at,
    )


def add(entry: ImportRecord, source: Source, rulings: list[Ruling]) -> None:
    """``rulings`` (just created) belong to the import: an ``imported`` event at the end of
    every ruling's chain, by the importing user, with the file's name and hash."""
    entry.rulings.add(*rulings)
    data = {"file": entry.file_name, "sha256": entry.sha256, "import": str(entry.uuid)}
    events: list[AuditEvent] = []
    for ruling in rulings:
        events += audit.chain(ruling, [(audit.Action.IMPORTED, data)], source.user, entry.at)
    AuditEvent.objects.bulk_create(events)
    Ruling.objects.bulk_update(rulings, ["audit_sequence", "audit_head"])
