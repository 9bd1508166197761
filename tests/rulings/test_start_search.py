"""From the director's words to the right question (issue 29), over HTTP: the start page's
results with the line saying when each applies, a tree opened on the way to the question
found (the earlier questions still asked, the answer leading there pre-selected, the wizard's
rules unchanged), a key for every answer, and the free ruling's link to the nearest tree
(issue 32)."""

import re
import uuid
from urllib.parse import parse_qs, urlparse

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from rulings.models import AuditEvent, Ruling
from rulings.steps import SHORTCUTS
from tests.support.rulings import actions_of

HTMX = {"HTTP_HX_REQUEST": "true"}
PENALTY_CARD = "strafkaart niet gespeeld"


def start_page(client, query: str, **headers) -> str:
    return client.get(reverse("wizard:start"), {"q": query}, **headers).content.decode()


def result_links(html: str) -> dict[str, str]:
    """The tree results' links by slug."""
    links = re.findall(r'class="[^"]*tree-choice" data-pick href="([^"]+)"', html)
    return {urlparse(link).path.split("/")[3]: link.replace("&amp;", "&") for link in links}


def test_a_result_found_at_a_question_says_so_and_links_there(shipped, client_director_a):
    html = start_page(client_director_a, PENALTY_CARD)
    link = result_links(html)["strafkaart"]
    assert parse_qs(urlparse(link).query)["vraag"] == ["kon-spelen"]
    assert "Opent op weg naar de vraag ‘Moest hij op dat moment de strafkaart spelen?’" in html
    # Every result has its line saying when the tree applies.
    assert html.count("data-when") == len(result_links(html))


def test_an_ambiguous_search_offers_both_trees_each_with_when_it_applies(
    shipped, client_director_a
):
    html = start_page(client_director_a, "opening voor de beurt")
    assert list(result_links(html))[:2] in (
        ["bod-voor-de-beurt", "voor-de-beurt-uitkomen"],
        ["voor-de-beurt-uitkomen", "bod-voor-de-beurt"],
    )
    assert "data-ambiguous" in html
    assert "terwijl een ander aan de beurt is" in html  # the call out of rotation
    assert "komt uit of speelt voor terwijl hij niet aan de beurt is" in html  # the lead
    assert "data-ambiguous" not in start_page(client_director_a, "verzaakt")


def test_the_list_says_which_words_it_answers(shipped, client_director_a):
    """static/js/wizard.js compares them with the search field: a list for older words is
    never acted on."""
    html = start_page(client_director_a, "verzaakt", **HTMX)
    assert html.strip().startswith('<div id="tree-list" aria-live="polite" data-query="verzaakt"')
    plain = client_director_a.get(reverse("wizard:start")).content.decode()
    assert 'data-query=""' in plain
    escaped = start_page(client_director_a, '"><b>x', **HTMX)
    assert 'data-query="&quot;&gt;&lt;b&gt;x"' in escaped


def test_every_result_and_the_free_ruling_can_be_reached_by_arrow_keys(shipped, client_director_a):
    html = start_page(client_director_a, "verzaakt")
    assert re.search(r"data-free-ruling data-pick", html)
    nothing = start_page(client_director_a, "stroomstoring")
    assert re.search(r"data-free-ruling data-pick", nothing)


# --- a tree opened on the way to a question ---------------------------------------------------


def draft_on_the_way(client, target="kon-spelen", **headers):
    start = client.get(reverse("wizard:tree", args=["strafkaart"]), {"vraag": target})
    assert start.status_code == 302
    assert "vraag=" in start["Location"]
    return start["Location"], client.get(start["Location"], **headers).content.decode()


def chosen(html: str) -> str | None:
    """The value of the pre-selected answer button."""
    button = re.search(
        r'<button type="submit" name="choice" value="([^"]+)"[^>]*data-wizard-selected', html, re.S
    )
    return button.group(1) if button else None


