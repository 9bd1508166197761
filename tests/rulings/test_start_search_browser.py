"""The start page's search in Chromium (issue 29, item 5): ↓ reaches every result, Enter with
one tree found opens it, ↓ Enter typed at once never acts on the list of older words, a tree
opened on the way to a question by keyboard, and the key 0 for a tenth answer."""

import re

import pytest
from playwright.sync_api import expect

from rulings.models import Ruling
from trees import lookup
from trees.loading import TREES_DIR
from trees.models import Tree
from trees.parse import load_tree_file

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def trees(db):
    return {slug: load_tree_file(TREES_DIR / f"{slug}.yaml") for slug in SLUGS}


SLUGS = ("verzaking", "ongeoorloofde-informatie", "claim", "strafkaart", "teruggenomen-kaart")


def search_page(page, live_server):
    page.goto(f"{live_server.url}/arbitrage/nieuw/")
    # What a person waits for: the field with the cursor in it.
    expect(page.locator("[data-tree-search]")).to_be_focused()


def first_found(words: str) -> str:
    """The slug of the first tree the start page lists for ``words`` (edition 2017)."""
    found = lookup.find(Tree.objects.select_related("edition"), words)
    return next(item.tree.slug for item in found if item.tree.edition.code == "2017")


@pytest.mark.parametrize(
    "words", ["verzaakt", "denkpauze", "claim betwist", "strafkaart", "verzaakr"]
)
def test_arrow_down_and_enter_at_once_open_the_tree_found_for_the_words_typed(
    page, live_server, sign_in, director_a, trees, words
):
    """Typed, then ↓ and Enter at once, long before the list for the last letters arrives
    (the live search waits 150 ms): the list of older words (here the unfiltered one, whose
    first tree is "Bieding gewijzigd") is never the one acted on. Before issue 29, 8 of 40
    tries opened the first tree of the unfiltered list."""
    slug = first_found(words)
    spec = load_tree_file(TREES_DIR / f"{slug}.yaml")
    sign_in(page, director_a)
    search_page(page, live_server)
    page.keyboard.type(words)
    page.keyboard.press("ArrowDown")
    page.keyboard.press("Enter")
    expect(page.locator("#question-title")).to_have_text(spec.node(spec.start).text.nl)
    assert f"/arbitrage/nieuw/{slug}/" in page.url


def test_arrow_down_reaches_every_result_and_the_free_ruling(
    page, live_server, login, director_a, trees
):
    login(page, director_a)
    search_page(page, live_server)
    page.keyboard.type("kaart")
    expect(page.locator("#tree-list")).to_have_attribute("data-query", "kaart")
    picks = page.locator("#tree-list [data-pick]")
    count = picks.count()
    assert count >= 3
    for index in range(count):
        page.keyboard.press("ArrowDown")
        expect(picks.nth(index)).to_be_focused()
    expect(picks.nth(count - 1)).to_have_text("Vrije arbitrage maken")
    page.keyboard.press("ArrowDown")  # the last stays the last
    expect(picks.nth(count - 1)).to_be_focused()
    for index in range(count - 2, -1, -1):
        page.keyboard.press("ArrowUp")
        expect(picks.nth(index)).to_be_focused()
    page.keyboard.press("ArrowUp")
    expect(page.locator("[data-tree-search]")).to_be_focused()


def test_enter_with_one_tree_found_opens_it(page, live_server, sign_in, director_a, trees):
    words = "renonce"
    only = [
        i
        for i in lookup.find(Tree.objects.select_related("edition"), words)
        if i.tree.edition.code == "2017"
    ]
    assert [item.tree.slug for item in only] == ["verzaking"]  # the case this test is about
    spec = trees["verzaking"]
    sign_in(page, director_a)
    search_page(page, live_server)
    page.keyboard.type(words)
    page.keyboard.press("Enter")  # at once: the list for "renonce" may not be there yet
    expect(page.locator("#question-title")).to_have_text(spec.node(spec.start).text.nl)


def test_enter_with_several_trees_found_keeps_the_list(
    page, live_server, sign_in, director_a, trees
):
    sign_in(page, director_a)
    search_page(page, live_server)
    page.keyboard.type("kaart")
    expect(page.locator("#tree-list")).to_have_attribute("data-query", "kaart")
    page.keyboard.press("Enter")  # the form is sent, as without JavaScript
    expect(page).to_have_url(re.compile(r"q=kaart"))
    expect(page.locator("#phase-found")).to_have_text("Gevonden, beste eerst")
    assert not Ruling.objects.exists()


def test_a_tree_found_at_a_question_is_walked_there_by_enter(
    page, live_server, sign_in, director_a, trees
):
    """'strafkaart niet gespeeld': the penalty-card tree opens at its first question with the
    answer leading to the question found pre-selected and focused; Enter confirms it."""
    spec = trees["strafkaart"]
    sign_in(page, director_a)
    search_page(page, live_server)
    page.keyboard.type("strafkaart niet gespeeld")
    result = page.locator("#tree-list .tree-choice", has_text="Strafkaart").first
    expect(result).to_contain_text("Opent op weg naar de vraag")
    result.click()
    expect(page.locator("#question-title")).to_have_text(spec.node("situatie").text.nl)
    expect(page.locator("[data-toward]")).to_contain_text(spec.node("kon-spelen").text.nl)
    selected = page.locator("[data-wizard-selected]")
    expect(selected).to_be_focused()
    expect(selected).to_contain_text("speelde een andere kaart")
    page.keyboard.press("Enter")
    expect(page.locator("#question-title")).to_have_text(spec.node("kon-spelen").text.nl)
    expect(page.locator("[data-toward]")).to_have_text("Dit is de vraag die u zocht.")
    assert Ruling.objects.get().path == [["situatie", "andere-kaart"]]


def test_key_0_chooses_the_tenth_answer(page, live_server, sign_in, director_a, trees):
    spec = trees["teruggenomen-kaart"]
    sign_in(page, director_a)
    page.goto(f"{live_server.url}/arbitrage/nieuw/teruggenomen-kaart/")
    expect(page.locator("#question-title")).to_have_text(spec.node("gespeeld").text.nl)
    page.keyboard.press("1")
    expect(page.locator("#question-title")).to_have_text(spec.node("reden").text.nl)
    tenth = spec.node("reden").choices[9]
    expect(page.locator('[data-choice="0"]')).to_contain_text(tenth.label.nl)
    page.keyboard.press("0")
    expect(page.locator("#outcome-title")).to_have_text(spec.node(tenth.target).text.nl)
    assert Ruling.objects.get().path[-1] == ["reden", tenth.key]
