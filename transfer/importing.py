"""Reading a bundle (:mod:`transfer.bundles`, its format) on the club's server, checking it and
importing it.

Importing is idempotent by ruling uuid and never rewrites history:

* every audit chain in the bundle is verified by ``rulings.audit.chain_problems`` (the check
  ``verify_audit`` runs on the database), and every snapshot against its digest, before
  anything is written; one break refuses the bundle;
* a ruling the server does not know is created with its steps, reviews and events as they are;
* a ruling the server knows is left alone. It is *unchanged* when its content matches and the
  bundle's chain is the server's chain or the start of it (the server may have added reviews
  since the last transfer); otherwise it is a *conflict*, reported and not touched;
* each ruling created gets an ``imported`` event at the end of its chain, by the importing
  user, with the file's name and SHA-256 (:mod:`transfer.provenance`, which also decides who
  may import whose rulings). The server's chain then extends the laptop's, which is what a
  later transfer of the same ruling expects ("unchanged"); a ruling sent back to the laptop
  and from there to the server again is a conflict (its chain has the laptop's import event);
* a ruling's director must be a member of the importing club; any other username (a
  reviewer, an actor in the trail) becomes an inactive placeholder user ``name@club`` (no
  password, no membership), so the audit keeps its actor names (``actor_name``, which the
  hash covers, is never changed). A bundle never attributes rulings to a user of another club.
"""

from __future__ import annotations

import json
import uuid as uuid_lib
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.contrib.auth import get_user_model
from django.db import DatabaseError, transaction
from django.utils import timezone

from clubs.models import Club
from lib import limits, safejson
from rulings import hand_over, legal_basis, pairs
from rulings.models import HandOver, LegalBasis, PairRecord, Ruling, Status
from rulings.transitions import basis_rows
from transfer import polls, provenance, shapes
from transfer.bundles import (
    ADDED_LATER,
    CHUNK,
    FORMAT,
    READABLE_VERSIONS,
    RULING_MUTABLE,
    RULING_SKIP,
    Progress,
    ruling_fields,
    with_children,
)
from transfer.children import CHILDREN, as_list, fields_of, parse, plain, shape_message
from transfer.models import ImportRecord
from trees import snapshot
from trees.models import TreeSnapshot

MAX_PROBLEMS = 20

User = get_user_model()


class BundleError(Exception):
    """The bundle is refused as a whole; nothing was written."""

    def __init__(self, message: str, problems: Iterable[str] = (), code: str = "refused") -> None:
        self.code = code
        self.problems = list(problems)
        shown = self.problems[:MAX_PROBLEMS]
        more = len(self.problems) - len(shown)
        detail = "".join(f"\n  - {p}" for p in shown) + (f"\n  … and {more} more" if more else "")
        super().__init__(message + detail)
        self.message = message


# --------------------------------------------------------------------------------------------
# Verification


@dataclass
class _Incoming:
    """One ruling of a bundle, parsed and verified; ``children`` by bundle key."""

    uuid: uuid_lib.UUID
    fields: dict[str, Any]
    children: dict[str, list[dict[str, Any]]]
    poll: polls.Incoming | None = None  # transfer/polls.py, only when the ruling has one

    @property
    def steps(self) -> list[dict[str, Any]]:
        return self.children["steps"]

    @property
    def audit(self) -> list[dict[str, Any]]:
        return self.children["audit"]

    def usernames(self) -> set[str]:
        names = {self.fields["director"]}
        for key, child in CHILDREN.items():
            names |= child.usernames(self.children[key])
        return {n for n in names | polls.usernames(self.poll) if n}


def _parse_ruling(raw: Any, index: int) -> _Incoming:
    if not isinstance(raw, dict):
        raise ValueError(f"ruling {index}: not an object")
    where = f"ruling {raw.get('uuid', index)}"
    body = {key: value for key, value in raw.items() if key not in CHILDREN and key != polls.KEY}
    for key in ("uuid", "director", "created_at", "tree_slug"):
        if not body.get(key):
            raise ValueError(f"{where}: {key} is missing")
    fields = parse(Ruling, fields_of(Ruling, RULING_SKIP), body, where)
    for name, default in ADDED_LATER.items():
        fields.setdefault(name, default)  # an older bundle: compared and stored as none
    if fields.get("status") != Status.FINAL:
        # Only final rulings travel: an unfinished one could be continued on both sides.
        raise ValueError(f"{where}: status: only final rulings travel, not {body.get('status')!r}")
    odd = shapes.ruling_problems(fields, where)
    if odd:
        raise ValueError(shape_message(odd))
    children = {key: child.parse(raw, fields, where) for key, child in CHILDREN.items()}
    return _Incoming(fields["uuid"], fields, children, polls.read(raw, where))


