"""Free ruling pages over HTTP: the finder's offer, the form without JavaScript (search, add a
law, draft, final), errors in place, repeated submissions, access and the query budget."""

import uuid
from urllib.parse import parse_qs, urlparse

import pytest
from django.contrib.messages import get_messages
from django.urls import reverse

from rulings import audit, free
from rulings.models import Ruling, Status

HTMX = {"HTTP_HX_REQUEST": "true"}
BOARD = {"played_on": "2026-03-03", "board": "7", "table": "4", "event": "Clubavond"}


@pytest.fixture
def laws(db):
    """The shipped data is in every test database (tests/conftest.py)."""


def form_data(revision=0, **extra):
    data = {
        "revision": str(revision),
        "laws": "68, 70",
        "decision": "De claim wordt betwist; de verdediging krijgt de laatste slag.",
        "announcement": "Ik ken de laatste slag toe aan Oost-West.",
        **BOARD,
    }
    data.update(extra)
    return data


def free_url(key=None):
    return reverse("wizard:free", args=[key or uuid.uuid4()])


def messages_of(response):
    return [str(m) for m in get_messages(response.wsgi_request)]


NO_TREE = "stroomstoring"  # a power cut: no tree covers it (claims do have one now)


def test_the_finder_offers_a_free_ruling_when_no_tree_matches(shipped, client_director_a):
    page = client_director_a.get(reverse("wizard:start"), {"q": NO_TREE}).content.decode()
    assert "Geen beslisboom gevonden" in page
    assert "data-free-offer" in page
    link = urlparse(page.split("data-free-offer")[1].split('href="')[1].split('"')[0])
    assert link.path == reverse("wizard:free_start")
    assert parse_qs(link.query.replace("&amp;", "&"))["q"] == [NO_TREE]


def test_the_finder_always_has_a_quiet_free_link(shipped, client_director_a):
    page = client_director_a.get(reverse("wizard:start"), {"q": "claim"}).content.decode()
    assert "Claim en concessie" in page
    assert "data-free-offer" not in page
    assert "data-free-ruling" in page


def test_start_gives_a_fresh_id_and_carries_the_words(laws, client_director_a):
    response = client_director_a.get(reverse("wizard:free_start"), {"q": "claim"})
    assert response.status_code == 302
    assert response.url.startswith(reverse("wizard:free_start"))
    assert response.url != reverse("wizard:free_start")
    page = client_director_a.get(response.url).content.decode()
    assert 'value="claim"' in page
    assert 'data-add-law="68"' in page
    assert 'data-add-law="70"' in page
    assert not Ruling.objects.exists()


def test_adding_a_law_keeps_what_was_typed_and_stores_nothing(laws, client_director_a):
    data = form_data(laws="68", add="70", decision="Half geschreven")
    page = client_director_a.post(free_url(), data).content.decode()
    assert 'value="68, 70"' in page
    assert "Half geschreven" in page
    assert "Betwiste claim of concessie" in page  # law 70's card, to read before saving
    assert not Ruling.objects.exists()


def test_search_without_javascript_lists_laws(laws, client_director_a):
    page = client_director_a.post(free_url(), form_data(action="search", wet="16B")).content
    assert b'data-add-law="16B"' in page


def test_suggestions_as_one_types(laws, client_director_a):
    url = reverse("wizard:free_laws")
    fragment = client_director_a.get(url, {"wet": "claim"}, **HTMX).content.decode()
    assert "<html" not in fragment
    assert 'data-add-law="68"' in fragment
    page = client_director_a.get(url, {"wet": "claim"}).content.decode()
    assert reverse("laws:article", args=["2017", "68"]) in page


def test_unknown_and_malformed_laws_are_shown_in_place(laws, client_director_a):
    response = client_director_a.post(free_url(), form_data(laws="68, 99", action="final"))
    assert response.status_code == 400
    assert "99 bestaat niet in 2017; bedoelt u 93?" in response.content.decode()
    response = client_director_a.post(free_url(), form_data(laws="68, 64A1(aa)", action="final"))
    assert "geen wetsverwijzing" in response.content.decode()
    assert not Ruling.objects.exists()


