"""The archive /arbitrages/: the club's rulings, filters, sorting, pages, htmx and isolation."""

from __future__ import annotations

from datetime import date, timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from archive import views as views_archive
from archive.reviews import record_review, set_appeal
from clubs.models import Membership, Role
from rulings.models import AppealStatus, Mode, Ruling, Verdict
from tests.support.factories import make_edition, make_tree
from tests.support.rulings import START, make_ruling
from trees import citations

URL = "/arbitrages/"


def listed(response) -> list[str]:
    return [str(r.uuid) for r in response.context["rulings"]]


@pytest.fixture
def rulings(club_a, director_a, admin_a, reviewer_a):
    """Four live rulings of club A on different days, boards and paths, and a training one."""
    made = {
        "straf": make_ruling(
            club_a,
            director_a,
            ("ja", "nee"),
            at=START,
            table=1,
            board=4,
            notes="Oost liet een kaart zien",
        ),
        "vrij": make_ruling(
            club_a, admin_a, ("ja", "ja"), at=START + timedelta(days=30), table=2, board=9
        ),
        "afgewezen": make_ruling(
            club_a,
            director_a,
            ("nee", "nee"),
            at=START + timedelta(days=60),
            table=3,
            board=9,
        ),
        "bezig": make_ruling(
            club_a, director_a, ("ja",), at=START + timedelta(days=61), final=False
        ),
        "oefening": make_ruling(
            club_a, director_a, ("ja", "nee"), at=START + timedelta(days=62), mode=Mode.TRAINING
        ),
    }
    record_review(made["vrij"], reviewer_a, Verdict.OVERTURNED, "Fout.", "Anders.", ["27"])
    set_appeal(made["afgewezen"], reviewer_a, AppealStatus.OPEN, "Beroep.")
    return {key: str(r.uuid) for key, r in made.items()}


def test_it_lists_the_clubs_live_rulings_newest_first(client_reviewer_a, rulings):
    response = client_reviewer_a.get(URL)
    assert response.status_code == 200
    assert listed(response) == [
        rulings["bezig"],
        rulings["afgewezen"],
        rulings["vrij"],
        rulings["straf"],
    ]
    page = response.content.decode()
    assert "4 arbitrages" in page
    assert "Het bod blijft staan" in page  # the outcome's title


def test_every_member_sees_the_archive(client_director_a, client_trainer_a, rulings):
    assert len(listed(client_director_a.get(URL))) == 4
    assert len(listed(client_trainer_a.get(URL))) == 4


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ({"mode": "training"}, ["oefening"]),
        ({"mode": "all"}, ["oefening", "bezig", "afgewezen", "vrij", "straf"]),
        ({"mode": "nonsense"}, ["bezig", "afgewezen", "vrij", "straf"]),
        ({"date_from": "2025-03-15", "date_to": "2025-04-15"}, ["vrij"]),
        ({"date_to": "2025-03-01"}, ["straf"]),
        ({"status": "in_progress"}, ["bezig"]),
        ({"table": "3"}, ["afgewezen"]),
        ({"board": "9"}, ["afgewezen", "vrij"]),
        ({"article": "40"}, ["straf"]),
        # Only the legal basis counts: the card of 25 on the first question does not.
        ({"article": "25"}, ["vrij"]),
        ({"article": "2"}, []),
        ({"article": "Art. 27"}, ["afgewezen", "straf"]),
        ({"verdict": "overturned"}, ["vrij"]),
        ({"verdict": "none"}, ["bezig", "afgewezen", "straf"]),
        ({"appeal": "open"}, ["afgewezen"]),
        ({"q": "kaart zien"}, ["straf"]),
        ({"q": "BLIJFT"}, ["afgewezen"]),  # the outcome's title
        ({"q": "beperkingen"}, ["straf"]),
        ({"q": "dinsdagavond"}, ["afgewezen", "vrij", "straf"]),
    ],
)
def test_filters(client_reviewer_a, rulings, query, expected):
    response = client_reviewer_a.get(URL, query)
    assert response.status_code == 200
    assert listed(response) == [rulings[key] for key in expected]


