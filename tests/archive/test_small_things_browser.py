"""In Chromium at 1366×768 and 390×844, the small things a club noticed (issue 30, item 10):
the start page's "Editie" select shows its whole choice, the artificial-score labels stand clear
of their selects, and the password link has a copy button."""

from __future__ import annotations

import uuid
from datetime import date

import pytest
from playwright.sync_api import Page, expect

from rulings import free

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SIZES = {"laptop": {"width": 1366, "height": 768}, "phone": {"width": 390, "height": 844}}

# The width the selected option's text needs inside its select (font, padding, the arrow).
TEXT_FITS = """select => {
  const style = getComputedStyle(select);
  const context = document.createElement("canvas").getContext("2d");
  context.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
  const text = select.options[select.selectedIndex].text;
  const room = select.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
  return [context.measureText(text).width, room];
}"""


def overlaps(page: Page, first: str, second: str) -> bool:
    a = page.locator(first).bounding_box()
    b = page.locator(second).bounding_box()
    assert a
    assert b
    return not (
        a["x"] + a["width"] <= b["x"]
        or b["x"] + b["width"] <= a["x"]
        or a["y"] + a["height"] <= b["y"]
        or b["y"] + b["height"] <= a["y"]
    )


@pytest.mark.parametrize("size", SIZES)
def test_the_edition_select_shows_its_whole_choice(page, live_server, sign_in, director_a, size):
    page.set_viewport_size(SIZES[size])
    sign_in(page, director_a)
    page.goto(f"{live_server.url}/arbitrage/nieuw/")
    select = page.get_by_label("Editie")
    expect(select).to_have_value("")  # "Volgens de speeldatum"
    needed, room = select.evaluate(TEXT_FITS)
    assert needed <= room, (needed, room)


@pytest.mark.parametrize("size", SIZES)
def test_the_artificial_score_labels_stand_clear_of_their_selects(
    page, live_server, sign_in, club_a, director_a, size
):
    edition = free.current_edition()
    assert edition is not None
    ruling = free.create(
        uuid=uuid.uuid4(),
        club=club_a,
        director=director_a,
        edition=edition,
        content=free.Content(laws=("12",), decision="Arbitrale score.", announcement="Later."),
        context={"played_on": date(2026, 3, 3), "board": 4, "event": "Dinsdag"},
        final=True,
    )
    page.set_viewport_size(SIZES[size])
    sign_in(page, director_a)
    page.goto(f"{live_server.url}/arbitrages/{ruling.uuid}/score/")
    for name in ("non_artificial", "off_artificial"):
        label = f"label[for='id_{name}']"
        expect(page.locator(label)).to_be_visible()
        assert not overlaps(page, label, f"#id_{name}"), name
        above = page.locator(label).bounding_box()
        below = page.locator(f"#id_{name}").bounding_box()
        assert above
        assert below
        assert above["y"] + above["height"] <= below["y"] + 1, name  # the label above its select


def test_the_password_link_has_a_copy_button(browser, live_server, sign_in, admin_a, club_a):
    context = browser.new_context(viewport=SIZES["phone"], locale="nl-NL")
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=live_server.url)
    page = context.new_page()
    sign_in(page, admin_a)
    page.goto(f"{live_server.url}/club/{club_a.slug}/leden/uitnodigen/")
    page.get_by_label("Gebruikersnaam").fill("wouter")
    page.get_by_label("Voornaam").fill("Wouter")
    page.get_by_role("button", name="Toevoegen").click()
    link = page.get_by_label("Link", exact=True).input_value()
    assert "/" in link
    page.get_by_role("button", name="Link kopiëren").click()
    expect(page.get_by_role("button", name="Gekopieerd")).to_be_visible()
    assert page.evaluate("navigator.clipboard.readText()") == link
    context.close()
