"""In Chromium: a psyche ruling saved final goes into the club's psyche register, and the next
ruling of that pair shows it while the director is still asking his questions (issue 32, item
7; rulings/pairs.py)."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from rulings.models import PairRecord
from tests.security.test_accessibility import axe_violations

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def answer(page: Page, number: int, choice: str) -> None:
    page.locator(f'[data-wizard] input[name="step"][value="{number}"]').wait_for(state="attached")
    page.locator(f'[data-wizard] button[name="choice"][value="{choice}"]').click()


def start_psyche(page: Page, base: str) -> None:
    page.goto(f"{base}/arbitrage/nieuw/?editie=2017&q=psyche")
    page.locator("#tree-list .tree-choice").first.click()
    expect(page.locator("h1")).to_contain_text("Psyche")


def test_a_saved_psyche_shows_on_the_next_ruling_of_the_pair(
    page, live_server, sign_in, director_a
):
    sign_in(page, director_a)
    base = live_server.url

    # The first ruling: a permitted psyche by South, saved with South's pair.
    start_psyche(page, base)
    for number, choice in enumerate(("psyche", "nee", "nee", "nee"), start=1):
        answer(page, number, choice)
    expect(page.locator("#outcome-title")).to_contain_text("Toegestane psyche")
    details = page.locator("form#context-form")  # loaded after the outcome (htmx)
    details.get_by_label("Speeldatum").fill("2026-03-03")
    details.get_by_label("Spel (verplicht)").fill("9")
    details.get_by_label("Plaats overtreder").select_option("S")
    # Saving without the pair is refused in place, with the reason at the pair's field.
    page.locator("[data-wizard-save]").click()
    expect(page.get_by_text("Nodig voor het psycheregister").first).to_be_visible()
    page.locator("form#context-form").get_by_label("Paar NZ").fill("Jansen - De Vries")
    page.locator("[data-wizard-save]").click()
    expect(page.locator("[data-own-pair-record]")).to_contain_text("Jansen - De Vries")
    assert PairRecord.objects.get().pair == "Jansen - De Vries"

    # The next ruling of that pair, typed the other way round at the other side of the
    # table: named at the first question, its history shows at once.
    start_psyche(page, base)
    answer(page, 1, "psyche")
    page.locator("#table-details summary").click()
    form = page.locator("[data-table-form]")
    form.get_by_label("Paar OW").fill("de vries/jansen")
    form.get_by_role("button", name="Bewaren").click()
    history = page.locator("#pair-history")
    expect(history).to_contain_text("Psycheregister: ook vastgelegd voor dit paar")
    expect(history.locator("[data-pair-record]")).to_have_count(1)
    expect(history).to_contain_text("spel 9")
    expect(history).to_contain_text("Toegestane psyche")
    assert not axe_violations(page)

    # It stays on the later questions, and links to the record of the first ruling.
    answer(page, 2, "nee")
    expect(page.locator("#pair-history [data-pair-record]")).to_have_count(1)
    page.locator("#pair-history a").first.click()
    expect(page.locator("[data-own-pair-record]")).to_be_visible()
    assert not axe_violations(page)

    # The club's register lists the pair.
    page.goto(f"{base}/arbitrages/")
    page.locator("[data-pair-register-link]").click()
    expect(page.locator("[data-register-pair]")).to_have_count(1)
    expect(page.locator("[data-register-record]")).to_contain_text("Toegestane psyche")
    assert not axe_violations(page)
