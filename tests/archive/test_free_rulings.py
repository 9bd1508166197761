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
from tests.support.reviews import confirm
from tests.support.rulings import make_ruling
from tests.support.scores import record_weighted
from tests.support.transfer import import_text, without_import
from transfer import bundles as transfer

CLAIM = free.Content(
    laws=("68", "70"),
    decision="Betwiste claim: de verdediging krijgt de laatste slag.",
    announcement="Oost-West krijgen de laatste slag.",
)


@pytest.fixture
def ruling(db, club_a, director_a) -> Ruling:
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


def test_it_gets_an_adjusted_score_like_a_tree_ruling(ruling, director_a, client_director_a):
    record = reverse("archive:detail", args=[ruling.uuid])
    score_page = reverse("scores:record", args=[ruling.uuid])
    assert f'href="{score_page}"' in client_director_a.get(record).content.decode()
    assert client_director_a.get(score_page).status_code == 200
    record_weighted(ruling, director_a)
    page = client_director_a.get(record).content.decode()
    assert "Nog geen arbitrale score vastgelegd." not in page
    assert 'data-side="NS"' in page


def test_an_open_free_ruling_has_no_adjusted_score_yet(db, club_a, director_a, client_director_a):
    edition = free.current_edition()
    assert edition is not None
    draft = free.create(
        uuid=uuid.uuid4(),
        club=club_a,
        director=director_a,
        edition=edition,
        content=CLAIM,
        context={},
        final=False,
    )
    assert client_director_a.get(reverse("scores:record", args=[draft.uuid])).status_code == 404


def test_archive_and_statistics_show_its_decision_not_the_marker(ruling, client_reviewer_a):
    listing = client_reviewer_a.get(reverse("archive:list")).content.decode()
    assert "data-free-decision>Betwiste claim: de verdediging krijgt de laatste slag." in listing
    statistics = client_reviewer_a.get(reverse("archive:statistics")).content.decode()
    assert "Vrije arbitrage: vrij" not in statistics
    assert ": vrij" not in statistics


def test_the_csv_has_its_decision_and_a_tree_rulings(ruling, client_reviewer_a):
    tree_ruling = make_ruling(ruling.club, ruling.director, ("ja", "nee"))
    response = client_reviewer_a.get(reverse("archive:csv"))
    text = b"".join(response.streaming_content).decode("utf-8-sig")
    rows = {row["uuid"]: row for row in csv.DictReader(io.StringIO(text))}
    assert rows[str(ruling.uuid)]["decision"] == CLAIM.decision
    expected = tree_ruling.outcome["ruling"]["nl"]
    assert expected
    assert rows[str(tree_ruling.uuid)]["decision"] == expected
