"""In Chromium: every real ruling of every shipped tree, with a deal, an adjusted score and a
player poll of six peers, prints on one A4 page; "Afdrukken met audit" adds the audit trail
and the full law texts on the pages after it.

"Every real ruling" is tested by its worst case: per tree, the path that prints the most text
(questions, answers, the outcome's title, ruling, options and what is said at the table, and
the titles of the law it cites), the ruling with notes, a doubled contract with the result at
the table and after the rectification, a stored deal with its double-dummy table, a weighted
adjusted score for both sides and a long auction with two explained calls. Pages are counted
in the PDF Chromium makes (``page.pdf``), as in tests/archive/test_record_browser.py.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from rulings import transitions, wizard
from rulings.models import Ruling
from rulings.templatetags.auction_tags import EXPLANATION_TREES
from scores import deals, result_views
from scores.double_dummy import DoubleDummy
from tests.archive.test_record_browser import a4, pdf_pages
from tests.support.polls import poll_with_answers
from tests.support.rulings import make_ruling
from tests.support.scores import record_weighted
from trees import validate
from trees.spec import Path, Snapshot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

HANDS = {
    "N": "AKQJ.AKQJ.AKQJ.A",
    "E": "765.765.765.9876",
    "S": "T98.T98.T98.KQJT",
    "W": "432.432.432.5432",
}
NOTES = (
    "Zuid riep de wedstrijdleider na de zesde slag. Oost en West waren het eens over de "
    "feiten; Noord zei dat hij de kaart al had gezien voordat die gespeeld was. Beide paren "
    "hoorden de uitspraak aan tafel en tekenden niet voor beroep."
)


# A long competitive auction (board 9: North deals) with two calls explained against the
# agreement, a hesitation and a double: three rows and two notes (on a misinformation ruling the
# comparison of explanation and agreement).
AUCTION = (
    'N: P 1H! "5+ harten, 11-20" [4+ harten, 10-20] 2C 2NT! "invitatie met harten" '
    "[sterke raise] X? 3H P 4H X P P P"
)


def printed_length(tree: Snapshot, path: Path) -> int:
    """The characters a path puts on paper: its questions and answers, the outcome's texts and
    the titles of the law the path and the outcome cite."""
    length = 0
    for node_key, choice_key in path.steps:
        node = tree.node(node_key)
        choice = node.choice(choice_key)
        length += len(node.text.nl) + len(choice.label.nl if choice else "")
    end = tree.node(path.outcome)
    assert end.outcome is not None
    outcome = end.outcome
    texts = (end.text, outcome.ruling, outcome.announce, outcome.options)
    length += sum(len(text.nl) for text in texts if text)
    keys = {key for node_key, _ in path.steps for key in tree.node(node_key).cites}
    keys |= set(end.cites)
    length += sum(len(tree.law[key].article_title or "") + 12 for key in keys if key in tree.law)
    return length


def longest_path(tree: Snapshot) -> Path:
    return max(validate.paths(tree.tree), key=lambda path: printed_length(tree, path))


@pytest.fixture
def quick_analysis(monkeypatch):
    row = (7, 8, 9, 10, 11)
    table = DoubleDummy(tricks=(row, row, row, row), par_score=-50, par_contracts=())
    monkeypatch.setattr(deals.double_dummy, "analyse", lambda deal: table)


def test_the_longest_ruling_of_every_shipped_tree_prints_on_one_a4_page(
    page, live_server, sign_in, shipped, club_a, director_a, quick_analysis, artifacts, screenshot
):
    sign_in(page, director_a)
    deals.store_typed(club_a, deals.typed_deal(9, HANDS, event="Dinsdagavond"), director_a)
    pages: dict[str, tuple[int, int]] = {}
    for slug in sorted(shipped):
        path = longest_path(wizard.start(slug))
        ruling = make_ruling(club_a, director_a, path.answers, tree_slug=slug, board=9, notes=NOTES)
        Ruling.objects.filter(pk=ruling.pk).update(
            contract_level=4,
            contract_strain="S",
            contract_doubled="X",
            declarer_seat="S",
            auction=AUCTION,
        )
        ruling.refresh_from_db()
        cleaned = {"tricks_made": 9, "rectified_tricks": 10, "sequence": ruling.audit_sequence}
        contract = result_views.contract_of(ruling)
        transitions.run(
            ruling, director_a, None, result_views.plan_result(director_a, cleaned, contract)
        )
        record_weighted(ruling, director_a)
        poll_with_answers(ruling, director_a)
        page.emulate_media(media="screen")
        page.goto(f"{live_server.url}/arbitrages/{ruling.uuid}/")
        expect(page.locator("#arbitrale-score")).to_be_visible()
        page.emulate_media(media="print")
        # The first page holds the whole ruling; the law texts and the trail wait for the audit.
        parts = (
            "#feiten",
            "#beslissing",
            "#rechtsgrond",
            "[data-auction-print]",
            "#uitslag",
            "#arbitrale-score",
            "#spel",
        )
        parts += ("#peiling-afdruk",)
        for part in parts:
            expect(page.locator(part)).to_be_visible()
        expect(page.locator("#rechtsgrond .legal-basis-entry").first).to_be_visible()
        # The auction's notes: a misinformation ruling's comparison, else beside the details.
        about = slug in EXPLANATION_TREES
        notes = "[data-auction-compare]" if about else "[data-auction-print] .auction-notes"
        expect(page.locator(notes).locator("visible=true")).to_have_count(1)
        expect(page.locator("#wetsartikelen")).to_be_hidden()
        expect(page.locator("[data-audit-print]")).to_be_hidden()
        screenshot(page, f"print-{slug}.png")
        plain = a4(page)
        (artifacts / f"print-{slug}.pdf").write_bytes(plain)

        # Without JavaScript "Afdrukken met audit" opens the page ready for that print.
        page.goto(f"{live_server.url}/arbitrages/{ruling.uuid}/?afdruk=audit")
        expect(page.locator("#wetsartikelen")).to_be_visible()
        expect(page.locator("[data-audit-print] tr[data-audit-event]").first).to_be_visible()
        audited = a4(page)
        (artifacts / f"print-audit-{slug}.pdf").write_bytes(audited)
        pages[slug] = (pdf_pages(plain), pdf_pages(audited))
    assert {slug: plain for slug, (plain, _audit) in pages.items()} == dict.fromkeys(pages, 1)
    assert all(audit >= 2 for _plain, audit in pages.values()), pages


def test_afdrukken_met_audit_prints_the_trail_and_the_law_texts_this_once(
    page, live_server, sign_in, shipped, club_a, director_a
):
    path = longest_path(wizard.start("verzaking"))
    ruling = make_ruling(club_a, director_a, path.answers, tree_slug="verzaking")
    sign_in(page, director_a)
    # The browser's print dialog would wait for a person: a stand-in notes what it would print.
    page.add_init_script(
        "window.print = () => { window.printed = [...(window.printed || []),"
        " document.body.classList.contains('print-with-audit')];"
        " window.dispatchEvent(new Event('afterprint')); };"
    )
    page.goto(f"{live_server.url}/arbitrages/{ruling.uuid}/")
    page.get_by_role("link", name="Afdrukken met audit").click()
    page.get_by_role("button", name="Afdrukken", exact=True).click()
    assert page.evaluate("window.printed") == [True, False]
    # The page itself is unchanged: still the record, printing one page.
    assert page.url == f"{live_server.url}/arbitrages/{ruling.uuid}/"
    page.emulate_media(media="print")
    expect(page.locator("#wetsartikelen")).to_be_hidden()
    assert pdf_pages(a4(page)) == 1
