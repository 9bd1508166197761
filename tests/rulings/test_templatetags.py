"""Template helpers of the wizard pages."""

from django.utils import translation

from rulings.templatetags.wizard_tags import citation_url, diagram_url, tr


def test_tr_picks_the_active_language_and_falls_back_to_dutch():
    text = {"nl": "Ja", "en": "Yes"}
    with translation.override("en"):
        assert tr(text) == "Yes"
        assert tr({"nl": "Alleen Nederlands", "en": ""}) == "Alleen Nederlands"
    with translation.override("nl"):
        assert tr(text) == "Ja"
    assert tr(None) == ""


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
