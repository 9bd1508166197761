"""Statistics /arbitrages/statistiek/: counts with the archive's filters, SVG charts and tables."""

from __future__ import annotations

import re
from datetime import date, timedelta
from urllib.parse import urlencode
from xml.etree import ElementTree

import pytest
from django.db import connection
from django.db.models import Sum
from django.http import QueryDict
from django.test.utils import CaptureQueriesContext

from archive import charts, stats, tally
from archive.filters import RulingFilter
from archive.models import RulingTally
from archive.reviews import record_review, set_appeal
from rulings.models import AppealStatus, Mode, Ruling, Verdict
from tests.conftest import migration_operation
from tests.support.factories import make_edition
from tests.support.rulings import START, make_ruling
from tests.support.scores import record_weighted
from trees import snapshot

URL = "/arbitrages/statistiek/"


@pytest.fixture
def rulings(club_a, director_a, admin_a):
    make_ruling(club_a, director_a, ("ja", "nee"), at=START)  # straf: 25, 27, 40
    make_ruling(club_a, director_a, ("ja", "nee"), at=START + timedelta(days=3))
    make_ruling(club_a, admin_a, ("ja", "ja"), at=START + timedelta(days=31))  # vrij: 25
    make_ruling(club_a, admin_a, ("nee", "nee"), at=START + timedelta(days=32))  # afgewezen: 25, 27
    make_ruling(club_a, director_a, ("ja", "nee"), mode=Mode.TRAINING)


def breakdown(response, key):
    return next(b for b in response.context["breakdowns"] if b.key == key).rows


def test_it_counts_per_irregularity_month_director_outcome_and_article(client_reviewer_a, rulings):
    response = client_reviewer_a.get(URL)
    assert response.status_code == 200
    assert response.context["total"] == 4  # the training ruling is left out
    assert breakdown(response, "irregularity") == [("Proefboom", 4)]
    assert breakdown(response, "month") == [("maart 2025", 2), ("april 2025", 2)]
    assert breakdown(response, "director") == [("Anna", 2), ("Bert", 2)]
    assert breakdown(response, "outcome") == [
        ("Proefboom: Vervangen met beperkingen", 2),
        ("Proefboom: Het bod blijft staan", 1),
        ("Proefboom: Vervangen zonder gevolgen", 1),
    ]
    # Only the legal basis counts (LegalBasis): not the card of 25 on every first question,
    # nor a ruling still in progress.
    assert breakdown(response, "article") == [
        ("Artikel 27", 3),
        ("Artikel 40", 2),
        ("Artikel 25", 1),
    ]


def test_it_counts_the_rulings_with_an_adjusted_score(
    client_reviewer_a, rulings, director_a, admin_a, club_b, director_b
):
    elsewhere = make_ruling(club_b, director_b, ("ja", "nee"))  # another club's: never counted
    record_weighted(elsewhere, director_b)
    assert client_reviewer_a.get(URL).context["with_adjusted_score"] == 0
    straf = Ruling.objects.filter(outcome_key="straf", mode=Mode.LIVE).first()
    record_weighted(straf, director_a)
    response = client_reviewer_a.get(URL)
    assert response.context["with_adjusted_score"] == 1
    assert "Met een arbitrale score: 1" in response.content.decode()
    # The filters apply to the count too: the score is on one of Anna's rulings.
    assert client_reviewer_a.get(URL, {"director": admin_a.pk}).context["with_adjusted_score"] == 0
    # Free text too, though the count runs the search inside a subquery of its own.
    assert client_reviewer_a.get(URL, {"q": "beperkingen"}).context["with_adjusted_score"] == 1
    assert client_reviewer_a.get(URL, {"q": "staan"}).context["with_adjusted_score"] == 0


def test_the_archive_filters_apply(client_reviewer_a, rulings, admin_a):
    response = client_reviewer_a.get(URL, {"director": admin_a.pk})
    assert response.context["total"] == 2
    assert breakdown(response, "article") == [("Artikel 25", 1), ("Artikel 27", 1)]
    response = client_reviewer_a.get(URL, {"mode": "training"})
    assert response.context["total"] == 1


def test_charts_and_tables_are_on_the_page(client_reviewer_a, rulings):
    page = client_reviewer_a.get(URL).content.decode()
    assert page.count('<svg xmlns="http://www.w3.org/2000/svg" class="bar-chart"') == 5
    assert page.count('class="table table-sm stat-table"') == 5
    assert '<th scope="row" class="fw-normal">Artikel 27</th><td class="text-end">3</td>' in page
    assert "/arbitrages/export.csv?" in page


def test_htmx_gets_only_the_numbers(client_reviewer_a, rulings):
    page = client_reviewer_a.get(URL, {"board": "7"}, HTTP_HX_REQUEST="true").content.decode()
    assert page.lstrip().startswith('<section id="results"')
    assert "<html" not in page
    assert "4 definitieve arbitrages in deze selectie" in page


