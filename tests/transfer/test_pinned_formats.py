"""Pinned formats: the audit hash, the snapshot digest, the tree content hash and the version-1
transfer bundle, checked against literal values the code produced when they were pinned.

Every other test checks these values against themselves (hash, then verify with the same
function), so a change to the canonical JSON would pass them all while breaking every stored
audit chain, every stored snapshot and every bundle on a club laptop. These tests fail instead.

A failure here means the stored format changed. Do not update the literal: keep the old
format readable, and make a new format a new version (a new bundle version, a new hash or
digest scheme recorded with the data), with its own pinned values beside these. The fixed
inputs live in tests/support/pinned_world.py and tests/data/; they must not change either.
"""

from __future__ import annotations

import hashlib
import json
import uuid
from datetime import UTC, date, datetime
from io import StringIO

import pytest
from django.core.management import call_command
from django.utils import timezone, translation

from archive.models import Review
from clubs.models import Club, Membership, Role, User
from rulings import audit
from rulings.models import AuditEvent, Ruling, Step
from scores.models import AdjustedScore
from tests.support import pinned_world as world
from transfer.importing import BundleError, read_bundle
from trees import snapshot
from trees.models import TreeSnapshot
from trees.parse import load_tree_file
from trees.spec import Snapshot, content_hash

# --- Audit hash ------------------------------------------------------------------------------

RULING = uuid.UUID("00000000-0000-4000-8000-0000000000aa")
UTC_PLUS_1 = timezone.get_fixed_timezone(60)
# (at, actor, action, data): a time off UTC with microseconds, one in UTC without, the system
# actor (None), non-ASCII text, keys out of order, nesting, booleans, null, an empty object,
# and a date and a tuple, which are hashed as the JSON text and list they are stored as.
EVENTS = [
    (
        datetime(2025, 3, 1, 19, 30, 5, 123456, tzinfo=UTC_PLUS_1),
        "anna",
        "started",
        {"tree": "proef", "mode": "live"},
    ),
    (
        datetime(2025, 3, 1, 18, 30, 25, tzinfo=UTC),
        "anna",
        "answered",
        {"step": 1, "node": "onbedoeld", "choice": "ja"},
    ),
    (
        datetime(2025, 3, 2, 9, 0, 0, 1, tzinfo=UTC_PLUS_1),
        "rik",
        "reviewed",
        {
            "verdict": "amended",
            "comment": '♠ é – ‘Zuid’ zei: "pas"\n2e regel',
            "corrected_citations": ["25A", "64A2(a)"],
            "nested": {"z": True, "a": None, "m": False},
            "empty": {},
            "count": 0,
            "big": 10**16,
        },
    ),
    (
        datetime(2025, 3, 2, 23, 59, 59, 999999, tzinfo=UTC),
        None,
        "saved",
        {"played_on": date(2025, 3, 1), "seats": ("N", "E"), "ü": "é"},
    ),
]
HASHES = [
    "86bec2a9a49a7f19935fddc05378b2966b3fefa78b243282506b97fa92e75b23",
    "1b598413f029973903f673ddd66ca9abffc0b2e2f9a8ecee341562cfb8fa945c",
    "0b9927dd02dc11ac6c7507bdcf8124f8c593d5444beeccc18ac28d35fe6a0414",
    "ae29d0265150476c5e3b9b0abca24cb9da872cf7bbc2e2e1525fea99b149b0a3",
]
# What the first hash covers, written out: the format in one line (keys sorted, no spaces,
# UTF-8 without escapes, the time in UTC with microseconds).
FIRST_CANONICAL = (
    '{"action":"started","actor":"anna","at":"2025-03-01T18:30:05.123456+00:00",'
    '"data":{"mode":"live","tree":"proef"},"prev_hash":"' + "0" * 64 + '",'
    '"ruling":"00000000-0000-4000-8000-0000000000aa","sequence":1}'
)


