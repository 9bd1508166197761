"""Diagrams that fit (issue 18, point 6), on a laptop and a phone: the penalty-card tree opens
with its root in view, ?node= shows and highlights a deep node, the zoom buttons change the
scale, and every shipped tree prints on one A4 landscape page."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from trees.diagram import layout
from trees.loading import TREES_DIR
from trees.models import Tree
from trees.parse import load_tree_file
from trees.print_layout import READABLE

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SIZES = {"laptop": {"width": 1366, "height": 768}, "phone": {"width": 390, "height": 844}}
TWO_PAGES = {"strafkaart"}  # too big to read on one page (tests/trees/test_print_layout.py)
PAGE_OBJECT = re.compile(rb"/Type\s*/Page(?![a-zA-Z])")


@pytest.fixture
def loaded(django_user_model):
    django_user_model.objects.create(username="lid")  # no first-run redirect


def deepest_node() -> str:
    """The penalty-card node drawn lowest (furthest from the root)."""
    plan = layout(load_tree_file(TREES_DIR / "strafkaart.yaml"))
    boxes = [item for item in plan.items.values() if not item.dummy]
    return max(boxes, key=lambda item: (item.layer, item.x)).key


def in_viewport(page: Page, selector: str) -> bool:
    return page.locator(selector).evaluate(
        """el => { const r = el.getBoundingClientRect();
                   return r.width > 0 && r.left >= 0 && r.top >= 0
                     && r.right <= innerWidth && r.bottom <= innerHeight; }"""
    )


def in_box(page: Page, selector: str) -> bool:
    """Inside the visible part of the diagram's scroll box."""
    return page.locator(selector).evaluate(
        """el => { const r = el.getBoundingClientRect();
                   const b = el.closest('[data-diagram]').getBoundingClientRect();
                   return r.left >= b.left && r.right <= b.right
                     && r.top >= b.top && r.bottom <= b.bottom; }"""
    )


def pages_in_pdf(data: bytes) -> int:
    return len(PAGE_OBJECT.findall(data))


@pytest.mark.parametrize("size", SIZES)
def test_strafkaart_opens_with_its_root_in_view(loaded, live_server, page, size, screenshot):
    page.set_viewport_size(SIZES[size])
    page.goto(f"{live_server.url}/beslisbomen/strafkaart/")
    zoom = page.get_by_role("group", name="Zoomen")
    expect(zoom).to_be_visible()
    start = Tree.objects.get(slug="strafkaart").start_key
    root = f"#d-{start}"
    # The diagram fits the width: no horizontal scrolling in its box, the root is in it.
    box = page.locator("[data-diagram]")
    assert box.evaluate("el => el.scrollWidth <= el.clientWidth + 1")
    assert box.evaluate("el => el.scrollLeft") == 0
    assert in_box(page, root)
    page.locator("#diagram-heading").scroll_into_view_if_needed()
    assert in_viewport(page, root)
    screenshot(page, f"tree-diagram-fit-{size}.png", full_page=False)


@pytest.mark.parametrize("size", SIZES)
def test_a_deep_node_is_shown_and_highlighted(loaded, live_server, page, size, screenshot):
    page.set_viewport_size(SIZES[size])
    key = deepest_node()
    page.goto(f"{live_server.url}/beslisbomen/strafkaart/?node={key}")
    marked = page.locator(f"#d-{key}")
    expect(marked).to_have_class(re.compile(r"\bhighlight\b"))
    expect(marked).to_have_attribute("aria-current", "step")
    expect(page.locator("[data-zoom-level]")).to_have_text("100%")
    expect(marked).to_be_in_viewport()
    # The page scrolls smoothly (Bootstrap's scroll-behavior): wait until the scroll has
    # brought the whole box in, as the director would.
    expect(page.locator(f"#d-{key} rect")).to_be_in_viewport(ratio=1)
    assert in_viewport(page, f"#d-{key} rect")
    assert in_box(page, f"#d-{key} rect")
    # Only the marked box is highlighted, and it is drawn at readable size (natural scale).
    assert page.locator("svg.tree-diagram .node.highlight").count() == 1
    width = page.locator(f"#d-{key} rect").bounding_box()["width"]
    assert width == pytest.approx(200, abs=5)  # the box plus its 4 px border
    screenshot(page, f"tree-diagram-node-{size}.png", full_page=False)


