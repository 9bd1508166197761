"""CSV export of the filtered archive: streamed, UTF-8 with BOM, comma or semicolon."""

from __future__ import annotations

import csv
import io
from datetime import timedelta

import pytest
from django.db import connection
from django.http import StreamingHttpResponse
from django.test.utils import CaptureQueriesContext

from archive import csv_export
from rulings.models import Mode, Ruling
from tests.support.rulings import START, make_ruling
from tests.support.scores import SUMMARY, record_weighted
from trees import snapshot

URL = "/arbitrages/export.csv"
HEADER = [
    "uuid",
    "created_at",
    "played_on",
    "event",
    "round",
    "table",
    "board",
    "tree",
    "irregularity",
    "edition",
    "tree_version",
    "outcome",
    "outcome_title",
    "director",
    "director_name",
    "mode",
    "status",
    "offender_seat",
    "declarer_seat",
    "contract",
    "cited_articles",
    "legal_basis",
    "option_list",
    "verdict",
    "appeal",
    "finalised_at",
    "notes",
    "adjusted_score",
    "adjusted_score_summary",
    "decision",
    "auction",
    "handed_over",
]


def content(response) -> str:
    assert isinstance(response, StreamingHttpResponse)
    return b"".join(response.streaming_content).decode("utf-8")


def rows(text: str, delimiter: str = ",") -> list[dict[str, str]]:
    assert text.startswith("\ufeff")
    return list(csv.DictReader(io.StringIO(text[1:]), delimiter=delimiter))


@pytest.fixture
def rulings(club_a, director_a):
    first = make_ruling(club_a, director_a, ("ja", "nee"), notes="Zuid: ‘ik heb ♠A’; één", board=4)
    Ruling.objects.filter(pk=first.pk).update(
        contract_level=3, contract_strain="NT", contract_doubled="X"
    )
    second = make_ruling(club_a, director_a, ("ja", "ja"), at=START + timedelta(days=1), board=9)
    make_ruling(club_a, director_a, ("ja", "nee"), mode=Mode.TRAINING)
    return first, second


def test_it_streams_utf8_with_bom_and_documented_columns(client_reviewer_a, rulings):
    response = client_reviewer_a.get(URL)
    assert response.status_code == 200
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert response["Content-Disposition"].startswith(
        'attachment; filename="arbitrages-troefkaart-'
    )
    text = content(response)
    assert text.splitlines()[0] == "\ufeff" + ",".join(HEADER)
    assert tuple(HEADER) == csv_export.CSV_HEADER
    data = rows(text)
    assert [row["uuid"] for row in data] == [str(rulings[1].uuid), str(rulings[0].uuid)]
    first = data[1]
    assert first["notes"] == "Zuid: ‘ik heb ♠A’; één"
    assert first["contract"] == "3NTX"
    assert first["cited_articles"] == "27 40"
    # The legal basis as the outcome page and the record show it, decisive first.
    assert first["legal_basis"] == "27 40"
    assert first["outcome"] == "straf"
    assert first["outcome_title"] == "Vervangen met beperkingen"
    assert first["director"] == "anna"
    assert first["director_name"] == "Anna"
    assert first["played_on"] == "2025-03-01"
    assert first["created_at"] == "2025-03-01T19:30:00+01:00"
    assert (first["mode"], first["status"], first["board"]) == ("live", "final", "4")
    assert (first["adjusted_score"], first["adjusted_score_summary"]) == ("", "")


def test_the_adjusted_score_has_its_columns(client_reviewer_a, rulings, director_a):
    record_weighted(rulings[0], director_a)
    data = {row["uuid"]: row for row in rows(content(client_reviewer_a.get(URL)))}
    first = data[str(rulings[0].uuid)]
    assert first["adjusted_score"] == "weighted"
    assert first["adjusted_score_summary"] == SUMMARY
    assert data[str(rulings[1].uuid)]["adjusted_score"] == ""


def test_semicolons_for_dutch_spreadsheets(client_reviewer_a, rulings):
    text = content(client_reviewer_a.get(URL, {"sep": "semicolon"}))
    assert text.splitlines()[0].startswith("\ufeffuuid;created_at;played_on;")
    assert rows(text, ";")[1]["notes"] == "Zuid: ‘ik heb ♠A’; één"


def test_it_exports_the_filtered_archive(client_reviewer_a, rulings):
    data = rows(content(client_reviewer_a.get(URL, {"board": "9"})))
    assert [row["uuid"] for row in data] == [str(rulings[1].uuid)]
    data = rows(content(client_reviewer_a.get(URL, {"mode": "training"})))
    assert [row["mode"] for row in data] == ["training"]


def test_cells_that_look_like_formulas_are_defused(client_reviewer_a, club_a, director_a):
    make_ruling(club_a, director_a, notes='=HYPERLINK("http://x")', event="+31 avond")
    row = rows(content(client_reviewer_a.get(URL)))[0]
    assert row["notes"] == '\'=HYPERLINK("http://x")'
    assert row["event"] == "'+31 avond"


def test_lines_are_produced_lazily(club_a, director_a, django_assert_num_queries):
    make_ruling(club_a, director_a)
    lines = csv_export.csv_lines(Ruling.objects.all())
    with django_assert_num_queries(0):
        assert next(lines) == "\ufeff"
        assert next(lines).startswith("uuid,")
    # The rulings, and the legal basis of each chunk of them.
    with django_assert_num_queries(2):
        assert len(list(lines)) == 1


def test_query_count_does_not_grow_with_the_rulings(client_reviewer_a, club_a, director_a):
    for day in range(3):
        make_ruling(club_a, director_a, at=START + timedelta(days=day))

    def count() -> tuple[int, int]:
        snapshot.clear_cache()  # a cold cache costs one query per tree snapshot, no more
        with CaptureQueriesContext(connection) as context:
            lines = content(client_reviewer_a.get(URL)).splitlines()
        return len(context), len(lines)

    few, lines = count()
    assert lines == 4
    for day in range(57):
        ruling = make_ruling(club_a, director_a, at=START + timedelta(days=day))
        if day % 2:
            record_weighted(ruling, director_a)
    many, lines = count()
    assert lines == 61
    assert few == many


def test_other_clubs_get_404(client_director_b, rulings):
    assert client_director_b.get(URL, {"club": "troefkaart"}).status_code == 404
    assert rows(content(client_director_b.get(URL))) == []


@pytest.mark.parametrize(
    "text",
    ['＝HYPERLINK("http://x")', "＋31", "－1+1", "＠SUM(A1)", " =1+1", "\u3000＝1+1"],
)
def test_full_width_and_indented_formulas_are_defused_too(text):
    """A full-width ＝ at the start of a cell was not quoted (issue 35, item 7): spreadsheet
    programs may fold it to "=". Leading spaces do not hide a formula either."""
    assert csv_export._cell(text) == "'" + text


@pytest.mark.parametrize("text", ["Tafel 3", "３ down", "€ 5", "'al gequoot"])
def test_ordinary_text_is_left_alone(text):
    assert csv_export._cell(text) == text
