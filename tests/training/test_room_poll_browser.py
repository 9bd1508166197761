"""In Chromium, in two browser windows: a trainer polls the room with the shipped hesitation
case, a trainee answers on his phone (hand, auction, a bidding box of the legal calls), and the
trainer's session page shows the tally without being reloaded (htmx polling)."""

import pytest
from playwright.sync_api import expect

from training.models import SessionParticipant, TrainingCase, TrainingSession

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}


def test_the_trainer_polls_the_room(
    page, browser, live_server, sign_in, club_a, trainer_a, director_a
):
    case = TrainingCase.objects.get(slug="ui-denkpauze-doorbieden", club__isnull=True)
    session = TrainingSession.objects.create(
        club=club_a, trainer=trainer_a, title="Cursus dinsdag", code="K7MW2Q"
    )
    session.cases.set([case])
    SessionParticipant.objects.create(session=session, user=director_a)

    sign_in(page, trainer_a)
    page.clock.install()
    page.goto(f"{live_server.url}/oefenen/sessies/{session.pk}/")
    page.get_by_label("Zaal peilen met de casus").select_option(str(case.pk))
    page.get_by_role("button", name="Zaal peilen").click()
    poll = page.locator("[data-room-poll-trainer]")
    expect(poll).to_contain_text("Nog geen suggestie")
    page.evaluate("window.notReloaded = true")

    trainee_context = browser.new_context(locale="nl-NL", viewport=PHONE)
    trainee = trainee_context.new_page()
    sign_in(trainee, director_a)
    trainee.goto(f"{live_server.url}/oefenen/sessies/{session.pk}/oefenen/")
    trainee.locator("[data-room-poll-link]").click()
    # East's hand over 3♥ after West's slow pass: 3♠ and pass are there, 2♠ is not.
    box = trainee.locator("[data-bidding-box]")
    expect(trainee.locator("[data-poll-hand]")).to_contain_text("H 8 7 3")
    expect(box.locator("label", has_text="2♠")).to_have_count(0)
    box.locator("label", has_text="3♠").first.click()
    trainee.locator("[data-considered-box] label", has_text="pas").first.click()
    trainee.get_by_role("button", name="Antwoord geven").click()
    expect(trainee.locator("[data-room-poll]")).to_contain_text("beantwoord")

    page.clock.fast_forward(3_000)
    expect(poll.locator('[data-poll-call="3S"] [data-chosen]')).to_have_text("1", timeout=10_000)
    expect(poll.locator('[data-poll-call="P"] [data-considered]')).to_contain_text("1")
    expect(poll.locator("[data-room-answers]")).to_contain_text("Anna: 3♠")
    assert page.evaluate("window.notReloaded") is True
    trainee_context.close()