def test_the_first_question_is_asked_with_the_answer_leading_there_preselected(
    shipped, client_director_a
):
    _url, html = draft_on_the_way(client_director_a)
    assert "Waarvoor wordt u geroepen?" in html  # the tree's first question, still asked
    assert chosen(html) == "andere-kaart"
    assert "op weg naar de gezochte vraag" in html
    assert "Gezocht: ‘Moest hij op dat moment de strafkaart spelen?’" in html
    assert '<input type="hidden" name="vraag" value="kon-spelen">' in html
    assert not Ruling.objects.exists()  # a ruling exists from its first answer


@pytest.mark.parametrize("target", ["grote-strafkaart", "nergens", "<b>"])
def test_no_question_to_go_to_shows_the_tree_as_usual(shipped, client_director_a, target):
    """An outcome, an unknown node: nothing pre-selected, nothing said."""
    _url, html = draft_on_the_way(client_director_a, target)
    assert "Waarvoor wordt u geroepen?" in html
    assert chosen(html) is None
    assert "data-toward" not in html
    assert 'name="vraag"' not in html


def answer_first(client, url, html, **headers):
    digest = re.search(r'name="snapshot" value="([0-9a-f]{64})"', html).group(1)
    data = {
        "node": "situatie",
        "step": 1,
        "revision": 0,
        "choice": "andere-kaart",
        "snapshot": digest,
        "club": "troefkaart",
        "played_on": "2024-05-01",
        "vraag": "kon-spelen",
    }
    return client.post(url.split("?")[0], data, **headers)


def test_the_way_goes_along_without_javascript(shipped, client_director_a):
    url, html = draft_on_the_way(client_director_a)
    response = answer_first(client_director_a, url, html)
    assert response.status_code == 302
    assert response["Location"].endswith("/stap/2/?vraag=kon-spelen")
    arrived = client_director_a.get(response["Location"]).content.decode()
    assert "Moest hij op dat moment de strafkaart spelen?" in arrived
    assert "Dit is de vraag die u zocht." in arrived
    assert chosen(arrived) is None  # the question found is the director's to answer
    ruling = Ruling.objects.get()
    # The same audit trail as any ruling: started, the answer as the director gave it.
    assert actions_of(ruling) == ["started", "answered"]
    assert ruling.path == [["situatie", "andere-kaart"]]


def test_the_way_goes_along_with_htmx(shipped, client_director_a):
    url, html = draft_on_the_way(client_director_a)
    response = answer_first(client_director_a, url, html, **HTMX)
    assert response.status_code == 200
    assert response["HX-Push-Url"].endswith("/stap/2/?vraag=kon-spelen")
    assert "Dit is de vraag die u zocht." in response.content.decode()


def test_a_refused_first_answer_asks_the_first_question_again_on_the_way(
    shipped, client_director_a
):
    """An answer the question does not have (htmx): the first question again with the reason,
    still on the way to the question found; nothing stored."""
    url, html = draft_on_the_way(client_director_a)
    digest = re.search(r'name="snapshot" value="([0-9a-f]{64})"', html).group(1)
    data = {
        "node": "situatie",
        "step": 1,
        "revision": 0,
        "choice": "geen-antwoord",
        "snapshot": digest,
        "club": "troefkaart",
        "vraag": "kon-spelen",
    }
    response = client_director_a.post(url.split("?")[0], data, **HTMX)
    again = response.content.decode()
    assert "Waarvoor wordt u geroepen?" in again
    assert chosen(again) == "andere-kaart"
    assert '<input type="hidden" name="vraag" value="kon-spelen">' in again
    assert not Ruling.objects.exists()


def test_a_stale_form_on_the_way_is_refused_as_any(shipped, client_director_a):
    url, html = draft_on_the_way(client_director_a)
    answer_first(client_director_a, url, html)
    events = AuditEvent.objects.count()
    ruling = Ruling.objects.get()
    stale = {"node": "situatie", "step": 1, "revision": 0, "choice": "kaart-getoond"}
    response = client_director_a.post(
        reverse("wizard:answer", args=[ruling.uuid]), {**stale, "vraag": "kon-spelen"}
    )
    assert response.status_code == 302
    assert AuditEvent.objects.count() == events
    ruling.refresh_from_db()
    assert ruling.path == [["situatie", "andere-kaart"]]


