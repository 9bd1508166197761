"""The tree diagram renders in Chromium, links to the outline and shows the highlighted node."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from trees.loading import TREES_DIR
from trees.parse import load_tree_file
from trees.validate import walk

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def loaded(django_user_model):
    django_user_model.objects.create(username="lid")  # no first-run redirect


def test_diagram_renders_and_highlights(loaded, live_server, page, screenshot):
    page.goto(f"{live_server.url}/beslisbomen/verzaking/?node=voldongen")
    svg = page.locator("svg.tree-diagram")
    svg.wait_for()
    box = svg.bounding_box()
    assert box is not None
    assert box["width"] > 600
    assert box["height"] > 600

    # Every node is drawn as a box with a real size.
    nodes = page.locator("svg.tree-diagram a.node")
    assert nodes.count() == 30
    first = page.locator("#d-verzaakt rect").bounding_box()
    assert first["width"] > 100
    assert first["height"] > 20

    # The highlighted node carries the class and is painted in the highlight colour.
    highlighted = page.locator("svg.tree-diagram a.node.highlight")
    assert highlighted.count() == 1
    assert highlighted.get_attribute("data-key") == "voldongen"
    fill = highlighted.locator("rect").evaluate("el => getComputedStyle(el).fill")
    assert fill == "rgb(255, 243, 191)"
    assert page.locator("article#node-voldongen.tree-node-highlight").count() == 1

    # Accessible name from <title> and <desc>.
    label = svg.evaluate(
        "el => el.getAttribute('aria-labelledby').split(' ')"
        ".map(id => document.getElementById(id).textContent).join(' ')"
    )
    assert label.startswith("Stroomschema: Verzaking (2017)")

    screenshot(page, "tree-diagram.png", full_page=False)

    # Clicking a box goes to its entry in the outline.
    page.locator("#d-twee-slagen").click()
    page.wait_for_url("**#node-twee-slagen")
    assert page.locator("article#node-twee-slagen").is_visible()


def test_search_filters_live(loaded, live_server, page):
    page.goto(f"{live_server.url}/beslisbomen/")
    results = page.locator("#tree-results")
    assert results.get_by_role("link", name="Strafkaart (1963)").is_visible()
    page.get_by_label("Zoek een beslisboom").fill("verzaking")
    page.wait_for_url("**q=verzaking")
    assert results.get_by_role("link", name="Verzaking (2007)").is_visible()
    assert results.get_by_role("link", name="Strafkaart (1963)").count() == 0


def test_the_corrected_57d_path_in_the_wizard(loaded, live_server, page, login, director_a):
    """A defender plays (not leads) before his right-hand opponent, with a legal card: the card
    is played at his turn, no penalty card (57D); the outcome cites 57D and Law 16."""
    spec = load_tree_file(TREES_DIR / "strafkaart.yaml")
    answers = ["kaart-getoond", "spel", "tegenspeler", "voor-rechtertegenstander", "ja"]
    outcome = walk(spec, answers)
    assert (outcome.key, outcome.cites) == ("rechts-gespeeld", ("57D", "16"))

    login(page, director_a)
    page.goto(f"{live_server.url}/arbitrage/nieuw/")
    page.get_by_role("link", name=re.compile("Strafkaart")).first.click()
    node = spec.node(spec.start)
    for answer in answers:
        expect(page.locator("#question-title")).to_have_text(node.text.nl)
        page.locator(f"button[name=choice][value={answer}]").click()
        node = spec.node(node.choice(answer).target)

    expect(page.locator("#outcome-title")).to_have_text(outcome.text.nl)
    expect(page.locator(".outcome-ruling")).to_contain_text("wordt op zijn beurt in deze slag")
    cards = page.locator("article.law-citation h3")
    expect(cards).to_have_count(2)
    expect(cards.nth(0)).to_have_text(re.compile(r"^Artikel 57D – Voortijdig"))
    expect(cards.nth(1)).to_have_text(re.compile(r"^Artikel 16 – "))
    expect(page.locator("article.law-citation").first).to_contain_text(
        "Samenvatting in eigen woorden"
    )
    # no penalty card, but Law 16 may apply to the early card: the director is reminded to
    # check after play whether the non-offending side was damaged (as in voortijdig-spelen)
    expect(page.locator("[data-adjusted-score]")).to_have_count(1)
    expect(page.locator("[data-adjusted-score]")).to_contain_text("niet-overtredende partij")
