"""Every page in English: each GET route of the isolation matrix (tests/security/
test_isolation_matrix.py), asked for by a member who may see it with English chosen, must not
show the app's own Dutch interface words (issue 30, item 8).

The words are the interface's, not the club's: what people typed (club and event names, notes,
a club case's Dutch title and situation) stays as typed, and is taken out of the page before
the search; so is law text (``data-law-text``: an old edition's text exists only in Dutch).
"""

from __future__ import annotations

import re

import pytest
from django.test import Client

from tests.security.test_isolation_matrix import OK, request, routes, rules_for, url_for
from tests.support.world import World

pytestmark = pytest.mark.django_db

# Dutch words of the interface that English never uses; whole words, case-sensitive.
DUTCH = (
    "Arbitrage",
    "Arbitrages",
    "arbitrages",
    "Wedstrijdleider",
    "wedstrijdleider",
    "Beslisboom",
    "beslisboom",
    "Spelregels",
    "spelregels",
    "Uitstellen",
    "Opslaan",
    "Bewaren",
    "Afdrukken",
    "Beoordeling",
    "beoordeeld",
    "Wetsartikelen",
    "Gegevens",
    "Vrije arbitrage",
    "kwetsbaar",
    "Noord",
    "Zuid",
    "Oost",
    "Tafel",
    "tafel",
    "Zoeken",
    "Archief",
    "Statistiek",
    "Leden",
    "Nieuwe",
    "Uitslag",
    "Terug",
    "Editie",
    "editie",
    "Speeldatum",
    "Uitkomst",
    "Oefenen",
    "Wachtwoord",
    "wachtwoord",
    "Beroep",
    "Verslag",
    "Spel",
    "Handen",
    "gever",
    "Kies",
    "Volgens de speeldatum",
    "Samenvatting",
    "niet-overtreders",
    "overtreders",
    "Nog geen",
    "Geen",
    "Alle",
    "Toon",
    "voor NZ",
    "NZ",
    "OW",
)
WORDS = re.compile(r"(?<![\w/-])(" + "|".join(map(re.escape, DUTCH)) + r")(?![\w/-])")
# What people typed: kept as typed in every language.
TYPED = (
    "BC De Troefkaart",
    "BC Het Vrije Slagje",
    "Eigen casus van de club",
    "Dinsdagles",
    "Noord opent 1♥, Oost biedt 1♠ onvoldoende.",
    "**Noord** opent 1♥, Oost biedt 1♠ onvoldoende.",  # the same in the edit form
)
READERS = ("admin_a", "director_a", "reviewer_a", "trainer_a", "director_b", "anonymous")


def visible_text(html: str) -> str:
    """The page's words as a reader meets them: no scripts, styles, tags or attribute values
    other than a few a reader sees (titles, labels, placeholders)."""
    html = re.sub(r"(?is)<(script|style)\b.*?</\1>", " ", html)
    html = re.sub(r"(?is)<div[^>]*data-law-text[^>]*>.*?</div>", " ", html)
    seen = " ".join(re.findall(r'(?i)\b(?:title|aria-label|placeholder|alt|value)="([^"]*)"', html))
    text = re.sub(r"(?s)<[^>]+>", " ", html) + " " + seen
    text = re.sub(r"\s+", " ", text)
    for typed in TYPED:
        # As typed, whatever spacing the page puts around a suit symbol in its own element.
        pattern = r"\s*".join(map(re.escape, typed.replace(" ", "")))
        text = re.sub(pattern, " ", text)
    return text


def english_pages():
    for route in routes():
        for case in rules_for(route):
            if (
                case.method != "GET"
                or route.key.startswith("admin:")
                or route.route.startswith("beheer/")
            ):
                continue
            reader = next((p for p in READERS if case.expect.get(p) == OK), None)
            if reader is not None:
                yield pytest.param(route, case, reader, id=f"{route.key} {case.variant}".strip())


@pytest.mark.parametrize(("route", "case", "reader"), list(english_pages()))
def test_the_page_has_no_dutch_interface_words_in_english(
    world: World, client_as, route, case, reader
) -> None:
    client: Client = client_as(reader)
    session = client.session
    session["language"] = "en"
    session.save()
    client.cookies["django_language"] = "en"
    response = request(client, "GET", url_for(route, case, world), {})
    assert response.status_code == OK
    body = response.body.decode("utf-8", errors="replace")
    if not response.get("Content-Type", "").startswith("text/html"):
        return
    found = sorted(set(WORDS.findall(visible_text(body))))
    assert not found, f"Dutch on {route.key} in English: {found}"
