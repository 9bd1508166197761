"""Template helpers of the wizard pages (wizard_tags): texts in the active language, links to
the law and the diagram; and what a step shows of one ruling (its buttons, its table fields,
its path) never shown for another in a different state or language."""

import re
from unittest import mock

from django.urls import reverse
from django.utils import translation

from rulings import steps, wizard
from rulings.steps import PathEntry
from rulings.templatetags.wizard_tags import citation_url, diagram_url, tr
from tests.support.rulings import begin_proef
from trees.spec import Text


def step_page(client, ruling) -> str:
    return client.get(reverse("wizard:step", args=[ruling.uuid, 2])).content.decode()


def test_a_deferred_rulings_disabled_buttons_are_not_shown_for_an_open_one(
    client_director_a, proef_tree, club_a, director_a
):
    deferred, open_ = begin_proef(club_a, director_a), begin_proef(club_a, director_a)
    wizard.defer(deferred, director_a)
    assert step_page(client_director_a, deferred).count(" disabled>") == 2
    page = step_page(client_director_a, open_)
    assert page.count(" disabled>") == 0
    assert page.count('name="choice"') == 2


def test_the_buttons_follow_the_language(client_director_a, proef_tree, club_a, director_a):
    ruling = begin_proef(club_a, director_a)
    dutch = step_page(client_director_a, ruling)
    client_director_a.post(reverse("set_language"), {"language": "en", "next": "/"})
    english = step_page(client_director_a, ruling)
    label = '<span class="flex-grow-1">{}</span>'
    assert label.format("Ja") in dutch
    assert label.format("Yes") not in dutch
    assert label.format("Yes") in english
    assert label.format("Ja") not in english


def test_the_table_fields_follow_each_rulings_values_and_a_refused_form(
    client_director_a, proef_tree, club_a, director_a
):
    first, second = begin_proef(club_a, director_a), begin_proef(club_a, director_a)
    wizard.edit_context(first, {"round": 3, "table": 7, "board": 12}, director_a)
    assert 'name="table" value="7"' in step_page(client_director_a, first)
    page = step_page(client_director_a, second)  # kept for the first, not shown for the second
    assert 'name="table" value="7"' not in page
    assert 'name="table"' in page
    refused = client_director_a.post(
        reverse("wizard:table", args=[second.uuid]), {"table": "-4"}, HTTP_HX_REQUEST="true"
    ).content.decode()
    assert 'value="-4"' in refused
    assert "text-danger" in refused
    assert "text-danger" not in step_page(client_director_a, second)


def test_the_path_links_back_to_each_answer_and_marks_the_step_shown(
    client_director_a, proef_tree, club_a, director_a
):
    ruling = begin_proef(club_a, director_a)
    wizard.answer(ruling, "geaccepteerd", 2, "ja", director_a)
    html = step_page(client_director_a, ruling)  # step 2, of 3
    path = re.search(r'<nav aria-label="Het pad tot nu toe".*?</nav>', html, re.S)
    assert path is not None
    links = re.findall(r"<li>\s*<a [^>]*>.*?</a>\s*</li>", path.group(0), re.S)
    assert len(links) == 3  # the two answers and "Naar de huidige stap"
    assert [link.count('aria-current="step"') for link in links] == [0, 1, 0]
    assert "btn-secondary" in links[1]
    assert "btn-outline-secondary" in links[0]
    first = reverse("wizard:step", args=[ruling.uuid, 1])
    assert f'href="{first}" hx-get="{first}"' in links[0]
    assert "1. Was het bod onbedoeld?" in links[0]
    assert "→ Nee" in links[0]
    assert "Naar de huidige stap" in links[2]


def test_path_labels_are_escaped(client_director_a, proef_tree, club_a, director_a):
    ruling = begin_proef(club_a, director_a)
    wizard.answer(ruling, "geaccepteerd", 2, "ja", director_a)
    entries = [
        PathEntry(1, "q", Text("Vraag <1>", ""), Text("<b>Ja</b>", ""), "ja", "/stap/1/"),
    ]
    with mock.patch.object(steps.StepView, "path", entries):
        html = step_page(client_director_a, ruling)
    assert "1. Vraag &lt;1&gt;" in html
    assert "→ &lt;b&gt;Ja&lt;/b&gt;" in html


def test_an_outcome_makes_no_path_links(
    client_director_a, proef_tree, club_a, director_a, monkeypatch
):
    """The path of a step is made only where a page shows it: not for the outcome an answer
    reaches (its answers are listed with the context form, which follows in its own
    request)."""
    ruling = begin_proef(club_a, director_a)
    wizard.answer(ruling, "geaccepteerd", 2, "ja", director_a)
    made = []
    monkeypatch.setattr(steps, "_path_entries", lambda *args: made.append(args) or [])
    data = {"node": "vervangen", "step": 3, "revision": ruling.revision, "choice": "nee"}
    url = reverse("wizard:answer", args=[ruling.uuid])
    outcome = client_director_a.post(url, data, HTTP_HX_REQUEST="true")
    assert 'id="outcome-title"' in outcome.content.decode()
    assert made == []
    client_director_a.get(reverse("wizard:step", args=[ruling.uuid, 2]))
    assert len(made) == 1


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
    article_summary = {"key": "64", "edition": "2017", "article": "64", "kind": "summary"}
    whole = {"key": "50", "edition": "1963", "article": "50", "kind": "official"}
    missing = {"key": "99", "edition": "2017", "article": "", "kind": "missing"}
    assert citation_url(official) == "/wetten/2007/artikel/62/#62D2"
    # Our summary of a provision shows at the provision (the 2017 index), of an article on top.
    assert citation_url(summary) == "/wetten/2017/artikel/64/#64C"
    assert citation_url(article_summary) == "/wetten/2017/artikel/64/#samenvatting"
    assert citation_url(whole) == "/wetten/1963/artikel/50/#artikel"
    assert citation_url(missing) == ""


def test_the_diagram_link_highlights_the_node():
    assert diagram_url("verzaking", "twaalfde") == "/beslisbomen/verzaking/?node=twaalfde"