def test_audit_hashes_of_a_fixed_chain():
    """The audit hash of a hand-built chain, through ``audit.chain`` as the wizard writes
    events and through ``compute_hash`` as verification recomputes them.

    If this fails, every stored audit chain (and every chain in a bundle) no longer
    verifies: a format change needs a new hash version, not a new literal."""
    ruling = Ruling(uuid=RULING, audit_sequence=0, audit_head="")
    users = {"anna": User(username="anna"), "rik": User(username="rik"), None: None}
    chained = []
    for at, actor, action, data in EVENTS:
        chained += audit.chain(ruling, [(action, data)], users[actor], at)
    assert [event.hash for event in chained] == HASHES
    assert (ruling.audit_sequence, ruling.audit_head) == (4, HASHES[-1])

    prev = audit.GENESIS
    for sequence, ((at, actor, action, data), expected) in enumerate(
        zip(EVENTS, HASHES, strict=True), 1
    ):
        name = actor or audit.SYSTEM
        assert audit.compute_hash(RULING, sequence, at, name, action, audit.plain(data), prev) == (
            expected
        )
        prev = expected
    rows = [
        (e.sequence, e.at, e.actor_name, e.action, e.data, e.prev_hash, e.hash) for e in chained
    ]
    assert audit.chain_problems(RULING, rows, (4, HASHES[-1])) == []
    assert hashlib.sha256(FIRST_CANONICAL.encode("utf-8")).hexdigest() == HASHES[0]


# --- Tree content hash and snapshot digest ---------------------------------------------------

TREE_HASH = "73e0ae7bf6f2529156c957259aae4f099cdca8279d0d0015905536f42c51a423"
SNAPSHOT_DIGEST = "d8c708ee00b87cee776a128750fa64c888915f8042fa23bffb858c4dbd02fa05"


def test_tree_content_hash_of_the_fixture():
    """``content_hash`` of tests/data/trees/ijkboom.yaml.

    It is the tree's version in every ruling and snapshot: if this fails, every stored
    tree version and every snapshot digest changes. A format change needs a new hash
    version, not a new literal."""
    assert content_hash(load_tree_file(world.TREE_FILE)) == TREE_HASH


def test_snapshot_digest_of_the_fixture_with_fixed_law_text(db):
    """The digest of the fixture tree frozen with the fixed law text of edition ``ijk``.

    Rulings, bundles and the snapshot table key snapshots by this digest: if this fails,
    every stored snapshot and every bundle's snapshots break. A format change needs a new
    snapshot version, not a new literal."""
    tree = world.load_tree()
    assert tree.version == TREE_HASH

    frozen = snapshot.freeze(tree)

    assert frozen.digest == SNAPSHOT_DIGEST
    data = frozen.to_json()
    assert snapshot.digest_of(data) == SNAPSHOT_DIGEST
    stored = TreeSnapshot.objects.get(digest=SNAPSHOT_DIGEST).data
    assert stored == data
    # Read back, the stored JSON is the same snapshot, and writes the same JSON again.
    assert Snapshot.from_json(stored, SNAPSHOT_DIGEST) == frozen
    assert snapshot.digest_of(Snapshot.from_json(stored).to_json()) == SNAPSHOT_DIGEST
    # The fixture shows every kind of law text a snapshot can hold.
    assert {law.kind for law in frozen.law.values()} == {"official", "summary", "title"}


# --- Version-1 transfer bundle ----------------------------------------------------------------

FIRST_HEAD = "6044fa3d9dc03632b30cdc7d7a8045a3e6e54aa1aab8ef2fd8e4e7ae35e66167"


def _import(path) -> str:
    out = StringIO()
    call_command("import_rulings", str(path), stdout=out, stderr=StringIO())
    return out.getvalue()


def _counts() -> dict[str, int]:
    return {
        model.__name__: model.objects.count()
        for model in (Ruling, Step, Review, AuditEvent, TreeSnapshot, User)
    }


