"""A small, fully deterministic world for the pinned-format tests (test_pinned_formats.py).

Everything that reaches a hash, a digest or a transfer bundle is fixed here: the law text of
the edition ``ijk``, the tree file tests/data/trees/ijkboom.yaml, the uuids, the clock and the
users. :func:`export_world` builds the world with the project's own code (law text rows,
``load_trees``, the wizard, ``record_review``) and returns the bundle ``iter_bundle`` writes
for it: run today, that is tests/data/transfer-bundle-v3.json (tests/data/transfer-bundle-v1.json
was the export of :func:`build_world` alone, before bundles carried the adjusted score;
tests/data/transfer-bundle-v2.json added the adjusted score, before they carried the auction).

Changing anything in this module changes the pinned values: don't, add a new world instead.
"""

from __future__ import annotations

import io
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, date, datetime, timedelta
from fractions import Fraction
from pathlib import Path
from unittest import mock

from django.utils import timezone

from archive.models import Review
from archive.reviews import record_review
from clubs.models import Club, Membership, Role, User
from laws.models import Article, ArticleSummary, Edition, Provision
from rulings import transitions, wizard
from rulings.auction_edit import plan_auction
from rulings.models import Ruling, Verdict
from scores import adjusted, recording
from transfer import bundles as transfer
from trees.loading import load_trees
from trees.models import Tree

DATA = Path(__file__).resolve().parent.parent / "data"
TREES = DATA / "trees"
TREE_FILE = TREES / "ijkboom.yaml"
BUNDLE_V1 = DATA / "transfer-bundle-v1.json"
BUNDLE_V2 = DATA / "transfer-bundle-v2.json"  # adds the adjusted score
BUNDLE_V3 = DATA / "transfer-bundle-v3.json"  # adds the auction

CLUB_SLUG, CLUB_NAME = "ijkclub", "BC De IJkclub ♣"
FIRST = uuid.UUID("00000000-0000-4000-8000-000000000001")
SECOND = uuid.UUID("00000000-0000-4000-8000-000000000002")
REVIEW = uuid.UUID("00000000-0000-4000-8000-000000000003")
# Local time at the club (UTC+1), with microseconds: the bundle and the hash hold it as UTC.
START = datetime(2025, 3, 1, 19, 30, 5, 123456, tzinfo=timezone.get_fixed_timezone(60))
EXPORTED = datetime(2025, 3, 3, 9, 0, tzinfo=UTC)


def make_edition() -> Edition:
    """Edition ``ijk``: an article with introduction, nested provisions and closing text (25),
    one with only our summary (27) and one with only a title (40)."""
    edition = Edition.objects.create(code="ijk", language="nl", title="IJkeditie")
    article25 = Article.objects.create(
        edition=edition,
        number="25",
        title="Veranderingen van een bieding",
        order=1,
        text="Inleiding bij artikel 25 – ♠ é.",
        closing_text="Slottekst van artikel 25.",
    )
    section = Provision.objects.create(
        article=article25,
        label="A.",
        key="25A",
        heading="Onbedoelde bieding",
        text="Een onbedoelde bieding mag worden vervangen.",
        order=1,
    )
    Provision.objects.create(
        article=article25,
        parent=section,
        label="1.",
        key="25A1",
        text="Zolang partner nog niet heeft geboden – ♠ é.",
        order=2,
    )
    Provision.objects.create(
        article=article25,
        label="B.",
        key="25B",
        heading="Bedoelde verandering",
        text="Een bedoelde verandering wordt anders behandeld.",
        closing_text="Slot van 25B.",
        order=3,
    )
    article27 = Article.objects.create(edition=edition, number="27", title="Onvoldoende bod")
    ArticleSummary.objects.create(
        article=article27,
        text_nl="Eigen samenvatting: een onvoldoende bod – ♠ é.",
        text_en="Our summary: an insufficient bid – ♠ é.",
    )
    Article.objects.create(edition=edition, number="40", title="Afspraken", order=3)
    return edition


def load_tree() -> Tree:
    """The edition and the fixed tree, loaded the way ``load_trees`` loads shipped trees."""
    make_edition()
    load_trees(TREES, stdout=io.StringIO())
    return Tree.objects.select_related("edition").get(slug="ijkboom")


class Clock:
    """``timezone.now()`` while the world is built: a time that only moves when told."""

    def __init__(self, at: datetime) -> None:
        self.at = at

    def __call__(self) -> datetime:
        return self.at

    def tick(self, seconds: int) -> datetime:
        self.at += timedelta(seconds=seconds)
        return self.at