def _parse_snapshots(raw: Any) -> dict[str, dict[str, Any]]:
    snapshots: dict[str, dict[str, Any]] = {}
    for index, item in enumerate(as_list(raw, "snapshots"), 1):
        data = item.get("data")
        if not isinstance(data, dict) or not isinstance(item.get("digest"), str):
            raise ValueError(f"snapshot {index}: digest and data are required")
        if snapshot.digest_of(data) != item["digest"]:
            raise ValueError(f"snapshot {item['digest'][:12]}: content does not match its digest")
        odd = shapes.snapshot_problems(data, f"snapshot {item['digest'][:12]}")
        if odd:
            raise ValueError(shape_message(odd))
        snapshots[item["digest"]] = item
    return snapshots


@dataclass
class Bundle:
    club_slug: str
    club_name: str
    exported_at: str
    rulings: list[_Incoming]
    snapshots: dict[str, dict[str, Any]]


def read_bundle(raw: bytes | str) -> Bundle:
    """Parse and check a bundle completely. Raises :class:`BundleError` (nothing written)."""
    try:
        data = safejson.loads(raw, max_text=limits.BUNDLE_TEXT_MAX)
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        raise BundleError(f"Not a valid JSON file ({error}).", code="json") from None
    except safejson.UnsafeJSON as error:
        raise BundleError(f"The file is refused: {error}.", code="json") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise BundleError(
            f"Not a Leidraad rulings bundle (format must be {FORMAT!r}).", code="format"
        )
    # type(): True == 1, and a bundle saying "version": true is no version-1 bundle.
    if type(data.get("version")) is not int or data["version"] not in READABLE_VERSIONS:
        raise BundleError(
            f"Bundle version {data.get('version')!r} is not supported (this server reads "
            f"versions {', '.join(map(str, READABLE_VERSIONS))}).",
            code="version",
        )
    club = data.get("club")
    if not isinstance(club, dict):
        club = {}
    problems: list[str] = []
    rulings: list[_Incoming] = []
    raw_rulings = data.get("rulings")
    if not isinstance(raw_rulings, list):
        raise BundleError("The bundle has no list of rulings.")
    for index in range(len(raw_rulings)):
        try:
            rulings.append(_parse_ruling(raw_rulings[index], index + 1))
        except ValueError as error:
            problems.append(str(error))
        # The parsed ruling shares its texts with the JSON read: drop the JSON's containers as
        # we go, so the two are not held side by side (issue 35: memory of a large bundle).
        raw_rulings[index] = None
    try:
        snapshots = _parse_snapshots(data.get("snapshots", []))
    except ValueError as error:
        problems.append(str(error))
        snapshots = {}
    seen: set[uuid_lib.UUID] = set()
    for ruling in rulings:
        if ruling.uuid in seen:
            problems.append(f"ruling {ruling.uuid}: appears twice")
        seen.add(ruling.uuid)
        digests = [ruling.fields.get("snapshot_id")]
        digests += [part["snapshot"] for part in ruling.fields.get("handed_over") or ()]
        for digest in digests:
            if digest and digest not in snapshots:
                problems.append(
                    f"ruling {ruling.uuid}: snapshot {digest[:12]} is not in the bundle"
                )
    if problems:
        raise BundleError("The bundle is refused; nothing was imported.", problems)
    return Bundle(
        club_slug=str(club.get("slug", "")),
        club_name=str(club.get("name", "")),
        exported_at=str(data.get("exported_at", "")),
        rulings=rulings,
        snapshots=snapshots,
    )


# --------------------------------------------------------------------------------------------
# Import


@dataclass
class ImportResult:
    club: Club
    created: int = 0
    unchanged: int = 0
    conflicts: list[str] = field(default_factory=list)
    placeholders: list[str] = field(default_factory=list)
    record: ImportRecord | None = None

    @property
    def total(self) -> int:
        return self.created + self.unchanged + len(self.conflicts)

    def summary(self) -> str:
        text = (
            f"{self.club.slug}: {self.total} ruling(s) in the bundle: {self.created} new, "
            f"{self.unchanged} already present, {len(self.conflicts)} conflict(s)"
        )
        if self.placeholders:
            text += f"; placeholder user(s) created: {', '.join(sorted(self.placeholders))}"
        return text + "."