def test_filter_by_director(client_reviewer_a, rulings, admin_a):
    response = client_reviewer_a.get(URL, {"director": admin_a.pk})
    assert listed(response) == [rulings["vrij"]]


def test_filter_by_tree_and_edition(client_reviewer_a, club_a, director_a, rulings):
    make_tree(slug="ander", edition=make_edition("2017"), title="Andere boom")
    other = make_ruling(club_a, director_a, tree_slug="ander", at=START - timedelta(days=1))
    response = client_reviewer_a.get(URL, {"tree": "ander"})
    assert listed(response) == [str(other.uuid)]
    response = client_reviewer_a.get(URL, {"edition": "2017"})
    assert listed(response) == [str(other.uuid)]
    assert len(listed(client_reviewer_a.get(URL, {"edition": "1997"}))) == 4


def test_free_text_finds_accented_words_in_the_outcome(club_a, director_a, client_reviewer_a):
    ruling = make_ruling(club_a, director_a, notes="Noord heeft één kaart te weinig")
    Ruling.objects.filter(pk=ruling.pk).update(
        outcome={**ruling.outcome, "ruling": {"nl": "De overtreder is geïnformeerd.", "en": ""}}
    )
    assert listed(client_reviewer_a.get(URL, {"q": "geïnformeerd"})) == [str(ruling.uuid)]
    assert listed(client_reviewer_a.get(URL, {"q": "één"})) == [str(ruling.uuid)]


@pytest.mark.parametrize(
    ("sort", "expected"),
    [
        ("created", ["straf", "vrij", "afgewezen", "bezig"]),
        ("-played", ["afgewezen", "vrij", "straf", "bezig"]),
        ("board", ["straf", "vrij", "afgewezen", "bezig"]),
        ("director", ["bezig", "afgewezen", "straf", "vrij"]),  # anna, then bert
    ],
)
def test_sorting(client_reviewer_a, rulings, sort, expected):
    assert listed(client_reviewer_a.get(URL, {"sort": sort})) == [rulings[k] for k in expected]


def test_invalid_values_show_errors_instead_of_failing(client_reviewer_a, rulings):
    """A filter that cannot be read is a 400 that says which one, and lists nothing (it
    listed everything, as if the filter had not been given)."""
    response = client_reviewer_a.get(URL, {"board": "zeven", "date_from": "gisteren"})
    assert response.status_code == 400
    assert response.context["filter"].form.errors.keys() == {"board", "date_from"}
    assert listed(response) == []
    assert "data-filter-errors" in response.content.decode()


def test_pagination_keeps_the_filters(client_reviewer_a, rulings, monkeypatch):
    monkeypatch.setattr(views_archive, "PER_PAGE", 2)
    first = client_reviewer_a.get(URL, {"board": "9", "sort": "created"})
    assert listed(first) == [rulings["vrij"], rulings["afgewezen"]]
    everything = client_reviewer_a.get(URL, {"sort": "created"})
    assert 'href="?sort=created&amp;page=2"' in everything.content.decode()
    second = client_reviewer_a.get(URL, {"sort": "created", "page": "2"})
    assert listed(second) == [rulings["afgewezen"], rulings["bezig"]]
    assert client_reviewer_a.get(URL, {"page": "99"}).status_code == 200


def test_without_javascript_the_filters_are_a_get_form(client_reviewer_a, rulings):
    page = client_reviewer_a.get(URL).content.decode()
    assert '<form method="get" action="/arbitrages/" id="archive-filters"' in page
    assert 'hx-get="/arbitrages/"' in page
    assert 'hx-push-url="true"' in page
    assert 'hx-target="#results"' in page
    assert "<script>" not in page
    assert "onclick" not in page


