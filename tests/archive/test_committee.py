"""What a club committee reads: "tafel 7" in the search, directors by name, the statistics'
summary of final rulings, English titles and European dates, and editions named once."""

from __future__ import annotations

from datetime import date, timedelta

import pytest
from django.template import Context, Template
from django.urls import reverse
from django.utils import translation
from django.utils.formats import date_format

from archive import search, stats
from archive.reviews import record_review, set_appeal
from lib.text import with_edition
from rulings.models import AppealStatus, Ruling, Verdict
from tests.support.factories import make_edition, make_tree
from tests.support.rulings import START, make_ruling
from tests.support.scores import record_weighted

ARCHIVE = "/arbitrages/"
STATISTICS = "/arbitrages/statistiek/"


def listed(response) -> list[str]:
    return [str(r.uuid) for r in response.context["rulings"]]


def english(client) -> None:
    client.post("/taal/", {"language": "en", "next": "/"})


# --- the search's field words (pure) -------------------------------------------------------


@pytest.mark.parametrize(
    ("typed", "fields", "text"),
    [
        ("tafel 7", {"table": 7}, ""),
        ("Table 7", {"table": 7}, ""),
        ("spel 12 claim", {"board": 12}, "claim"),
        ("board:12", {"board": 12}, ""),
        ("ronde 3 tafel 7 dinsdag", {"round": 3, "table": 7}, "dinsdag"),
        ("round 3", {"round": 3}, ""),
        ("tafel 7 tafel 8", {"table": 7}, ""),
        ("dinsdagavond", {}, "dinsdagavond"),
        ("tafels 7", {}, "tafels 7"),  # not the word "tafel"
        ("tafel", {}, "tafel"),  # no number: a word like any other
        ("speltafel 7", {}, "speltafel 7"),
    ],
)
def test_field_words_become_filters(typed, fields, text):
    parsed = search.parse(typed)
    assert parsed.fields == fields
    assert parsed.text == text


# --- the archive ---------------------------------------------------------------------------


@pytest.fixture
def tables(club_a, director_a, admin_a):
    seven = make_ruling(club_a, director_a, table=7, board=3, notes="Oost speelde voor")
    other = make_ruling(club_a, admin_a, table=8, board=12, notes="Spel 7 lag verkeerd")
    Ruling.objects.filter(pk=seven.pk).update(round=3)
    return {"seven": str(seven.uuid), "other": str(other.uuid)}


def test_tafel_7_finds_table_7(client_reviewer_a, tables):
    assert listed(client_reviewer_a.get(ARCHIVE, {"q": "tafel 7"})) == [tables["seven"]]
    assert listed(client_reviewer_a.get(ARCHIVE, {"q": "table 8"})) == [tables["other"]]
    assert listed(client_reviewer_a.get(ARCHIVE, {"q": "spel 12"})) == [tables["other"]]
    assert listed(client_reviewer_a.get(ARCHIVE, {"q": "ronde 3"})) == [tables["seven"]]
    # The other words are searched as text, together with the table.
    assert listed(client_reviewer_a.get(ARCHIVE, {"q": "tafel 7 oost"})) == [tables["seven"]]
    assert listed(client_reviewer_a.get(ARCHIVE, {"q": "tafel 8 oost"})) == []


def test_typed_filters_apply_as_one_types_and_fold_on_a_phone(client_reviewer_a, tables):
    page = client_reviewer_a.get(ARCHIVE).content.decode()
    assert 'hx-trigger="submit, change, input changed delay:400ms from:.live-filter"' in page
    assert 'hx-push-url="true"' in page
    for name in ("q", "article", "table", "board"):
        assert f'name="{name}"' in page
    assert page.count("live-filter") == 5  # the trigger and four text fields
    assert '<details class="filter-fold card mb-3 no-print" id="filter-fold" open' in page
    assert "js/archive.js" in page
    assert 'data-label="Wedstrijdleider"' in page


def test_directors_by_full_name_in_rows_and_filter(client_reviewer_a, tables, director_a):
    director_a.last_name = "de Vries"
    director_a.save()
    page = client_reviewer_a.get(ARCHIVE).content.decode()
    assert f'<option value="{director_a.pk}">Anna de Vries</option>' in page
    assert ">Anna de Vries</td>" in page
    assert ">anna<" not in page


def test_english_rows_show_the_english_title_and_a_european_date(
    client_reviewer_a, club_a, director_a
):
    make_ruling(club_a, director_a, played_on=date(2025, 3, 9))
    english(client_reviewer_a)
    page = client_reviewer_a.get(ARCHIVE).content.decode()
    assert ">Proefboom (en)</a>" in page
    assert "09-03-2025" in page
    assert "03/09/2025" not in page


def test_an_old_editions_tree_names_its_edition_once(client_reviewer_a, club_a, director_a):
    make_tree("oud", make_edition("1963"), title="Strafkaart (1963)")
    make_ruling(club_a, director_a, tree_slug="oud")
    page = client_reviewer_a.get(ARCHIVE).content.decode()
    assert ">Strafkaart (1963)</a>" in page
    assert "1963)</a> <span" not in page  # no edition badge after it
    english(client_reviewer_a)
    page = client_reviewer_a.get(ARCHIVE).content.decode()
    assert ">Strafkaart (1963) (en)</a>" in page