class _Users:
    """Usernames in a bundle → users on this server.

    A username that is a member of the club is that user. Any other name becomes an inactive
    placeholder ``name@club`` (no password, no membership), made once and reused by later
    imports: a bundle never attributes rulings to a user of another club.
    """

    def __init__(self, club: Club, result: ImportResult) -> None:
        self.club, self.result = club, result
        self.cache: dict[str, Any] = {}

    def resolve(self, names: set[str]) -> None:
        wanted = sorted(names - set(self.cache))
        if not wanted:
            return
        members = {
            user.get_username(): user
            for user in User.objects.filter(
                username__in=wanted, memberships__club=self.club
            ).distinct()
        }
        for name in wanted:
            self.cache[name] = members.get(name) or self._placeholder(name)

    def _placeholder(self, name: str) -> Any:
        username = placeholder_name(name, self.club)
        user = User.objects.filter(username=username).first()
        if user is None:
            user = User(username=username, is_active=False)
            user.set_unusable_password()
            user.save()
            self.result.placeholders.append(username)
        return user

    def __getitem__(self, name: str | None) -> Any:
        return self.cache[name] if name else None


def placeholder_name(name: str, club: Club) -> str:
    suffix = f"@{club.slug}"
    return name[: 150 - len(suffix)] + suffix


def _core(values: dict[str, Any]) -> dict[str, Any]:
    """The fields that must match for a known ruling to count as unchanged."""
    skip = RULING_MUTABLE | {"director", "snapshot", "snapshot_id"}
    return {key: plain(value) for key, value in values.items() if key not in skip}


def _compare(stored: Ruling, incoming: _Incoming, club: Club) -> str | None:
    """Why ``stored`` conflicts with the bundle's ruling, or None when the bundle brings
    nothing new. The director is not compared: the bundle's username may have been mapped to
    a placeholder here."""
    if stored.club_id != club.pk:
        return "the uuid is already used by a ruling outside this club"
    mine = _core(ruling_fields(stored))
    mine["snapshot"] = stored.snapshot_id
    theirs = _core(incoming.fields)
    theirs["snapshot"] = incoming.fields.get("snapshot_id")
    differ = sorted(key for key in mine.keys() | theirs.keys() if mine.get(key) != theirs.get(key))
    if differ:
        return f"fields differ: {', '.join(differ)}"
    stored_steps = CHILDREN["steps"].serialise(stored)
    incoming_steps = [{k: plain(v) for k, v in s.items()} for s in incoming.steps]
    if stored_steps != incoming_steps:
        return "the steps differ"
    stored_hashes = [e.hash for e in stored.audit_events.all()]
    incoming_hashes = [e["hash"] for e in incoming.audit]
    if stored_hashes[: len(incoming_hashes)] != incoming_hashes:
        if incoming_hashes[: len(stored_hashes)] == stored_hashes:
            return "the bundle has newer audit events than the server"
        return "the audit trails differ"
    return None


def _tree_basis(outcome: Any, path: Any, digest: Any) -> list[str]:
    """One tree's part of a legal basis, worked out again from what the ruling recorded (as
    cited_articles always was): the outcome's citations, and its answers' cites in its tree
    snapshot."""
    tree = snapshot.find(digest)
    return legal_basis.keys_of_ruling(outcome or {}, path or [], tree)


def _basis(item: _Incoming) -> list[str]:
    """The ruling's legal basis: of a ruling continued in another tree, the earlier trees'
    first (rulings/hand_over.py), each worked out again the same way."""
    fields = item.fields
    parts = [
        _tree_basis(part["outcome"], part["path"], part["snapshot"])
        for part in fields.get("handed_over") or ()
    ]
    own = _tree_basis(fields.get("outcome"), fields.get("path"), fields.get("snapshot_id"))
    return legal_basis.basis_keys([key for part in parts for key in part], own)


