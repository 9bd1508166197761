"""In Chromium: search as you type, open an article, follow a cross-reference."""

import re

import pytest
from playwright.sync_api import expect

from clubs.models import User

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_search_open_article_and_follow_a_reference(page, live_server, screenshot):
    User.objects.create(username="lid")  # a site with users: no first-run page
    searches: list[str | None] = []
    page.on(
        "request",
        lambda request: "q=" in request.url and searches.append(request.headers.get("hx-request")),
    )

    page.goto(f"{live_server.url}/wetten/zoeken/")
    page.evaluate("window.stillTheSamePage = true")
    page.get_by_label("Zoekterm of artikel").press_sequentially("voorgeschreven", delay=30)
    results = page.locator("#results")
    expect(results.locator("mark").first).to_have_text(re.compile("voorgeschreven", re.I))
    # The results came from htmx requests while typing; the page itself was never reloaded.
    assert searches
    assert all(header == "true" for header in searches)
    assert page.evaluate("window.stillTheSamePage") is True
    expect(page).to_have_url(re.compile(r"q=voorgeschreven"))
    screenshot(page, "laws-search.png")

    results.get_by_role("link", name=re.compile(r"1963 · artikel 52")).first.click()
    expect(page).to_have_url(re.compile(r"/wetten/1963/artikel/52/"))
    expect(page.get_by_role("heading", level=1)).to_contain_text("Artikel 52")
    expect(page.get_by_text("Samenvatting in eigen woorden")).to_be_visible()

    page.get_by_role("link", name="art. 50").click()
    expect(page).to_have_url(re.compile(r"/wetten/1963/artikel/50/$"))
    expect(page.get_by_role("heading", level=1)).to_contain_text("Behandeling van een strafkaart")
    screenshot(page, "laws-article-50.png")
