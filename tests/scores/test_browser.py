"""In Chromium at 1366×768: a director runs a revoke ruling to an outcome that allows an
adjusted score, saves it, records a weighted score (12C1(c): 60 % 4S= by North, 40 % 4S-1 by
North), sees it on the ruling page and in the CSV; the club admin exports a transfer bundle,
and the admin of another club imports it and finds the score there."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.db import connection
from playwright.sync_api import expect

from clubs.models import Membership, Role
from rulings.models import AuditEvent, Ruling, Step
from scores.models import AdjustedScore
from tests.conftest import make_user
from trees.loading import TREES_DIR
from trees.parse import load_tree_file
from trees.validate import paths

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SIZE = {"width": 1366, "height": 768}
OUTCOME = "twee-slagen"  # a revoke after play, two tricks transferred: 64C may adjust


@pytest.fixture
def revoke(db):
    spec = load_tree_file(TREES_DIR / "verzaking.yaml")
    path = next(p for p in paths(spec) if p.outcome == OUTCOME)
    return spec, path


def empty_the_server() -> None:
    """As if the bundle arrived at another server: audit events are append-only through the
    ORM, so they go with SQL."""
    with connection.cursor() as cursor:
        cursor.execute(f"DELETE FROM {AuditEvent._meta.db_table}")  # noqa: S608
    AdjustedScore.objects.all().delete()
    Step.objects.all().delete()
    Ruling.objects.all().delete()


def test_a_weighted_score_on_the_ruling_page_in_the_csv_and_in_a_bundle(
    page,
    live_server,
    login,
    sign_in,
    club_a,
    club_b,
    director_a,
    admin_a,
    revoke,
    screenshot,
    browser_context_args,
):
    spec, path = revoke
    page.set_viewport_size(SIZE)
    login(page, director_a)
    page.goto(f"{live_server.url}/arbitrage/nieuw/")
    page.get_by_role("link", name=re.compile("Verzaking")).first.click()
    for node_key, choice_key in path.steps:
        expect(page.locator("#question-title")).to_have_text(spec.node(node_key).text.nl)
        page.locator(f"button[name=choice][value={choice_key}]").click()
    expect(page.locator("#outcome-title")).to_have_text(spec.node(OUTCOME).text.nl)
    page.get_by_label("Spel (verplicht)").fill("7")  # board 7: both sides vulnerable
    page.locator("[data-wizard-save]").click()
    expect(page.get_by_role("heading", name=re.compile("Arbitrage: Verzaking"))).to_be_visible()

    # Right after saving, the final ruling offers the adjusted score.
    page.locator("#arbitrale-score").get_by_role("link", name="Arbitrale score vastleggen").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Arbitrale score vastleggen")
    page.get_by_label("OW", exact=True).check()  # East-West revoked
    page.locator("#id_non_contract_1").fill("4S=")
    page.locator("#id_non_declarer_1").select_option("N")
    page.locator("#id_non_weight_1").fill("60")
    page.locator("#id_non_contract_2").fill("4S-1")
    page.locator("#id_non_declarer_2").select_option("N")
    page.locator("#id_non_weight_2").fill("50")
    page.get_by_label("Andere uitslagen van dit spel (NZ-scores)").fill("620 650 -100 170")
    page.get_by_role("button", name="Arbitrale score opslaan").click()
    # The weights add up to 110 %: said in place, nothing typed is lost.
    expect(page.get_by_text("De gewichten tellen op tot 110 %")).to_be_visible()
    expect(page.locator("#id_non_contract_2")).to_have_value("4S-1")
    page.locator("#id_non_weight_2").fill("40")
    page.get_by_role("button", name="Arbitrale score opslaan").click()

    ruling = Ruling.objects.get()
    expect(page).to_have_url(re.compile(rf"/arbitrages/{ruling.uuid}/"))
    panel = page.locator("#arbitrale-score")
    expect(panel).to_contain_text("gewogen (12C1(c))")
    expect(panel.locator("tr[data-side=NS]")).to_contain_text("3,40 / 8 (42,50 %)")
    expect(panel.locator("tr[data-side=EW]")).to_contain_text("4,60 / 8 (57,50 %)")
    expect(page.locator(".audit-trail")).to_contain_text(
        "Arbitrale score vastgelegd (gewogen): NZ 60 % 4S= (N), 40 % 4S-1 (N)"
    )
    screenshot(page, "adjusted-score.png")

    page.goto(f"{live_server.url}/arbitrages/")
    with page.expect_download() as info:
        page.locator("#results").get_by_role("link", name="CSV", exact=True).click()
    lines = Path(info.value.path()).read_text(encoding="utf-8").splitlines()
    # The adjusted score's two columns, then the decision (later columns follow it).
    assert ",adjusted_score,adjusted_score_summary,decision," in lines[0] + ","
    assert str(ruling.uuid) in lines[1]
    assert "weighted,weighted mp; NS 60% 4S= N + 40% 4S-1 N; EW (offending) same" in lines[1]

    # The club admin exports a bundle; the admin of another club imports it on a server that
    # does not have the ruling.
    def new_session():  # another person at another computer: own cookies, Dutch, same size
        browser = page.context.browser
        return browser.new_context(**{**browser_context_args, "viewport": SIZE}).new_page()

    admin_page = new_session()
    sign_in(admin_page, admin_a)  # the director used the form; once is enough
    admin_page.goto(f"{live_server.url}/arbitrages/overdracht/?club={club_a.slug}")
    with admin_page.expect_download() as info:
        admin_page.get_by_role("button", name="Bestand downloaden").click()
    bundle = Path(info.value.path())
    assert '"adjusted_score": [{' in bundle.read_text(encoding="utf-8")
    admin_page.close()
    empty_the_server()

    other = new_session()
    bea = make_user("bea", club_b, Role.ADMIN)
    # A bundle's rulings go only to a club their director is a member of (transfer.provenance).
    Membership.objects.create(user=ruling.director, club=club_b, role=Role.DIRECTOR)
    sign_in(other, bea)
    other.goto(f"{live_server.url}/arbitrages/overdracht/?club={club_b.slug}")
    other.get_by_label("Bestand (.json) van de clublaptop").set_input_files(bundle)
    other.get_by_role("button", name="Importeren").click()
    expect(other.get_by_text(re.compile(r"Geïmporteerd in .*: 1 nieuw"))).to_be_visible()
    other.goto(f"{live_server.url}/arbitrages/{ruling.uuid}/")
    imported = other.locator("#arbitrale-score")
    expect(imported).to_contain_text("4♠-1")  # the panel writes suits as symbols
    expect(imported.locator("tr[data-side=NS]")).to_contain_text("3,40 / 8 (42,50 %)")
    expect(other.get_by_text("keten intact")).to_be_visible()
    other.close()