def _create(incoming: list[_Incoming], club: Club, users: _Users) -> list[Ruling]:
    ruling_fields = fields_of(Ruling, RULING_SKIP)
    auto = [
        f.name
        for f in ruling_fields
        if getattr(f, "auto_now", False) or getattr(f, "auto_now_add", False)
    ]
    rulings = []
    bases = []
    for item in incoming:
        values = dict(item.fields)
        values["director"] = users[values["director"]]
        bases.append(_basis(item))
        values["cited_articles"] = legal_basis.articles(bases[-1])
        rulings.append(Ruling(club=club, **values))
    created = Ruling.objects.bulk_create(rulings)
    LegalBasis.objects.bulk_create(
        row for ruling, keys in zip(created, bases, strict=True) for row in basis_rows(ruling, keys)
    )
    # Derived, like the legal basis: the statistics' rows of a ruling's earlier trees.
    HandOver.objects.bulk_create(row for ruling in created for row in hand_over.rows_of(ruling))
    # auto_now(_add) fields were stamped with the time of import: put the bundle's times back.
    for ruling, item in zip(created, incoming, strict=True):
        for name in auto:
            if name in item.fields:
                setattr(ruling, name, item.fields[name])
    if auto:
        Ruling.objects.bulk_update(created, auto)
    for key, child in CHILDREN.items():
        child.model._default_manager.bulk_create(
            child.build(ruling, values, users)
            for ruling, item in zip(created, incoming, strict=True)
            for values in item.children[key]
        )
    polls.create(
        [(ruling, item.poll) for ruling, item in zip(created, incoming, strict=True)], users
    )
    # Derived from the audit chain: the club's psyche register (rulings/pairs.py).
    PairRecord.objects.bulk_create(
        row
        for ruling, item in zip(created, incoming, strict=True)
        for row in pairs.rows_from_audit(ruling, item.audit)
    )
    return created


def import_bundle(
    bundle: Bundle, club: Club, source: provenance.Source, progress: Progress | None = None
) -> ImportResult:
    """Write the bundle's new rulings into ``club``, all or nothing (one transaction), each
    with an ``imported`` event naming ``source`` (:mod:`transfer.provenance`)."""
    try:
        return _import(bundle, club, source, progress)
    except DatabaseError as error:  # a constraint, or (PostgreSQL) a NUL or too long a text
        raise BundleError(
            f"The database refused the bundle; nothing was imported ({error})."
        ) from None


def _import(
    bundle: Bundle, club: Club, source: provenance.Source, progress: Progress | None
) -> ImportResult:
    result = ImportResult(club=club)
    total = len(bundle.rulings)
    at = timezone.now()
    with transaction.atomic():
        for digest, snapshot in bundle.snapshots.items():
            if not TreeSnapshot.objects.filter(digest=digest).exists():
                TreeSnapshot.objects.create(
                    digest=digest,
                    slug=snapshot.get("slug") or snapshot["data"].get("slug", ""),
                    version=snapshot.get("version") or snapshot["data"].get("version", ""),
                    edition_code=snapshot.get("edition_code")
                    or snapshot["data"].get("edition", ""),
                    data=snapshot["data"],
                )
        users = _Users(club, result)
        for start in range(0, total, CHUNK):
            chunk = bundle.rulings[start : start + CHUNK]
            stored = {
                r.uuid: r
                for r in with_children(Ruling.objects.filter(uuid__in=[i.uuid for i in chunk]))
            }
            new = []
            for item in chunk:
                known = stored.get(item.uuid)
                if known is None:
                    new.append(item)
                    continue
                reason = _compare(known, item, club)
                if reason is None:
                    result.unchanged += 1
                else:
                    result.conflicts.append(f"{item.uuid}: {reason}; the stored ruling was kept")
            if new:
                _create_chunk(new, club, source, users, result, at)
            if progress:
                progress(min(start + CHUNK, total), total)
    return result


def _create_chunk(
    new: list[_Incoming],
    club: Club,
    source: provenance.Source,
    users: _Users,
    result: ImportResult,
    at: datetime,
) -> None:
    refused = provenance.attribution_problems(
        ((str(i.uuid), i.fields["director"]) for i in new), club, source
    )
    if refused:  # raised inside the transaction: earlier chunks are rolled back
        raise BundleError("The bundle is refused; nothing was imported.", refused)
    users.resolve(set().union(*(i.usernames() for i in new)))
    result.record = result.record or provenance.start(club, source, at)
    provenance.add(result.record, source, _create(new, club, users))
    result.created += len(new)


def target_club(bundle: Bundle, slug: str | None) -> Club:
    """The club to import into: ``slug`` when given, else the bundle's own club."""
    wanted = slug or bundle.club_slug
    club = Club.objects.filter(slug=wanted).first()
    if club is None:
        raise BundleError(
            f"Club {wanted!r} does not exist on this server; name one with --club SLUG."
        )
    return club
