"""The wizard in Chromium on the shipped trees: keyboard only, mouse with a changed answer, the
browser's back button, closing the tab and resuming, and the screenshot for the README."""

import re

import pytest
from playwright.sync_api import expect

from rulings import audit
from rulings.models import Ruling, Status, Step
from trees.loading import TREES_DIR
from trees.parse import load_tree_file
from trees.spec import TreeSpec
from trees.validate import paths

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SLUG = "verzaking"


@pytest.fixture
def trees(db):
    return load_tree_file(TREES_DIR / f"{SLUG}.yaml")


def longest_path(spec: TreeSpec):
    return max(paths(spec), key=lambda path: len(path.steps))


def key_for(spec: TreeSpec, node_key: str, choice_key: str) -> str:
    choices = [choice.key for choice in spec.node(node_key).choices]
    return str(choices.index(choice_key) + 1)


def question(spec: TreeSpec, node_key: str) -> str:
    return spec.node(node_key).text.nl


def expect_question(page, spec, node_key):
    expect(page.locator("#question-title")).to_have_text(question(spec, node_key))


def tab_to(page, selector: str, limit: int = 60) -> None:
    """Press Tab until ``selector`` has the focus (keyboard only)."""
    for _ in range(limit):
        if page.evaluate("(s) => document.activeElement?.matches(s) ?? false", selector):
            return
        page.keyboard.press("Tab")
    raise AssertionError(f"Tab never reached {selector}")


def open_tree(page, live_server, title: str) -> None:
    page.goto(f"{live_server.url}/arbitrage/nieuw/")
    page.get_by_role("link", name=re.compile(title)).first.click()


def test_a_full_ruling_by_keyboard_only(page, live_server, login, director_a, trees):
    spec = trees
    path = longest_path(spec)
    # The login form once in this module (it lands on the home page); the others sign in by
    # cookie (tests/conftest.py: ``sign_in``).
    login(page, director_a)

    tab_to(page, "[data-new-ruling]")
    page.keyboard.press("Enter")
    expect(page.get_by_role("heading", name="Nieuwe arbitrage")).to_be_visible()
    # The search field takes the focus when the page has loaded; a busy machine may show the
    # heading before that, and keys typed earlier would go elsewhere.
    expect(page.locator("[data-tree-search]")).to_be_focused()
    page.keyboard.type("verzak")
    # Other trees mention a revoke too; the best match comes first, and ArrowDown takes it.
    expect(page.locator("#tree-list .tree-choice").first).to_contain_text("Verzaking")
    expect(page.locator("#phase-found")).to_have_text("Gevonden, beste eerst")
    page.keyboard.press("ArrowDown")
    page.keyboard.press("Enter")

    for number, (node_key, choice_key) in enumerate(path.steps, start=1):
        expect_question(page, spec, node_key)
        if number == 2:
            # Backspace returns to the first question, the given answer marked; the same
            # number key goes forward again without changing anything.
            page.keyboard.press("Backspace")
            expect_question(page, spec, path.steps[0][0])
            expect(page.locator("[data-wizard-selected]")).to_be_visible()
            page.keyboard.press(key_for(spec, *path.steps[0]))
            expect_question(page, spec, node_key)
        page.keyboard.press(key_for(spec, node_key, choice_key))

    expect(page.locator("#outcome-title")).to_have_text(spec.node(path.outcome).text.nl)
    # The context form follows the outcome in a second request; a person reads the ruling
    # first, the test waits for the form.
    expect(page.locator("#id_table")).to_be_attached()
    tab_to(page, "#id_table")
    page.keyboard.type("5")
    tab_to(page, "#id_board")
    page.keyboard.type("14")
    tab_to(page, "#id_offender_seat")
    page.keyboard.press("ArrowDown")  # Noord
    tab_to(page, "[data-wizard-save]")
    page.keyboard.press("Enter")

    expect(page.get_by_role("heading", name=re.compile("Arbitrage: Verzaking"))).to_be_visible()
    ruling = Ruling.objects.get()
    assert ruling.status == Status.FINAL
    assert (ruling.table, ruling.board) == (5, 14)
    assert ruling.offender_seat == "N"
    assert [tuple(step) for step in ruling.path] == list(path.steps)
    assert not Step.objects.filter(superseded=True).exists()
    assert audit.verify(ruling) == []