def test_with_edition_never_doubles_it():
    assert with_edition("Strafkaart", "1963") == "Strafkaart (1963)"
    assert with_edition("Strafkaart (1963)", "1963") == "Strafkaart (1963)"
    assert with_edition("Strafkaart", "") == "Strafkaart"


def test_a_trees_name_in_lists_names_its_edition_once(db):
    assert str(make_tree("oud", make_edition("1963"), title="Strafkaart (1963)")) == (
        "Strafkaart (1963)"
    )
    assert str(make_tree("nieuw", make_edition("2017"), title="Strafkaart")) == (
        "Strafkaart (2017)"
    )


# --- dates follow the language, in European order -----------------------------------------


@pytest.mark.parametrize(
    ("language", "name", "expected"),
    [
        ("en", "DATE_FORMAT", "9 March 2025"),
        ("en", "SHORT_DATE_FORMAT", "09-03-2025"),
        ("en", "YEAR_MONTH_FORMAT", "March 2025"),
        ("nl", "DATE_FORMAT", "9 maart 2025"),
        ("nl", "SHORT_DATE_FORMAT", "9-3-2025"),
    ],
)
def test_dates_are_european_in_both_languages(language, name, expected):
    with translation.override(language):
        assert date_format(date(2025, 3, 9), name) == expected


def test_english_date_and_time_keep_the_day_first():
    with translation.override("en"):
        assert date_format(START, "DATETIME_FORMAT") == "1 March 2025 19:30"


# --- statistics ----------------------------------------------------------------------------


@pytest.fixture
def season(club_a, director_a, admin_a, reviewer_a):
    """Three final rulings (one reviewed, one appealed) and one still open."""
    first = make_ruling(club_a, director_a, ("ja", "nee"), at=START)
    make_ruling(club_a, director_a, ("ja", "nee"), at=START + timedelta(days=31))
    third = make_ruling(club_a, admin_a, ("nee", "nee"), at=START + timedelta(days=62))
    make_ruling(club_a, director_a, ("ja",), at=START + timedelta(days=63), final=False)
    record_review(first, reviewer_a, Verdict.CONFIRMED, "Goed.", "", [])
    set_appeal(third, reviewer_a, AppealStatus.OPEN, "Beroep.")


def test_statistics_count_final_rulings_unless_asked(client_reviewer_a, season):
    response = client_reviewer_a.get(STATISTICS)
    assert response.context["total"] == 3
    assert "3 definitieve arbitrages in deze selectie" in response.content.decode()
    everything = client_reviewer_a.get(STATISTICS, {"status": ""})
    assert everything.context["total"] == 4
    assert "4 arbitrages in deze selectie" in everything.content.decode()
    assert client_reviewer_a.get(STATISTICS, {"status": "in_progress"}).context["total"] == 1


def test_the_summary_comes_first(client_reviewer_a, season):
    page = client_reviewer_a.get(STATISTICS).content.decode()
    summary = page[page.index("data-summary") : page.index('<div class="row g-4">')]
    assert "gespeeld van maart 2025 tot en met mei 2025" in summary
    assert "Meest voorkomend: <strong>Proefboom</strong> (3)." in summary
    assert "33% is door de commissie beoordeeld; bij 33% is beroep aangetekend." in summary
    assert page.index("data-summary") < page.index('class="bar-chart"')


def test_the_summary_counts_from_the_tally_and_from_the_rulings_alike(client_reviewer_a, season):
    from_tally = client_reviewer_a.get(STATISTICS).context["summary"]
    # A board filter is not in the tally: the rulings themselves are counted.
    from_rulings = client_reviewer_a.get(STATISTICS, {"board": "7"}).context["summary"]
    assert (from_tally.reviewed, from_tally.appealed) == (1, 1)
    assert (from_rulings.reviewed, from_rulings.appealed) == (1, 1)
    assert from_tally.top == from_rulings.top == [("Proefboom", 3)]


def test_the_summary_names_the_filters_period_and_top_three():
    counts = stats.Counts()
    counts.trees.update({"a": 5, "b": 3, "c": 2, "d": 1})
    counts.months.update({date(2025, 3, 1): 11})
    rows = stats.per_irregularity(counts, {"a": "A", "b": "B", "c": "C", "d": "D"})
    with translation.override("nl"):
        summary = stats.summary(counts, rows, (4, 1), (date(2025, 1, 1), None))
    assert summary.top == [("A", 5), ("B", 3), ("C", 2)]
    assert (summary.period_from, summary.period_to) == ("1 januari 2025", "maart 2025")
    assert (summary.reviewed_percent, summary.appealed_percent) == (36, 9)
    assert stats.summary(stats.Counts(), [], (0, 0)).reviewed_percent == 0


