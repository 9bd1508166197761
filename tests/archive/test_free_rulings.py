"""A free ruling (no tree, no snapshot, no steps) is an ordinary ruling to the archive: the
list, its text search, the article filter, statistics, the CSV, reviews and transfer bundles."""

from __future__ import annotations

import csv
import io
import uuid
from datetime import date

import pytest
from django.db import connection
from django.urls import reverse

from archive.models import Review
from rulings import audit, free
from rulings.models import AuditEvent, Ruling, Step, Verdict
from tests.support import recorded
from tests.support.reviews import confirm
from tests.support.rulings import make_ruling
from tests.support.transfer import import_text, without_import
from transfer import bundles as transfer

CLAIM = free.Content(
    laws=("68", "70"),
    decision="Betwiste claim: de verdediging krijgt de laatste slag.",
    announcement="Oost-West krijgen de laatste slag.",
)


@pytest.fixture
def ruling(db, club_a, director_a) -> Ruling:
    recorded.shipped_laws()
    edition = free.current_edition()
    assert edition is not None
    return free.create(
        uuid=uuid.uuid4(),
        club=club_a,
        director=director_a,
        edition=edition,
        content=CLAIM,
        context={"played_on": date(2026, 3, 3), "board": 11, "event": "Dinsdagavond"},
        final=True,
    )


def test_it_is_listed_and_found_by_its_words_and_laws(ruling, client_reviewer_a):
    url = reverse("archive:list")
    detail = reverse("archive:detail", args=[ruling.uuid])
    assert detail in client_reviewer_a.get(url).content.decode()
    assert detail in client_reviewer_a.get(url, {"q": "verdediging"}).content.decode()
    assert detail not in client_reviewer_a.get(url, {"q": "verzaking"}).content.decode()
    assert detail in client_reviewer_a.get(url, {"article": "70"}).content.decode()
    assert detail not in client_reviewer_a.get(url, {"article": "27"}).content.decode()
    tree_ruling = make_ruling(ruling.club, ruling.director, ("ja", "nee"))
    only_free = client_reviewer_a.get(url, {"tree": free.FREE_SLUG}).content.decode()
    assert detail in only_free
    assert reverse("archive:detail", args=[tree_ruling.uuid]) not in only_free


def test_statistics_count_it(ruling, client_reviewer_a):
    response = client_reviewer_a.get(reverse("archive:statistics"))
    assert response.status_code == 200
    assert "Vrije arbitrage" in response.content.decode()


def test_the_csv_has_it(ruling, client_reviewer_a):
    response = client_reviewer_a.get(reverse("archive:csv"))
    text = b"".join(response.streaming_content).decode("utf-8-sig")
    rows = list(csv.DictReader(io.StringIO(text)))
    (row,) = [r for r in rows if r["uuid"] == str(ruling.uuid)]
    assert row["tree"] == free.FREE_SLUG
    assert row["irregularity"] == "Vrije arbitrage"
    assert row["outcome_title"] == "Vrije arbitrage"
    assert row["board"] == "11"
    assert "68" in row["cited_articles"]


def test_it_can_be_reviewed(ruling, client_reviewer_a):
    response = confirm(
        client_reviewer_a, ruling, {"verdict": Verdict.CONFIRMED, "comment": "Juist."}
    )
    assert response.status_code == 302
    assert Review.objects.filter(ruling=ruling).count() == 1
    ruling.refresh_from_db()
    assert ruling.review_verdict == Verdict.CONFIRMED
    assert audit.verify(ruling) == []


def test_a_bundle_carries_it_there_and_back(ruling, club_a):
    before = transfer.serialise_ruling(transfer.with_children(Ruling.objects.all()).get())
    text = "".join(transfer.iter_bundle(club_a))
    with connection.cursor() as cursor:
        cursor.execute(f"DELETE FROM {AuditEvent._meta.db_table}")  # noqa: S608
    Step.objects.all().delete()
    Ruling.objects.all().delete()

    result = import_text(text, club_a)

    assert result.created == 1
    after = Ruling.objects.get()
    stored = transfer.serialise_ruling(transfer.with_children(Ruling.objects.all()).get())
    assert without_import(stored) == before
    assert audit.verify(after) == []
    assert free.content_of(after) == CLAIM
    assert after.cited_articles == "|68|70|"
