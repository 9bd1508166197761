"""End to end in Chromium: first run, log out, log in, Dutch home page, switch to English."""

import re

import pytest
from playwright.sync_api import expect

from clubs.models import Club, User

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_first_run_login_and_language_switch(page, live_server, screenshot):
    page.goto(f"{live_server.url}/")
    expect(page).to_have_url(re.compile(r"/setup/$"))
    page.get_by_label("Gebruikersnaam").fill("wl-admin")
    page.get_by_label("Naam van de club").fill("BC De Troefkaart")
    page.locator("#id_password1").fill("Vier-Harten-Gemaakt-9")
    page.get_by_label("Bevestiging wachtwoord").fill("Vier-Harten-Gemaakt-9")
    page.get_by_role("button", name="Aanmaken").click()

    expect(page.get_by_role("heading", name="Wedstrijdleider, graag!")).to_be_visible()
    assert User.objects.get().is_superuser
    assert Club.objects.get().name == "BC De Troefkaart"

    page.get_by_role("button", name="Uitloggen").click()
    expect(page).to_have_url(re.compile(r"/inloggen/"))
    assert page.goto(f"{live_server.url}/setup/").status == 404

    page.goto(f"{live_server.url}/inloggen/")
    page.get_by_label("Gebruikersnaam").fill("wl-admin")
    page.get_by_label("Wachtwoord").fill("Vier-Harten-Gemaakt-9")
    page.get_by_role("button", name="Inloggen").click()
    expect(page.get_by_role("heading", name="Wedstrijdleider, graag!")).to_be_visible()
    expect(page.locator("html")).to_have_attribute("lang", "nl")
    expect(page.get_by_text("BC De Troefkaart")).to_be_visible()

    # The select submits itself on change (the button is there for browsers without JS).
    page.get_by_label("Taal").select_option("en")
    expect(page.get_by_role("heading", name="Director, please!")).to_be_visible()
    expect(page.locator("html")).to_have_attribute("lang", "en")
    screenshot(page, "foundation-home-en.png")