def test_english_month_names_and_titles(client_reviewer_a, rulings):
    client_reviewer_a.post("/taal/", {"language": "en", "next": "/"})
    response = client_reviewer_a.get(URL)
    assert breakdown(response, "month")[0] == ("March 2025", 2)
    assert breakdown(response, "irregularity") == [("Proefboom (en)", 4)]
    assert ("Proefboom (en): Vervangen met beperkingen (en)", 2) in breakdown(response, "outcome")


def test_other_clubs_get_404(client_director_b, rulings):
    assert client_director_b.get(URL, {"club": "troefkaart"}).status_code == 404


def test_query_count_does_not_grow_with_the_rulings(
    client_reviewer_a, club_a, director_a, django_assert_max_num_queries
):
    for day in range(3):
        make_ruling(club_a, director_a, at=START + timedelta(days=day))

    def count() -> int:
        snapshot.clear_cache()  # a cold cache costs one query per tree snapshot, no more
        with CaptureQueriesContext(connection) as context:
            client_reviewer_a.get(URL, {"article": "27"})
        return len(context)

    few = count()
    for day in range(57):
        answers = ("ja", "ja") if day % 3 else ("nee", "nee")
        make_ruling(club_a, director_a, answers, at=START + timedelta(days=day * 9))
    assert Ruling.objects.count() == 60
    assert count() == few
    snapshot.clear_cache()
    # Session, user, memberships; the filter form's directors, trees and editions; five sums
    # over the tally and one for the summary's reviews and appeals; the directors' names; the
    # snapshots' digests and one cold snapshot; the count of rulings with an adjusted score;
    # the reviewers' disagreement per tree; the trees rulings were handed over from.
    with django_assert_max_num_queries(18):
        client_reviewer_a.get(URL, {"article": "27"})


def test_stats_module_without_http(club_a, director_a, admin_a):
    make_ruling(club_a, director_a, ("ja", "nee"))
    make_ruling(club_a, admin_a, ("ja", "nee"))
    make_ruling(club_a, director_a, ("ja",), final=False)
    found = stats.groups(Ruling.objects.all())
    assert sum(group.rulings for group in found) == 3
    assert len(found) == 3  # two directors on one path, and one ruling without an outcome
    total, breakdowns = stats.summarise(stats.Counts.of(found), Ruling.objects.all())
    assert total == 3
    assert [b.key for b in breakdowns] == [
        "irregularity",
        "month",
        "director",
        "outcome",
        "article",
    ]
    assert stats.per_outcome(stats.Counts.of(found), {"proef": "Proefboom"}) == [
        ("Proefboom: Vervangen met beperkingen", 2)
    ]
    assert stats.per_article(stats.Counts.of(stats.groups(Ruling.objects.none()))) == []
    assert stats.outcome_title(None, "straf") == "straf"
    assert stats.outcome_title("0" * 64, "straf") == "straf"


# --- RulingTally: counts kept by database triggers ---------------------------------------


def tally_and_live(club, data: dict) -> tuple[stats.Counts, stats.Counts]:
    """The counts for the filters ``data``, from the tally and from the rulings themselves."""
    filterset = RulingFilter(
        QueryDict(urlencode(data)), queryset=Ruling.objects.filter(club=club), club=club
    )
    tallies = filterset.tallies()
    assert tallies is not None, data
    return stats.Counts.of_tallies(tallies), stats.Counts.of(stats.groups(filterset.qs))


def test_the_tally_follows_every_kind_of_write(
    club_a, club_b, director_a, admin_a, reviewer_a, director_b
):
    """The wizard, a review, an appeal, a changed date, a deletion, a bulk update and another
    club's rulings: the tally always counts what grouping the rulings themselves counts."""
    first = make_ruling(club_a, director_a, ("ja", "nee"), at=START)
    make_ruling(club_a, admin_a, ("nee", "nee"), at=START + timedelta(days=40))
    make_ruling(club_a, director_a, ("ja",), final=False)  # in progress, no outcome
    make_ruling(club_a, director_a, ("ja", "ja"), mode=Mode.TRAINING)
    make_ruling(club_b, director_b, ("ja", "nee"))
    record_review(first, reviewer_a, Verdict.AMENDED, "Te streng.", "Geen straf.", ["25A"])
    set_appeal(first, reviewer_a, AppealStatus.OPEN, "In beroep.")
    Ruling.objects.filter(pk=first.pk).update(played_on=date(2025, 1, 31))
    # Made outside the wizard (no steps, no audit chain), so it may be deleted.
    before = tally_and_live(club_a, {})[0].total
    doomed = Ruling.objects.create(club=club_a, director=admin_a, tree_slug="proef")
    assert tally_and_live(club_a, {})[0].total == before + 1
    doomed.delete()
    make_edition("2007")
    Ruling.objects.filter(club=club_a, mode=Mode.LIVE).update(edition_code="2007")

    assert tally.differences() == []
    for data in [
        {},
        {"mode": "all"},
        {"mode": "training"},
        {"status": "final", "tree": "proef"},
        {"director": admin_a.pk, "edition": "2007"},
        {"verdict": "amended", "appeal": "open"},
        {"verdict": "none"},
        {"article": "27"},
        {"date_from": "2025-03-01", "date_to": "2025-04-30"},
        {"date_to": "2025-01-31"},
    ]:
        tallied, live = tally_and_live(club_a, data)
        assert tallied == live, data
    assert tally_and_live(club_a, {"mode": "all"})[0].total == 4
    assert tally_and_live(club_b, {})[0].total == 1


