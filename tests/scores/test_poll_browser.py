"""In Chromium at phone size (390×844): a director prepares a poll from the logical-alternative
question of a hesitation ruling, polls three players on his own device (each sees only the
hand, the auction and a bidding box of legal calls, never the answers before), and sees the
tally with its suggestion beside the question and, after saving, beside his decision on the
record."""

from __future__ import annotations

from datetime import date

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from rulings import wizard
from tests.archive.test_record_browser import a4, pdf_pages
from tests.security.test_accessibility import axe_violations
from tests.support.polls import poll_with_answers
from tests.support.rulings import make_ruling

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
PLAYERS = [
    ("Jan", "club", "4♥", ["pas"]),
    ("Piet", "top", "pas", ["4♥"]),
    ("Kees", "club", "4♥", []),
]


def test_a_three_player_poll_on_one_phone(page, live_server, sign_in, shipped, club_a, director_a):
    club_a.poll_minimum_answers = 3
    club_a.save()
    ruling = make_ruling(
        club_a, director_a, ("na-afloop", "ja", "ja"), tree_slug="ongeoorloofde-informatie",
        final=False,
    )  # fmt: skip
    page.set_viewport_size(PHONE)
    sign_in(page, director_a)
    question = live_server.url + reverse("wizard:ruling", args=[ruling.uuid])
    page.goto(question)
    beside = page.locator("[data-poll-beside]")
    expect(beside).to_be_visible()
    beside.get_by_role("link", name="Peiling houden").click()

    # Prepare: the auction up to the decision, the hand, the call made at the table.
    expect(page.get_by_role("heading", name="Peiling voorbereiden")).to_be_visible()
    page.get_by_label("Bieding tot de beslissing").fill("1h p 2h p")
    page.get_by_label("Hand van de speler die aan de beurt is").fill("AH32.VB5.1098.765")
    page.get_by_label("Bieding aan tafel").fill("4h")
    page.get_by_role("button", name="Peiling opslaan").click()
    expect(page.locator("[data-poll-hand]")).to_contain_text("A H 3 2")
    page.get_by_role("link", name="Peilen op dit toestel").click()

    for number, (name, level, call, also) in enumerate(PLAYERS):
        expect(page.locator("[data-poll-question]")).to_have_text("Wat bied je?")
        box = page.locator("[data-bidding-box]")
        expect(box).to_be_visible()
        # Only legal calls: nothing at or below 2♥, no double of partner's bid.
        expect(box.locator("label", has_text="2♥")).to_have_count(0)
        expect(box.locator("label", has_text="doublet")).to_have_count(0)
        right = box.evaluate("b => b.getBoundingClientRect().right")
        assert right <= PHONE["width"], right  # the bidding box fits the phone's width
        # Earlier answers are never shown to the next player.
        for earlier, *_ in PLAYERS[:number]:
            expect(page.get_by_text(earlier)).to_have_count(0)
        box.locator("label", has_text=call).first.click()
        considered = page.locator("[data-considered-box]")
        for label in also:
            considered.locator("label", has_text=label).first.click()
        page.get_by_label("Uw naam of initialen").fill(name)
        page.locator(f"input[name=level][value={level}]").check()
        page.get_by_role("button", name="Antwoord geven").click()
        expect(page.locator("[data-poll-done]")).to_contain_text("Geef het toestel terug")
        expect(page.get_by_text(call, exact=True)).to_have_count(0)
        if number < len(PLAYERS) - 1:
            page.get_by_role("link", name="Volgende speler").click()
    page.get_by_role("link", name="Peiling afsluiten (wedstrijdleider)").click()
    expect(page.locator('[data-poll-call="4H"] [data-chosen]')).to_have_text("2")

    # Beside the question: the tally and the suggestion; the director still answers.
    page.goto(question)
    tally = page.locator("[data-poll-beside] [data-poll-tally]")
    expect(tally.locator('[data-poll-call="P"] [data-chosen]')).to_have_text("1")
    expect(tally.locator('[data-poll-call="P"] [data-considered]')).to_contain_text("2")
    expect(tally.locator("[data-poll-suggestion]")).to_contain_text("Suggestie: ja")
    page.locator("[data-choice='1']").click()
    expect(page.get_by_role("heading", level=2).first).not_to_have_text(
        "Was er een logisch alternatief voor de gekozen actie?"
    )

    # Saved: the record shows the poll beside the decision.
    ruling.refresh_from_db()
    wizard.answer(ruling, ruling.current_node_key, len(ruling.path) + 1, "nee", director_a)
    ruling.refresh_from_db()
    wizard.save(ruling, director_a, {"board": 5, "played_on": date(2026, 12, 1)})
    page.goto(live_server.url + reverse("archive:detail", args=[ruling.uuid]))
    record = page.locator("[data-poll-record]")
    expect(record.locator("[data-poll-suggestion]")).to_contain_text("Suggestie: ja")
    expect(record.locator("[data-poll-decision]")).to_contain_text("→ Ja")
    expect(record.locator("[data-poll-answer-line]")).to_contain_text("Piet (topspeler): pas [4♥]")


def test_axe_finds_no_serious_violations_on_the_poll_pages_and_the_sheet_prints_on_one_page(
    page, live_server, sign_in, club_a, director_a, artifacts
):
    ruling = make_ruling(club_a, director_a)
    poll_with_answers(ruling, director_a, count=3)
    sign_in(page, director_a)
    page.set_viewport_size(PHONE)
    found = {}
    for name in ("poll", "poll_screen", "poll_sheet"):
        response = page.goto(live_server.url + reverse(f"scores:{name}", args=[ruling.uuid]))
        assert response.status == 200, name
        violations = axe_violations(page)
        if violations:
            found[name] = violations
    assert not found, found
    # The sheet (the page open last) prints on one A4 page, hand, auction and rows.
    page.emulate_media(media="print")
    expect(page.locator("[data-poll-sheet] [data-poll-hand]")).to_be_visible()
    expect(page.locator(".poll-sheet-rows tbody tr")).to_have_count(8)
    sheet = a4(page)
    (artifacts / "poll-sheet.pdf").write_bytes(sheet)
    assert pdf_pages(sheet) == 1
