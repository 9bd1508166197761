"""The audit log of a ruling: append-only events chained by SHA-256.

Every event's ``hash`` covers a canonical JSON of the event (ruling uuid, sequence, time, actor
name, action, data) together with ``prev_hash``, the hash of the event before it (64 zeros for
the first). Changing, inserting or deleting an event therefore breaks the chain from that point.
The ruling keeps the head of its chain (``audit_sequence``, ``audit_head``), written in the same
statement as the state change the event records, so a deleted tail is noticed as well.

:func:`chain` builds the events of a transition; ``rulings.transitions.run`` writes them
together with the ruling's update, for the wizard, reviews, appeals and adjusted scores alike.
:func:`verify` checks one ruling; :func:`verify_all` streams through every event in the
database in ruling order, a chunk at a time, so it runs in constant memory. Both, and the
import of a transfer bundle, find breaks with the one check :func:`chain_problems`.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from django.core.serializers.json import DjangoJSONEncoder
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from clubs.models import User
from rulings.models import AuditEvent, Ruling

GENESIS = "0" * 64
SYSTEM = "system"
CHUNK = 2000


class Action:
    """The actions recorded in a ruling's chain: the wizard's, then the archive's review and
    appeal (``archive.models.ReviewAction``) and the adjusted score (``scores.recording``),
    so one table labels them all."""

    STARTED = "started"
    ANSWERED = "answered"
    ANSWER_CHANGED = "answer_changed"
    OUTCOME_REACHED = "outcome_reached"
    CONTEXT_EDITED = "context_edited"
    DEFERRED = "deferred"
    RESUMED = "resumed"
    DISCARDED = "discarded"
    SAVED = "saved"
    # A free ruling (rulings/free.py): the laws, decision and announcement as written.
    FREE_WRITTEN = "free_written"
    REVIEWED = "reviewed"
    APPEAL_OPENED = "appeal_opened"
    APPEAL_SETTLED = "appeal_settled"
    SCORE_ADJUSTED = "score_adjusted"
    # The result of the board at the table and after the rectification (scores.result_views).
    RESULT_RECORDED = "result_recorded"
    # The auction changed on the record page (rulings.auction_edit), also after the save.
    AUCTION_EDITED = "auction_edited"
    # A transfer bundle brought the ruling to this server (transfer.provenance), and an
    # administrator took that import back (transfer.undo).
    IMPORTED = "imported"
    IMPORT_UNDONE = "import_undone"
    # An outcome that hands over to another tree: the ruling goes on there (rulings/hand_over.py).
    HANDED_OVER = "handed_over"
    # A psyche or deviation recorded against a pair with the final save (rulings.pairs).
    PAIR_RECORDED = "pair_recorded"
    # A player poll (rulings/polling.py): prepared or changed, and each answer recorded.
    POLL_PREPARED = "poll_prepared"
    POLL_ANSWERED = "poll_answered"
    POLL_ANSWER_WITHDRAWN = "poll_answer_withdrawn"


ACTION_LABELS = {
    Action.STARTED: _("gestart"),
    Action.ANSWERED: _("beantwoord"),
    Action.ANSWER_CHANGED: _("antwoord gewijzigd"),
    Action.OUTCOME_REACHED: _("uitkomst bereikt"),
    Action.CONTEXT_EDITED: _("gegevens gewijzigd"),
    Action.DEFERRED: _("uitgesteld"),
    Action.RESUMED: _("hervat"),
    Action.DISCARDED: _("verworpen"),
    Action.SAVED: _("definitief opgeslagen"),
    Action.FREE_WRITTEN: _("vrije arbitrage vastgelegd"),
    Action.REVIEWED: _("beoordeeld"),
    Action.APPEAL_OPENED: _("in beroep"),
    Action.APPEAL_SETTLED: _("beroep afgehandeld"),
    Action.SCORE_ADJUSTED: _("arbitrale score"),
    Action.RESULT_RECORDED: _("uitslag van het spel"),
    Action.AUCTION_EDITED: _("bieding gewijzigd"),
    Action.IMPORTED: _("geïmporteerd"),
    Action.IMPORT_UNDONE: _("import teruggedraaid"),
    Action.HANDED_OVER: _("verder in een andere beslisboom"),
    Action.PAIR_RECORDED: _("in het psycheregister"),
    Action.POLL_PREPARED: _("peiling voorbereid"),
    Action.POLL_ANSWERED: _("antwoord op de peiling"),
    Action.POLL_ANSWER_WITHDRAWN: _("antwoord op de peiling ingetrokken"),
}


def plain(data: Any) -> Any:
    """``data`` as it comes back from a JSON column: dates become ISO strings, tuples lists.
    Hashing this form means the hash recomputed from the database always matches."""
    return json.loads(json.dumps(data, cls=DjangoJSONEncoder))


def iso(at: datetime) -> str:
    """A time as UTC ISO 8601 with microseconds, whatever the time zone it was given in."""
    return at.astimezone(UTC).isoformat(timespec="microseconds")


def compute_hash(
    ruling_uuid: Any,
    sequence: int,
    at: datetime,
    actor_name: str,
    action: str,
    data: Any,
    prev_hash: str,
) -> str:
    payload = {
        "ruling": str(ruling_uuid),
        "sequence": sequence,
        "at": iso(at),
        "actor": actor_name,
        "action": action,
        "data": data,
        "prev_hash": prev_hash,
    }
    canonical = json.dumps(payload, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


def actor_name(actor: User | None) -> str:
    return actor.get_username() if actor is not None else SYSTEM


def chain(
    ruling: Ruling,
    entries: Sequence[tuple[str, dict[str, Any]]],
    actor: User | None,
    at: datetime | None = None,
) -> list[AuditEvent]:
    """Unsaved events for ``entries`` ((action, data) pairs), chained after the ruling's head.

    Moves the head on ``ruling`` (in memory); the caller writes the ruling's head and the
    events in one transaction, and must make sure the head it started from was current.
    """
    at = at or timezone.now()
    name = actor_name(actor)
    events = []
    for action, data in entries:
        data = plain(data)
        sequence = ruling.audit_sequence + 1
        prev_hash = ruling.audit_head or GENESIS
        digest = compute_hash(ruling.uuid, sequence, at, name, action, data, prev_hash)
        events.append(
            AuditEvent(
                ruling=ruling,
                sequence=sequence,
                at=at,
                actor=actor,
                actor_name=name,
                action=action,
                data=data,
                prev_hash=prev_hash,
                hash=digest,
            )
        )
        ruling.audit_sequence, ruling.audit_head = sequence, digest
    return events


# --------------------------------------------------------------------------------------------
# Verification


_EVENT_FIELDS = ("sequence", "at", "actor_name", "action", "data", "prev_hash", "hash")


def chain_problems(
    ruling_uuid: Any, events: Iterable[Sequence[Any]], head: tuple[Any, Any]
) -> list[str]:
    """Every break in one ruling's chain: the one check for the database and for bundles.

    ``events`` are rows of ``_EVENT_FIELDS`` (sequence, at, actor_name, action, data,
    prev_hash, hash) in the order stored; ``head`` is (sequence, hash) as the ruling records
    it. Sequences must run 1, 2, …, each ``prev_hash`` must be the hash before it, each
    ``hash`` must be the hash of its event, and the last event must be the recorded head.
    Rows from a bundle may be malformed: an ``at`` of None (a time that could not be read)
    or content that cannot be hashed is reported as an incomplete event, a sequence that is
    not a number as out of order.
    """
    problems: list[str] = []
    expected_sequence = 1
    prev_hash = GENESIS
    last_sequence, last_hash = 0, ""
    for sequence, at, name, action, data, stored_prev, stored_hash in events:
        where = f"event {sequence}"
        numeric = isinstance(sequence, int)
        if sequence != expected_sequence:
            missing = (
                f"events {expected_sequence}–{sequence - 1} missing"
                if numeric and sequence > expected_sequence
                else f"sequence {sequence!r} out of order (expected {expected_sequence})"
            )
            problems.append(f"{where}: {missing}")
        if stored_prev != prev_hash:
            problems.append(f"{where}: prev_hash does not match the hash of the event before it")
        try:
            if at is None:
                raise ValueError("no time")
            recomputed = compute_hash(ruling_uuid, sequence, at, name, action, data, stored_prev)
        except (TypeError, ValueError, OverflowError):
            problems.append(f"{where}: incomplete event")
        else:
            if recomputed != stored_hash:
                problems.append(f"{where} ({action}): content changed (hash does not match)")
        expected_sequence = sequence + 1 if numeric else expected_sequence + 1
        prev_hash = stored_hash
        last_sequence, last_hash = sequence, stored_hash
    head_sequence, head_hash = head
    if (last_sequence, last_hash) != (head_sequence, head_hash or ""):
        problems.append(
            f"head: the ruling records {head_sequence} event(s) ending in "
            f"{str(head_hash or '-')[:12]}, the log ends at event {last_sequence} "
            f"({str(last_hash or '-')[:12]})"
        )
    return problems


def verify(ruling: Ruling) -> list[str]:
    """The breaks in the ruling's chain (empty: intact). Reads the head from the database."""
    row = Ruling.objects.filter(pk=ruling.pk).values_list("uuid", "audit_sequence", "audit_head")
    uuid, sequence, head_hash = row.get()
    events = ruling.audit_events.order_by("sequence").values_list(*_EVENT_FIELDS)
    return chain_problems(uuid, events.iterator(CHUNK), (sequence, head_hash))


