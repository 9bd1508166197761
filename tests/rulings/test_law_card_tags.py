"""The law text cards beside a wizard step: structure, nesting and cross-references."""

import re
import uuid

import pytest
from django.template.loader import render_to_string
from django.urls import reverse

from rulings import wizard
from rulings.steps import draft_view, law_cards
from rulings.templatetags.law_card_tags import (
    display_label,
    law_card_text,
    nest_cards,
    present,
    step_law_cards,
)


@pytest.fixture
def cards(shipped):
    """Every frozen citation of the old-edition trees, by "slug:key"."""
    found = {}
    for slug in ("verzaking-2007", "strafkaart-1963", "teruggenomen-kaart-1987"):
        frozen = wizard.start(slug)
        for node in frozen.tree.nodes:
            for citation in frozen.citations(node.key):
                found[f"{slug}:{citation.key}"] = citation.to_json()
    return found


def node_cards(slug: str, node: str) -> list[dict]:
    return nest_cards(law_cards(wizard.start(slug).citations(node)))


def test_display_label_keeps_printed_labels_and_dots_bare_ones():
    assert [display_label(x) for x in ("a", "1", "A", "(b)", "a.", "")] == [
        "a.",
        "1.",
        "A.",
        "(b)",
        "a.",
        "",
    ]


def test_a_parent_and_its_item_share_one_card(shipped):
    (card,) = node_cards("verzaking-2007", "voldongen")  # cites 63A and 63A1
    assert (card["key"], card["keys"], card["cited"]) == ("63A", ["63A", "63A1"], ["63A1"])
    (card,) = node_cards("strafkaart-1963", "leider-kiest")  # cites 52, 52(a), 52(b)
    assert (card["keys"], card["cited"]) == (["52", "52(a)", "52(b)"], ["52(a)", "52(b)"])
    separate = node_cards("verzaking-2007", "herstel-vrij")  # 62B2 and 63A1: two articles
    assert [c["keys"] for c in separate] == [["62B2"], ["63A1"]]
    siblings = node_cards("teruggenomen-kaart-1987", "volgende-kaart")  # 47E2(a), 47E2(b)
    assert [c["keys"] for c in siblings] == [["47E2(a)"], ["47E2(b)"]]
    summaries = node_cards("verzaking", "voldongen")  # 2017: our summaries, one per article
    assert all(c["kind"] == "summary" and c["cited"] == [] for c in summaries)


def test_a_sub_heading_stands_apart_from_its_text(cards):
    html = str(law_card_text({**cards["verzaking-2007:63A"], "cited": ["63A1"]}))
    assert "in de volgende slag Een verzaking" not in html
    assert (
        '<span class="law-label fw-semibold me-1">1.</span><span class="fw-semibold">'
        "Overtredende partij speelt voor of speelt in de volgende slag</span></p>"
        "<p>Een verzaking wordt voldongen" in html
    )
    assert '<span class="fw-semibold">Verzaking wordt voldongen</span>' in html
    assert '<li class="law-cited"><div class="law-provision" data-key="63A1">' in html


def test_items_are_a_list_with_their_printed_labels(cards):
    html = str(law_card_text(cards["strafkaart-1963:52"]))
    assert html.count('<ol class="law-items') == 1
    assert re.findall(r'<span class="law-label fw-semibold me-1">([^<]*)</span>', html) == [
        "a.",
        "b.",
    ]
    assert "<p>a<br>" not in html
    assert "<p>b<br>" not in html
    assert "mag hij niet uit eigen beweging enige kaart terugnemen" in html
    labelled = str(law_card_text(cards["teruggenomen-kaart-1987:47E2(a)"]))
    assert '<span class="law-label fw-semibold me-1">(a)</span>' in labelled


def test_the_penalty_note_stands_outside_the_text(cards):
    html = str(law_card_text(cards["verzaking-2007:62D2"]))
    assert "(strafbepaling)" not in html
    badge = '<span class="badge text-bg-light border law-penalty-note me-1">strafbepaling</span>'
    assert badge in html
    assert "nog in twee kleuren kaarten heeft, mag de partner van de overtreder" in html


def test_a_reference_to_an_article_not_imported_says_so(cards):
    html = str(law_card_text(cards["teruggenomen-kaart-1987:47E2(b)"]))
    assert (
        '<span class="law-ref-missing">artikel 40 C <span class="text-body-secondary">'
        "(niet opgenomen in deze editie)</span></span>" in html
    )
    assert "/artikel/40/" not in html
    linked = str(law_card_text(cards["teruggenomen-kaart-1987:47A"]))
    assert '<span class="law-ref-missing">artikel 49 <span' in linked


def test_a_reference_to_an_imported_article_is_a_link(cards):
    html = str(law_card_text(cards["strafkaart-1963:52"]))
    url = reverse("laws:article", args=["1963", "50"])
    assert f'<a class="law-ref" href="{url}">art. 50</a>' in html


def test_text_that_changed_since_the_snapshot_is_shown_as_frozen(cards):
    frozen = {**cards["verzaking-2007:63A"], "text": {"nl": "A Oude kop\nOude tekst.", "en": ""}}
    assert str(law_card_text(frozen)) == "<p>A Oude kop<br>Oude tekst.</p>"
    summary = {"key": "62", "kind": "summary", "text": {"nl": "Samenvatting.", "en": "S."}}
    assert str(law_card_text(summary)) == "<p>Samenvatting.</p>"


