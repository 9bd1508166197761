"""Template helpers of the wizard pages."""

from django.utils import translation

from rulings.templatetags.wizard_tags import citation_url, diagram_url, prose, tr


def test_tr_picks_the_active_language_and_falls_back_to_dutch():
    text = {"nl": "Ja", "en": "Yes"}
    with translation.override("en"):
        assert tr(text) == "Yes"
        assert tr({"nl": "Alleen Nederlands", "en": ""}) == "Alleen Nederlands"
    with translation.override("nl"):
        assert tr(text) == "Ja"
    assert tr(None) == ""


def test_prose_joins_wrapped_lines_and_keeps_lists_and_paragraphs():
    text = (
        "De slag blijft staan en\nhet spel gaat verder.\n\n"
        "De leider kiest:\n- hoogste\n- laagste\na. of <niets>"
    )
    # The one prose renderer (lib.text.prose): the same HTML as on the tree page.
    assert prose(text) == (
        "<p>De slag blijft staan en het spel gaat verder.</p>"
        "<p>De leider kiest:</p><ul><li>hoogste</li><li>laagste</li></ul>"
        '<ul class="tree-list"><li>a. of &lt;niets&gt;</li></ul>'
    )


def test_citation_links_point_at_what_is_shown():
    official = {"key": "62D2", "edition": "2007", "article": "62", "kind": "official"}
    summary = {"key": "64C", "edition": "2017", "article": "64", "kind": "summary"}
    whole = {"key": "50", "edition": "1963", "article": "50", "kind": "official"}
    missing = {"key": "99", "edition": "2017", "article": "", "kind": "missing"}
    assert citation_url(official) == "/wetten/2007/artikel/62/#62D2"
    assert citation_url(summary) == "/wetten/2017/artikel/64/#samenvatting"
    assert citation_url(whole) == "/wetten/1963/artikel/50/#artikel"
    assert citation_url(missing) == ""


def test_the_diagram_link_highlights_the_node():
    assert diagram_url("verzaking", "twaalfde") == "/beslisbomen/verzaking/?node=twaalfde"
