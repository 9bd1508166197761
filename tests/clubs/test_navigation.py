"""Each role sees only the navigation it may use, and the styled error pages (issue 30, 1)."""

import re
import uuid

import pytest
from django.db import connection
from django.test import RequestFactory
from django.test.utils import CaptureQueriesContext
from django.utils import translation
from django.views.defaults import server_error

from clubs.models import Role
from tests.conftest import logged_in, make_user


def nav_links(html: str) -> list[str]:
    header = html.split("</header>", 1)[0]
    return re.findall(r'class="nav-link[^"]*"[^>]*href="([^"]+)"', header)


@pytest.mark.parametrize("persona", ["director", "reviewer", "trainer", "admin"])
def test_every_link_the_menu_offers_opens(club_a, persona):
    """The reviewer and the trainer were offered 'Nieuwe arbitrage' and 'Spellen' and got a
    bare 403: every link in the menu and on the home page now opens for the one who sees it."""
    user = make_user(persona, club_a, Role(persona))
    client = logged_in(user)
    home = client.get("/").content.decode()
    links = nav_links(home) + re.findall(r'<a class="btn[^"]*" href="(/[^"]+)"', home)
    assert links
    for link in links:
        assert client.get(link).status_code == 200, (persona, link)


@pytest.mark.parametrize("persona", ["reviewer", "trainer"])
def test_who_makes_no_rulings_is_not_offered_to_start_one(club_a, persona):
    client = logged_in(make_user(persona, club_a, Role(persona)))
    home = client.get("/").content.decode()
    assert "/arbitrage/nieuw/" not in home
    assert "Nieuwe arbitrage" not in home
    assert "/spellen/" not in home
    assert "data-home-other-roles" in home
    # Typed by hand, the start page explains instead of offering trees.
    start = client.get("/arbitrage/nieuw/").content.decode()
    assert "U bent bij geen club wedstrijdleider" in start


def test_a_director_is_offered_a_new_ruling(client_director_a):
    home = client_director_a.get("/").content.decode()
    assert "data-nav-start" in home
    assert "data-new-ruling" in home


def test_a_user_without_a_club_sees_no_archive(db):
    client = logged_in(make_user("zwerver"))
    home = client.get("/").content.decode()
    assert "data-nav-archive" not in home
    for link in nav_links(home):
        assert client.get(link).status_code == 200, link


def test_the_403_page_is_styled_and_leads_home(client_reviewer_a):
    response = client_reviewer_a.get(f"/arbitrage/vrij/{uuid.uuid4()}/")
    assert response.status_code == 403
    html = response.content.decode()
    assert 'data-error-page="403"' in html
    assert "Geen toegang" in html
    assert 'href="/" data-error-home' in html
    assert "Leidraad" in html
    assert "Uitloggen" in html


def test_the_error_pages_speak_english_to_an_english_user(reviewer_a):
    reviewer_a.language = "en"
    reviewer_a.save()
    client = logged_in(reviewer_a)
    client.post("/taal/", {"language": "en", "next": "/"})
    html = client.get(f"/arbitrage/vrij/{uuid.uuid4()}/").content.decode()
    assert "No access" in html
    assert "Geen toegang" not in html
    html = client.get(f"/arbitrages/{uuid.uuid4()}/").content.decode()
    assert "Page not found" in html
    assert "To the home page" in html


def test_the_404_page_is_styled(client_director_a):
    response = client_director_a.get(f"/arbitrages/{uuid.uuid4()}/")
    assert response.status_code == 404
    html = response.content.decode()
    assert 'data-error-page="404"' in html
    assert "Pagina niet gevonden" in html


def test_a_stale_form_gets_the_styled_csrf_page(director_a):
    client = logged_in(director_a)
    client.handler.enforce_csrf_checks = True
    response = client.post("/taal/", {"language": "en"})
    assert response.status_code == 403
    assert "Formulier verlopen" in response.content.decode()


@pytest.mark.django_db
@pytest.mark.parametrize(("language", "text"), [("nl", "Er ging iets mis"), ("en", "went wrong")])
def test_the_500_page_needs_no_database_and_speaks_the_language(language, text):
    request = RequestFactory().get("/")
    with translation.override(language), CaptureQueriesContext(connection) as queries:
        response = server_error(request)
    assert response.status_code == 500
    html = response.content.decode()
    assert text in html
    assert 'data-error-page="500"' in html
    assert 'href="/"' in html
    assert not queries.captured_queries
