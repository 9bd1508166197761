"""In Chromium at laptop size: a director imports an event's PBN file and finds the deal, with
its double-dummy table, on a ruling for that event and board; and opens a board of an event
from the deals page to check it against the file."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from scores.models import StoredDeal
from tests.security.test_accessibility import axe_violations
from tests.support.rulings import make_ruling

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

FIXTURE = Path(__file__).resolve().parent.parent / "data" / "deals.pbn"


def test_import_then_see_the_deal_on_the_ruling(
    page, live_server, login, club_a, director_a, screenshot
):
    page.set_viewport_size({"width": 1366, "height": 768})
    ruling = make_ruling(club_a, director_a, event="Dinsdag 10 maart", board=2)
    login(page, director_a)

    page.goto(f"{live_server.url}/club/troefkaart/spellen/")
    expect(page.get_by_text("Nog geen spellen ingelezen.")).to_be_visible()
    page.locator("input[type=file]#id_file").set_input_files(FIXTURE)
    page.get_by_label("Wedstrijd of zitting").fill("Dinsdag 10 maart")
    page.get_by_role("button", name="Inlezen").click()
    expect(
        page.get_by_text("5 spellen ingelezen voor Dinsdag 10 maart, met 1 uitslag")
    ).to_be_visible()
    expect(page.locator('[data-event="Dinsdag 10 maart"]')).to_contain_text("5 spellen")
    assert StoredDeal.objects.filter(club=club_a, event="Dinsdag 10 maart").count() == 5
    assert axe_violations(page) == []

    page.goto(f"{live_server.url}/arbitrages/{ruling.uuid}/")
    section = page.locator("#spel")
    expect(section.get_by_role("heading", name="Het spel")).to_be_visible()
    # Board 2 of the fixture: East deals, North-South vulnerable; East holds ♠873.
    expect(section.locator("[data-deal-dealer]")).to_have_text("gever Oost")
    expect(section.locator("[data-deal-vulnerability]")).to_have_text("NZ kwetsbaar")
    east = section.locator('[data-hand="E"]')
    expect(east).to_contain_text("8 7 3")
    expect(east.locator(".suit-red").first).to_have_text("♥")
    north, south = section.locator('[data-hand="N"]'), section.locator('[data-hand="S"]')
    # The compass: North above South, West left of East.
    assert north.bounding_box()["y"] < south.bounding_box()["y"]
    west = section.locator('[data-hand="W"]')
    assert west.bounding_box()["x"] < east.bounding_box()["x"]

    table = section.locator("[data-dd-table]")
    expect(table).to_be_visible()
    expect(table.locator("tbody tr")).to_have_count(4)
    expect(table.locator('[data-dd-row="N"] td')).to_have_count(5)
    expect(section.locator("[data-par]")).to_contain_text(re.compile(r"Par: [+-]?\d+ voor NZ"))
    screenshot(page, "deal-on-ruling.png")
    assert axe_violations(page) == []
    stored = StoredDeal.objects.get(club=club_a, event="Dinsdag 10 maart", board=2)
    assert stored.analysis is not None


STYLES = FIXTURE.parent / "pbn"


def test_open_a_board_from_the_deals_page(page, live_server, login, club_a, director_a):
    page.set_viewport_size({"width": 1366, "height": 768})
    login(page, director_a)
    page.goto(f"{live_server.url}/club/troefkaart/spellen/")
    page.locator("input[type=file]#id_file").set_input_files(STYLES / "magic-contest.pbn")
    page.get_by_role("button", name="Inlezen").click()
    expect(
        page.get_by_text("2 spellen ingelezen voor Parenavond 24 november, met 12 uitslagen")
    ).to_be_visible()

    event = page.locator('[data-event="Parenavond 24 november"]')
    event.locator('[data-board="2"]').click()
    expect(page.get_by_role("heading", name="Spel 2 · Parenavond 24 november")).to_be_visible()
    # The diagram in Dutch letters, the double-dummy table and every table's result.
    expect(page.locator('[data-hand="N"]')).to_contain_text("B 4 2")  # North's clubs: J 4 2
    expect(page.locator("[data-dd-table] tbody tr")).to_have_count(4)
    results = page.locator("[data-table-results] tbody tr")
    expect(results).to_have_count(6)
    expect(results.nth(1)).to_contain_text("4♣X+1")
    expect(results.nth(1)).to_contain_text("910")
    assert page.locator("[data-table-results]").bounding_box()["width"] <= 1366
    assert axe_violations(page) == []

    page.get_by_role("link", name="Vorig spel").click()
    expect(page.get_by_role("heading", name="Spel 1 · Parenavond 24 november")).to_be_visible()
