"""The trees of the auction-and-board and play issues in Chromium, as a director and a trainee
meet them: found by the words directors use and walked in the wizard to the outcome their cases
file expects; one of them also drawn on its page and in explore, and practised through a
shipped case."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from playwright.sync_api import Page, expect

from training.models import TrainingCase, TrainingResult
from trees.loading import TREES_DIR
from trees.parse import load_tree_file

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NEW_TREES = [
    "ongeoorloofde-informatie",
    "verkeerde-uitleg",
    "bod-voor-de-beurt",
    "bod-gewijzigd",
    "spellen-en-handen",
    "claim",
    "voortijdig-spelen",
    "blinde",
    "slagen-en-uitslag",
    "gedrag-en-procedure",
    "informatie-van-elders",
    "tempo-tegenstander",
    "partner-bij-uitleg",
    "psyche",
    "blinde-kaart-genoemd",
    "ontoelaatbare-bieding",
    "openingsuitkomst",
    "bord-verkeerd-om",
]


def first_case(slug: str) -> dict:
    cases = yaml.safe_load(Path(TREES_DIR / f"{slug}.cases.yaml").read_text(encoding="utf-8"))
    return cases["cases"][0]


def answer(page: Page, number: int, choice: str) -> None:
    """Click an answer once step ``number`` is on screen (htmx swaps the steps in place)."""
    page.locator(f'[data-wizard] input[name="step"][value="{number}"]').wait_for(state="attached")
    page.locator(f'[data-wizard] button[name="choice"][value="{choice}"]').click()


@pytest.fixture
def loaded(db):
    """The shipped data is in every test database (tests/conftest.py)."""


@pytest.mark.parametrize("slug", NEW_TREES)
def test_a_new_tree_from_finder_to_outcome(
    slug, loaded, page, live_server, login, sign_in, director_a
):
    """Every new tree found and walked in Chromium; what its other pages show is checked
    for every tree without a browser (tests/trees/test_new_trees.py), and in Chromium for
    one below: those pages work alike for every tree."""
    spec = load_tree_file(TREES_DIR / f"{slug}.yaml")
    case = first_case(slug)
    title = spec.title.nl
    # The login form once in this module; the other walkthroughs get the same session by
    # cookie (tests/conftest.py: ``sign_in``).
    (login if slug == NEW_TREES[0] else sign_in)(page, director_a)

    # Found by a word directors use, best match first.
    page.goto(f"{live_server.url}/arbitrage/nieuw/?editie=2017&q={spec.finder.nl[0]}")
    first = page.locator("#tree-list .tree-choice").first
    expect(first).to_contain_text(title)
    first.click()

    # The wizard walks the cases file's first story to its outcome.
    for number, choice in enumerate(case["answers"], start=1):
        answer(page, number, choice)
    expect(page.locator("#outcome-title")).to_have_text(spec.node(case["outcome"]).text.nl)
    expect(page.locator("[data-announce]")).to_be_visible()
    # The board's details load after the outcome (htmx): the page is done when they are, and
    # the server is then no longer reading for it while the test database is emptied.
    expect(page.locator("form#context-form")).to_be_visible()


def test_a_new_tree_drawn_explored_and_practised(loaded, page, live_server, sign_in, director_a):
    slug = NEW_TREES[0]
    spec = load_tree_file(TREES_DIR / f"{slug}.yaml")
    sign_in(page, director_a)

    # Its page draws every node; explore shows it too.
    page.goto(f"{live_server.url}/beslisbomen/{slug}/")
    expect(page.locator("svg.tree-diagram a.node")).to_have_count(len(spec.nodes))
    page.goto(f"{live_server.url}/oefenen/verkennen/{slug}/")
    expect(page.locator("svg.tree-diagram")).to_be_visible()

    # A shipped practice case of the tree, answered along its model path, is graded right.
    practice = TrainingCase.objects.filter(tree_slug=slug, club=None).order_by("slug").first()
    assert practice is not None, f"no training case for {slug}"
    page.goto(f"{live_server.url}/oefenen/casussen/{practice.pk}/")
    page.get_by_role("button", name="Start de oefening").click()
    expect(page.locator("[data-training-banner]")).to_be_visible()
    for number, (_node, choice) in enumerate(practice.expected_path, start=1):
        answer(page, number, choice)
    expect(page.locator("#outcome-title")).to_be_visible()
    page.get_by_role("button", name="Klaar: beoordeel mijn antwoord").click()
    expect(page.locator('[data-result="right"]')).to_be_visible()
    assert TrainingResult.objects.get(ruling__training_case=practice).correct
