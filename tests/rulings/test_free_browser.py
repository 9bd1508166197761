"""A free ruling in Chromium, on a laptop and a phone: the finder has no tree for the words, the
director makes a free ruling, picks laws 68 and 70 from the law search, writes the decision,
fills the board, saves it finally and finds it in the archive."""

import re

import pytest
from playwright.sync_api import expect

from rulings import audit, free
from rulings.models import Ruling, Status

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SIZES = {"laptop": {"width": 1366, "height": 768}, "phone": {"width": 390, "height": 844}}
# "claim" has a tree of its own now; a power cut has none.
NO_TREE = "stroomstoring"
DECISION = "De claim is betwist: de laatste slag gaat naar de verdediging."


@pytest.fixture
def shipped_laws_and_trees(db):
    """The shipped data is in every test database (tests/conftest.py)."""


def fits_the_screen(page, width: int) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= width


@pytest.mark.parametrize("size", SIZES)
def test_a_free_ruling_where_no_tree_fits(
    page, live_server, login, sign_in, director_a, shipped_laws_and_trees, size
):
    page.set_viewport_size(SIZES[size])
    # The login form once in this module (tests/conftest.py: ``sign_in``).
    (login if size == "phone" else sign_in)(page, director_a)
    page.goto(f"{live_server.url}/arbitrage/nieuw/")
    page.locator("[data-tree-search]").fill(NO_TREE)
    offer = page.locator("[data-free-offer]")
    expect(offer).to_be_visible()
    expect(page.locator("#tree-list")).to_contain_text("Geen beslisboom gevonden")
    offer.get_by_role("link", name="Vrije arbitrage maken").click()

    expect(page.get_by_role("heading", name="Vrije arbitrage", exact=True)).to_be_visible()
    expect(page.locator("#law-search")).to_have_value(NO_TREE)  # the words came along
    fits_the_screen(page, SIZES[size]["width"])
    laws = page.get_by_role("textbox", name="Wetsartikelen", exact=True)
    page.locator("#law-search").fill("claim")
    page.locator('[data-add-law="68"]').click()
    expect(laws).to_have_value("68")
    page.locator("#law-search").fill("70")
    page.locator('[data-add-law="70"]').click()
    expect(laws).to_have_value("68, 70")

    page.get_by_role("textbox", name="Beslissing", exact=True).fill(DECISION)
    page.get_by_label("Wat aan tafel is gezegd").fill("Oost-West krijgen de laatste slag.")
    page.locator("#id_board").fill("14")
    page.locator("#id_table").fill("3")
    page.get_by_role("button", name="Definitief opslaan").click()

    page.wait_for_url(re.compile(r"/arbitrages/[0-9a-f-]{36}/$"))
    expect(page.locator(".outcome-ruling")).to_contain_text(DECISION)
    # The legal basis with its law text (the record's print-only copy of it stays hidden).
    law = page.locator("#wetsartikelen").get_by_text("Betwiste claim of concessie").first
    expect(law).to_be_visible()
    ruling = Ruling.objects.get(tree_slug=free.FREE_SLUG)
    assert ruling.status == Status.FINAL
    assert ruling.board == 14
    assert ruling.cited_articles == "|68|70|"
    assert audit.verify(ruling) == []

    page.goto(f"{live_server.url}/arbitrages/")
    row_link = page.locator(f'a[href="/arbitrages/{ruling.uuid}/"]').first
    expect(row_link).to_be_attached()
    row_link.click()
    page.wait_for_url(f"**/arbitrages/{ruling.uuid}/")
    expect(page.get_by_text(DECISION, exact=True).first).to_be_visible()