@contextmanager
def fixed(clock: Clock) -> Iterator[None]:
    """The clock for every ``timezone.now()`` (auto_now fields, reviews, the export header) and
    a fixed uuid for the one review."""
    review_uuid = Review._meta.get_field("uuid")
    with (
        mock.patch("django.utils.timezone.now", clock),
        mock.patch.object(review_uuid, "_get_default", return_value=REVIEW),
    ):
        yield


def _member(username: str, club: Club, role: str) -> User:
    user = User.objects.create_user(username=username, first_name=username.title())
    Membership.objects.create(user=user, club=club, role=role)
    return user


def build_world() -> Club:
    """One club, two final rulings on ``ijkboom``: the first with a changed answer, the second
    reviewed."""
    clock = Clock(START)
    with fixed(clock):
        load_tree()
        club = Club.objects.create(slug=CLUB_SLUG, name=CLUB_NAME)
        anna = _member("anna", club, Role.DIRECTOR)
        rik = _member("rik", club, Role.REVIEWER)
        tree = wizard.start("ijkboom")
        context = {
            "played_on": date(2025, 3, 1),
            "event": "Dinsdagavond – ♠ é",
            "table": 3,
            "board": 7,
            "notes": "Zuid: ‘ik heb de ♠A’ – ë",
        }

        first = wizard.begin(
            uuid=FIRST,
            club=club,
            director=anna,
            tree=tree,
            node_key=tree.start,
            choice_key="ja",
            at=clock.at,
        ).ruling
        wizard.answer(first, "voor-partner", 2, "ja", anna, at=clock.tick(20))
        wizard.answer(first, "onbedoeld", 1, "nee", anna, at=clock.tick(20))  # changed answer
        wizard.save(first, anna, context, at=clock.tick(30))

        clock.at = START + timedelta(days=1)
        second = wizard.begin(
            uuid=SECOND,
            club=club,
            director=anna,
            tree=tree,
            node_key=tree.start,
            choice_key="ja",
            at=clock.at,
        ).ruling
        wizard.answer(second, "voor-partner", 2, "nee", anna, at=clock.tick(20))
        wizard.save(second, anna, {**context, "board": 12}, at=clock.tick(30))
        clock.tick(3600)
        record_review(second, rik, Verdict.AMENDED, "Te streng – ♠ é.", "Geen straf.", ["25A"])
    return club


def add_adjusted_score(club: Club) -> None:
    """The version-2 world: the second ruling also gets a weighted adjusted score (each side
    its own weighting, a fractional weight), recorded ten minutes after :func:`build_world`'s
    review."""
    second = Ruling.objects.get(uuid=SECOND)
    rik = User.objects.get(username="rik")
    clock = Clock(second.audit_events.order_by("-sequence").first().at)
    with fixed(clock):
        clock.tick(600)
        recording.record(
            second,
            rik,
            {
                "kind": "weighted",
                "scoring": "mp",
                "offending_side": "EW",
                "non_rows": [
                    adjusted.Row("4S=", "N", Fraction("66.67")),
                    adjusted.Row("4SX-1", "N", Fraction("33.33")),
                ],
                "off_rows": [adjusted.Row("4S=", "N", Fraction(100))],
                "field": [620, 650, -100],
                "sequence": second.audit_sequence,
            },
        )


AUCTION = 'N: 1NT! "12-14" [15-17] P 2C? X P P XX P P P'


def add_auction(club: Club) -> None:
    """The version-3 world: the first ruling gets an auction (an alert with an explanation
    that differs from the agreement, a tempo remark, a double and a redouble) five minutes
    after its save, through the record page's planner."""
    first = Ruling.objects.get(uuid=FIRST)
    anna = User.objects.get(username="anna")
    clock = Clock(first.audit_events.order_by("-sequence").first().at)
    with fixed(clock):
        clock.tick(300)
        transitions.run(first, anna, None, plan_auction(AUCTION, first.audit_sequence))


def export_world() -> str:
    """The bundle of :func:`build_world` with :func:`add_adjusted_score` and
    :func:`add_auction`, as ``iter_bundle`` writes it (version 3), exported at a fixed time."""
    club = build_world()
    add_adjusted_score(club)
    add_auction(club)
    with fixed(Clock(EXPORTED)):
        return "".join(transfer.iter_bundle(club))
