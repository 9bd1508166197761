"""In Chromium at 1366×768 and 390×844: "Uitstellen" asks table and board, keyboard first, and
the home page then tells the deferred ruling apart by them."""

from __future__ import annotations

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from rulings.models import Ruling, Status
from tests.support.rulings import begin_proef

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SIZES = {"laptop": {"width": 1366, "height": 768}, "phone": {"width": 390, "height": 844}}


@pytest.mark.parametrize("size", SIZES)
def test_deferring_asks_table_and_board(
    page, live_server, sign_in, proef_tree, club_a, director_a, size
):
    ruling = begin_proef(club_a, director_a)
    page.set_viewport_size(SIZES[size])
    sign_in(page, director_a)
    page.goto(live_server.url + reverse("wizard:ruling", args=[ruling.uuid]))
    page.locator("[data-defer] summary").click()
    expect(page.locator("#defer-table")).to_be_focused()
    assert page.evaluate("document.documentElement.scrollWidth") <= SIZES[size]["width"]
    # Enter with the board still empty: the browser asks for it, nothing is deferred.
    page.keyboard.type("7")
    page.keyboard.press("Enter")
    expect(page.locator("#defer-board")).to_be_focused()
    page.keyboard.type("21")
    page.keyboard.press("Enter")
    expect(page.get_by_text("De arbitrage is uitgesteld")).to_be_visible()
    item = page.locator(f"[data-open-ruling='{ruling.uuid}']")
    expect(item).to_contain_text("tafel 7")
    expect(item).to_contain_text("spel 21")
    stored = Ruling.objects.get(pk=ruling.pk)
    assert (stored.status, stored.table, stored.board) == (Status.DEFERRED, 7, 21)