def test_the_wizard_step_shows_one_nested_card_with_the_article_title(
    shipped, club_a, director_a, client_director_a
):
    ruling = wizard.begin(
        uuid=uuid.uuid4(),
        club=club_a,
        director=director_a,
        tree=wizard.start("verzaking-2007"),
        node_key="verzaakt",
        choice_key="ja",
    ).ruling
    html = client_director_a.get(reverse("wizard:step", args=[ruling.uuid, 2])).content.decode()
    assert "Artikel 63A, 63A1 – Voldongen worden van een verzaking" in html
    assert html.count('class="card law-citation') == 1
    assert "in de volgende slag Een verzaking" not in html


def test_a_provision_card_shows_its_own_title_and_its_parents_in_the_active_language(shipped):
    from django.utils import translation

    from laws.models import Provision

    tree = wizard.start("verzaking")  # 2017: a summary of every cited provision
    card = next(c for c in node_cards("verzaking", "voldongen") if c["key"] == "63A1")
    assert card["kind"] == "summary"
    assert (
        card["text"]["nl"]
        == Provision.objects.get(article__edition__code="2017", key="63A1").our_summary_nl
    )
    with translation.override("nl"):
        dutch = present(card, "nl")
        page = str(step_law_cards(draft_view(tree, "voldongen")))
    assert dutch["title"] == "Voorspelen of bijspelen naar de volgende slag"
    assert dutch["context"] == [
        "63 Voldongen worden van een verzaking",
        "A Wanneer een verzaking voldongen wordt",
    ]
    assert dutch["summary_of"] == ""  # its own summary
    assert "63 Voldongen worden van een verzaking › A Wanneer een verzaking voldongen wordt" in page
    assert "Artikel 63A1 – Voorspelen of bijspelen naar de volgende slag" in page
    assert "Samenvatting in eigen woorden – geen officiële wettekst" in page
    with translation.override("en"):
        english = str(step_law_cards(draft_view(tree, "voldongen")))
    assert "Law 63A1 – Lead or play to the next trick" in english
    assert "63 Establishment of a revoke › A Revoke becomes established" in english
    assert "Voorspelen of bijspelen" not in english


def test_a_card_says_whose_summary_it_shows_when_not_the_cited_keys_own(shipped):
    from laws.models import ArticleSummary

    # A ruling frozen before the provision index: 63A3 showed the summary of article 63.
    article = ArticleSummary.objects.get(article__edition__code="2017", article__number="63")
    old = {
        "key": "63A3",
        "keys": ["63A3"],
        "edition": "2017",
        "article": "63",
        "article_title": "Voldongen worden van een verzaking",
        "kind": "summary",
        "text": {"nl": article.text_nl, "en": article.text_en},
        "cited": [],
    }
    shown = present(old, "nl")
    assert (shown["summary_of"], shown["summary_of_article"]) == ("63", True)
    assert shown["title"] == "Claim of concessie door de overtredende partij"
    html = render_to_string("rulings/_law_cards.html", {"cards": [shown]})
    assert "63A3 heeft geen eigen samenvatting; hier staat die van artikel 63." in html
    # Our words changed since: the card shows the frozen text without naming its source.
    changed = present({**old, "text": {"nl": "Oude samenvatting.", "en": ""}}, "nl")
    assert changed["summary_of"] == ""


def test_a_steps_cards_read_no_law_text_once_the_edition_is_in_memory(
    shipped, django_assert_num_queries
):
    tree = wizard.start("verzaking")
    view = draft_view(tree, "voldongen")
    step_law_cards(view)
    with django_assert_num_queries(0):
        step_law_cards(view)


def test_a_seed_provision_card_has_its_parents_official_headings_as_context(shipped):
    card = next(c for c in node_cards("verzaking-2007", "twaalfde-partner") if c["key"] == "62D2")
    shown = present(card, "nl")
    # The 2007 seed starts inside article 62, without its title.
    assert shown["context"] == ["62", "D Verzaking in de twaalfde slag"]
    assert shown["title"] == ""


def test_a_nodes_cards_are_made_again_for_a_later_import_of_the_edition(shipped):
    """The cards are kept per frozen tree, node, language and the cited editions' import
    times: new words in the edition show once this process knows of the import."""
    from django.utils import timezone, translation

    from laws import edition_law
    from laws.models import Article, Edition

    view = draft_view(wizard.start("verzaking"), "voldongen")
    with translation.override("nl"):
        before = str(step_law_cards(view))
        assert "63 Voldongen worden van een verzaking" in before
        Article.objects.filter(edition__code="2017", number="63").update(title="Nieuwe titel")
        assert str(step_law_cards(view)) == before  # no later import time known yet
        Edition.objects.filter(code="2017").update(imported_at=timezone.now())
        edition_law.note_import_time("2017", Edition.objects.get(code="2017").imported_at)
        after = str(step_law_cards(view))
    assert "63 Nieuwe titel" in after
    assert "63 Voldongen worden van een verzaking" not in after


def test_cards_of_a_tree_without_a_digest_are_not_kept(shipped):
    from dataclasses import replace

    from rulings.templatetags import law_card_tags

    tree = replace(wizard.start("verzaking"), digest="")
    law_card_tags.clear_cache()
    html = step_law_cards(draft_view(tree, "voldongen"))
    assert "law-citation" in html
    assert law_card_tags._cards == {}
