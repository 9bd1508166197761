"""The outcome page in Chromium on a laptop (1366×768) and a phone (390×844): what to say at
the table first and on the first screen, the progress hint, the answers to check before the
final save, a contradiction flagged, and form labels that do not overlap.

With SCREENSHOTS=1 the outcome page at both sizes is saved into docs/img for the README."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from playwright.sync_api import expect

from trees.loading import TREES_DIR
from trees.parse import load_tree_file
from trees.progress import remaining_questions
from trees.validate import paths

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

DOCS_IMG = Path(__file__).resolve().parents[2] / "docs" / "img"
SIZES = {"laptop": (1366, 768), "phone": (390, 844)}
SLUG = "strafkaart"


@pytest.fixture
def spec(db):
    return load_tree_file(TREES_DIR / f"{SLUG}.yaml")


def top_and_bottom(locator) -> tuple[float, float]:
    """The element's top and bottom in page coordinates (not scrolled)."""
    return locator.evaluate(
        "el => { const r = el.getBoundingClientRect();"
        " return [r.top + window.scrollY, r.bottom + window.scrollY]; }"
    )


def overlapping(boxes: list[dict]) -> list[tuple[int, int]]:
    pairs = []
    for i, a in enumerate(boxes):
        for j, b in enumerate(boxes[i + 1 :], start=i + 1):
            apart = (
                a["x"] + a["width"] <= b["x"]
                or b["x"] + b["width"] <= a["x"]
                or a["y"] + a["height"] <= b["y"]
                or b["y"] + b["height"] <= a["y"]
            )
            if not apart:
                pairs.append((i, j))
    return pairs


def assert_no_overlap(form) -> None:
    """Labels and fields of a form never cover each other (each label with each field)."""
    parts = form.locator("label, input:not([type=hidden]), select, textarea")
    found = [(parts.nth(i), parts.nth(i).bounding_box()) for i in range(parts.count())]
    shown = [(part, box) for part, box in found if box]
    assert len(shown) >= 6
    names = [
        part.evaluate("el => el.tagName + ' ' + (el.htmlFor || el.name || '')") for part, _ in shown
    ]
    clashes = [(names[i], names[j]) for i, j in overlapping([box for _, box in shown])]
    assert clashes == []


@pytest.mark.parametrize("size", list(SIZES))
def test_the_outcome_is_read_to_the_table_first(page, live_server, sign_in, director_a, spec, size):
    width, height = SIZES[size]
    page.set_viewport_size({"width": width, "height": height})
    path = next(p for p in paths(spec) if ("wie", "tegenspeler") in p.steps)
    longest = remaining_questions(spec)[spec.start]
    sign_in(page, director_a)
    page.goto(f"{live_server.url}/arbitrage/nieuw/{SLUG}/")

    expect(page.locator("[data-progress]")).to_have_text(f"Vraag 1 van ongeveer {longest}")
    for number, (node_key, choice_key) in enumerate(path.steps, start=1):
        expect(page.locator("#question-title")).to_have_text(spec.node(node_key).text.nl)
        expect(page.locator("[data-progress]")).to_contain_text(f"Vraag {number} van ongeveer")
        page.locator(f"button[name=choice][value={choice_key}]").click()
    expect(page.locator("#outcome-title")).to_have_text(spec.node(path.outcome).text.nl)

    # What to say at the table: above the ruling text and the law, on the first screen.
    announce = page.locator("[data-announce]")
    expect(announce).to_contain_text("Wat u aan tafel zegt")
    _, announce_bottom = top_and_bottom(announce)
    ruling_top, _ = top_and_bottom(page.locator(".outcome-ruling"))
    law_top, _ = top_and_bottom(page.locator(".law-citation").first)
    assert announce_bottom <= ruling_top
    assert announce_bottom <= law_top
    assert announce_bottom <= page.evaluate("window.innerHeight")

    # The answers to check come before the final save, each with a way to change it.
    check = page.locator("[data-check-answers]")
    expect(check).to_contain_text("Controleer uw antwoorden")
    expect(check.locator("[data-change-answer]")).to_have_count(len(path.steps))
    save = page.get_by_role("button", name="Definitief opslaan (niet meer te wijzigen)")
    expect(save).to_be_visible()
    assert top_and_bottom(check)[1] <= top_and_bottom(save)[0]
    expect(page.locator("[data-save-explained]")).to_contain_text("blijft open")

    # The answers say a defender's card; the details put the offender in dummy's seat.
    page.get_by_label("Wedstrijd of zitting").fill("Dinsdagavond parencompetitie")
    page.locator("#id_table").fill("7")
    page.locator("#id_board").fill("18")
    page.get_by_label("Plaats overtreder").select_option("S")
    page.get_by_label("Plaats leider").select_option("N")
    page.get_by_role("button", name="Gegevens bewaren (blijft open)").click()
    expect(page.get_by_text("De gegevens zijn bewaard.")).to_be_visible()
    expect(page.locator("[data-contradiction]")).to_contain_text("de blinde")
    expect(check.locator("[data-board-details]")).to_contain_text("tafel 7")

    assert_no_overlap(page.locator("#context-form"))

    if os.environ.get("SCREENSHOTS") == "1":
        page.evaluate("window.scrollTo(0, 0)")
        page.mouse.move(0, 0)
        DOCS_IMG.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=DOCS_IMG / f"outcome-{size}.png", full_page=True)


def test_the_table_form_labels_do_not_overlap_on_a_phone(
    page, live_server, login, director_a, spec
):
    page.set_viewport_size({"width": 390, "height": 844})
    first_node = spec.node(spec.start)
    login(page, director_a)  # the login form once in this module; the others ``sign_in``
    page.goto(f"{live_server.url}/arbitrage/nieuw/{SLUG}/")
    page.locator(f"button[name=choice][value={first_node.choices[0].key}]").click()
    expect(page.locator("[data-progress]")).to_contain_text("Vraag 2 van ongeveer")
    page.locator("#table-details summary").click()
    form = page.locator("[data-table-form]")
    expect(form).to_be_visible()
    assert_no_overlap(form)
    # Nor does anything reach past the phone's width.
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
