"""Rulings from a club laptop to the club's server: a versioned JSON bundle.

A bundle holds a club's final rulings with their steps, reviews and audit events, and the tree
snapshots they ran on::

    {"format": "leidraad-rulings", "version": 1, "exported_at": "…",
     "club": {"slug": "…", "name": "…"},
     "rulings": [{<ruling fields>, "director": "anna",
                  "steps": [...], "reviews": [...], "audit": [...]}, ...],
     "snapshots": [{"digest": "…", "slug": "…", "version": "…", "edition_code": "…",
                    "data": {...}}, ...]}

Users travel by username. Times are UTC ISO 8601 with microseconds, exactly as the audit hash
covers them.

Importing is idempotent by ruling uuid and never rewrites history:

* every audit chain in the bundle is verified by ``rulings.audit.chain_problems`` (the check
  ``verify_audit`` runs on the database), and every snapshot against its digest, before
  anything is written; one break refuses the bundle;
* a ruling the server does not know is created with its steps, reviews and events as they are;
* a ruling the server knows is left alone. It is *unchanged* when its content matches and the
  bundle's chain is the server's chain or the start of it (the server may have added reviews
  since the last transfer); otherwise it is a *conflict*, reported and not touched;
* no "imported" audit event is written: the chain must stay the same on laptop and server, or
  the next transfer of the same ruling would no longer match it. The import is recorded in the
  command's output and, from the web page, in the messages shown to the admin;
* a username that is a member of the importing club is that user; any other name becomes an
  inactive placeholder user ``name@club`` (no password, no membership), so the ruling keeps a
  director and the audit keeps its actor names (``actor_name``, which the hash covers, is never
  changed). A bundle never attributes rulings to a user of another club.

Only final rulings travel (unfinished ones stay on the laptop until they are saved), and
training rulings only when asked for (without their link to a training case or session).
"""

from __future__ import annotations

import json
import uuid as uuid_lib
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from decimal import Decimal
from typing import Any

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import DatabaseError, models, transaction
from django.db.models import Prefetch, Q, QuerySet
from django.utils import timezone
from django.utils.dateparse import parse_datetime

from archive.models import Review
from clubs.models import Club
from rulings import audit
from rulings.models import AuditEvent, Mode, Ruling, Status, Step
from transfer import shapes
from trees import citations, snapshot
from trees.models import TreeSnapshot

FORMAT = "leidraad-rulings"
VERSION = 1
CHUNK = 500
MAX_PROBLEMS = 20

User = get_user_model()
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
CHILD_SKIP = {"id", "ruling"}


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
# Values


def _plain(value: Any) -> Any:
    if isinstance(value, datetime):
        return audit.iso(value if timezone.is_aware(value) else value.replace(tzinfo=UTC))
    if isinstance(value, date):
        return value.isoformat()
    if isinstance(value, uuid_lib.UUID | Decimal):
        return str(value)
    return value


def _fields(model: type[models.Model], skip: set[str]) -> list[models.Field]:
    return [f for f in model._meta.concrete_fields if f.name not in skip]


def _is_user(f: models.Field) -> bool:
    return f.is_relation and f.related_model is User


def _serialise(obj: models.Model, fields: list[models.Field]) -> dict[str, Any]:
    data: dict[str, Any] = {}
    for f in fields:
        if _is_user(f):
            related = getattr(obj, f.name)
            data[f.name] = related.get_username() if related is not None else None
        elif f.is_relation:
            data[f.name] = getattr(obj, f.attname)
        else:
            data[f.name] = _plain(f.value_from_object(obj))
    return data


def _json_type_fits(f: models.Field, value: Any) -> bool:
    """Whether ``value`` has the JSON type ``_serialise`` writes for ``f``."""
    if isinstance(f, models.JSONField):
        return True
    if isinstance(f, models.BooleanField):
        return isinstance(value, bool)
    if isinstance(f, models.IntegerField):
        return isinstance(value, int) and not isinstance(value, bool)
    return isinstance(value, str)  # text, dates, times, uuids and decimals travel as text


