"""Training end to end in Chromium, in two browser windows: a trainer starts a session, a
trainee joins with the code and answers one case right and one wrong, and the trainer's page
shows both results without being reloaded (htmx polling)."""

import pytest
from playwright.sync_api import Page, expect

from rulings.models import Mode, Ruling
from training.models import TrainingResult

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

HEART = "De hartenheer op het kleed"
STAYMAN = "Stayman die te laag uitviel"


def answer(page: Page, number: int, choice: str) -> None:
    """Click an answer once step ``number`` is on screen (htmx swaps the steps in place)."""
    page.locator(f'[data-wizard] input[name="step"][value="{number}"]').wait_for(state="attached")
    page.locator(f'[data-wizard] button[name="choice"][value="{choice}"]').click()


def practise(page: Page, title: str, choices: list[str]) -> None:
    page.get_by_role("link", name=title).click()
    expect(page.get_by_role("heading", name=title)).to_be_visible()
    page.get_by_role("button", name="Start de oefening").click()
    expect(page.locator("[data-training-banner]")).to_be_visible()
    for number, choice in enumerate(choices, start=1):
        answer(page, number, choice)
    expect(page.locator("#outcome-title")).to_be_visible()
    page.get_by_role("button", name="Klaar: beoordeel mijn antwoord").click()


def test_a_training_session_end_to_end(
    page, browser, live_server, login, sign_in, trainer_a, director_a, screenshot
):

    # The trainer starts a session with two cases.
    login(page, trainer_a)
    # The trainer's results ask the server every 3 s (htmx ``every 3s``). The page's clock is
    # moved on instead of the test sitting out those seconds: the request, the swap and what
    # it shows are real, and without the moves the next tick would still come by itself.
    page.clock.install()
    page.goto(f"{live_server.url}/oefenen/")
    page.get_by_role("link", name="Nieuwe sessie").click()
    page.get_by_label("Naam van de sessie").fill("Cursus dinsdag")
    page.get_by_label(HEART).check()
    page.get_by_label(STAYMAN).check()
    page.get_by_role("button", name="Sessie starten").click()
    code = page.locator("[data-join-code]").inner_text().strip()
    assert len(code) == 6
    expect(page.get_by_text("Nog niemand doet mee.")).to_be_visible()
    page.evaluate("window.notReloaded = true")

    # The trainee joins with the code in a second browser.
    trainee_context = browser.new_context(locale="nl-NL", viewport={"width": 1280, "height": 900})
    trainee = trainee_context.new_page()
    sign_in(trainee, director_a)  # the trainer used the form; once is enough
    trainee.goto(f"{live_server.url}/oefenen/")
    trainee.get_by_label("Deelnamecode").fill(code.lower())
    trainee.get_by_role("button", name="Meedoen").click()
    expect(trainee.get_by_role("heading", name="Cursus dinsdag")).to_be_visible()

    # The trainer sees the trainee appear, without reloading.
    page.clock.fast_forward(3_000)
    anna = page.locator('tr[data-participant="anna"]')
    expect(anna).to_be_visible(timeout=10_000)

    # Right: the king of hearts dropped by accident is a major penalty card.
    practise(
        trainee,
        HEART,
        ["kaart-getoond", "spel", "tegenspeler", "anders", "ja", "nee", "ja"],
    )
    expect(trainee.locator('[data-result="right"]')).to_be_visible()
    expect(trainee.get_by_text("Goed!")).to_be_visible()
    screenshot(trainee, "training-feedback-right.png")

    # Wrong: a comparable call taken for an ordinary other call.
    trainee.get_by_role("link", name="Terug naar de sessie").click()
    practise(trainee, STAYMAN, ["nee", "nee", "nee", "nee", "andere"])
    expect(trainee.locator('[data-result="wrong"]')).to_be_visible()
    divergence = trainee.locator("tr[data-divergence]")
    expect(divergence).to_have_count(1)
    expect(divergence).to_contain_text("hier week u af")
    expect(divergence).to_contain_text("Een andere, vergelijkbare bieding")
    screenshot(trainee, "training-feedback-wrong.png")

    # The trainer's page shows both results, still without a reload.
    page.clock.fast_forward(3_000)
    expect(anna.locator('td[data-status="right"]')).to_have_count(1, timeout=10_000)
    expect(anna.locator('td[data-status="wrong"]')).to_have_count(1, timeout=10_000)
    expect(anna).to_contain_text("1 / 2")
    assert page.evaluate("window.notReloaded") is True
    screenshot(page, "training-session-trainer.png")

    practices = Ruling.objects.filter(director=director_a)
    assert practices.count() == 2
    assert all(r.mode == Mode.TRAINING and r.training_session_id for r in practices)
    assert sorted(TrainingResult.objects.values_list("correct", flat=True)) == [False, True]
    trainee_context.close()


SIZES = {"phone": {"width": 390, "height": 844}, "laptop": {"width": 1366, "height": 768}}


@pytest.mark.parametrize("size", SIZES)
def test_joining_is_on_the_first_screen_and_the_session_form_groups_cases_by_tree(
    size, browser, live_server, sign_in, trainer_a
):
    viewport = SIZES[size]
    context = browser.new_context(locale="nl-NL", viewport=viewport)
    page = context.new_page()
    sign_in(page, trainer_a)
    page.goto(f"{live_server.url}/oefenen/")

    # "Meedoen met code" is what a trainee needs first: on the first screen, before scrolling.
    join = page.get_by_role("heading", name="Meedoen met code")
    expect(join).to_be_in_viewport()
    box = join.bounding_box()
    assert box
    assert box["y"] + box["height"] <= viewport["height"]

    # The new-session form: one group per tree, each case in its own tree's group.
    page.get_by_role("link", name="Nieuwe sessie").click()
    penalty_cards = page.locator('fieldset[data-tree="strafkaart"]')
    insufficient = page.locator('fieldset[data-tree="onvoldoende-bod"]')
    expect(penalty_cards.locator("legend")).to_contain_text("Strafkaart")
    expect(penalty_cards.get_by_label(HEART)).to_be_visible()
    expect(insufficient.get_by_label(STAYMAN)).to_be_attached()
    expect(penalty_cards.get_by_label(STAYMAN)).to_have_count(0)
    groups = page.locator("fieldset[data-tree]")
    assert groups.count() == len(set(groups.evaluate_all("gs => gs.map(g => g.dataset.tree)")))
    context.close()
