"""Template helpers of the wizard pages (wizard_tags): texts in the active language, links to
the law and the diagram, the path links, and the parts rendered once per process
(step_choices, table_fields), where what is kept for one ruling is never shown for another in
a different state or language."""

import re
from types import SimpleNamespace

from django.urls import reverse
from django.utils import translation

from rulings import steps, wizard
from rulings.steps import PathEntry
from rulings.templatetags import wizard_tags
from rulings.templatetags.wizard_tags import citation_url, diagram_url, step_path, tr
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


def test_the_path_links_back_to_each_answer_and_marks_the_step_shown():
    entries = [
        PathEntry(n, f"q{n}", Text("", ""), Text("", ""), "ja", f"/stap/{n}/", f"Vraag <{n}>", "Ja")
        for n in (1, 2, 3)
    ]
    html = step_path(SimpleNamespace(number=2, path=entries))
    links = re.findall(r"<li><a [^>]*>.*?</a></li>", html)
    assert len(links) == 3
    assert [link.count('aria-current="step"') for link in links] == [0, 1, 0]
    assert "btn-secondary" in links[1]
    assert "btn-outline-secondary" in links[0]
    assert 'href="/stap/3/" hx-get="/stap/3/"' in links[2]
    assert "3. Vraag &lt;3&gt;" in links[2]  # labels are escaped
    assert step_path(SimpleNamespace(number=1, path=[])) == ""


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


def test_the_first_step_of_a_tree_makes_the_buttons_of_all_its_questions(
    client_director_a, proef_tree, club_a, director_a
):
    """As with the law cards, a director's first visit of a question does not pay for its
    buttons: the tree's first step shown in a language makes them all, unmarked, and a later
    step shows exactly those."""
    ruling = begin_proef(club_a, director_a)
    before = step_page(client_director_a, ruling)
    tree = steps.tree_of(ruling)
    questions = [node.key for node in tree.tree.nodes if node.outcome is None]
    kept = {key[1] for key in wizard_tags._choices._html if key[0] == tree.digest}
    assert kept >= set(questions)
    wizard.answer(ruling, "geaccepteerd", 2, "ja", director_a)
    page = client_director_a.get(reverse("wizard:step", args=[ruling.uuid, 3])).content.decode()
    shown = re.search(r'<div class="d-grid gap-2" role="group".*?</div>', page, re.S)
    fresh = wizard_tags._choices.render(
        {"view": steps.draft_view(tree, "vervangen"), "deferred": False}
    )
    assert shown is not None
    assert shown.group(0) == fresh.strip()
    assert before != page


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