def _parse(model: type[models.Model], fields: list[models.Field], raw: dict, where: str) -> dict:
    """Bundle values converted to Python values for ``fields`` (users stay usernames)."""
    unknown = set(raw) - {f.name for f in fields}
    if unknown:
        raise ValueError(f"{where}: unknown field(s) {', '.join(sorted(unknown))}")
    values: dict[str, Any] = {}
    for f in fields:
        if f.name not in raw:
            continue
        value = raw[f.name]
        if _is_user(f):
            if value is not None and not (isinstance(value, str) and value):
                raise ValueError(f"{where}: {f.name} must be a username")
            values[f.name] = value
            continue
        if value is not None and not f.is_relation and not _json_type_fits(f, value):
            # to_python() would turn it into the field's type (a list into the text "[]"),
            # so what is stored would differ from what the audit chain was verified with.
            raise ValueError(f"{where}: {f.name}: wrong type {type(value).__name__}")
        try:
            if value is None and not f.null:
                raise ValidationError("may not be empty")
            if value is not None:
                value = f.to_python(value)
                f.run_validators(value)
            if isinstance(value, datetime) and timezone.is_naive(value):
                raise ValidationError("time without time zone")
        except ValidationError as error:
            raise ValueError(f"{where}: {f.name}: {' '.join(error.messages)}") from None
        except (TypeError, OverflowError):
            # A field's to_python() expects the JSON type it was exported as (a date string,
            # a number); anything else in a hand-made bundle is refused, not a crash.
            raise ValueError(f"{where}: {f.name}: wrong type {type(value).__name__}") from None
        values[f.attname if f.is_relation else f.name] = value
    return values


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


def _with_children(rulings: QuerySet[Ruling]) -> QuerySet[Ruling]:
    return (
        rulings.select_related("director")
        .prefetch_related(
            Prefetch("steps", queryset=Step.objects.order_by("answered_at", "pk")),
            Prefetch("reviews", queryset=Review.objects.select_related("reviewer")),
            Prefetch(
                "audit_events",
                queryset=AuditEvent.objects.order_by("sequence").select_related("actor"),
            ),
        )
        .order_by("pk")
    )


def serialise_ruling(ruling: Ruling) -> dict[str, Any]:
    """One ruling as bundle data (steps, reviews and audit from prefetched relations)."""
    data = _serialise(ruling, _fields(Ruling, RULING_SKIP))
    data["steps"] = [_serialise(s, _fields(Step, CHILD_SKIP)) for s in ruling.steps.all()]
    data["reviews"] = [_serialise(r, _fields(Review, CHILD_SKIP)) for r in ruling.reviews.all()]
    data["audit"] = [
        _serialise(e, _fields(AuditEvent, CHILD_SKIP)) for e in ruling.audit_events.all()
    ]
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
    for done, ruling in enumerate(_with_children(rulings).iterator(chunk_size=CHUNK), 1):
        if ruling.snapshot_id:
            digests.add(ruling.snapshot_id)
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


# --------------------------------------------------------------------------------------------
# Verification


def _event_row(event: dict[str, Any]) -> tuple[Any, ...]:
    """A bundle event as the row ``rulings.audit.chain_problems`` checks: the time parsed
    (None when it is missing or no time with a zone), absent values as the hash saw them."""
    try:
        at = parse_datetime(event["at"])
        if at is not None and timezone.is_naive(at):
            at = None
    except (KeyError, TypeError, AttributeError, ValueError):
        at = None
    return (
        event.get("sequence"),
        at,
        event.get("actor_name", ""),
        event.get("action", ""),
        event.get("data", {}),
        event.get("prev_hash", ""),
        event.get("hash", ""),
    )


@dataclass
class _Incoming:
    """One ruling of a bundle, parsed and verified."""

    uuid: uuid_lib.UUID
    fields: dict[str, Any]
    steps: list[dict[str, Any]]
    reviews: list[dict[str, Any]]
    audit: list[dict[str, Any]]
    raw: dict[str, Any]

    def usernames(self) -> set[str]:
        names = {self.fields["director"]}
        names |= {r["reviewer"] for r in self.reviews}
        names |= {e["actor"] for e in self.audit if e.get("actor")}
        return {n for n in names if n}


def _as_list(value: Any, where: str) -> list[dict[str, Any]]:
    if not isinstance(value, list) or not all(isinstance(item, dict) for item in value):
        raise ValueError(f"{where} must be a list of objects")
    return value