def test_the_checked_in_v1_bundle_imports_with_its_chains_intact(db):
    """tests/data/transfer-bundle-v1.json, written by the export of ``pinned_world``, imports
    into a fresh server, its chains verify, and a second import adds nothing.

    Bundles of version 1 wait on club laptops: if this fails, they no longer import. A
    format change needs a new bundle version (and this file kept importing), not a new
    file."""
    data = json.loads(world.BUNDLE_V1.read_text(encoding="utf-8"))
    assert (data["format"], data["version"]) == ("leidraad-rulings", 1)
    club = Club.objects.create(slug=world.CLUB_SLUG, name=world.CLUB_NAME)
    anna = User.objects.create_user(username="anna")
    Membership.objects.create(user=anna, club=club, role=Role.DIRECTOR)

    summary = _import(world.BUNDLE_V1)

    assert summary.strip() == (
        "ijkclub: 2 ruling(s) in the bundle: 2 new, 0 already present, 0 conflict(s); "
        "placeholder user(s) created: rik@ijkclub."
    )
    counts = _counts()
    # 15 events as sent, and the server's "imported" event at the end of each of the 2 chains.
    assert counts == {
        "Ruling": 2,
        "Step": 5,
        "Review": 1,
        "AuditEvent": 17,
        "TreeSnapshot": 1,
        "User": 2,
    }
    out = StringIO()
    call_command("verify_audit", stdout=out, stderr=StringIO())
    assert "Audit log intact: 2 rulings, 17 events checked" in out.getvalue()

    first = Ruling.objects.get(uuid=world.FIRST)
    assert audit.verify(first) == []
    assert (first.club, first.director) == (club, anna)
    # The chain as sent ends in FIRST_HEAD; the import event is chained after it.
    assert first.audit_sequence == 9
    assert first.audit_events.get(sequence=8).hash == FIRST_HEAD
    assert first.audit_events.get(sequence=9).prev_hash == FIRST_HEAD
    assert first.snapshot_id == SNAPSHOT_DIGEST
    assert first.tree_version == TREE_HASH
    assert first.created_at == datetime(2025, 3, 1, 18, 30, 5, 123456, tzinfo=UTC)
    assert first.outcome_key == "blijft-staan"
    assert first.path == [["onbedoeld", "nee"]]
    assert first.notes == "Zuid: ‘ik heb de ♠A’ – ë"
    # Worked out again on import: the legal basis (the outcome's citations), not the bundle's.
    assert first.cited_articles == "|27|40|"
    assert list(first.legal_basis.values_list("key", flat=True)) == ["27", "40"]
    assert list(
        first.steps.order_by("answered_at", "pk").values_list("choice_key", "superseded")
    ) == [
        ("ja", True),
        ("ja", True),
        ("nee", False),
    ]
    assert list(first.audit_events.values_list("action", flat=True)) == [
        "started",
        "answered",
        "answered",
        "outcome_reached",
        "answer_changed",
        "outcome_reached",
        "context_edited",
        "saved",
        "imported",
    ]

    second = Ruling.objects.get(uuid=world.SECOND)
    assert audit.verify(second) == []
    assert second.review_verdict == "amended"
    assert second.board == 12
    review = second.reviews.get()
    assert (review.uuid, review.reviewer.username) == (world.REVIEW, "rik@ijkclub")
    assert review.comment == "Te streng – ♠ é."
    assert list(second.audit_events.values_list("actor_name", flat=True)).count("rik") == 1
    assert TreeSnapshot.objects.get().digest == SNAPSHOT_DIGEST

    again = _import(world.BUNDLE_V1)

    assert "2 ruling(s) in the bundle: 0 new, 2 already present, 0 conflict(s)." in again
    assert _counts() == counts


def test_the_export_still_writes_the_checked_in_bundle(db, tmp_path):
    """The export of ``pinned_world`` (with its adjusted score and its auction) today is the
    checked-in version-3 bundle (compared as JSON: PostgreSQL keeps object keys in its own
    order).

    If this fails, the export writes a different bundle: servers that read version 3
    (and laptops still sending it) no longer match. Do not overwrite
    transfer-bundle-v3.json: raise ``transfer.VERSION``, check the new export in as a new
    file (written to the path in the message) and keep versions 1, 2 and 3 importing."""
    written = world.export_world()
    fresh = tmp_path / "transfer-bundle-now.json"
    fresh.write_text(written, encoding="utf-8")
    checked_in = json.loads(world.BUNDLE_V3.read_text(encoding="utf-8"))
    exported = json.loads(written)
    # ``cited_articles`` is derived: every importer (version 1 on) works it out again from the
    # outcome and ignores the bundle's value. Since the legal-basis change (issue 27) it holds
    # only the articles of the legal basis, not those of the question cards on the way.
    assert [r.pop("cited_articles") for r in exported["rulings"]] == ["|27|40|", "|27|40|"]
    assert [r.pop("cited_articles") for r in checked_in["rulings"]] == ["|27|40|"] * 2
    assert exported == checked_in, f"the export today is in {fresh}"


