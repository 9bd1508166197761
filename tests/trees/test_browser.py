"""The tree diagram renders in Chromium, links to the outline and shows the highlighted node."""

from __future__ import annotations

import io

import pytest

from laws.loading import bootstrap_laws
from trees.loading import load_trees

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def loaded(django_user_model):
    django_user_model.objects.create(username="lid")  # no first-run redirect
    bootstrap_laws(io.StringIO())
    load_trees()


def test_diagram_renders_and_highlights(loaded, live_server, page, artifacts):
    page.goto(f"{live_server.url}/beslisbomen/verzaking/?node=voldongen")
    svg = page.locator("svg.tree-diagram")
    svg.wait_for()
    box = svg.bounding_box()
    assert box is not None and box["width"] > 600 and box["height"] > 600

    # Every node is drawn as a box with a real size.
    nodes = page.locator("svg.tree-diagram a.node")
    assert nodes.count() == 30
    first = page.locator("#d-verzaakt rect").bounding_box()
    assert first["width"] > 100 and first["height"] > 20

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

    page.screenshot(path=str(artifacts / "tree-diagram.png"), full_page=False)

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
