"""The public tree pages: list (grouped, searchable, htmx), detail (outline and diagram), admin."""

from __future__ import annotations

import re
from itertools import pairwise

import pytest
from django.test import Client
from django.urls import reverse

from trees.diagram import layout, render_svg, wrap
from trees.loading import TREES_DIR
from trees.models import Tree
from trees.parse import load_tree_file


@pytest.fixture
def trees(db):
    """The shipped data is in every test database (tests/conftest.py)."""


@pytest.fixture
def anonymous(django_user_model) -> Client:
    """An anonymous visitor on a site that has a user (so no first-run redirect)."""
    django_user_model.objects.create(username="lid")
    return Client()


def test_list_is_public_and_grouped(trees, anonymous):
    response = anonymous.get(reverse("trees:list"))
    assert response.status_code == 200
    html = response.content.decode()
    # Auction before play; within a phase the newest edition first.
    assert html.index('id="phase-auction"') < html.index('id="phase-play"')
    play = html[html.index('id="phase-play"') :]
    assert play.index("Spelregels 2017") < play.index("Spelregels 2007")
    assert play.index("Spelregels 2007") < play.index("Spelregels 1987")
    assert play.index("Spelregels 1987") < play.index("Spelregels 1963")
    for slug in ["strafkaart", "verzaking", "strafkaart-1963", "teruggenomen-kaart-1987"]:
        assert f'href="/beslisbomen/{slug}/"' in html
    assert 'hx-get="/beslisbomen/"' in html
    assert 'action="/beslisbomen/"' in html


def test_search_filters_by_word_and_edition(trees, anonymous):
    html = anonymous.get(reverse("trees:list"), {"q": "verzaking"}).content.decode()
    assert 'href="/beslisbomen/verzaking/"' in html
    assert 'href="/beslisbomen/verzaking-2007/"' in html
    assert 'href="/beslisbomen/strafkaart/"' not in html
    html = anonymous.get(reverse("trees:list"), {"q": "strafkaart 1963"}).content.decode()
    assert re.findall(r'href="/beslisbomen/([a-z0-9-]+)/"', html) == ["strafkaart-1963"]
    html = anonymous.get(reverse("trees:list"), {"q": "bestaat-niet"}).content.decode()
    assert "Geen beslisboom gevonden." in html


def test_htmx_search_returns_only_the_results(trees, anonymous):
    response = anonymous.get(reverse("trees:list"), {"q": "1987"}, HTTP_HX_REQUEST="true")
    html = response.content.decode()
    assert "<html" not in html
    assert html.strip().startswith('<div id="tree-results"')
    assert 'href="/beslisbomen/teruggenomen-kaart-1987/"' in html
    assert 'href="/beslisbomen/verzaking/"' not in html


def test_detail_outline_and_citation_links(trees, anonymous):
    response = anonymous.get(reverse("trees:detail", args=["verzaking-2007"]))
    assert response.status_code == 200
    html = response.content.decode()
    spec = load_tree_file(TREES_DIR / "verzaking-2007.yaml")
    for node in spec.nodes:
        assert f'id="node-{node.key}"' in html  # every node has an outline entry
        assert f'href="#node-{node.key}"' in html  # and the diagram links to it
    # Official provision: link to the provision's anchor on the article page.
    assert 'href="/wetten/2007/artikel/62/#62D2"' in html
    # Choices link to their target in the outline.
    assert "Wanneer werd de verzaking opgemerkt?" in html
    # Outcome details.
    assert "Zeg aan tafel" in html
    assert "Arbitrale score overwegen" in html


def test_detail_2017_citations_point_to_the_provision_in_the_index(trees, anonymous):
    html = anonymous.get(reverse("trees:detail", args=["strafkaart"])).content.decode()
    assert 'href="/wetten/2017/artikel/50/#50D1"' in html
    assert 'href="/wetten/2017/artikel/50/#artikel"' in html  # "50" cites the whole article
    # see_tree: continue with another tree
    assert 'href="/beslisbomen/voor-de-beurt-uitkomen/"' in html


