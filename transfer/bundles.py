"""Rulings from a club laptop to the club's server: a versioned JSON bundle.

A bundle holds a club's final rulings with their steps, reviews and audit events, and the tree
snapshots they ran on::

    {"format": "leidraad-rulings", "version": 3, "exported_at": "…",
     "club": {"slug": "…", "name": "…"},
     "rulings": [{<ruling fields>, "director": "anna",
                  "steps": [...], "reviews": [...], "audit": [...],
                  "adjusted_score": [] or [{...}]}, ...],
     "snapshots": [{"digest": "…", "slug": "…", "version": "…", "edition_code": "…",
                    "data": {...}}, ...]}

Version 1 had no ``adjusted_score``; it is still read (a ruling then has none). Version 3
added the ruling's ``auction`` (issue 33: the stored text of ``lib.auction``, ``"N: 1H P P P"``,
checked by the model field's validator on import: legal and canonical); a ruling of an older
bundle has none. A ruling with a player poll carries ``"poll"`` (its fields and answers,
:mod:`transfer.polls`), only then: other rulings export as they did. Users travel
by username. Times are UTC ISO 8601 with microseconds, exactly as the audit hash
covers them.

Only final rulings travel (unfinished ones stay on the laptop until they are saved), and
training rulings only when asked for (without their link to a training case or session).

Reading a bundle, checking it and importing it: :mod:`transfer.importing`.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from datetime import date
from typing import Any

from django.db.models import Q, QuerySet
from django.utils import timezone

from clubs.models import Club
from rulings import audit
from rulings.models import Mode, Ruling, Status
from transfer import polls
from transfer.children import (
    CHILDREN,
    fields_of,
    serialise,
)
from trees.models import TreeSnapshot

FORMAT = "leidraad-rulings"
# 2 added each ruling's "adjusted_score" (at most one), 3 its "auction" (lib.auction's stored
# text, "" for none); 1 and 2 are still read.
VERSION = 3
READABLE_VERSIONS = (1, 2, 3)
# Ruling fields a later version added: a ruling of an older bundle has this value.
ADDED_LATER: dict[str, object] = {"auction": ""}
CHUNK = 500
# The largest bundle read. Measured (issue 35): 5,005 rulings of seed_demo export to 65.4 MB,
# and reading and importing them raises the server from 116 MB to 580 MB (the parsed JSON is
# about 4x the file, the checked rulings as much again). A laptop sends what was saved since
# its last transfer, far less; a whole club's history goes on the server's command line.
WEB_MAX_BYTES = 64 * 1024 * 1024
CLI_MAX_BYTES = 1024 * 1024 * 1024

Progress = Callable[[int, int], None]

# Ruling fields that never travel: database ids, the club (the importer chooses it) and the
# links into the training app. ``snapshot`` travels as its digest (its primary key), users as
# usernames. A new foreign key on Ruling to another model must be listed here or given a
# portable key: its database id means nothing on another server.
RULING_SKIP = {"id", "club", "training_case", "training_session"}
# Fields the server changes after a transfer (reviews, appeals, the audit head, derived
# values): they are not compared when deciding whether a known ruling is unchanged.
RULING_MUTABLE = {
    "updated_at",
    "cited_articles",
    "review_verdict",
    "appeal_status",
    "audit_sequence",
    "audit_head",
}


# --------------------------------------------------------------------------------------------
# Export


def rulings_for_export(
    club: Club, *, since: date | None = None, include_training: bool = False
) -> QuerySet[Ruling]:
    rulings = Ruling.objects.filter(club=club, status=Status.FINAL)
    if not include_training:
        rulings = rulings.filter(mode=Mode.LIVE)
    if since is not None:
        rulings = rulings.filter(
            Q(finalised_at__date__gte=since)
            | Q(finalised_at__isnull=True, created_at__date__gte=since)
        )
    return rulings


def with_children(rulings: QuerySet[Ruling]) -> QuerySet[Ruling]:
    return (
        rulings.select_related("director", "poll__created_by")
        .prefetch_related(*(child.prefetch() for child in CHILDREN.values()), "poll__answers")
        .order_by("pk")
    )


# Ruling fields that travel only when they hold something: ``handed_over`` (the earlier trees
# of a ruling continued in another tree, rulings/hand_over.py). A bundle of one-tree rulings is
# what it always was (version 2, pinned); a server from before refuses a ruling that has it,
# by name ("unknown field"), and never misreads it.
# The pairs at the table (``pair_ns``, ``pair_ew``; rulings/pairs.py) likewise: the club's
# psyche register is not a field of its own but is made again on import from the ruling's
# ``pair_recorded`` event (transfer/importing.py), which its audit chain carries.
ONLY_WHEN_SET = ("handed_over", "pair_ns", "pair_ew")


def ruling_fields(ruling: Ruling) -> dict[str, Any]:
    """A ruling's own fields as bundle data (without its children)."""
    data = serialise(ruling, fields_of(Ruling, RULING_SKIP))
    for name in ONLY_WHEN_SET:
        if not data.get(name):
            data.pop(name, None)
    return data


def snapshots_of(ruling: Ruling) -> set[str]:
    """The digests of every tree snapshot the ruling ran on (more than one after a hand-over)."""
    digests = {ruling.snapshot_id} if ruling.snapshot_id else set()
    return digests | {part["snapshot"] for part in ruling.handed_over if part.get("snapshot")}


def serialise_ruling(ruling: Ruling) -> dict[str, Any]:
    """One ruling as bundle data (its children from prefetched relations; a poll only when it
    has one, transfer/polls.py)."""
    data = ruling_fields(ruling)
    for child in CHILDREN.values():
        data[child.key] = child.serialise(ruling)
    poll = polls.export(ruling)
    if poll is not None:
        data[polls.KEY] = poll
    return data


def iter_bundle(
    club: Club,
    *,
    since: date | None = None,
    include_training: bool = False,
    progress: Progress | None = None,
) -> Iterator[str]:
    """The bundle as JSON text, piece by piece, one ruling per line: memory stays constant
    whatever the number of rulings (snapshots are shared by many rulings and come last)."""
    header = {
        "format": FORMAT,
        "version": VERSION,
        "exported_at": audit.iso(timezone.now()),
        "club": {"slug": club.slug, "name": club.name},
    }
    rulings = rulings_for_export(club, since=since, include_training=include_training)
    total = rulings.count() if progress else 0
    yield json.dumps(header, ensure_ascii=False)[:-1] + ', "rulings": ['
    digests: set[str] = set()
    for done, ruling in enumerate(with_children(rulings).iterator(chunk_size=CHUNK), 1):
        digests |= snapshots_of(ruling)
        yield ("\n" if done == 1 else ",\n") + json.dumps(
            serialise_ruling(ruling), ensure_ascii=False
        )
        if progress and (done % CHUNK == 0 or done == total):
            progress(done, total)
    yield '\n], "snapshots": ['
    for index, row in enumerate(
        TreeSnapshot.objects.filter(digest__in=sorted(digests))
        .order_by("digest")
        .values("digest", "slug", "version", "edition_code", "data")
        .iterator(chunk_size=50)
    ):
        yield ("\n" if index == 0 else ",\n") + json.dumps(row, ensure_ascii=False)
    yield "\n]}\n"


def export_filename(club: Club) -> str:
    return f"leidraad-{club.slug}-{timezone.localdate().isoformat()}.json"
