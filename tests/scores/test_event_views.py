"""The page of one board (diagram, double-dummy table, every table's result, in the reader's
language) and of one event (its scoring, deleting it); CSRF and other clubs."""

from pathlib import Path

import pytest
from django.test import Client
from django.urls import reverse

from scores import deals as store
from scores.importing import import_file
from scores.models import Event, StoredDeal
from scores.pbn import read_pbn
from tests.support.rulings import make_ruling

STYLES = Path(__file__).resolve().parent.parent / "data" / "pbn"


@pytest.fixture(autouse=True)
def _no_solver(quick_analysis):
    """No real double-dummy runs on these pages."""


@pytest.fixture
def magic(club_a):
    import_file(club_a, "Parenavond", read_pbn(STYLES / "magic-contest.pbn"), "mc.pbn")
    return StoredDeal.objects.filter(club=club_a).order_by("board")


def board_url(row) -> str:
    return reverse("scores:board", args=[row.club.slug, row.pk])


def test_a_board_shows_its_diagram_table_and_every_result(
    client_director_a, magic, django_assert_max_num_queries
):
    first, second = magic
    with django_assert_max_num_queries(8):
        page = client_director_a.get(board_url(first)).content.decode()
    assert "Spel 1 · Parenavond" in page
    assert 'data-hand="N"' in page
    assert 'data-dd-row="W"' in page
    assert page.count('data-result="') == 6
    assert "4♣X-2" in page  # section A, table 1: 4CX-2 by South, in Dutch letters
    assert "<td>Z</td>" in page
    assert ">Lijn of wedstrijd</th>" in page  # the two sections of the board
    assert "Telling: matchpunten." in page
    assert f'href="{board_url(second)}" rel="next"' in page
    assert 'rel="prev"' not in page


def test_a_board_speaks_english_on_an_english_page(client_director_a, magic):
    client_director_a.post("/taal/", {"language": "en", "next": "/"})
    page = client_director_a.get(board_url(magic[0])).content.decode()
    assert "Board 1" in page
    assert "<td>S</td>" in page  # South
    assert "Score NS" in page


def test_the_scoring_of_an_event_is_chosen_on_the_deals_page(client_director_a, club_a, magic):
    event = Event.objects.get(club=club_a)
    deals_url = reverse("scores:deals", args=[club_a.slug])
    page = client_director_a.get(deals_url).content.decode()
    assert '<option value="mp" selected>' in page
    url = reverse("scores:event_scoring", args=[club_a.slug, event.pk])
    response = client_director_a.post(url, {"scoring": "butl"}, follow=True)
    assert "Telling van Parenavond: Butler (datum)." in response.content.decode()
    event.refresh_from_db()
    assert event.scoring == "butl"
    refused = client_director_a.post(url, {"scoring": "rubber"}, follow=True)
    assert "Kies een telling uit de lijst." in refused.content.decode()
    event.refresh_from_db()
    assert event.scoring == "butl"
    assert client_director_a.get(url).status_code == 405


def test_deleting_an_event_asks_first_and_keeps_the_rulings(
    client_director_a, club_a, director_a, magic
):
    event = Event.objects.get(club=club_a)
    ruling = make_ruling(club_a, director_a, event="Parenavond", board=1)
    url = reverse("scores:event_delete", args=[club_a.slug, event.pk])
    page = client_director_a.get(url).content.decode()
    assert "Wedstrijd Parenavond verwijderen?" in page
    assert "De 2 spellen van deze wedstrijd worden verwijderd" in page
    assert StoredDeal.objects.filter(club=club_a).count() == 2
    done = client_director_a.post(url, follow=True).content.decode()
    assert "Wedstrijd Parenavond verwijderd met 2 spellen." in done
    assert not StoredDeal.objects.filter(club=club_a).exists()
    assert not Event.objects.filter(club=club_a).exists()
    ruling.refresh_from_db()
    assert store.deal_for(ruling) is None
    assert client_director_a.post(url).status_code == 404


def test_every_post_needs_the_csrf_token(director_a, club_a, magic):
    client = Client(enforce_csrf_checks=True)
    client.force_login(director_a)
    event = Event.objects.get(club=club_a)
    for name, data in (("scores:event_scoring", {"scoring": "butl"}), ("scores:event_delete", {})):
        response = client.post(reverse(name, args=[club_a.slug, event.pk]), data)
        assert response.status_code == 403
    assert StoredDeal.objects.filter(club=club_a).count() == 2
    assert Event.objects.get(club=club_a).scoring == "mp"


def test_another_clubs_board_and_event_are_not_found(client_director_b, club_a, magic):
    event = Event.objects.get(club=club_a)
    assert client_director_b.get(board_url(magic[0])).status_code == 404
    url = reverse("scores:event_delete", args=[club_a.slug, event.pk])
    assert client_director_b.post(url).status_code == 404
    assert StoredDeal.objects.filter(club=club_a).count() == 2