def test_an_answer_off_the_way_leaves_it(shipped, client_director_a):
    """The card was exposed after all: the way to the question found is gone, nothing is
    pre-selected on the questions that follow."""
    url, html = draft_on_the_way(client_director_a)
    digest = re.search(r'name="snapshot" value="([0-9a-f]{64})"', html).group(1)
    data = {
        "node": "situatie",
        "step": 1,
        "revision": 0,
        "choice": "kaart-getoond",
        "snapshot": digest,
        "club": "troefkaart",
        "vraag": "kon-spelen",
    }
    response = client_director_a.post(url.split("?")[0], data, follow=True)
    html = response.content.decode()
    assert "Wanneer werd de kaart getoond?" in html
    assert "data-toward" not in html
    assert chosen(html) is None


# --- a key for every answer -----------------------------------------------------------------


def test_the_tenth_answer_has_key_0_and_later_ones_letters():
    assert SHORTCUTS[:12] == "1234567890ab"


def test_a_question_with_ten_answers_shows_a_key_on_each(shipped, client_director_a):
    start = client_director_a.get(reverse("wizard:tree", args=["teruggenomen-kaart"]))
    html = client_director_a.get(start["Location"]).content.decode()
    digest = re.search(r'name="snapshot" value="([0-9a-f]{64})"', html).group(1)
    data = {"node": "gespeeld", "step": 1, "revision": 0, "choice": "ja", "snapshot": digest}
    second = client_director_a.post(start["Location"], data, follow=True).content.decode()
    assert "Waarom wil de speler de gespeelde kaart terugnemen" in second
    keys = re.findall(r'data-choice="([^"]+)" aria-keyshortcuts="\1"', second)
    assert keys == list("1234567890")
    assert '<kbd class="choice-key" aria-hidden="true">0</kbd>' in second


# --- the free ruling's nearest tree (issue 32) ------------------------------------------------


def free_page(client, words: str) -> str:
    page = client.get(reverse("wizard:free", args=[uuid.uuid4()]), {"q": words})
    return page.content.decode()


def test_the_free_ruling_links_to_the_tree_at_the_question_its_words_match(
    shipped, client_director_a
):
    html = free_page(client_director_a, PENALTY_CARD)
    assert "data-nearest-tree" in html
    assert "Dichtstbijzijnde beslisboom: Strafkaart" in html
    link = re.search(r'href="(/arbitrage/nieuw/strafkaart/\?[^"]+)"', html).group(1)
    assert parse_qs(urlparse(link.replace("&amp;", "&")).query)["vraag"] == ["kon-spelen"]


def test_no_link_when_the_words_only_name_a_tree_or_nothing(shipped, client_director_a):
    assert "data-nearest-tree" not in free_page(client_director_a, "claim")
    assert "data-nearest-tree" not in free_page(client_director_a, "stroomstoring")
    assert "data-nearest-tree" not in free_page(client_director_a, "")


def test_in_english_the_results_and_the_way_speak_english(shipped, client_director_a):
    client_director_a.post(reverse("set_language"), {"language": "en", "next": "/"})
    html = start_page(client_director_a, PENALTY_CARD)
    question = "Was he required to play the penalty card at that moment?"
    assert f"Opens on the way to the question ‘{question}’" in html
    assert "A defender has exposed a card" in html  # the line saying when it applies
    _url, step = draft_on_the_way(client_director_a)
    assert f"Searched for: ‘{question}’" in step
    assert "on the way to the question searched for" in step


def test_a_search_costs_no_query_more_than_the_plain_list(shipped, client_director_a):
    """The trees' indexes are made by the first search of a process (three queries); after
    that a search reads the same rows as the plain list."""
    url = reverse("wizard:start")
    client_director_a.get(url, {"q": "verzaakt"})
    with CaptureQueriesContext(connection) as plain:
        client_director_a.get(url)
    with CaptureQueriesContext(connection) as searched:
        client_director_a.get(url, {"q": PENALTY_CARD})
    assert len(searched) == len(plain) <= 6