def _parse_ruling(raw: Any, index: int) -> _Incoming:
    if not isinstance(raw, dict):
        raise ValueError(f"ruling {index}: not an object")
    where = f"ruling {raw.get('uuid', index)}"
    children = {"steps", "reviews", "audit"}
    body = {key: value for key, value in raw.items() if key not in children}
    for key in ("uuid", "director", "created_at", "tree_slug"):
        if not body.get(key):
            raise ValueError(f"{where}: {key} is missing")
    fields = _parse(Ruling, _fields(Ruling, RULING_SKIP), body, where)
    steps = [
        _parse(Step, _fields(Step, CHILD_SKIP), step, f"{where}, step {n}")
        for n, step in enumerate(_as_list(raw.get("steps", []), f"{where}: steps"), 1)
    ]
    reviews = [
        _parse(Review, _fields(Review, CHILD_SKIP), review, f"{where}, review {n}")
        for n, review in enumerate(_as_list(raw.get("reviews", []), f"{where}: reviews"), 1)
    ]
    odd = shapes.ruling_problems(fields, where)
    for n, step in enumerate(steps, 1):
        odd += shapes.step_problems(step, f"{where}, step {n}")
    for n, review in enumerate(reviews, 1):
        odd += shapes.review_problems(review, f"{where}, review {n}")
    if odd:
        raise ValueError(_shape_message(odd))
    for n, review in enumerate(reviews, 1):
        if not review.get("reviewer"):
            raise ValueError(f"{where}, review {n}: reviewer is missing")
    events = _as_list(raw.get("audit", []), f"{where}: audit")
    if not events:
        raise ValueError(f"{where}: no audit events")
    head = (fields.get("audit_sequence", 0), fields.get("audit_head", ""))
    problems = audit.chain_problems(fields["uuid"], map(_event_row, events), head)
    if problems:
        raise ValueError(f"{where}: audit chain broken: " + "; ".join(problems))
    parsed_events = [
        _parse(AuditEvent, _fields(AuditEvent, CHILD_SKIP), event, f"{where}, event {n}")
        for n, event in enumerate(events, 1)
    ]
    odd = [
        problem
        for n, event in enumerate(parsed_events, 1)
        for problem in shapes.event_problems(event, f"{where}, event {n}")
    ]
    if odd:
        raise ValueError(_shape_message(odd))
    return _Incoming(fields["uuid"], fields, steps, reviews, parsed_events, raw)


def _shape_message(problems: list[str]) -> str:
    """The first few places where a bundle's content has an unexpected shape."""
    more = f" (and {len(problems) - 3} more)" if len(problems) > 3 else ""
    return "unexpected content: " + "; ".join(problems[:3]) + more


def _parse_snapshots(raw: Any) -> dict[str, dict[str, Any]]:
    snapshots: dict[str, dict[str, Any]] = {}
    for index, item in enumerate(_as_list(raw, "snapshots"), 1):
        data = item.get("data")
        if not isinstance(data, dict) or not isinstance(item.get("digest"), str):
            raise ValueError(f"snapshot {index}: digest and data are required")
        if snapshot.digest_of(data) != item["digest"]:
            raise ValueError(f"snapshot {item['digest'][:12]}: content does not match its digest")
        odd = shapes.snapshot_problems(data, f"snapshot {item['digest'][:12]}")
        if odd:
            raise ValueError(_shape_message(odd))
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
        data = json.loads(raw)
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        raise BundleError(f"Not a valid JSON file ({error}).", code="json") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise BundleError(
            f"Not a Leidraad rulings bundle (format must be {FORMAT!r}).", code="format"
        )
    if data.get("version") != VERSION:
        raise BundleError(
            f"Bundle version {data.get('version')!r} is not supported (this server reads "
            f"version {VERSION}).",
            code="version",
        )
    club = data.get("club") if isinstance(data.get("club"), dict) else {}
    problems: list[str] = []
    rulings: list[_Incoming] = []
    raw_rulings = data.get("rulings")
    if not isinstance(raw_rulings, list):
        raise BundleError("The bundle has no list of rulings.")
    for index, raw_ruling in enumerate(raw_rulings, 1):
        try:
            rulings.append(_parse_ruling(raw_ruling, index))
        except ValueError as error:
            problems.append(str(error))
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
        digest = ruling.fields.get("snapshot_id")
        if digest and digest not in snapshots:
            problems.append(f"ruling {ruling.uuid}: snapshot {digest[:12]} is not in the bundle")
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
    return {key: _plain(value) for key, value in values.items() if key not in skip}


