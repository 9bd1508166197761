"""In Chromium: after official text was imported over the 2017 summaries, the card beside a
wizard step shows it, labelled as official text (issue 25, items 3, 4 and 6)."""

import io
import re

import pytest
from django.core.management import call_command
from playwright.sync_api import expect

from tests.laws.test_official import ARTICLE_63
from trees.loading import TREES_DIR
from trees.parse import load_tree_file

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_card_shows_official_text_after_an_import(
    page, live_server, sign_in, director_a, tmp_path
):
    path = tmp_path / "art63.txt"
    path.write_text(ARTICLE_63, encoding="utf-8")
    call_command("import_laws", str(path), "--edition", "2017", stdout=io.StringIO())
    spec = load_tree_file(TREES_DIR / "verzaking.yaml")

    sign_in(page, director_a)
    page.goto(f"{live_server.url}/arbitrage/nieuw/")
    page.get_by_role("link", name=re.compile("Verzaking")).first.click()
    expect(page.locator("#question-title")).to_have_text(spec.node("verzaakt").text.nl)
    page.keyboard.press("1")  # "Ja": a revoke was made
    expect(page.locator("#question-title")).to_have_text(spec.node("voldongen").text.nl)

    card = page.locator('article.law-citation[data-key="63A1"]')
    expect(card).to_contain_text("Officiële tekst")
    expect(card).to_contain_text("Een zelfbedachte eerste zin over een volgende slag.")
    expect(card).to_contain_text("63 Voldongen worden van een verzaking")
    expect(card).not_to_contain_text("Samenvatting in eigen woorden")
    # The four provisions of 63A this step cites all have official text now.
    expect(page.locator("article.law-citation .official-label")).to_have_count(4)
