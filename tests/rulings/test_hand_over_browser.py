"""In Chromium: "Verder met de beslisboom Strafkaart" goes on in the same ruling, and the saved
record shows both trees' paths in order, on one A4 page (issue 27C)."""

from __future__ import annotations

import uuid

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from rulings import transitions, wizard
from rulings.audit import Action
from rulings.models import Ruling, Status
from scores import deals, result_views
from tests.archive.test_print_browser import HANDS, NOTES, longest_path, quick_analysis
from tests.archive.test_record_browser import a4, pdf_pages
from tests.support.scores import record_weighted

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
__all__ = ["quick_analysis"]  # the fixture, imported to be used here


def _answer(page, node_key: str, choice_key: str) -> None:
    """Click an answer once its question is the one shown (htmx swaps the step in place)."""
    expect(page.locator(f'#wizard input[name="node"][value="{node_key}"]')).to_have_count(1)
    page.locator(f'#wizard button[name="choice"][value="{choice_key}"]').click()


def test_a_hand_over_ends_in_one_record_with_both_paths(
    page, live_server, sign_in, shipped, club_a, director_a, artifacts, quick_analysis
):
    sign_in(page, director_a)
    deals.store_typed(club_a, deals.typed_deal(9, HANDS, event="Dinsdagavond"), director_a)
    ruling_id = uuid.uuid4()
    page.goto(live_server.url + reverse("wizard:draft", args=["verzaking", ruling_id]))
    _answer(page, "verzaakt", "strafkaart")
    expect(page.locator("#outcome-title")).to_have_text("Strafkaart niet gespeeld")
    page.locator("[data-hand-over] button").click()

    # The same ruling, at the penalty-card tree's first question, saying where it came from.
    expect(page.locator("[data-handed-over]")).to_contain_text("Vervolg van de beslisboom")
    expect(page).to_have_url(live_server.url + reverse("wizard:step", args=[ruling_id, 1]))
    second = longest_path(wizard.start("strafkaart"))
    for node_key, choice_key in second.steps:
        _answer(page, node_key, choice_key)
    expect(page.locator("#outcome-title")).to_be_visible()
    board = page.locator("#context-form [name=board]")
    board.fill("9")
    page.locator("[data-wizard-save]").click()

    expect(page).to_have_url(live_server.url + reverse("archive:detail", args=[ruling_id]))
    first_part, second_part = (
        page.locator('[data-tree-part="1"]'),
        page.locator('[data-tree-part="2"]'),
    )
    expect(first_part).to_contain_text("Is er verzaakt?")
    expect(first_part.locator("[data-handed-over-outcome]")).to_contain_text(
        "Strafkaart niet gespeeld"
    )
    expect(second_part.locator(".ruling-step")).to_have_count(len(second.steps))
    # Numbered on from the first tree's answer.
    expect(second_part.locator(".step-number").first).to_have_text("2")

    stored = Ruling.objects.get(uuid=ruling_id)
    assert Ruling.objects.filter(club=club_a).count() == 1
    assert stored.status == Status.FINAL
    assert [part["tree"] for part in stored.handed_over] == ["verzaking"]
    assert stored.tree_slug == "strafkaart"
    actions = list(stored.audit_events.values_list("action", flat=True))
    assert actions.count(Action.HANDED_OVER) == 1
    assert actions.count(Action.SAVED) == 1

    # The worst case on paper, as every tree's longest ruling in tests/archive/test_print_browser:
    # notes, a doubled contract with the result at the table and after the rectification, the
    # stored deal with its double-dummy table and a weighted adjusted score for both sides.
    Ruling.objects.filter(pk=stored.pk).update(
        notes=NOTES, contract_level=4, contract_strain="S", contract_doubled="X", declarer_seat="S"
    )
    stored.refresh_from_db()
    cleaned = {"tricks_made": 9, "rectified_tricks": 10, "sequence": stored.audit_sequence}
    contract = result_views.contract_of(stored)
    transitions.run(
        stored, director_a, None, result_views.plan_result(director_a, cleaned, contract)
    )
    record_weighted(stored, director_a)
    page.reload()
    expect(page.locator("#arbitrale-score")).to_be_visible()
    expect(page.locator("#spel")).to_be_visible()
    page.emulate_media(media="print")
    expect(first_part).to_be_visible()
    printed = a4(page)
    (artifacts / "print-hand-over.pdf").write_bytes(printed)
    assert pdf_pages(printed) == 1
