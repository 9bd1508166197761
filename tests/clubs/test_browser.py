"""In Chromium, on a phone and a laptop: a club admin adds a director, hands over the one-time
link, and the director opens it in another browser, chooses a password and is logged in."""

import re

import pytest
from playwright.sync_api import expect

from clubs.models import Membership, Role, User

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SIZES = {"phone": {"width": 390, "height": 844}, "laptop": {"width": 1366, "height": 768}}


@pytest.mark.parametrize("size", SIZES)
def test_an_admin_invites_a_director_who_sets_a_password(
    size, browser, live_server, login, sign_in, admin_a, club_a, screenshot
):
    viewport = SIZES[size]
    admin = browser.new_context(locale="nl-NL", viewport=viewport)
    page = admin.new_page()
    if size == "phone":
        login(page, admin_a)  # through the form, which lands on the home page
    else:
        sign_in(page, admin_a)  # the form once in this module is enough
        page.goto(f"{live_server.url}/")

    # The members page is in the navigation (behind the menu button on a phone).
    if size == "phone":
        page.get_by_role("button", name="Menu").click()
    members = page.locator("[data-nav-members]")
    # The menu slides open; a person clicks once the link has appeared.
    expect(members).to_be_visible()
    members.click()
    page.wait_for_url("**/club/troefkaart/leden/")
    expect(page.get_by_role("heading", name="Leden van BC De Troefkaart")).to_be_visible()
    expect(page.locator("[data-member='bert']")).to_contain_text("Beheerder")
    screenshot(page, f"clubs-members-{size}.png")
    page.get_by_role("link", name="Wedstrijdleider toevoegen").click()

    page.get_by_label("Gebruikersnaam").fill("wouter")
    page.get_by_label("Voornaam").fill("Wouter")
    page.get_by_label("Achternaam").fill("de Wit")
    expect(page.get_by_label("Wedstrijdleider")).to_be_checked()
    page.get_by_label("Beoordelaar").check()
    page.get_by_role("button", name="Toevoegen").click()

    expect(page.get_by_text("Wouter de Wit is toegevoegd")).to_be_visible()
    link_box = page.get_by_label("Link", exact=True)
    expect(link_box).to_be_visible()
    box = link_box.bounding_box()
    assert box
    assert box["x"] >= 0
    assert box["x"] + box["width"] <= viewport["width"]
    link = link_box.input_value()
    assert link.startswith(f"{live_server.url}/wachtwoord/")
    screenshot(page, f"clubs-invite-link-{size}.png")
    user = User.objects.get(username="wouter")
    assert set(Membership.objects.filter(user=user).values_list("role", flat=True)) == {
        Role.DIRECTOR,
        Role.REVIEWER,
    }

    # The director, in a browser of their own.
    director = browser.new_context(locale="nl-NL", viewport=viewport)
    own = director.new_page()
    own.goto(link)
    expect(own).to_have_url(re.compile(r"/set-password/$"))
    expect(own.get_by_role("heading", name="Wachtwoord kiezen")).to_be_visible()
    expect(own.locator("[data-username]")).to_have_text("wouter")
    own.locator("#id_new_password1").fill("Drie-Sans-Atout-42")
    own.locator("#id_new_password2").fill("Drie-Sans-Atout-42")
    own.get_by_role("button", name="Wachtwoord opslaan").click()
    expect(own).to_have_url(f"{live_server.url}/")
    expect(own.get_by_text("Uw wachtwoord is ingesteld en u bent ingelogd.")).to_be_visible()
    expect(own.get_by_text("wouter", exact=True)).to_be_attached()
    scroll_width = own.evaluate("document.documentElement.scrollWidth")
    assert scroll_width <= viewport["width"], scroll_width

    # The link has done its work.
    again = director.new_page()
    again.goto(link)
    expect(again.locator("[data-invalid-link]")).to_be_visible()
    director.close()
    admin.close()
