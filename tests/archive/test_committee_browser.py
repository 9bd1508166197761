"""In Chromium, on a phone and a laptop: a committee member types "tafel 7" in the archive's
search and sees the ruling of table 7 without pressing Enter; on the phone the filters are
folded away and each ruling is a card."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.support.rulings import make_ruling

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SIZES = {"phone": {"width": 390, "height": 844}, "laptop": {"width": 1366, "height": 768}}


@pytest.mark.parametrize("size", SIZES)
def test_typing_tafel_7_finds_table_7(
    size, browser, live_server, login, sign_in, club_a, director_a, reviewer_a, screenshot
):
    viewport = SIZES[size]
    for table in (5, 6, 7, 8):
        make_ruling(club_a, director_a, table=table, board=table + 10)
    context = browser.new_context(locale="nl-NL", viewport=viewport)
    page = context.new_page()
    # The login form once in this module (tests/conftest.py: ``sign_in``).
    (login if size == "phone" else sign_in)(page, reviewer_a)
    page.goto(f"{live_server.url}/arbitrages/")
    results = page.locator("#results")
    expect(results.get_by_role("heading", level=2)).to_have_text("4 arbitrages")

    fold = page.locator("#filter-fold")
    row = results.locator("tbody tr").first
    search = page.get_by_label("Zoeken in aantekeningen en uitspraak")
    if size == "phone":
        # Folded: the results are on the first screen, the filters one tap away.
        expect(fold).not_to_have_attribute("open", "")
        expect(search).to_be_hidden()
        assert row.evaluate("r => getComputedStyle(r).display") == "flex"
        assert row.evaluate("r => r.getBoundingClientRect().top") < viewport["height"]
        scroll_width = page.evaluate("document.documentElement.scrollWidth")
        assert scroll_width <= viewport["width"], scroll_width
        screenshot(page, "archive-phone-cards.png")
        page.get_by_text("Filters", exact=True).click()
    else:
        expect(fold).to_have_attribute("open", "")
        assert row.evaluate("r => getComputedStyle(r).display") == "table-row"
    expect(search).to_be_visible()

    page.evaluate("window.stillTheSamePage = true")
    search.press_sequentially("tafel 7")  # and no Enter
    expect(results.get_by_role("heading", level=2)).to_have_text("1 arbitrage")
    expect(results.locator("tbody tr")).to_have_count(1)
    expect(results.locator("tbody tr td[data-label='Tafel']")).to_have_text("7")
    expect(page).to_have_url(re.compile(r"q=tafel(\+|%20)7"))
    assert page.evaluate("window.stillTheSamePage") is True
    screenshot(page, f"archive-tafel-7-{size}.png")

    # Back returns to the whole list.
    page.go_back()
    expect(results.get_by_role("heading", level=2)).to_have_text("4 arbitrages")
    context.close()


@pytest.mark.parametrize("size", SIZES)
def test_statistics_open_with_a_summary_and_whole_labels(
    size, browser, live_server, sign_in, club_a, director_a, reviewer_a, screenshot
):
    viewport = SIZES[size]
    make_ruling(club_a, director_a, ("ja", "nee"))
    make_ruling(club_a, director_a, ("nee", "nee"))
    make_ruling(club_a, director_a, ("ja",), final=False)
    context = browser.new_context(locale="nl-NL", viewport=viewport)
    page = context.new_page()
    sign_in(page, reviewer_a)
    page.goto(f"{live_server.url}/arbitrages/statistiek/")
    summary = page.locator("[data-summary]")
    expect(summary).to_contain_text("2 definitieve arbitrages in deze selectie")
    expect(summary).to_contain_text("Meest voorkomend: Proefboom (2).")
    assert summary.evaluate("s => s.getBoundingClientRect().top") < viewport["height"]
    # Every label of the outcome chart ("Proefboom: Vervangen met beperkingen") lies inside
    # its chart: nothing is cut off at the left edge.
    labels = page.locator("#chart-outcome .bar-label")
    expect(labels).to_have_count(2)
    for index in range(2):
        assert labels.nth(index).evaluate("t => t.getBBox().x") >= 0
    screenshot(page, f"statistics-{size}.png")
    context.close()