@pytest.mark.parametrize(
    "data",
    [
        {"table": "3"},
        {"board": "7"},
        {"q": "straf"},
        {"date_from": "2025-03-02"},
        {"date_to": "2025-03-30"},
        {"status": "bogus"},
    ],
)
def test_filters_the_tally_cannot_answer_group_the_rulings(club_a, data):
    filterset = RulingFilter(
        QueryDict(urlencode(data)), queryset=Ruling.objects.filter(club=club_a), club=club_a
    )
    assert filterset.tallies() is None


def test_the_page_gives_the_same_numbers_from_the_tally_and_from_the_rulings(
    client_reviewer_a, rulings
):
    from_tally = client_reviewer_a.get(URL, {"date_from": "2025-03-01"}).context
    from_rulings = client_reviewer_a.get(URL, {"date_from": "2025-02-28"}).context
    assert from_tally["total"] == from_rulings["total"] == 4
    assert [b.rows for b in from_tally["breakdowns"]] == [
        b.rows for b in from_rulings["breakdowns"]
    ]


def test_migrating_a_database_with_rulings_counts_them(club_a, director_a, statements_editor):
    """The migration counts the rulings already stored before its triggers take over."""
    make_ruling(club_a, director_a, ("ja", "nee"))
    make_ruling(club_a, director_a, ("nee", "nee"), at=START + timedelta(days=3))
    frozen = migration_operation("0002_tally_triggers")
    frozen.reverse_code(None, statements_editor)
    RulingTally.objects.all().delete()
    frozen.code(None, statements_editor)
    tallied, live = tally_and_live(club_a, {})
    assert tallied == live
    assert tallied.total == 2
    make_ruling(club_a, director_a, ("ja", "ja"))  # and the triggers are back
    assert RulingTally.objects.aggregate(n=Sum("count"))["n"] == 3
    assert tally.differences() == []
    RulingTally.objects.filter(status="final").update(count=5)
    assert len(tally.differences()) >= 1  # and a wrong count is noticed


# --- charts.py (pure) ----------------------------------------------------------------------


def parse(svg: str) -> ElementTree.Element:
    return ElementTree.fromstring(svg)  # noqa: S314 - our own output


def test_a_bar_chart_is_an_accessible_image():
    svg = charts.bar_chart("c1", "Per maand", [("maart", 4), ("april", 2)])
    root = parse(svg)
    ns = "{http://www.w3.org/2000/svg}"
    assert root.get("role") == "img"
    assert root.get("aria-labelledby") == "c1-title c1-desc"
    assert root.find(f"{ns}title").text == "Per maand"
    assert root.find(f"{ns}desc").text == "maart: 4; april: 2"
    widths = [float(rect.get("width")) for rect in root.iter(f"{ns}rect")]
    assert widths[0] == 2 * widths[1]
    labels = ["".join(t.itertext()) for t in root.iter(f"{ns}text")]
    assert labels == ["maart", "4", "april", "2"]


def test_long_labels_wrap_onto_two_lines_and_are_escaped():
    long = "Een <heel> lange naam & nog veel meer tekst erachter"
    svg = charts.bar_chart("c2", "T & <t>", [(long, 1)])
    root = parse(svg)  # well-formed despite < and &
    ns = "{http://www.w3.org/2000/svg}"
    label = next(root.iter(f"{ns}text"))
    lines = [span.text for span in label.iter(f"{ns}tspan")]
    assert lines == ["Een <heel> lange naam & nog", "veel meer tekst erachter"]
    assert re.search(r"<title>Een &lt;heel&gt; lange naam &amp; nog", svg)


def test_a_label_longer_than_two_lines_ends_in_an_ellipsis():
    label = "Ongeoorloofde informatie: een heel lange uitkomst met nog veel meer woorden"
    lines = charts.label_lines(label)
    assert len(lines) == charts.LABEL_LINES
    assert all(len(line) <= charts.LABEL_CHARS for line in lines)
    assert lines[-1].endswith("…")
    assert " ".join(lines)[:-1].rstrip() in label
    assert charts.label_lines("Claim") == ["Claim"]


def test_a_two_line_label_makes_its_row_taller():
    one = parse(charts.bar_chart("c5", "Kort", [("Claim", 1)]))
    two = parse(
        charts.bar_chart("c6", "Lang", [("Verkeerde uitleg: score aangepast voor beide", 1)])
    )
    assert float(two.get("viewBox").split()[3]) > float(one.get("viewBox").split()[3])


def test_an_empty_chart_and_zero_bars():
    assert parse(charts.bar_chart("c3", "Leeg", [])).get("role") == "img"
    root = parse(charts.bar_chart("c4", "Nul", [("a", 0), ("b", 0)]))
    widths = [rect.get("width") for rect in root.iter("{http://www.w3.org/2000/svg}rect")]
    assert widths == ["0", "0"]