@pytest.mark.parametrize("size", SIZES)
def test_zoom_buttons_change_the_scale(loaded, live_server, page, size):
    page.set_viewport_size(SIZES[size])
    page.goto(f"{live_server.url}/beslisbomen/strafkaart/")
    svg = page.locator("svg.tree-diagram")
    level = page.locator("[data-zoom-level]")
    expect(level).to_have_text(re.compile(r"^\d+%$"))
    fitted = svg.bounding_box()["width"]
    box_width = page.locator("[data-diagram]").evaluate("el => el.clientWidth")
    assert fitted <= box_width + 1

    def click_and_wait(name: str) -> float:
        before = svg.get_attribute("data-scale")
        page.get_by_role("button", name=name).click()
        expect(svg).not_to_have_attribute("data-scale", before or "")
        return svg.bounding_box()["width"]

    assert click_and_wait("Inzoomen") == pytest.approx(fitted * 1.25, rel=0.02)
    zoomed_in = click_and_wait("Inzoomen")
    assert zoomed_in == pytest.approx(fitted * 1.25 * 1.25, rel=0.02)
    # Height follows the width (the drawing keeps its proportions).
    ratio = svg.evaluate("el => el.viewBox.baseVal.height / el.viewBox.baseVal.width")
    assert svg.bounding_box()["height"] == pytest.approx(zoomed_in * ratio, rel=0.02)
    assert click_and_wait("Uitzoomen") == pytest.approx(fitted * 1.25, rel=0.02)
    natural = svg.evaluate("el => el.viewBox.baseVal.width")
    expect(level).to_have_text(f"{round(fitted * 1.25 / natural * 100)}%")

    page.get_by_role("button", name="Passend").click()
    expect(svg).not_to_have_attribute("style", re.compile("width: [0-9]"))
    assert svg.bounding_box()["width"] == pytest.approx(fitted, rel=0.01)


def smallest_printed_font(page: Page) -> float:
    """The smallest text in the print charts, in pt on paper: the SVG font size times the
    scale the viewBox is drawn at (CSS px are 0.75 pt)."""
    return page.evaluate(
        """() => Math.min(...[...document.querySelectorAll('svg.tree-print-chart')].map(svg => {
             const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
             const box = svg.getBoundingClientRect().height / svg.viewBox.baseVal.height;
             const text = svg.querySelector('.node text');
             return parseFloat(getComputedStyle(text).fontSize) * Math.min(scale, box) * 0.75;
           }))"""
    )


def test_every_tree_prints_readably_on_one_a4_landscape_page(loaded, live_server, page, artifacts):
    slugs = list(Tree.objects.values_list("slug", flat=True))
    assert len(slugs) >= 18
    # On paper (print media, each sheet at its printed size) the text must be readable; the
    # PDF is made in print media too.
    page.emulate_media(media="print")
    for slug in slugs:
        page.goto(f"{live_server.url}/beslisbomen/{slug}/afdrukken/")
        expect(page.get_by_role("heading", level=1).first).to_be_visible()
        pdf = page.pdf(format="A4", landscape=True, print_background=True)
        expected = 2 if slug in TWO_PAGES else 1
        assert pages_in_pdf(pdf) == expected, slug
        assert page.locator(".tree-print-sheet").count() == expected
        if slug == "strafkaart":
            (artifacts / "tree-print-strafkaart.pdf").write_bytes(pdf)
        if slug == "claim":
            (artifacts / "tree-print-claim.pdf").write_bytes(pdf)
        assert smallest_printed_font(page) >= READABLE, slug
    # On paper the drawing fills the sheet under the heading (not squeezed to nothing).
    svg = page.locator(".tree-print-sheet svg.tree-print-chart").first.bounding_box()
    assert svg["height"] > 400
    assert svg["width"] > 900


def test_the_penalty_card_tree_marks_where_it_goes_on(loaded, live_server, page):
    page.goto(f"{live_server.url}/beslisbomen/strafkaart/afdrukken/")
    expect(page.get_by_text("Vervolg op blad 2", exact=False)).to_be_visible()
    expect(page.get_by_text("Vervolg van blad 1", exact=False)).to_be_visible()
    assert page.locator("svg.tree-print-chart .continuation").count() == 2


def test_the_print_page_on_a_phone_prints_the_same_sheets(loaded, live_server, page):
    page.set_viewport_size(SIZES["phone"])
    page.goto(f"{live_server.url}/beslisbomen/strafkaart/afdrukken/")
    expect(page.get_by_role("button", name="Afdrukken")).to_be_visible()
    pdf = page.pdf(format="A4", landscape=True, print_background=True)
    assert pages_in_pdf(pdf) == 2  # the penalty-card tree: two readable sheets