def test_the_checked_in_v2_bundle_imports_with_its_adjusted_score(db):
    """tests/data/transfer-bundle-v2.json imports with the second ruling's adjusted score and
    its ``score_adjusted`` event; the chains verify, and a second import adds nothing."""
    data = json.loads(world.BUNDLE_V2.read_text(encoding="utf-8"))
    assert (data["format"], data["version"]) == ("leidraad-rulings", 2)
    club = Club.objects.create(slug=world.CLUB_SLUG, name=world.CLUB_NAME)
    anna = User.objects.create_user(username="anna")
    Membership.objects.create(user=anna, club=club, role=Role.DIRECTOR)

    summary = _import(world.BUNDLE_V2)

    assert "2 ruling(s) in the bundle: 2 new, 0 already present, 0 conflict(s)" in summary
    second = Ruling.objects.get(uuid=world.SECOND)
    assert audit.verify(second) == []
    assert list(second.audit_events.values_list("action", flat=True))[-3:] == [
        "reviewed",
        "score_adjusted",
        "imported",
    ]
    score = AdjustedScore.objects.get(ruling=second)
    assert score.recorded_by.username == "rik@ijkclub"
    assert score.non_offending_rows == [
        {"contract": "4S=", "declarer": "N", "weight": "66.67"},
        {"contract": "4SX-1", "declarer": "N", "weight": "33.33"},
    ]
    assert score.offending_rows == [{"contract": "4S=", "declarer": "N", "weight": 100}]
    assert score.field == [620, 650, -100]
    assert not AdjustedScore.objects.filter(ruling__uuid=world.FIRST).exists()

    again = _import(world.BUNDLE_V2)

    assert "0 new, 2 already present, 0 conflict(s)" in again
    assert AdjustedScore.objects.count() == 1


def test_the_checked_in_v3_bundle_imports_with_its_auction(db):
    """tests/data/transfer-bundle-v3.json imports with the first ruling's auction and its
    ``auction_edited`` event; the chains verify, and a second import adds nothing. A version-2
    ruling has no auction (``test_the_checked_in_v2_bundle_imports_with_its_adjusted_score``
    imports it again without conflicts)."""
    data = json.loads(world.BUNDLE_V3.read_text(encoding="utf-8"))
    assert (data["format"], data["version"]) == ("leidraad-rulings", 3)
    club = Club.objects.create(slug=world.CLUB_SLUG, name=world.CLUB_NAME)
    anna = User.objects.create_user(username="anna")
    Membership.objects.create(user=anna, club=club, role=Role.DIRECTOR)

    summary = _import(world.BUNDLE_V3)

    assert "2 ruling(s) in the bundle: 2 new, 0 already present, 0 conflict(s)" in summary
    first = Ruling.objects.get(uuid=world.FIRST)
    assert first.auction == world.AUCTION
    assert audit.verify(first) == []
    assert list(first.audit_events.values_list("action", flat=True))[-2:] == [
        "auction_edited",
        "imported",
    ]
    assert Ruling.objects.get(uuid=world.SECOND).auction == ""
    assert "0 new, 2 already present, 0 conflict(s)" in _import(world.BUNDLE_V3)


def test_an_illegal_auction_in_a_bundle_is_refused_naming_the_call(db):
    """The model field's validator reads the auction on import: a bundle whose auction is not
    legal, not written canonically or without its dealer is refused as a whole."""
    data = json.loads(world.BUNDLE_V3.read_text(encoding="utf-8"))
    for wrong, words in (
        ("N: 1H P X", "auction: Bieding 3 (Zuid): Doublet kan niet"),
        ("N: 1h p p p", "auction: De bieding is niet in de vaste schrijfwijze"),
        ("1H P P P", "auction: Een opgeslagen bieding begint met de gever"),
    ):
        data["rulings"][0]["auction"] = wrong
        # The validator words its message in the active language (Dutch here, whatever an
        # earlier test of this process left active).
        with translation.override("nl"), pytest.raises(BundleError) as refused:
            read_bundle(json.dumps(data, ensure_ascii=False))
        assert any(words in problem for problem in refused.value.problems), refused.value.problems