@dataclass(frozen=True)
class RulingCheck:
    """The result for one ruling of :func:`verify_all`."""

    pk: int
    uuid: Any
    events: int
    problems: list[str]


def verify_all(rulings: Iterable[int] | None = None) -> Iterator[RulingCheck]:
    """Check every chain (or those of the ruling pks given), one ruling at a time.

    Two streams ordered by ruling id, rulings and events, are merged: memory stays constant
    whatever the number of events, and each event is read exactly once.
    """
    heads = Ruling.objects.order_by("pk").values_list("pk", "uuid", "audit_sequence", "audit_head")
    events = AuditEvent.objects.order_by("ruling_id", "sequence").values_list(
        "ruling_id", *_EVENT_FIELDS
    )
    if rulings is not None:
        pks = list(rulings)
        heads, events = heads.filter(pk__in=pks), events.filter(ruling_id__in=pks)
    event_rows = events.iterator(CHUNK)
    pending = next(event_rows, None)
    for pk, uuid, sequence, head_hash in heads.iterator(CHUNK):
        own: list[tuple[Any, ...]] = []
        # Events of rulings that no longer exist cannot occur (the foreign key protects them),
        # but a lower id than the current ruling would mean the streams disagree: skip them.
        while pending is not None and pending[0] < pk:
            pending = next(event_rows, None)
        while pending is not None and pending[0] == pk:
            own.append(pending[1:])
            pending = next(event_rows, None)
        yield RulingCheck(pk, uuid, len(own), chain_problems(uuid, own, (sequence, head_hash)))
