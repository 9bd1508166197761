"""In Chromium, on a laptop (1366×768) and a phone (390×844): a saved ruling's record page,
its audit trail behind a toggle, and both the record and the appeal form on A4 paper.

The record prints on one A4 page; with "Afdrukken met audit" the audit trail (in words,
without hashes) follows on a page of its own (every shipped tree: tests/archive/
test_print_browser.py). The appeal form prints on one page. Pages are
counted in the PDF Chromium makes: each page is one ``/Type /Page`` object."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from archive.reviews import record_review
from rulings.models import Ruling, Verdict
from tests.support.rulings import make_ruling

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SIZES = {"laptop": {"width": 1366, "height": 768}, "phone": {"width": 390, "height": 844}}
DOCS_IMG = Path(__file__).resolve().parents[2] / "docs" / "img"


def pdf_pages(pdf: bytes) -> int:
    """The pages of a PDF: its page objects (``/Type /Pages`` is the tree above them)."""
    return len(re.findall(rb"/Type\s*/Page(?![s\w])", pdf))


def a4(page: Page) -> bytes:
    return page.pdf(format="A4", print_background=False, prefer_css_page_size=True)


@pytest.fixture
def short_ruling(club_a, director_a, reviewer_a) -> Ruling:
    ruling = make_ruling(club_a, director_a, ("ja", "nee"), table=5, board=17)
    record_review(ruling, reviewer_a, Verdict.CONFIRMED, "Juist beslist.")
    return ruling


@pytest.mark.parametrize("size", SIZES)
def test_the_record_page_toggles_its_trail_and_prints_on_one_a4_page(
    page, live_server, sign_in, reviewer_a, short_ruling, artifacts, screenshot, size
):
    page.set_viewport_size(SIZES[size])
    sign_in(page, reviewer_a)
    # An old link to the wizard's page leads to the record.
    page.goto(f"{live_server.url}/arbitrage/{short_ruling.uuid}/")
    expect(page).to_have_url(f"{live_server.url}/arbitrages/{short_ruling.uuid}/")
    expect(page.get_by_role("heading", level=1)).to_contain_text("Proefboom")
    expect(page.locator("#gegevens")).to_contain_text("Anna")
    expect(page.locator("#beoordelingen")).to_contain_text("Juist beslist.")

    # The trail is folded away; opening it shows each event in words with its hash.
    trail = page.locator("details[data-audit-toggle]")
    events = trail.locator("tr[data-audit-event]")
    expect(events.first).to_be_hidden()
    trail.locator("summary").click()
    expect(events.first).to_be_visible()
    expect(trail.locator("code[data-hash]").first).to_be_visible()
    expect(trail).to_contain_text("Definitief opgeslagen")
    screenshot(page, f"record-{size}.png")

    # On paper: no navigation, buttons, hashes or trail toggle; the trail in words instead.
    page.emulate_media(media="print")
    expect(page.locator("body > header")).to_be_hidden()
    expect(page.get_by_role("button", name="Afdrukken")).to_be_hidden()
    expect(trail).to_be_hidden()
    expect(page.locator("[data-hash]").first).to_be_hidden()
    printed = page.locator("[data-audit-print]")
    expect(printed).to_be_hidden()  # only with "Afdrukken met audit"
    expect(page.locator("#beslissing")).to_be_visible()
    pdf = a4(page)
    (artifacts / f"record-{size}.pdf").write_bytes(pdf)
    assert pdf_pages(pdf) == 1
    page.goto(f"{live_server.url}/arbitrages/{short_ruling.uuid}/?afdruk=audit")
    expect(printed).to_be_visible()
    expect(printed.locator("tr[data-audit-event]")).to_have_count(short_ruling.audit_events.count())
    pdf = a4(page)
    (artifacts / f"record-audit-{size}.pdf").write_bytes(pdf)
    assert pdf_pages(pdf) == 2  # the ruling, then the law texts and the audit trail
    if size == "laptop" and os.environ.get("SCREENSHOTS") == "1":
        # For docs/COMMITTEES.md: the printed record at the width of an A4 sheet (794 CSS pixels).
        page.set_viewport_size({"width": 794, "height": 1123})
        expect(printed).to_be_visible()
        page.screenshot(path=DOCS_IMG / "record-print.png", full_page=True)


def test_messages_are_not_printed(page, live_server, login, reviewer_a, short_ruling):
    login(page, reviewer_a)  # the login form once in this module; the others ``sign_in``
    page.goto(f"{live_server.url}/arbitrages/{short_ruling.uuid}/")
    page.locator("#beroep").get_by_label("Toelichting").fill("NZ gaan in beroep.")
    page.get_by_role("button", name="Markeren als in beroep").click()
    message = page.get_by_text("De arbitrage staat nu in beroep.")
    expect(message).to_be_visible()
    page.emulate_media(media="print")
    expect(message).to_be_hidden()
    assert pdf_pages(a4(page)) == 1


@pytest.mark.parametrize("size", SIZES)
def test_the_appeal_form_prints_on_one_a4_page(
    page, live_server, sign_in, director_a, short_ruling, artifacts, size
):
    page.set_viewport_size(SIZES[size])
    sign_in(page, director_a)
    page.goto(f"{live_server.url}/arbitrages/{short_ruling.uuid}/")
    page.get_by_role("link", name="Beroepsformulier", exact=True).click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Beroepsformulier")
    expect(page.locator("[data-club]")).to_have_text(short_ruling.club.name)
    expect(page.locator("[data-signature]")).to_have_count(4)
    page.emulate_media(media="print")
    expect(page.locator("[data-signature]").last).to_be_visible()
    expect(page.locator("nav.breadcrumb, nav[aria-label]").first).to_be_hidden()
    pdf = a4(page)
    (artifacts / f"appeal-form-{size}.pdf").write_bytes(pdf)
    assert pdf_pages(pdf) == 1
