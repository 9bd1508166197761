"""In Chromium at 390×844 and 1366×768: at question 7 of the deepest shipped tree, the path of
earlier answers is one line on a phone (tap to open), so the answer buttons are on the first
screen; on a laptop the path is listed in full."""

from __future__ import annotations

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from rulings import wizard
from tests.support.rulings import make_ruling
from trees import validate

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SIZES = {"laptop": {"width": 1366, "height": 768}, "phone": {"width": 390, "height": 844}}


@pytest.mark.parametrize("size", SIZES)
def test_question_7_stays_on_the_first_screen(
    page, live_server, sign_in, shipped, club_a, director_a, size
):
    deep = max(
        ((slug, path) for slug in shipped for path in validate.paths(wizard.start(slug).tree)),
        key=lambda item: len(item[1].steps),
    )
    slug, path = deep
    assert len(path.steps) >= 7, "no shipped tree asks seven questions"
    ruling = make_ruling(club_a, director_a, path.answers[:6], tree_slug=slug, final=False)
    page.set_viewport_size(SIZES[size])
    sign_in(page, director_a)
    page.goto(live_server.url + reverse("wizard:ruling", args=[ruling.uuid]))
    steps = page.locator(".wizard-path .path-step")
    summary = page.locator("[data-path-fold] > summary")
    first_answer = page.locator("[data-choice], .tree-choice").first
    expect(first_answer).to_be_visible()
    if size == "phone":
        expect(summary).to_be_visible()
        expect(summary).to_contain_text("6 antwoorden")
        expect(steps.first).to_be_hidden()
        top = first_answer.evaluate("b => b.getBoundingClientRect().top")
        assert top < SIZES[size]["height"] - 100, top  # on the first screen, with room below
        summary.click()
        expect(steps).to_have_count(6)
        expect(steps.first).to_be_visible()
    else:
        expect(summary).to_be_hidden()
        expect(steps).to_have_count(6)
        expect(steps.nth(5)).to_be_visible()
