"""Accessibility in Chromium: axe-core (vendored for the tests only, tests/vendor/axe-core)
runs on the main pages and finds no serious or critical violation; every wizard step of a whole
ruling works with the keyboard alone, inside the page's landmarks.

axe is injected through the DevTools protocol (``page.evaluate``), so the app's
Content-Security-Policy (scripts only from 'self') stays on while it runs.
"""

from __future__ import annotations

import uuid
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.support.world import TREE, build_world
from trees.loading import TREES_DIR
from trees.parse import load_tree_file
from trees.validate import paths

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

AXE = Path(__file__).resolve().parent.parent / "vendor" / "axe-core" / "axe.min.js"
BLOCKING = ("serious", "critical")


@pytest.fixture
def world(transactional_db):
    # After a flush, build_world puts the shipped laws, trees and cases back
    # (tests/support/shipped.py).
    return build_world()


def axe_violations(page) -> list[str]:
    """The serious and critical violations axe finds on the page as it is now."""
    if not page.evaluate("() => typeof window.axe !== 'undefined'"):
        page.evaluate(AXE.read_text(encoding="utf-8"))
    results = page.evaluate(
        """async () => {
            const result = await axe.run(document, {resultTypes: ["violations"]});
            return result.violations.map(v => ({
                id: v.id, impact: v.impact, help: v.help,
                nodes: v.nodes.map(n => n.target.join(" ")).slice(0, 5),
                why: v.nodes.length ? (v.nodes[0].any[0] || v.nodes[0].all[0] || {}).message : "",
            }));
        }"""
    )
    return [
        f"{v['impact']}: {v['id']} ({v['help']}) at {v['nodes']}: {v['why']}"
        for v in results
        if v["impact"] in BLOCKING
    ]


def landmarks(page) -> dict[str, int]:
    return page.evaluate(
        """() => ({
            main: document.querySelectorAll("main, [role=main]").length,
            nav: document.querySelectorAll("nav, [role=navigation]").length,
            h1: document.querySelectorAll("h1").length,
            skip: document.querySelectorAll("a.skip-link[href='#main']").length,
        })"""
    )


def test_axe_finds_no_serious_violations_on_the_main_pages(page, live_server, sign_in, world):
    sign_in(page, world.users["director_a"])
    pages = {
        "start page": "/arbitrage/nieuw/",
        "wizard step": f"/arbitrage/{world.open.uuid}/stap/2/",
        "first question": f"/arbitrage/nieuw/{TREE}/{uuid.uuid4()}/",
        "outcome": f"/arbitrage/{world.at_outcome.uuid}/",
        "archive": "/arbitrages/",
        "ruling record": f"/arbitrages/{world.final.uuid}/",
        "appeal form": f"/arbitrages/{world.final.uuid}/beroepsformulier/",
        "adjusted score form": f"/arbitrages/{world.final.uuid}/score/",
        "statistics": "/arbitrages/statistiek/",
        "article": f"/wetten/{world.article.edition.code}/artikel/{world.article.number}/",
        "training case": f"/oefenen/casussen/{world.case.pk}/",
        "practice feedback": f"/oefenen/pogingen/{world.graded.uuid}/",
    }
    found = {}
    for name, url in pages.items():
        response = page.goto(f"{live_server.url}{url}")
        assert response.status == 200, (name, url, response.status)
        marks = landmarks(page)
        assert marks["main"] == 1, (name, marks)
        assert marks["h1"] >= 1, (name, marks)
        assert marks["skip"] == 1, (name, marks)
        violations = axe_violations(page)
        if violations:
            found[name] = violations
    assert not found, found


def test_axe_on_the_tree_diagram_pages(page, live_server, sign_in, world):
    """The diagram (trees/diagram.py) on the public tree page and the explore page."""
    sign_in(page, world.users["director_a"])
    found = {}
    for url in (f"/beslisbomen/{TREE}/", f"/oefenen/verkennen/{TREE}/?pad=nee"):
        assert page.goto(f"{live_server.url}{url}").status == 200
        violations = axe_violations(page)
        if violations:
            found[url] = violations
    assert not found, found


def focused(page) -> str:
    return page.evaluate(
        "() => { const e = document.activeElement;"
        " return e ? `${e.tagName.toLowerCase()}#${e.id}.${e.className}` : ''; }"
    )


def tab_until(page, predicate: str, limit: int = 80) -> None:
    for _ in range(limit):
        if page.evaluate(
            f"() => {{ const e = document.activeElement; return !!e && ({predicate}); }}"
        ):
            return
        page.keyboard.press("Tab")
    raise AssertionError(f"Tab never reached {predicate}; focus is on {focused(page)}")


def test_every_wizard_step_works_with_the_keyboard_alone(page, live_server, login, world):
    """The longest path of the tree, every answer given by Tab and Enter (no mouse, no number
    keys), each step inside the main landmark with its question as a heading and without
    serious axe violations; then the context form filled and saved from the keyboard."""
    spec = load_tree_file(TREES_DIR / f"{TREE}.yaml")
    path = max(paths(spec), key=lambda p: len(p.steps))
    login(page, world.users["director_a"])  # the form once in this module; the others sign_in
    page.goto(f"{live_server.url}/arbitrage/nieuw/")
    tab_until(page, "e.matches('[data-tree-search]')")
    page.keyboard.type(spec.title.nl[:8])
    tab_until(page, f"e.matches('#tree-list a[href*=\"/{TREE}/\"]')")
    page.keyboard.press("Enter")

    for number, (node_key, choice_key) in enumerate(path.steps, start=1):
        heading = page.locator("main #question-title")
        expect(heading).to_have_text(spec.node(node_key).text.nl)
        assert page.evaluate(
            "() => !!document.activeElement.closest('main') || "
            "document.activeElement === document.body"
        ), focused(page)
        assert not axe_violations(page), (number, axe_violations(page))
        label = next(c.label.nl for c in spec.node(node_key).choices if c.key == choice_key)
        tab_until(page, f"e.matches('button[name=choice][value=\"{choice_key}\"]')")
        focus_ring = page.evaluate(
            "() => { const s = getComputedStyle(document.activeElement);"
            " return s.outlineStyle !== 'none' || s.boxShadow !== 'none'; }"
        )
        assert focus_ring, f"no visible focus on the answer {label!r}"
        page.keyboard.press("Enter")

    outcome = page.locator("main #outcome-title")
    expect(outcome).to_have_text(spec.node(path.outcome).text.nl)
    assert not axe_violations(page)
    tab_until(page, "e.name === 'board'")
    page.keyboard.type("7")
    tab_until(page, "e.matches('[data-wizard-save]')")
    page.keyboard.press("Enter")
    expect(page.get_by_text("De arbitrage is definitief opgeslagen.")).to_be_visible()