def test_arrow_down_before_the_list_refreshes_keeps_the_focus_on_a_tree(
    page, live_server, sign_in, director_a, trees
):
    """A director types and presses ArrowDown at once, before the list has refreshed for what
    was typed: when the refresh lands, the focus is on a tree of the new list and Enter opens
    it (it used to drop to the page, and Enter did nothing)."""
    spec = trees
    sign_in(page, director_a)
    page.goto(f"{live_server.url}/arbitrage/nieuw/")
    search = page.locator("[data-tree-search]")
    expect(search).to_be_focused()
    page.keyboard.type("verzaakt")
    page.keyboard.press("ArrowDown")
    # What a person waits for: the list found for the word typed, best match first.
    expect(page.locator("#phase-found")).to_have_text("Gevonden, beste eerst")
    expect(page.locator("#tree-list .tree-choice").first).to_contain_text("Verzaking")
    expect(page.locator("#tree-list .tree-choice").first).to_be_focused()
    page.keyboard.press("Enter")
    expect_question(page, spec, spec.start)


def test_enter_right_after_the_list_refreshed_opens_the_focused_tree(
    page, live_server, sign_in, director_a, trees
):
    """Typed, then Tab to a tree before the list refreshed: when the refresh lands, the focus
    moves to the same tree at once, so an Enter a moment later opens it (it used to return
    only when htmx settled, and an Enter in between was lost; CI hit that window). A long
    settle delay makes the window certain here."""
    spec = trees
    sign_in(page, director_a)
    page.goto(f"{live_server.url}/arbitrage/nieuw/")
    expect(page.locator("[data-tree-search]")).to_be_focused()
    page.evaluate("htmx.config.defaultSettleDelay = 5000")
    page.keyboard.type("verzaakt")
    tree = page.locator(f'#tree-list a[href*="/{SLUG}/"]')
    tree.focus()  # where Tab takes a fast director, in the list as it was
    expect(page.locator("#phase-found")).to_have_text("Gevonden, beste eerst")  # swapped
    page.keyboard.press("Enter")  # at once: long before htmx settles
    expect_question(page, spec, spec.start)


def test_letters_typed_before_htmx_listens_still_filter_the_list(
    page, live_server, sign_in, director_a, trees
):
    """The search field has autofocus, which a busy machine applies before htmx has read the
    page: a director typing at once used to see the unfiltered list stay. Here htmx's script
    is held back until the word is typed, which makes that moment certain."""
    sign_in(page, director_a)
    held = []
    page.route("**/htmx-2.min.js", lambda route: held.append(route))
    page.goto(f"{live_server.url}/arbitrage/nieuw/", wait_until="commit")
    expect(page.locator("[data-tree-search]")).to_be_focused()
    page.keyboard.type("verzak")
    expect(page.locator("#tree-list .tree-choice").first).not_to_contain_text("Verzaking")
    assert len(held) == 1  # htmx is still held back while the word was typed
    held[0].continue_()
    expect(page.locator("#phase-found")).to_have_text("Gevonden, beste eerst")
    expect(page.locator("#tree-list .tree-choice").first).to_contain_text("Verzaking")
    expect(page).to_have_url(re.compile(r"q=verzak"))


def test_a_full_ruling_by_mouse_with_a_changed_answer(
    page, live_server, sign_in, director_a, trees
):
    spec = trees
    path = longest_path(spec)
    sign_in(page, director_a)
    page.goto(f"{live_server.url}/")
    page.locator("[data-new-ruling]").click()
    page.get_by_role("link", name=re.compile("Verzaking")).first.click()
    for node_key, choice_key in path.steps:
        expect_question(page, spec, node_key)
        page.locator(f"button[name=choice][value={choice_key}]").click()
    expect(page.locator("#outcome-title")).to_have_text(spec.node(path.outcome).text.nl)

    # Click the first answer in the path, choose another answer, and follow the first
    # choices to an outcome.
    first_node, first_choice = path.steps[0]
    page.locator("[data-change-answer]").first.click()
    expect_question(page, spec, first_node)
    other = next(c for c in spec.node(first_node).choices if c.key != first_choice)
    page.locator(f"button[name=choice][value={other.key}]").click()
    node = spec.node(other.target)
    while node.kind == "question":
        expect_question(page, spec, node.key)
        page.locator("[data-choice='1']").click()
        node = spec.node(node.choices[0].target)
    expect(page.locator("#outcome-title")).to_have_text(node.text.nl)

    page.locator("#id_table").fill("2")
    page.locator("#id_board").fill("200")
    page.get_by_role("button", name="Definitief opslaan").click()
    expect(page.get_by_text("hoogstens 128")).to_be_visible()
    page.locator("#id_board").fill("20")
    page.get_by_role("button", name="Definitief opslaan").click()

    expect(page.get_by_text("Gewijzigde antwoorden (vervallen, bewaard)")).to_be_visible()
    ruling = Ruling.objects.get()
    assert ruling.status == Status.FINAL
    assert ruling.board == 20
    assert ruling.path[0] == [first_node, other.key]
    assert Step.objects.filter(ruling=ruling, superseded=True).count() == len(path.steps)
    assert ruling.audit_events.filter(action="answer_changed").count() == 1
    assert audit.verify(ruling) == []