def test_detail_1963_whole_article_citation(trees, anonymous):
    html = anonymous.get(reverse("trees:detail", args=["strafkaart-1963"])).content.decode()
    assert 'href="/wetten/1963/artikel/50/#artikel"' in html
    assert 'href="/wetten/1963/artikel/52/#52(b)"' in html


def test_detail_diagram_is_accessible_svg(trees, anonymous):
    html = anonymous.get(reverse("trees:detail", args=["verzaking"])).content.decode()
    svg = html[html.index("<svg") : html.index("</svg>")]
    assert 'role="group" aria-labelledby="tree-diagram-title tree-diagram-desc"' in svg
    assert '<title id="tree-diagram-title">Stroomschema: Verzaking (2017)</title>' in svg
    assert "tekstalternatief" in svg
    assert svg.count('class="node ') == 30
    assert "http" not in svg  # nothing from the internet, not even a namespace


def test_highlight_a_node(trees, anonymous):
    url = reverse("trees:detail", args=["verzaking"])
    html = anonymous.get(url, {"node": "voldongen"}).content.decode()
    assert 'id="d-voldongen" class="node question highlight"' in html
    assert re.search(r'<article id="node-voldongen" class="[^"]*tree-node-highlight', html)
    assert 'href="#node-voldongen"' in html
    # An unknown key highlights nothing.
    html = anonymous.get(url, {"node": "<script>"}).content.decode()
    assert "highlight" not in html.split("<svg", 1)[1].split("</svg>", 1)[0]
    assert "<script>" not in html.split("</header>", 1)[1]


def test_unknown_tree_is_404(trees, anonymous):
    assert anonymous.get(reverse("trees:detail", args=["bestaat-niet"])).status_code == 404


def test_query_counts(trees, anonymous, django_assert_max_num_queries):
    with django_assert_max_num_queries(3):
        anonymous.get(reverse("trees:list"), {"q": "strafkaart"})
    with django_assert_max_num_queries(8):
        anonymous.get(reverse("trees:detail", args=["strafkaart"]))


def test_english_texts(trees, anonymous):
    anonymous.cookies["django_language"] = "en"
    html = anonymous.get(reverse("trees:detail", args=["verzaking"]), HTTP_ACCEPT_LANGUAGE="en")
    html = html.content.decode()
    assert "Is the revoke established?" in html


def test_admin_is_read_only(trees, client_admin_a, admin_a):
    admin_a.is_staff = True
    admin_a.is_superuser = True
    admin_a.save()
    assert client_admin_a.get("/beheer/trees/tree/").status_code == 200
    assert client_admin_a.get("/beheer/trees/tree/add/").status_code == 403
    tree = Tree.objects.get(slug="verzaking")
    response = client_admin_a.get(f"/beheer/trees/tree/{tree.pk}/change/")
    assert response.status_code == 200  # viewable
    assert b'name="_save"' not in response.content  # but no save button
    assert client_admin_a.post(f"/beheer/trees/tree/{tree.pk}/delete/").status_code == 403


# ---------------------------------------------------------------------------------------------
# The diagram module on its own


def test_wrap():
    assert wrap("Is de verzaking voldongen?") == ["Is de verzaking voldongen?"]
    lines = wrap("een " * 60, width=10, max_lines=3)
    assert len(lines) == 3
    assert lines[-1].endswith("…")


def test_layout_puts_children_below_parents_and_boxes_apart():
    spec = load_tree_file(TREES_DIR / "strafkaart.yaml")
    plan = layout(spec)
    boxes = {key: item for key, item in plan.items.items() if not item.dummy}
    assert set(boxes) == {node.key for node in spec.nodes}
    for node in spec.nodes:
        for choice in node.choices:
            assert boxes[choice.target].y > boxes[node.key].y
    by_row: dict[float, list] = {}
    for item in boxes.values():
        by_row.setdefault(item.y, []).append(item)
    for row in by_row.values():
        row.sort(key=lambda item: item.x)
        for left, right in pairwise(row):
            assert right.x - left.x >= (left.width + right.width) / 2  # no overlap
    assert len(plan.edges) == sum(len(node.choices) for node in spec.nodes)