def test_english_statistics_summary(client_reviewer_a, season):
    english(client_reviewer_a)
    page = client_reviewer_a.get(STATISTICS).content.decode()
    assert "played from March 2025 to May 2025" in page
    assert "Most common: <strong>Proefboom (en)</strong> (3)." in page


def test_archive_and_statistics_queries_stay_constant(
    client_reviewer_a, club_a, director_a, admin_a, django_assert_max_num_queries
):
    for index in range(20):
        make_ruling(
            club_a, director_a if index % 2 else admin_a, table=index % 4 + 1, board=index + 1
        )
    # The first search of a process makes the finder's index of every loaded tree, once
    # (trees/lookup.py): not what a request costs.
    client_reviewer_a.get(ARCHIVE, {"q": "tafel"})
    # Session, user, memberships, the filter form's directors, trees and editions, the trees
    # whose names hold a word searched (archive/search.py), the page count and its ids, and
    # the page's rulings.
    with django_assert_max_num_queries(10):
        client_reviewer_a.get(ARCHIVE, {"q": "tafel 2 dinsdag"})
    # The same, then one grouping of the rulings, the summary's shares, the directors' names,
    # the snapshots' digests and a cold snapshot.
    with django_assert_max_num_queries(14):
        client_reviewer_a.get(STATISTICS, {"q": "tafel 2"})


def test_the_home_page_names_open_rulings_by_the_english_title(
    client_director_a, club_a, director_a
):
    make_ruling(club_a, director_a, ("ja",), final=False)
    assert "Proefboom</span>" in client_director_a.get("/").content.decode()
    english(client_director_a)
    assert "Proefboom (en)</span>" in client_director_a.get("/").content.decode()


def test_template_filters_name_the_edition_once_and_look_up_titles():
    template = Template(
        "{% load leidraad %}{{ title|with_edition:code }}|{{ code|edition_badge:title }}|"
        "{{ titles|lookup:slug|default:'none' }}"
    )

    def render(title: str, code: str, slug: str) -> str:
        titles = {"straf": "Penalty card"}
        return template.render(
            Context({"title": title, "code": code, "titles": titles, "slug": slug})
        )

    assert render("Strafkaart (1963)", "1963", "straf") == "Strafkaart (1963)||Penalty card"
    assert render("Strafkaart", "2017", "other") == "Strafkaart (2017)|2017|none"


# --- A committee's filters and the disagreement per tree (issue 30, item 11) -----------------


@pytest.fixture
def reviewed_world(club_a, director_a, reviewer_a):
    confirmed = make_ruling(club_a, director_a, ("ja", "nee"), table=1)
    record_review(confirmed, reviewer_a, Verdict.CONFIRMED, "Juist.")
    amended = make_ruling(club_a, director_a, ("ja", "nee"), table=2)
    record_review(amended, reviewer_a, Verdict.AMENDED, "Te streng.")
    overturned = make_ruling(club_a, director_a, ("nee", "nee"), table=3)
    record_review(overturned, reviewer_a, Verdict.OVERTURNED, "Fout.")
    unreviewed = make_ruling(club_a, director_a, ("ja", "ja"), table=4)
    record_weighted(unreviewed, director_a)
    set_appeal(amended, reviewer_a, AppealStatus.OPEN, "NZ gaan in beroep.")
    return {
        "confirmed": confirmed,
        "amended": amended,
        "overturned": overturned,
        "plain": unreviewed,
    }


def listed_ids(client, **params) -> set[str]:
    page = client.get(reverse("archive:list"), params).content.decode()
    return {str(r.uuid) for r in Ruling.objects.all() if f"/arbitrages/{r.uuid}/" in page}


def test_the_archive_filters_a_committee_needs(reviewed_world, client_reviewer_a):
    ids = {name: str(r.uuid) for name, r in reviewed_world.items()}
    disagreed = listed_ids(client_reviewer_a, verdict="disagreed")
    assert disagreed == {ids["amended"], ids["overturned"]}
    assert listed_ids(client_reviewer_a, appeal="any") == {ids["amended"]}
    assert listed_ids(client_reviewer_a, adjusted="yes") == {ids["plain"]}
    assert ids["plain"] not in listed_ids(client_reviewer_a, adjusted="no")
    assert len(listed_ids(client_reviewer_a, adjusted="no")) == 3


def test_statistics_show_per_tree_how_often_reviewers_disagreed(reviewed_world, client_reviewer_a):
    for params in ({}, {"table": "2"}):  # on the tally, and on the rulings themselves
        response = client_reviewer_a.get(reverse("archive:statistics"), params)
        rows = response.context["disagreement"]
        if not params:
            (row,) = rows
            assert (row.title, row.reviewed, row.disagreed, row.percent) == ("Proefboom", 3, 2, 67)
            assert "data-disagreement-row" in response.content.decode()
        else:
            (row,) = rows
            assert (row.reviewed, row.disagreed, row.percent) == (1, 1, 100)
    # The filter on disagreement counts on the tally as well.
    tallied = client_reviewer_a.get(reverse("archive:statistics"), {"verdict": "disagreed"})
    assert tallied.context["total"] == 2
