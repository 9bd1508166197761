"""In Chromium, on a phone and a laptop: a reviewer's menu offers only what a reviewer may
open, and a forbidden or missing page is a styled page with a way home (issue 30, item 1)."""

import uuid

import pytest
from playwright.sync_api import expect

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SIZES = {"phone": {"width": 390, "height": 844}, "laptop": {"width": 1366, "height": 768}}


@pytest.mark.parametrize("size", SIZES)
def test_a_reviewer_is_offered_what_a_reviewer_may_use(
    size, browser, live_server, sign_in, reviewer_a, screenshot
):
    context = browser.new_context(locale="nl-NL", viewport=SIZES[size])
    page = context.new_page()
    sign_in(page, reviewer_a)
    page.goto(f"{live_server.url}/")
    if size == "phone":
        page.get_by_role("button", name="Menu").click()
    expect(page.locator("[data-nav-archive]")).to_be_visible()
    expect(page.get_by_role("link", name="Nieuwe arbitrage")).to_have_count(0)
    expect(page.locator("[data-nav-deals]")).to_have_count(0)
    expect(page.locator("[data-home-other-roles]")).to_be_visible()

    # A free ruling typed in by hand is for directors: a styled page in the site's frame.
    response = page.goto(f"{live_server.url}/arbitrage/vrij/{uuid.uuid4()}/")
    assert response is not None
    assert response.status == 403
    expect(page.get_by_role("heading", name="Geen toegang")).to_be_visible()
    screenshot(page, f"error-403-{size}.png")
    page.get_by_role("link", name="Naar de startpagina").click()
    page.wait_for_url(f"{live_server.url}/")

    response = page.goto(f"{live_server.url}/arbitrages/{uuid.uuid4()}/")
    assert response is not None
    assert response.status == 404
    expect(page.get_by_role("heading", name="Pagina niet gevonden")).to_be_visible()
    expect(page.get_by_role("link", name="Naar de startpagina")).to_be_visible()
    context.close()
