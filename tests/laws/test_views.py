"""Law pages: editions, contents, article, compare and search; plain and through htmx."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from laws.importer import parse
from laws.loading import store_edition
from laws.models import ArticleSummary, Edition, Provision
from trees.loading import load_trees
from trees.models import Tree


@pytest.fixture
def laws(db):
    """The shipped data is in every test database (tests/conftest.py)."""


@pytest.fixture
def anon(client, django_user_model, laws):
    """An anonymous visitor on a site that has a user (so no first-run redirect) and laws."""
    django_user_model.objects.create(username="lid")
    return client


# Upper bounds with a little room for middleware; the pages run the same queries for one
# article as for an edition of twelve with references, footnotes and nested provisions.
ARTICLE_QUERIES = 10
SEARCH_QUERIES = 9


def article_url(code: str, number: str) -> str:
    return reverse("laws:article", args=[code, number])


def page(response) -> str:
    assert response.status_code == 200, response.status_code
    return response.content.decode()


def big_edition(code: str = "2019", articles: int = 12) -> Edition:
    """An edition with many articles, provisions, footnotes and references between them."""
    parts = []
    for number in range(1, articles + 1):
        parts.append(
            f"ARTIKEL {number}\nTitel {number}\nIntro, zie artikel {number % articles + 1}.\n"
            f"A. Kop\n1. Kop een\nTekst met hand* en artikel {number % articles + 1}A1.\n"
            "2. Kop twee\nTekst, zie artikel 1A2 en artikel 2A.\n(a) als dit; of\n(b) als dat.\n"
            f"B. Nog een kop\nSlot.\n{number}\n* Een voetnoot bij artikel 1.\n"
        )
    edition = Edition.objects.create(code=code, title=f"Proef {code}")
    store_edition(parse("".join(parts), code), edition)
    return edition


# --------------------------------------------------------------------------------------------
# Editions and contents


def test_editions_page_is_public(anon):
    html = page(anon.get(reverse("laws:editions")))
    for code in ("1963", "1987", "2007", "2017"):
        assert reverse("laws:edition", args=[code]) in html
    assert "geldend" in html
    assert reverse("laws:search") in html


def test_laws_pages_need_no_login(anon):
    for url in [
        reverse("laws:editions"),
        reverse("laws:edition", args=["2007"]),
        article_url("2007", "62"),
        reverse("laws:compare_index"),
        reverse("laws:compare", args=["62"]),
        reverse("laws:search") + "?q=verzaking",
    ]:
        assert anon.get(url).status_code == 200, url


def test_edition_contents_with_groups(anon):
    html = page(anon.get(reverse("laws:edition", args=["1963"])))
    assert "STRAFKAART. Art. 50 t/m 52" in html
    assert html.index("STRAFKAART") < html.index("Artikel 50")
    for number in ("50", "51", "52"):
        assert article_url("1963", number) in html
    assert "Verzuim een strafkaart voor- of bij te spelen" in html


def test_current_edition_marks_summary_only_articles(anon):
    html = page(anon.get(reverse("laws:edition", args=["2017"])))
    assert article_url("2017", "62") in html
    assert "alleen samenvatting" in html


def test_unknown_edition_and_article_are_404(anon):
    assert anon.get(reverse("laws:edition", args=["1900"])).status_code == 404
    assert anon.get(article_url("2007", "99")).status_code == 404


# --------------------------------------------------------------------------------------------
# Article


def test_article_has_nested_provisions_with_anchors(anon):
    html = page(anon.get(article_url("2007", "62")))
    ids = re.findall(r'<section class="law-provision[^"]*" id="([^"]+)"', html)
    assert ids == ["62B", "62B2", "62C", "62C1", "62C2", "62D", "62D1", "62D2"]
    # 62B2 sits inside 62B: its section opens before 62B's closes.
    b = html.index('id="62B"')
    assert b < html.index('id="62B2"') < html.index('id="62C"')
    assert "Partner van de overtreder had nog niet bijgespeeld in de twaalfde slag" in html
    assert "voordat de vier handen in het bord zijn teruggestoken" in html


def test_article_footnotes_are_linked_to_their_provision(anon):
    html = page(anon.get(article_url("2007", "62")))
    footnotes = html[html.index('id="voetnoten"') :]
    assert "Onderworpen aan" in footnotes
    assert "(bij 62B2)" in footnotes
    assert 'href="#62B2"' in footnotes
    heading_62b2 = html[html.index('id="62B2"') : html.index('id="62C"')]
    assert re.search(r'<sup><a href="#voetnoot-\d+" class="law-fn-ref">\*</a></sup>', heading_62b2)
    unmarked = page(anon.get(article_url("2007", "63")))
    assert "Een bewering dat verzaakt is" in unmarked[unmarked.index('id="voetnoten"') :]


def test_cross_reference_to_another_article_is_a_link(anon):
    html = page(anon.get(article_url("1963", "52")))
    assert f'<a class="law-ref" href="{article_url("1963", "50")}">art. 50</a>' in html


def test_cross_reference_outside_the_edition_is_not_a_link(anon):
    html = page(anon.get(article_url("2007", "62")))
    assert (
        '<span class="law-ref-missing">artikel 16C <span class="text-body-secondary">'
        "(niet opgenomen in deze editie)</span></span>" in html
    )
    assert 'class="law-ref" href' not in html


def test_cross_reference_to_an_article_not_imported_says_so(anon):
    # 1987 art. 47E2(b) refers to art. 40C; only art. 47 of 1987 is imported
    html = page(anon.get(article_url("1987", "47")))
    missing = 'artikel 40 C <span class="text-body-secondary">(niet opgenomen in deze editie)'
    assert missing in html
    assert 'href="/wetten/1987/artikel/40/' not in html


def test_cross_reference_to_a_provision_links_to_its_anchor(anon):
    edition = Edition.objects.create(code="2019")
    text = (
        "Artikel 40 Een\n\nA. Kop\n\nZie artikel 41 B1 en artikel 40B.\n\nB. Kop\n\nTekst.\n\n"
        "Artikel 41 Twee\n\nA. Kop\n\nTekst.\n\nB. Kop\n\n1. Kop\n\nTekst."
    )
    store_edition(parse(text, "2019"), edition)
    html = page(anon.get(article_url("2019", "40")))
    assert f'<a class="law-ref" href="{article_url("2019", "41")}#41B1">artikel 41 B1</a>' in html
    assert '<a class="law-ref" href="#40B">artikel 40B</a>' in html
    # The target lists where it is referred from, at the article and at the provision.
    target = page(anon.get(article_url("2019", "41")))
    referred = target[target.index('id="referred-title"') :]
    assert f"{article_url('2019', '40')}#40A" in referred
    provision = target[target.index('id="41B1"') :]
    assert "Verwezen door" in provision
    assert f"{article_url('2019', '40')}#40A" in provision


def test_referred_by_list(anon):
    html = page(anon.get(article_url("1963", "50")))
    referred = html[html.index('id="referred-title"') :]
    assert f"{article_url('1963', '52')}#artikel" in referred
    assert "“art. 50”" in referred
    alone = page(anon.get(article_url("1963", "51")))
    assert "Geen verwijzingen naar dit artikel" in alone


def test_summary_is_labelled_and_apart_from_the_law_text(anon):
    html = page(anon.get(article_url("1963", "50")))
    summary = ArticleSummary.objects.get(article__edition__code="1963", article__number="50")
    label = "Samenvatting in eigen woorden – geen officiële wettekst"
    assert label in html
    aside = html[html.index('id="samenvatting"') : html.index("</aside>")]
    assert summary.text_nl[:40] in aside
    law_text = html[html.index('<div class="law-text">') :]
    assert summary.text_nl[:40] not in law_text


def test_summary_only_article_says_there_is_no_official_text(anon):
    html = page(anon.get(article_url("2017", "62")))
    assert "geen officiële tekst opgenomen" in html
    assert "Samenvatting in eigen woorden" in html


def test_an_article_of_the_index_lists_its_provisions_in_our_words(anon):
    html = page(anon.get(article_url("2017", "63")))
    assert "geen officiële tekst opgenomen" in html
    provision = Provision.objects.get(article__edition__code="2017", key="63A1")
    section = html[html.index('id="63A1"') :]
    assert provision.our_title_nl in section[:2000]
    assert provision.our_summary_nl in section[:3000]
    assert 'class="law-own-title' in section[:2000]


def test_article_lists_the_decision_trees_citing_it(anon, django_assert_max_num_queries):
    load_trees()
    tree = Tree.objects.get(slug="verzaking-2007")
    with django_assert_max_num_queries(ARTICLE_QUERIES):
        html = page(anon.get(article_url("2007", "62")))
    used = html[
        html.index('id="trees-title"') : html.index("</section>", html.index('id="trees-title"'))
    ]
    assert f'<a href="{reverse("trees:detail", args=[tree.slug])}">{tree.title}</a>' in used
    assert "62D2" in used
    store_edition(parse("Artikel 1 Titel\n\nTekst.", "2019"), Edition.objects.create(code="2019"))
    nothing = page(anon.get(article_url("2019", "1")))
    assert "Geen beslisboom citeert dit artikel." in nothing


def test_article_links_to_other_editions_and_neighbours(anon):
    html = page(anon.get(article_url("2007", "62")))
    assert article_url("2017", "62") in html
    assert reverse("laws:compare", args=["62"]) in html
    assert f'href="{article_url("2007", "63")}" rel="next"' in html
    assert 'rel="prev"' not in html


def test_law_text_is_escaped(anon):
    edition = Edition.objects.create(code="2019")
    store_edition(
        parse('Artikel 1 Titel <b>vet</b>\n\nA. Kop\n\nTekst <script>x()</script> "& zo".', "2019"),
        edition,
    )
    html = page(anon.get(article_url("2019", "1")))
    assert "<script>x()</script>" not in html
    assert "<b>vet</b>" not in html
    assert "&lt;script&gt;x()&lt;/script&gt;" in html
    assert "Titel &lt;b&gt;vet&lt;/b&gt;" in html


def test_article_query_count_is_constant(anon, django_assert_max_num_queries):
    with django_assert_max_num_queries(ARTICLE_QUERIES):
        page(anon.get(article_url("2007", "62")))
    big_edition()
    with django_assert_max_num_queries(ARTICLE_QUERIES):
        html = page(anon.get(article_url("2019", "3")))
    assert 'id="3A2(b)"' in html
    assert "Een voetnoot bij" in html


def test_edition_and_editions_query_counts(anon, django_assert_max_num_queries):
    big_edition()
    with django_assert_max_num_queries(4):
        page(anon.get(reverse("laws:editions")))
    with django_assert_max_num_queries(5):
        html = page(anon.get(reverse("laws:edition", args=["2019"])))
    assert html.count("/wetten/2019/artikel/") == 12


# --------------------------------------------------------------------------------------------
# Compare


def test_compare_shows_two_editions_side_by_side_with_differences(anon):
    edition_a = Edition.objects.create(code="2019")
    edition_b = Edition.objects.create(code="2020")
    store_edition(parse("Artikel 47 Titel\n\nA. Kop\n\nDe kaart mag terug.", "2019"), edition_a)
    store_edition(
        parse("Artikel 47 Titel\n\nA. Kop\n\nDe kaart mag nooit terug <b>.", "2020"), edition_b
    )
    url = reverse("laws:compare", args=["47"]) + "?a=2019&b=2020"
    html = page(anon.get(url))
    left = html[html.index('data-side="a"') : html.index('data-side="b"')]
    right = html[html.index('data-side="b"') :]
    assert '<del class="diff-del bg-danger-subtle">terug.</del>' in left
    assert '<ins class="diff-ins bg-success-subtle">nooit terug &lt;b&gt;.</ins>' in right
    assert "<del" not in right
    assert "<ins" not in left
    assert "<b>" not in html
    assert "De kaart mag" in left
    assert "De kaart mag" in right
    for code in ("1987", "2019", "2020"):
        assert f'<option value="{code}"' in html


def test_compare_with_a_summary_only_edition_marks_nothing(anon):
    html = page(anon.get(reverse("laws:compare", args=["47"])))
    # Only 1987 has official text of 47; 2017 has a title and our summary, no text to diff.
    assert '<option value="1987" selected' in html
    assert '<option value="2017" selected' in html
    assert "geen verschillen aan te geven" in html
    assert "diff-del" not in html
    assert "diff-ins" not in html
    right = html[html.index('data-side="b"') :]
    assert "Geen officiële tekst in deze editie." in right
    assert "Samenvatting in eigen woorden" in right


def test_compare_identical_texts(anon):
    same = page(anon.get(reverse("laws:compare", args=["47"]) + "?a=1987&b=1987"))
    assert "De teksten zijn gelijk." in same
    assert "diff-del" not in same
    assert "diff-ins" not in same


def test_compare_unknown_article_is_404(anon):
    assert anon.get(reverse("laws:compare", args=["99"])).status_code == 404


def test_compare_index_lists_shared_articles_and_redirects(anon):
    html = page(anon.get(reverse("laws:compare_index")))
    assert reverse("laws:compare", args=["47"]) in html
    assert reverse("laws:compare", args=["62"]) in html
    response = anon.get(reverse("laws:compare_index") + "?artikel=62")
    assert response.status_code == 302
    assert response.url == reverse("laws:compare", args=["62"])


def test_compare_query_count(anon, django_assert_max_num_queries):
    with django_assert_max_num_queries(5):
        page(anon.get(reverse("laws:compare", args=["62"])))
    big_edition()
    with django_assert_max_num_queries(5):
        html = page(anon.get(reverse("laws:compare", args=["3"])))
    assert "2019" in html


# --------------------------------------------------------------------------------------------
# Search


def search(client, htmx: bool = False, **params):
    headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}
    return client.get(reverse("laws:search"), params, **headers)


def test_search_page_works_without_javascript(anon):
    html = page(search(anon, q="twaalfde slag"))
    assert "<html" in html
    assert 'action="/wetten/zoeken/"' in html
    assert 'id="results"' in html
    assert f"{article_url('2007', '62')}#62D2" in html
    assert "<mark>twaalfde</mark>" in html
    assert "<mark>slag</mark>" in html


def test_search_as_you_type_returns_only_the_results(anon):
    response = search(anon, htmx=True, q="strafkaart")
    html = page(response)
    assert "<html" not in html
    assert "<form" not in html
    assert html.strip().startswith('<div id="results"')
    assert f"{article_url('1963', '50')}" in html
    assert "HX-Request" in response.headers["Vary"]


def test_search_form_is_wired_for_htmx(anon):
    html = page(search(anon))
    assert 'hx-trigger="input changed delay:200ms, search"' in html
    assert 'hx-target="#results"' in html
    assert 'name="q"' in html
    assert 'name="editie"' in html


def test_search_highlights_after_escaping(anon):
    edition = Edition.objects.create(code="2019")
    store_edition(parse("Artikel 1 Titel\n\nA. Kop\n\nEen <em>kaart</em> & meer.", "2019"), edition)
    html = page(search(anon, htmx=True, q="kaart</em>"))
    assert "&lt;em&gt;<mark>kaart&lt;/em&gt;</mark>" in html
    assert "<em>" not in html


def test_search_all_words_must_occur(anon):
    html = page(search(anon, htmx=True, q="tegenspeler strafkaart"))
    assert f"{article_url('2007', '62')}#62C2" in html  # has both words
    assert f"{article_url('2007', '62')}#62D2" not in html  # only "tegenspeler"


def test_search_filters_by_edition(anon):
    html = page(search(anon, htmx=True, q="kaart", editie="1987"))
    assert "/wetten/1987/" in html
    assert "/wetten/1963/" not in html
    assert "/wetten/2007/" not in html
    unfiltered = page(search(anon, htmx=True, q="kaart"))
    assert "/wetten/1963/" in unfiltered
    assert "/wetten/2007/" in unfiltered


def test_search_includes_summaries_labelled_as_such(anon):
    phrase = "Komt de partner aan slag"  # only in our summary of 1963 art. 50
    html = page(search(anon, htmx=True, q=phrase))
    assert f"{article_url('1963', '50')}#samenvatting" in html
    assert "samenvatting, geen wettekst" in html


def test_search_footnotes(anon):
    html = page(search(anon, htmx=True, q="dichtgelegde"))
    assert f"{article_url('2007', '63')}#voetnoten" in html


def test_search_for_a_key_goes_straight_to_it(anon):
    html = page(search(anon, htmx=True, q="62B2"))
    assert "Rechtstreeks naar" in html
    assert f"{article_url('2007', '62')}#62B2" in html
    by_article = page(search(anon, htmx=True, q="artikel 47"))
    assert article_url("1987", "47") in by_article
    assert article_url("2017", "47") in by_article


def test_search_short_or_empty_query(anon):
    assert "minstens twee tekens" in page(search(anon, htmx=True, q="k"))
    html = page(search(anon))
    assert "treffer" not in html


def test_search_nothing_found(anon):
    assert "Niets gevonden" in page(search(anon, htmx=True, q="xylofoon"))


def test_search_history_restore_gets_the_whole_page(anon):
    response = anon.get(
        reverse("laws:search"),
        {"q": "strafkaart"},
        HTTP_HX_REQUEST="true",
        HTTP_HX_HISTORY_RESTORE_REQUEST="true",
    )
    assert "<html" in page(response)


def test_search_query_count_is_constant(anon, django_assert_max_num_queries):
    with django_assert_max_num_queries(SEARCH_QUERIES):
        page(search(anon, htmx=True, q="kaart"))
    big_edition()
    with django_assert_max_num_queries(SEARCH_QUERIES):
        html = page(search(anon, q="1A2"))
    assert "Rechtstreeks naar" in html
    with django_assert_max_num_queries(SEARCH_QUERIES):
        html = page(search(anon, htmx=True, q="kop"))
    assert html.count("<li") > 20


def test_english_mode_shows_the_english_titles_where_the_edition_has_them(anon):
    anon.post("/taal/", {"language": "en", "next": "/"})
    html = page(anon.get(reverse("laws:edition", args=["2017"])))
    assert "<h1>Laws of Duplicate Bridge 2017" in html
    assert "Artikel 9 – Procedure following an irregularity" not in html  # "Artikel" translated
    assert "– Procedure following an irregularity</a>" in html
    html = page(anon.get(article_url("2017", "9")))
    assert "– Procedure following an irregularity</span></h1>" in html
    # 1963 has only its Dutch titles: those are shown.
    html = page(anon.get(reverse("laws:edition", args=["1963"])))
    assert "Verzuim een strafkaart voor- of bij te spelen" in html
    anon.post("/taal/", {"language": "nl", "next": "/"})
    html = page(anon.get(article_url("2017", "9")))
    assert "– Procedure na een onregelmatigheid</span></h1>" in html