def test_render_svg_escapes_text():
    spec = load_tree_file(TREES_DIR / "teruggenomen-kaart-1987.yaml")
    svg = render_svg(spec, title="<b>&", highlight="reden")
    assert "<b>" not in svg
    assert "&lt;b&gt;&amp;" in svg
    assert 'class="node question start highlight"' in svg


def test_outcome_lists_render_as_lists(trees, anonymous):
    html = anonymous.get(reverse("trees:detail", args=["strafkaart"])).content.decode()
    assert '<ul class="tree-list"><li>1. de kleur van de strafkaart eisen (de strafkaart' in html


def test_author_notes_stand_apart_under_for_authors_collapsed(trees, anonymous):
    notes = load_tree_file(TREES_DIR / "strafkaart.yaml").notes
    first_line = notes.strip().splitlines()[0].strip()
    html = anonymous.get(reverse("trees:detail", args=["strafkaart"])).content.decode()
    assert html.count(first_line[:40]) == 1
    section = html[html.index('<section id="voor-auteurs"') :]
    # the notes are only in their own section, after the tree, behind a closed <details>
    assert first_line[:40] in section
    assert first_line[:40] not in html[: len(html) - len(section)]
    assert html.index('id="outline"') < html.index('id="voor-auteurs"')
    assert '<h2 class="h5 text-body-secondary" id="authors-heading">Voor auteurs</h2>' in section
    details = section[section.index("<details") : section.index("</details>")]
    assert first_line[:40] in details
    assert "<details open" not in section
    english = anonymous.get(
        reverse("trees:detail", args=["strafkaart"]), HTTP_ACCEPT_LANGUAGE="en"
    ).content.decode()
    assert 'id="authors-heading">For authors</h2>' in english


def test_detail_has_zoom_controls_for_scripts_and_a_print_link(trees, anonymous):
    html = anonymous.get(reverse("trees:detail", args=["strafkaart"])).content.decode()
    # Hidden until diagram.js shows them: without JavaScript they would do nothing.
    assert re.search(r"<div [^>]*data-diagram-zoom hidden>", html)
    assert html.count("data-zoom=") == 3
    assert 'src="/static/js/diagram.js"' in html
    assert 'href="/beslisbomen/strafkaart/afdrukken/"' in html


def test_print_page_is_public_with_title_edition_legend_and_diagram(trees, anonymous):
    tree = Tree.objects.get(slug="strafkaart")
    response = anonymous.get(reverse("trees:print", args=["strafkaart"]))
    assert response.status_code == 200
    html = response.content.decode()
    sheet = html[html.index('<article class="tree-print-sheet"') :]
    # The penalty-card tree is too big to read on one page: two sheets, each marked.
    assert html.count('<article class="tree-print-sheet"') == 2
    assert (
        f'id="print-title-1-head">{tree.title} <span class="tree-print-page">(blad 1 van 2)' in html
    )
    assert "Vervolg op blad 2" in html
    assert "Vervolg van blad 1" in html
    assert tree.edition.code in sheet
    assert 'aria-label="Legenda"' in sheet
    svg = sheet[sheet.index("<svg") : sheet.index("</svg>")]
    assert svg.count('class="node ') == tree.nodes.count()
    # Boxes lead to their explanation on the tree page; nothing is highlighted.
    assert f'href="/beslisbomen/strafkaart/#node-{tree.start_key}"' in svg
    assert "highlight" not in svg
    assert "pagina van de beslisboom" in svg  # the text alternative is elsewhere
    assert "css/tree_print.css" in html


def test_print_page_unknown_tree_and_query_count(trees, anonymous, django_assert_max_num_queries):
    assert anonymous.get(reverse("trees:print", args=["bestaat-niet"])).status_code == 404
    with django_assert_max_num_queries(6):
        anonymous.get(reverse("trees:print", args=["strafkaart"]))
