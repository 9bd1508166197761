"""The CSV for Excel (issue 30, item 9): headers and values in the reader's language, dates and
times as Excel reads them, ';' between cells in Dutch; the data CSV stays as it was."""

from __future__ import annotations

import csv
import io

import pytest
from django.urls import reverse

from archive.reviews import record_review
from rulings.models import Ruling, Verdict
from tests.support.rulings import make_ruling


@pytest.fixture
def ruling(club_a, director_a, reviewer_a) -> Ruling:
    made = make_ruling(club_a, director_a, ("ja", "nee"), table=5, board=17)
    Ruling.objects.filter(pk=made.pk).update(
        contract_level=3,
        contract_strain="NT",
        contract_doubled="X",
        declarer_seat="S",
        offender_seat="E",
        auction='S: P 1NT! "12-14" [15-17] P 3NT X? P P P',
    )
    record_review(made, reviewer_a, Verdict.AMENDED, "Te streng.")
    made.refresh_from_db()
    return made


def rows(client, language: str, **params) -> tuple[list[dict[str, str]], str]:
    session = client.session
    session["language"] = language
    session.save()
    response = client.get(reverse("archive:csv"), {"opmaak": "excel", **params})
    text = b"".join(response.streaming_content).decode("utf-8-sig")
    delimiter = ";" if language == "nl" else ","
    return list(csv.DictReader(io.StringIO(text), delimiter=delimiter)), text


def test_in_dutch_for_dutch_excel(ruling, client_reviewer_a):
    (row,), text = rows(client_reviewer_a, "nl")
    assert text.splitlines()[0].startswith("id;Begonnen;Speeldatum;Wedstrijd of zitting;Ronde")
    assert row["Plaats leider"] == "Z"
    assert row["Plaats overtreder"] == "O"
    assert row["Contract"] == "3SAX"
    assert row["Status"] == "definitief"
    assert row["Oordeel"] == "aangepast"
    assert row["Speeldatum"] == "01-03-2025"
    assert row["Opgeslagen"] == "01-03-2025 19:30"  # local time, as Excel reads it
    assert row["Tafel"] == "5"
    # One text column for the auction, in the reader's notation.
    assert row["Biedverloop"] == 'Z: pas 1SA! "12-14" [15-17] pas 3SA X? pas pas pas'


def test_in_english_when_english(ruling, client_reviewer_a):
    (row,), text = rows(client_reviewer_a, "en")
    assert text.splitlines()[0].startswith("id,Started,Date of play,Event or session,Round")
    assert (row["Declarer's seat"], row["Offender's seat"]) == ("S", "E")
    assert row["Contract"] == "3NTX"
    assert row["Status"] == "final"
    assert row["Verdict"] == "amended"
    assert row["Auction"] == 'S: pass 1NT! "12-14" [15-17] pass 3NT X? pass pass pass'


def test_the_data_csv_keeps_its_codes(ruling, client_reviewer_a):
    response = client_reviewer_a.get(reverse("archive:csv"))
    text = b"".join(response.streaming_content).decode("utf-8-sig")
    (row,) = list(csv.DictReader(io.StringIO(text)))
    assert (row["declarer_seat"], row["contract"], row["status"]) == ("S", "3NTX", "final")
    assert row["auction"] == 'S: P 1NT! "12-14" [15-17] P 3NT X? P P P'