def test_htmx_gets_only_the_list(client_reviewer_a, rulings):
    response = client_reviewer_a.get(URL, {"board": "4"}, HTTP_HX_REQUEST="true")
    page = response.content.decode()
    assert page.lstrip().startswith('<section id="results"')
    assert "<html" not in page
    assert "archive-filters" not in page
    assert rulings["straf"] in page
    assert rulings["vrij"] not in page
    assert "1 arbitrage" in page
    assert "HX-Request" in response["Vary"]
    # The CSV link in the swapped list carries the filters.
    assert "/arbitrages/export.csv?board=4" in page


def test_htmx_history_restore_gets_the_whole_page(client_reviewer_a, rulings):
    response = client_reviewer_a.get(
        URL, {"board": "4"}, HTTP_HX_REQUEST="true", HTTP_HX_HISTORY_RESTORE_REQUEST="true"
    )
    assert "<html" in response.content.decode()


def test_a_member_of_two_clubs_picks_the_club(
    client_reviewer_a, reviewer_a, club_b, director_b, rulings
):
    Membership.objects.create(user=reviewer_a, club=club_b, role=Role.REVIEWER)
    theirs = make_ruling(club_b, director_b)
    default = client_reviewer_a.get(URL)
    assert default.context["club"].slug == "troefkaart"  # the first by name
    assert 'name="club"' in default.content.decode()
    response = client_reviewer_a.get(URL, {"club": "vrije-slagje"})
    assert listed(response) == [str(theirs.uuid)]


def test_other_clubs_get_404(client_director_b, director_b, rulings):
    assert client_director_b.get(URL, {"club": "troefkaart"}).status_code == 404
    own = client_director_b.get(URL)
    assert own.status_code == 200
    assert listed(own) == []


def test_a_user_without_a_club_gets_404(client, django_user_model):
    user = django_user_model.objects.create_user("los", password="x")
    client.force_login(user)
    assert client.get(URL).status_code == 404


def test_anonymous_users_are_sent_to_login(client, rulings):
    response = client.get(URL)
    assert response.status_code == 302
    assert "/inloggen/" in response["Location"]


def query_count(client, url: str, params: dict) -> int:
    with CaptureQueriesContext(connection) as context:
        assert client.get(url, params).status_code == 200
    return len(context)


def test_query_count_does_not_grow_with_the_rulings(
    client_reviewer_a, club_a, director_a, admin_a, django_assert_max_num_queries
):
    params = {"article": "25", "sort": "-played", "q": "dinsdag"}
    for index in range(3):
        make_ruling(club_a, director_a, at=START + timedelta(days=index))
    # The first search of a process makes the finder's index of every loaded tree, once
    # (trees/lookup.py): not what a request costs.
    query_count(client_reviewer_a, URL, params)
    few = query_count(client_reviewer_a, URL, params)
    for index in range(57):
        director = director_a if index % 2 else admin_a
        make_ruling(club_a, director, at=START + timedelta(days=40 + index), board=index % 30 + 1)
    assert Ruling.objects.count() == 60
    many = query_count(client_reviewer_a, URL, params)
    assert few == many
    # 10 with the trees whose names hold a word searched (archive/search.py).
    with django_assert_max_num_queries(10):
        client_reviewer_a.get(URL, params)


def test_cited_articles_are_stored_for_the_filter(rulings):
    """The filter's column holds the articles of the legal basis (LegalBasis), not those of
    the question cards shown on the way (25 here)."""
    ruling = Ruling.objects.get(uuid=rulings["straf"])
    assert citations.decode(ruling.cited_articles) == ["27", "40"]
    basis = list(ruling.legal_basis.values_list("article", flat=True))
    assert sorted(set(basis), key=int) == citations.decode(ruling.cited_articles)
    in_progress = Ruling.objects.get(uuid=rulings["bezig"])
    assert in_progress.cited_articles == ""
    assert not in_progress.legal_basis.exists()
    assert ruling.played_on == date(2025, 3, 1)