def test_the_browser_back_button_walks_the_steps(page, live_server, sign_in, director_a, trees):
    spec = trees
    path = longest_path(spec)
    sign_in(page, director_a)
    open_tree(page, live_server, "Verzaking")
    for node_key, choice_key in path.steps[:3]:
        expect_question(page, spec, node_key)
        page.keyboard.press(key_for(spec, node_key, choice_key))
    expect_question(page, spec, path.steps[3][0])
    expect(page).to_have_url(re.compile(r"/stap/4/$"))

    page.go_back()
    expect(page).to_have_url(re.compile(r"/stap/3/$"))
    expect_question(page, spec, path.steps[2][0])
    expect(page.locator("[data-wizard-selected]")).to_contain_text(
        spec.node(path.steps[2][0]).choice(path.steps[2][1]).label.nl
    )
    page.go_back()
    expect_question(page, spec, path.steps[1][0])
    page.go_forward()
    expect_question(page, spec, path.steps[2][0])
    page.reload()
    expect_question(page, spec, path.steps[2][0])
    # Nothing changed by walking back and forth.
    ruling = Ruling.objects.get()
    assert len(ruling.path) == 3
    assert not Step.objects.filter(superseded=True).exists()


def test_close_the_tab_and_resume_from_the_home_page(
    page, live_server, sign_in, director_a, trees, context
):
    spec = trees
    path = longest_path(spec)
    sign_in(page, director_a)
    open_tree(page, live_server, "Verzaking")
    for node_key, choice_key in path.steps[:2]:
        expect_question(page, spec, node_key)
        page.keyboard.press(key_for(spec, node_key, choice_key))
    expect_question(page, spec, path.steps[2][0])
    page.close()

    again = context.new_page()
    again.goto(f"{live_server.url}/")
    item = again.locator("[data-open-ruling]")
    expect(item).to_contain_text("2 vragen beantwoord")
    item.get_by_role("link", name="Verder").click()
    expect_question(again, spec, path.steps[2][0])

    # Deferring asks where, keyboard first: the cursor is in the table field.
    again.locator("[data-defer] summary").click()
    expect(again.locator("#defer-table")).to_be_focused()
    again.keyboard.type("5")
    again.keyboard.press("Tab")
    again.keyboard.type("12")
    again.keyboard.press("Enter")
    expect(again.get_by_text("De arbitrage is uitgesteld")).to_be_visible()
    expect(again.locator("[data-open-ruling]")).to_contain_text("tafel 5")
    expect(again.locator("[data-open-ruling]")).to_contain_text("spel 12")
    again.locator("[data-open-ruling]").get_by_role("button", name="Hervatten").click()
    expect_question(again, spec, path.steps[2][0])
    assert Ruling.objects.get().status == Status.IN_PROGRESS


def test_screenshot_of_the_outcome_page(page, live_server, sign_in, director_a, trees, artifacts):
    spec = trees
    path = longest_path(spec)
    sign_in(page, director_a)
    open_tree(page, live_server, "Verzaking")
    for node_key, choice_key in path.steps:
        expect_question(page, spec, node_key)
        page.keyboard.press(key_for(spec, node_key, choice_key))
    expect(page.locator("#outcome-title")).to_be_visible()
    page.get_by_label("Wedstrijd of zitting").fill("Dinsdagavond parencompetitie")
    page.locator("#id_round").fill("3")
    page.locator("#id_table").fill("7")
    page.locator("#id_board").fill("18")
    page.get_by_label("Plaats overtreder").select_option("W")
    page.get_by_label("Plaats leider").select_option("N")
    page.get_by_role("button", name="Gegevens bewaren").click()
    expect(page.get_by_text("De gegevens zijn bewaard.")).to_be_visible()
    page.mouse.move(0, 0)
    shot = artifacts / "ruling-outcome.png"
    page.screenshot(path=shot, full_page=True)
    assert shot.stat().st_size > 20_000