def _compare(stored: Ruling, incoming: _Incoming, club: Club) -> str | None:
    """Why ``stored`` conflicts with the bundle's ruling, or None when the bundle brings
    nothing new. The director is not compared: the bundle's username may have been mapped to
    a placeholder here."""
    if stored.club_id != club.pk:
        return "the uuid is already used by a ruling outside this club"
    mine = _core(_serialise(stored, _fields(Ruling, RULING_SKIP)))
    mine["snapshot"] = stored.snapshot_id
    theirs = _core(incoming.fields)
    theirs["snapshot"] = incoming.fields.get("snapshot_id")
    differ = sorted(key for key in mine.keys() | theirs.keys() if mine.get(key) != theirs.get(key))
    if differ:
        return f"fields differ: {', '.join(differ)}"
    stored_steps = [_serialise(s, _fields(Step, CHILD_SKIP)) for s in stored.steps.all()]
    incoming_steps = [{k: _plain(v) for k, v in s.items()} for s in incoming.steps]
    if stored_steps != incoming_steps:
        return "the steps differ"
    stored_hashes = [e.hash for e in stored.audit_events.all()]
    incoming_hashes = [e["hash"] for e in incoming.audit]
    if stored_hashes[: len(incoming_hashes)] != incoming_hashes:
        if incoming_hashes[: len(stored_hashes)] == stored_hashes:
            return "the bundle has newer audit events than the server"
        return "the audit trails differ"
    return None


def _create(incoming: list[_Incoming], club: Club, users: _Users) -> None:
    ruling_fields = _fields(Ruling, RULING_SKIP)
    auto = [
        f.name
        for f in ruling_fields
        if getattr(f, "auto_now", False) or getattr(f, "auto_now_add", False)
    ]
    rulings = []
    for item in incoming:
        values = dict(item.fields)
        values["director"] = users[values["director"]]
        values["cited_articles"] = citations.encode(
            citations.articles_in(
                [s.get("citations", []) for s in item.steps if not s.get("superseded")],
                values.get("outcome", {}),
            )
        )
        rulings.append(Ruling(club=club, **values))
    created = Ruling.objects.bulk_create(rulings)
    # auto_now(_add) fields were stamped with the time of import: put the bundle's times back.
    for ruling, item in zip(created, incoming, strict=True):
        for name in auto:
            if name in item.fields:
                setattr(ruling, name, item.fields[name])
    if auto:
        Ruling.objects.bulk_update(created, auto)
    Step.objects.bulk_create(
        Step(ruling=ruling, **step)
        for ruling, item in zip(created, incoming, strict=True)
        for step in item.steps
    )
    Review.objects.bulk_create(
        Review(ruling=ruling, **{**review, "reviewer": users[review["reviewer"]]})
        for ruling, item in zip(created, incoming, strict=True)
        for review in item.reviews
    )
    AuditEvent.objects.bulk_create(
        AuditEvent(ruling=ruling, **{**event, "actor": users[event.get("actor")]})
        for ruling, item in zip(created, incoming, strict=True)
        for event in item.audit
    )


def import_bundle(bundle: Bundle, club: Club, progress: Progress | None = None) -> ImportResult:
    """Write the bundle's new rulings into ``club``, all or nothing (one transaction)."""
    try:
        return _import(bundle, club, progress)
    except DatabaseError as error:  # a constraint, or (PostgreSQL) a NUL or too long a text
        raise BundleError(
            f"The database refused the bundle; nothing was imported ({error})."
        ) from None


def _import(bundle: Bundle, club: Club, progress: Progress | None) -> ImportResult:
    result = ImportResult(club=club)
    total = len(bundle.rulings)
    with transaction.atomic():
        for digest, item in bundle.snapshots.items():
            if not TreeSnapshot.objects.filter(digest=digest).exists():
                TreeSnapshot.objects.create(
                    digest=digest,
                    slug=item.get("slug") or item["data"].get("slug", ""),
                    version=item.get("version") or item["data"].get("version", ""),
                    edition_code=item.get("edition_code") or item["data"].get("edition", ""),
                    data=item["data"],
                )
        users = _Users(club, result)
        for start in range(0, total, CHUNK):
            chunk = bundle.rulings[start : start + CHUNK]
            stored = {
                r.uuid: r
                for r in _with_children(Ruling.objects.filter(uuid__in=[i.uuid for i in chunk]))
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
            users.resolve(set().union(*(i.usernames() for i in new)) if new else set())
            _create(new, club, users)
            result.created += len(new)
            if progress:
                progress(min(start + CHUNK, total), total)
    return result


def target_club(bundle: Bundle, slug: str | None) -> Club:
    """The club to import into: ``slug`` when given, else the bundle's own club."""
    wanted = slug or bundle.club_slug
    club = Club.objects.filter(slug=wanted).first()
    if club is None:
        raise BundleError(
            f"Club {wanted!r} does not exist on this server; name one with --club SLUG."
        )
    return club
