"""In Chromium at 1366×768 and 390×844: a committee filters the archive on "oneens met de
wedstrijdleider" and reads on the statistics page, per tree, how often reviewers disagreed."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from archive.reviews import record_review
from rulings.models import Verdict
from tests.support.rulings import make_ruling

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SIZES = {"laptop": {"width": 1366, "height": 768}, "phone": {"width": 390, "height": 844}}


@pytest.mark.parametrize("size", SIZES)
def test_a_committee_finds_where_directors_go_wrong(
    page, live_server, sign_in, club_a, director_a, reviewer_a, size
):
    for table, verdict in ((1, Verdict.CONFIRMED), (2, Verdict.OVERTURNED), (3, None)):
        ruling = make_ruling(club_a, director_a, ("ja", "nee"), table=table)
        if verdict:
            record_review(ruling, reviewer_a, verdict, "Gezien.")
    page.set_viewport_size(SIZES[size])
    sign_in(page, reviewer_a)
    page.goto(f"{live_server.url}/arbitrages/statistiek/")
    block = page.locator("[data-disagreement]")
    expect(block.locator("[data-disagreement-row]")).to_have_count(1)
    expect(block.locator("[data-disagreement-row]")).to_contain_text("Proefboom")
    expect(block.locator("[data-disagreement-row] td").last).to_have_text("50%")

    page.goto(f"{live_server.url}/arbitrages/")
    if size == "phone":
        page.get_by_text("Filters", exact=True).click()
    page.get_by_label("Oordeel").select_option("disagreed")
    results = page.locator("#results")
    expect(results.get_by_role("heading", level=2)).to_have_text("1 arbitrage")
    expect(results.locator("tbody tr td[data-label='Tafel']")).to_have_text("2")