def test_open_rulings_are_told_apart_and_an_abandoned_one_is_discarded(
    page, live_server, sign_in, director_a, trees
):
    """Two open rulings at two tables: table and board given during the questions show on the
    home page, and the one started by mistake is discarded from there."""
    spec = trees
    path = longest_path(spec)
    sign_in(page, director_a)
    for table, board in ((7, 12), (3, 5)):
        open_tree(page, live_server, "Verzaking")
        _first, choice_key = path.steps[0]
        page.locator(f"button[name=choice][value={choice_key}]").click()
        expect_question(page, spec, path.steps[1][0])
        page.locator("#table-details summary").click()
        # The step's table form (the defer box has a table and board field of its own).
        page.locator("#id_table").fill(str(table))
        page.locator("#id_board").fill(str(board))
        page.locator("[data-table-form]").get_by_role("button", name="Bewaren").click()
        expect(page.locator("#table-details summary")).to_contain_text(f"tafel {table}")
    page.goto(f"{live_server.url}/")
    rows = page.locator("[data-open-ruling]")
    expect(rows).to_have_count(2)
    expect(rows.filter(has_text="tafel 7")).to_contain_text("spel 12")
    expect(rows.filter(has_text="tafel 3")).to_contain_text("zojuist")

    mistaken = rows.filter(has_text="tafel 3")
    mistaken.locator("summary", has_text="Verwerpen").click()
    mistaken.get_by_role("textbox").fill("verkeerde tafel")
    mistaken.get_by_role("button", name="Arbitrage verwerpen").click()
    expect(page.get_by_text("De arbitrage is verworpen")).to_be_visible()
    expect(page.locator("[data-open-ruling]")).to_have_count(1)
    assert Ruling.objects.filter(status=Status.DISCARDED, table=3).count() == 1


def test_table_numbers_typed_but_not_saved_stay_while_the_director_answers(
    page, live_server, sign_in, director_a, trees
):
    """The next question keeps the table form as it was on the page (hx-preserve): what the
    director typed is still there, open, and saves as before."""
    spec = trees
    path = longest_path(spec)
    sign_in(page, director_a)
    open_tree(page, live_server, "Verzaking")
    page.locator(f"button[name=choice][value={path.steps[0][1]}]").click()
    expect_question(page, spec, path.steps[1][0])
    page.locator("#table-details summary").click()
    page.locator("#id_table").fill("9")
    _node, choice_key = path.steps[1]
    page.locator(f"button[name=choice][value={choice_key}]").click()
    expect_question(page, spec, path.steps[2][0])
    expect(page.locator("#id_table")).to_be_visible()
    expect(page.locator("#id_table")).to_have_value("9")
    page.locator("[data-table-form]").get_by_role("button", name="Bewaren").click()
    expect(page.locator("#table-details summary")).to_contain_text("tafel 9")
    assert Ruling.objects.get(table=9).current_node_key == path.steps[2][0]


def test_the_audit_trail_reads_in_words(page, live_server, sign_in, director_a, trees):
    spec = trees
    path = longest_path(spec)
    sign_in(page, director_a)
    open_tree(page, live_server, "Verzaking")
    for node_key, choice_key in path.steps:
        expect_question(page, spec, node_key)
        page.locator(f"button[name=choice][value={choice_key}]").click()
    expect(page.locator("#outcome-title")).to_have_text(spec.node(path.outcome).text.nl)
    page.get_by_label("Spel (verplicht)").fill("14")
    page.locator("[data-wizard-save]").click()
    expect(page.get_by_role("heading", name=re.compile("Arbitrage: Verzaking"))).to_be_visible()

    ruling = Ruling.objects.get()
    page.goto(f"{live_server.url}/arbitrages/{ruling.uuid}/")
    trail = page.locator(".audit-trail")
    first_question = spec.node(path.steps[0][0]).text.nl
    expect(trail).to_contain_text(f"Vraag 1 ‘{first_question}’")
    expect(trail).to_contain_text("Definitief opgeslagen met de uitkomst")
    expect(trail).not_to_contain_text("superseded")
    expect(trail).not_to_contain_text('"choice"')
    number = trail.locator("tbody tr td").first
    assert number.evaluate("el => getComputedStyle(el).whiteSpace") == "nowrap"
