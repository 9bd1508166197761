"""In Chromium at 1366×768 and 390×844: the second ruling of the evening opens with the date,
event and round the director saved on the first; the event field offers the club's imported
events."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from scores.models import Event
from tests.rulings.test_views import at_outcome, ruling_url
from tests.support.rulings import begin_proef

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SIZES = {"laptop": {"width": 1366, "height": 768}, "phone": {"width": 390, "height": 844}}


@pytest.mark.parametrize("size", SIZES)
def test_the_second_ruling_starts_from_the_evening(
    page, live_server, sign_in, proef_tree, club_a, director_a, size
):
    Event.objects.create(club=club_a, name="Dinsdagavond")
    first, second = begin_proef(club_a, director_a), begin_proef(club_a, director_a)
    at_outcome(first, director_a)
    at_outcome(second, director_a)
    page.set_viewport_size(SIZES[size])
    sign_in(page, director_a)
    page.goto(live_server.url + ruling_url(first))
    event = page.get_by_label("Wedstrijd of zitting")
    expect(event).to_have_attribute("list", "club-events")
    assert page.locator("#club-events option").evaluate_all(
        "options => options.map(o => o.value)"
    ) == ["Dinsdagavond"]
    page.get_by_label("Speeldatum").fill("2026-03-03")
    event.fill("Dinsdagavond")
    page.get_by_label("Ronde").fill("2")
    page.get_by_role("button", name="Gegevens bewaren").click()
    expect(page.get_by_text("De gegevens zijn bewaard.")).to_be_visible()

    page.goto(live_server.url + ruling_url(second))
    expect(page.get_by_label("Wedstrijd of zitting")).to_have_value("Dinsdagavond")
    expect(page.get_by_label("Speeldatum")).to_have_value("2026-03-03")
    expect(page.get_by_label("Ronde")).to_have_value("2")