def test_final_needs_the_board_and_keeps_the_text(laws, client_director_a):
    response = client_director_a.post(free_url(), form_data(board="", action="final"))
    assert response.status_code == 400
    assert "De claim wordt betwist" in response.content.decode()
    assert not Ruling.objects.exists()


def test_a_draft_is_kept_and_resumed_from_home(laws, client_director_a):
    url = free_url()
    response = client_director_a.post(url, form_data(board="", action="draft"))
    assert response.status_code == 302
    ruling = Ruling.objects.get()
    assert ruling.status == Status.IN_PROGRESS
    home = client_director_a.get(reverse("home")).content.decode()
    assert f'data-open-ruling="{ruling.uuid}"' in home
    assert "data-unsaved-free" in home
    assert client_director_a.get(reverse("wizard:ruling", args=[ruling.uuid])).url == url
    page = client_director_a.get(url).content.decode()
    assert "De claim wordt betwist" in page
    assert 'value="68, 70"' in page
    final = client_director_a.post(url, form_data(revision=ruling.audit_sequence, action="final"))
    assert final.url == reverse("archive:detail", args=[ruling.uuid])
    ruling.refresh_from_db()
    assert ruling.status == Status.FINAL


def test_final_shows_the_record_with_laws_decision_and_announcement(laws, client_director_a):
    url = free_url()
    response = client_director_a.post(url, form_data(action="final"))
    ruling = Ruling.objects.get()
    assert response.url == reverse("archive:detail", args=[ruling.uuid])
    assert audit.verify(ruling) == []
    for record in (response.url, reverse("wizard:ruling", args=[ruling.uuid])):
        page = client_director_a.get(record, follow=True).content.decode()
        assert "De claim wordt betwist" in page
        assert "Ik ken de laatste slag toe" in page
        assert "Betwiste claim of concessie" in page  # the title of law 70, on its card
        assert "zonder beslisboom" in page
        assert reverse("trees:detail", args=[free.FREE_SLUG]) not in page  # no such tree
    # the back button to the form: the record, never a second ruling
    assert client_director_a.get(url).url == response.url


def test_a_double_submission_makes_one_ruling(laws, client_director_a):
    url = free_url()
    first = client_director_a.post(url, form_data(action="final"))
    second = client_director_a.post(url, form_data(action="final"))
    assert Ruling.objects.count() == 1
    assert second.url == first.url
    assert any("definitief opgeslagen" in m for m in messages_of(second))


def test_a_stale_draft_form_changes_nothing(laws, client_director_a):
    url = free_url()
    client_director_a.post(url, form_data(action="draft"))
    seen = Ruling.objects.get().audit_sequence  # two tabs show the draft as it is now
    client_director_a.post(url, form_data(revision=seen, decision="Nieuwe tekst", action="draft"))
    response = client_director_a.post(url, form_data(revision=seen, decision="Oud", action="draft"))
    assert response.status_code == 302
    assert free.content_of(Ruling.objects.get()).decision == "Nieuwe tekst"
    assert any("verouderd" in m for m in messages_of(response))


def test_only_the_director_continues_and_other_clubs_get_404(
    laws, client_director_a, client_reviewer_a, client_director_b
):
    url = free_url()
    client_director_a.post(url, form_data(action="draft"))
    assert client_reviewer_a.get(url).status_code == 403
    assert client_director_b.get(url).status_code == 404
    assert client_director_b.post(url, form_data(revision=1, action="final")).status_code == 404
    assert Ruling.objects.get().status == Status.IN_PROGRESS


def test_a_reviewer_cannot_start_a_free_ruling(laws, client_reviewer_a):
    assert client_reviewer_a.get(reverse("wizard:free_start")).status_code == 403
    assert client_reviewer_a.post(free_url(), form_data(action="final")).status_code == 403
    assert not Ruling.objects.exists()


def test_the_form_costs_a_constant_number_of_queries(
    laws, client_director_a, django_assert_max_num_queries
):
    url = free_url()
    client_director_a.post(url, form_data(action="draft"))
    # 15: one of them reads the tree rows for the nearest tree (issue 32).
    with django_assert_max_num_queries(15):
        assert client_director_a.get(url).status_code == 200
    with django_assert_max_num_queries(15):
        assert client_director_a.get(free_url(), {"q": "claim"}).status_code == 200
