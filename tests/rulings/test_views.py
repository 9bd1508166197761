"""Wizard pages over HTTP: the plain (no JavaScript) and the htmx paths, every integrity case,
club isolation and the query budget of a step."""

import re
import uuid
from datetime import date

import pytest
from django.contrib.messages import get_messages
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from clubs.models import Membership, Role
from laws import edition_law
from rulings import wizard
from rulings.models import AuditEvent, Ruling, Status, Step
from tests.conftest import logged_in, make_user
from tests.support.factories import make_edition, make_tree
from tests.support.rulings import begin_proef

HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def ruling(proef_tree, club_a, director_a):
    return begin_proef(club_a, director_a)


def answer(client, ruling, node, step, choice, revision=None, **headers):
    revision = ruling.revision if revision is None else revision
    data = {"node": node, "step": step, "revision": revision, "choice": choice}
    return client.post(reverse("wizard:answer", args=[ruling.uuid]), data, **headers)


def at_outcome(ruling, director):
    wizard.answer(ruling, "geaccepteerd", 2, "ja", director)
    wizard.answer(ruling, "vervangen", 3, "nee", director)
    return ruling


def messages_of(response):
    return [str(m) for m in get_messages(response.wsgi_request)]


def step_url(ruling, number):
    return reverse("wizard:step", args=[ruling.uuid, number])


def record_url(ruling):
    """The one page of a saved ruling: its record in the archive."""
    return reverse("archive:detail", args=[ruling.uuid])


def ruling_url(ruling):
    return reverse("wizard:ruling", args=[ruling.uuid])


# --- start page ----------------------------------------------------------------------------


@pytest.mark.usefixtures("without_shipped_data")  # 1997 and 1963 the only editions
def test_the_start_page_lists_the_trees_of_the_edition_in_force(client_director_a, proef_tree):
    make_tree(slug="oud", edition=make_edition("1963"), title="Oude boom")
    page = client_director_a.get(reverse("wizard:start"), {"datum": "2024-05-01"})
    html = page.content.decode()
    assert page.status_code == 200
    assert "Proefboom" in html
    assert "Oude boom" not in html
    assert 'href="/arbitrage/nieuw/proef/?datum=2024-05-01&amp;club=troefkaart"' in html
    older = client_director_a.get(reverse("wizard:start"), {"datum": "1980-01-01"})
    assert "Oude boom" in older.content.decode()
    assert "Proefboom" not in older.content.decode()
    chosen = client_director_a.get(
        reverse("wizard:start"), {"datum": "2024-05-01", "editie": "1963"}
    )
    assert "Oude boom" in chosen.content.decode()


def test_the_start_page_filters_live_with_htmx(client_director_a, proef_tree):
    make_tree(slug="ander", title="Verzaking")
    page = client_director_a.get(reverse("wizard:start"), {"q": "verz"}, **HTMX)
    html = page.content.decode()
    assert "<html" not in html
    assert html.strip().startswith('<div id="tree-list"')
    assert "Verzaking" in html
    assert "Proefboom" not in html
    assert page["Vary"].startswith("HX-Request")


@pytest.mark.usefixtures("without_shipped_data")  # the proef edition (1997) in force
def test_recently_used_trees_come_first(client_director_a, director_a, club_a, proef_tree):
    make_tree(slug="ander", title="Aardige boom")
    wizard.begin(
        uuid=uuid.uuid4(),
        club=club_a,
        director=director_a,
        tree=wizard.start("proef"),
        node_key="onbedoeld",
        choice_key="ja",
    )
    html = client_director_a.get(reverse("wizard:start")).content.decode()
    recent = html.index("Recent gebruikt")
    assert recent < html.index("Proefboom") < html.index("Aardige boom")


def test_a_tree_link_starts_with_a_fresh_ruling_id(client_director_a, proef_tree):
    first = client_director_a.get(reverse("wizard:tree", args=["proef"]), {"datum": "2024-05-01"})
    second = client_director_a.get(reverse("wizard:tree", args=["proef"]))
    assert first.status_code == second.status_code == 302
    assert first["Location"] != second["Location"]
    assert re.match(r"^/arbitrage/nieuw/proef/[0-9a-f-]{36}/\?datum=2024-05-01$", first["Location"])
    assert client_director_a.get(reverse("wizard:tree", args=["geen"])).status_code == 404
    assert not Ruling.objects.exists()


# --- the first question and the first answer -----------------------------------------------


def draft_page(client, slug="proef", **params):
    new = uuid.uuid4()
    url = reverse("wizard:draft", args=[slug, new])
    page = client.get(url, params)
    digest = re.search(r'name="snapshot" value="([0-9a-f]{64})"', page.content.decode())
    return new, url, page, digest.group(1) if digest else None


def first_answer(club="troefkaart", choice="nee", digest="", **extra):
    return {
        "node": "onbedoeld",
        "step": 1,
        "revision": 0,
        "choice": choice,
        "snapshot": digest,
        "club": club,
        "played_on": "2024-05-01",
        **extra,
    }


def test_the_first_question_is_shown_before_anything_is_stored(client_director_a, proef_tree):
    _new, _url, page, digest = draft_page(client_director_a, datum="2024-05-01")
    html = page.content.decode()
    assert page.status_code == 200
    assert digest
    assert "Was het bod onbedoeld?" in html
    assert 'data-choice="1"' in html
    assert 'name="played_on" value="2024-05-01"' in html
    assert "Officiële tekst" in html
    assert 'href="/wetten/1997/artikel/25/#25A"' in html
    assert 'href="/beslisbomen/proef/?node=onbedoeld"' in html
    assert page["Cache-Control"].startswith("max-age=0")
    assert not Ruling.objects.exists()


def test_the_first_answer_creates_the_ruling_and_redirects(
    client_director_a, director_a, proef_tree
):
    new, url, _page, digest = draft_page(client_director_a)
    response = client_director_a.post(url, first_answer(digest=digest))
    ruling = Ruling.objects.get(uuid=new)
    assert response.status_code == 302
    assert response["Location"] == step_url(ruling, 2)
    assert ruling.director == director_a
    assert ruling.played_on == date(2024, 5, 1)
    assert client_director_a.get(response["Location"]).status_code == 200


def test_the_first_answer_with_htmx_swaps_in_the_second_question(client_director_a, proef_tree):
    new, url, _page, digest = draft_page(client_director_a)
    response = client_director_a.post(url, first_answer(digest=digest), **HTMX)
    html = response.content.decode()
    assert response.status_code == 200
    assert "<html" not in html
    assert response["HX-Push-Url"] == step_url(Ruling.objects.get(uuid=new), 2)
    assert "Is het bod geaccepteerd?" in html


def test_a_double_click_on_the_first_answer_makes_one_ruling(client_director_a, proef_tree):
    new, url, _page, digest = draft_page(client_director_a)
    client_director_a.post(url, first_answer(digest=digest))
    again = client_director_a.post(url, first_answer(digest=digest))
    assert Ruling.objects.count() == 1
    assert Step.objects.count() == 1
    assert again["Location"] == step_url(Ruling.objects.get(uuid=new), 2)
    other = client_director_a.post(url, first_answer(digest=digest, choice="ja"))
    assert Step.objects.count() == 1
    assert "verouderd" in " ".join(messages_of(other))


def test_going_back_to_the_first_page_finds_the_ruling(client_director_a, proef_tree):
    new, url, _page, digest = draft_page(client_director_a)
    client_director_a.post(url, first_answer(digest=digest))
    again = client_director_a.get(url)
    assert again.status_code == 302
    assert again["Location"] == step_url(Ruling.objects.get(uuid=new), 1)


def test_a_forged_first_answer_stores_nothing(client_director_a, proef_tree):
    _new, url, _page, digest = draft_page(client_director_a)
    response = client_director_a.post(url, first_answer(digest=digest, choice="misschien"))
    assert response.status_code == 302
    assert "geen antwoord" in " ".join(messages_of(response))
    assert client_director_a.post(url, first_answer(digest="0" * 64)).status_code == 404
    assert (
        client_director_a.post(url, first_answer(digest=digest, club="vrije-slagje")).status_code
        == 404
    )
    make_tree(slug="ander")
    other_digest = wizard.start("ander").digest
    assert client_director_a.post(url, first_answer(digest=other_digest)).status_code == 404
    assert not Ruling.objects.exists()


def test_only_directors_start_rulings(client_reviewer_a, proef_tree):
    page = client_reviewer_a.get(reverse("wizard:start"))
    assert "U bent bij geen club wedstrijdleider" in page.content.decode()
    _new, _url, draft, _digest = draft_page(client_reviewer_a)
    assert draft.status_code == 403


def test_another_clubs_draft_id_is_not_found(client_director_b, ruling):
    url = reverse("wizard:draft", args=["proef", ruling.uuid])
    assert client_director_b.get(url).status_code == 404
    assert client_director_b.post(url, first_answer()).status_code == 404


# --- answering -----------------------------------------------------------------------------


def test_a_plain_answer_redirects_to_the_next_step(client_director_a, ruling):
    response = answer(client_director_a, ruling, "geaccepteerd", 2, "ja")
    assert response.status_code == 302
    assert response["Location"] == step_url(ruling, 3)
    page = client_director_a.get(response["Location"])
    assert "Vervangt de speler het bod?" in page.content.decode()


def test_an_htmx_answer_swaps_the_step_and_pushes_its_url(client_director_a, ruling):
    response = answer(client_director_a, ruling, "geaccepteerd", 2, "ja", **HTMX)
    html = response.content.decode()
    assert response.status_code == 200
    assert "<html" not in html
    assert html.strip().startswith('<div id="wizard"')
    assert response["HX-Push-Url"] == step_url(ruling, 3)
    assert "Vervangt de speler het bod?" in html
    assert "2. Is het bod geaccepteerd?" in html  # the path so far


def test_an_htmx_answer_keeps_the_table_form_on_the_page(client_director_a, ruling):
    """The page that answered shows the table form: the next question keeps it as it is
    (hx-preserve, typed values included) instead of sending it again."""
    html = answer(client_director_a, ruling, "geaccepteerd", 2, "ja", **HTMX).content.decode()
    kept = re.findall(r'<details[^>]*id="table-details"[^>]*>(.*?)</details>', html, re.S)
    assert kept == [""]
    assert 'hx-preserve="true"' in html
    assert "data-table-form" not in html


def test_the_table_form_is_sent_whole_where_the_page_has_none(client_director_a, ruling):
    """A step opened by a link, a page without htmx and a saved table form carry the whole
    form, never a placeholder."""
    pages = [
        client_director_a.get(step_url(ruling, 2), **HTMX),
        client_director_a.get(step_url(ruling, 2)),
        client_director_a.post(reverse("wizard:table", args=[ruling.uuid]), {"table": "4"}, **HTMX),
    ]
    for response in pages:
        html = response.content.decode()
        assert response.status_code == 200
        assert "data-table-form" in html
        assert "hx-preserve" not in html
        assert "data-table-on-open" not in html


def test_after_a_first_answer_the_table_form_comes_when_it_is_opened(client_director_a, proef_tree):
    """The draft page had no table form: the second question fetches it when the director
    opens "Tafel en spel"; without htmx that address leads to the step, form and all."""
    new, url, _page, digest = draft_page(client_director_a)
    html = client_director_a.post(url, first_answer(digest=digest), **HTMX).content.decode()
    table_url = reverse("wizard:table", args=[new])
    assert "data-table-form" not in html
    assert f'hx-get="{table_url}" hx-trigger="toggle once from:closest details"' in html
    form = client_director_a.get(table_url, **HTMX)
    assert form.status_code == 200
    assert form.content.decode().strip().startswith("<form")
    assert 'name="pair_ns"' in form.content.decode()
    plain = client_director_a.get(table_url)
    assert plain.status_code == 302
    assert "data-table-form" in client_director_a.get(plain["Location"]).content.decode()


def test_another_clubs_table_form_is_not_found(client_director_b, ruling):
    response = client_director_b.get(reverse("wizard:table", args=[ruling.uuid]), **HTMX)
    assert response.status_code == 404


def test_reaching_the_outcome_pushes_the_ruling_url(client_director_a, ruling):
    answer(client_director_a, ruling, "geaccepteerd", 2, "ja")
    ruling.refresh_from_db()
    response = answer(client_director_a, ruling, "vervangen", 3, "nee", **HTMX)
    html = response.content.decode()
    assert response["HX-Push-Url"] == ruling_url(ruling)
    assert "Vervangen met beperkingen" in html
    assert "Zeg aan tafel" in html
    assert "niet-overtredende partij" in html
    assert "arbitrale score" in html
    # The context form follows in a second request, so the ruling shows sooner.
    context_url = reverse("wizard:context", args=[ruling.uuid])
    assert f'<div id="context-form" hx-get="{context_url}" hx-trigger="load"' in html
    assert 'name="played_on"' not in html


def test_what_to_say_at_the_table_comes_before_the_reasoning(client_director_a, ruling):
    answer(client_director_a, ruling, "geaccepteerd", 2, "ja")
    ruling.refresh_from_db()
    html = answer(client_director_a, ruling, "vervangen", 3, "nee", **HTMX).content.decode()
    announce, reasoning = html.index("data-announce"), html.index("Beslissing")
    assert announce < reasoning
    assert "Wat u aan tafel zegt" in html[announce:reasoning]
    assert "Zeg aan tafel" in html[announce:reasoning]


def test_the_context_form_loads_after_the_outcome(client_director_a, ruling):
    answer(client_director_a, ruling, "geaccepteerd", 2, "ja")
    ruling.refresh_from_db()
    answer(client_director_a, ruling, "vervangen", 3, "nee")
    context_url = reverse("wizard:context", args=[ruling.uuid])
    html = client_director_a.get(context_url, **HTMX).content.decode()
    assert html.strip().startswith('<form id="context-form"')
    assert 'name="played_on"' in html
    assert "Definitief opslaan" in html
    # Without htmx there is nothing to load: the ruling's page has the form inline.
    response = client_director_a.get(context_url)
    assert response.status_code == 302
    assert response["Location"] == ruling_url(ruling)
    assert 'name="played_on"' in client_director_a.get(ruling_url(ruling)).content.decode()


def test_the_context_form_is_not_offered_before_the_outcome(client_director_a, ruling):
    context_url = reverse("wizard:context", args=[ruling.uuid])
    response = client_director_a.get(context_url, **HTMX)
    assert response.status_code == 302
    assert response["Location"] == step_url(ruling, 2)


def test_a_stale_htmx_answer_shows_a_message_and_the_current_state(client_director_a, ruling):
    answer(client_director_a, ruling, "geaccepteerd", 2, "ja")
    response = answer(client_director_a, ruling, "geaccepteerd", 2, "nee", revision=1, **HTMX)
    html = response.content.decode()
    assert response.status_code == 200
    assert "verouderd" in html
    assert "data-wizard-error" in html
    assert "Vervangt de speler het bod?" in html
    assert response["HX-Push-Url"] == step_url(ruling, 3)
    assert Step.objects.filter(ruling=ruling).count() == 2


def test_a_stale_plain_answer_redirects_with_a_message(client_director_a, ruling):
    answer(client_director_a, ruling, "geaccepteerd", 2, "ja")
    response = answer(client_director_a, ruling, "geaccepteerd", 2, "nee", revision=1)
    assert response["Location"] == step_url(ruling, 3)
    assert any("verouderd" in m for m in messages_of(response))
    page = client_director_a.get(response["Location"])
    assert "verouderd" in page.content.decode()
    assert Step.objects.filter(ruling=ruling).count() == 2


def test_a_double_click_records_the_answer_once(client_director_a, ruling):
    answer(client_director_a, ruling, "geaccepteerd", 2, "ja", revision=1, **HTMX)
    second = answer(client_director_a, ruling, "geaccepteerd", 2, "ja", revision=1, **HTMX)
    assert second.status_code == 200
    assert "data-wizard-error" not in second.content.decode()
    assert Step.objects.filter(ruling=ruling).count() == 2
    assert AuditEvent.objects.filter(ruling=ruling, action="answered").count() == 2


@pytest.mark.parametrize(
    ("node", "choice", "message"),
    [
        ("geaccepteerd", "misschien", "geen antwoord op deze vraag"),
        ("vervangen", "ja", "verouderd"),
        ("onzin", "ja", "hoort niet bij de vraag"),
        ("geaccepteerd", "", "geen antwoord op deze vraag"),
    ],
)
def test_forged_answers_change_nothing(client_director_a, ruling, node, choice, message):
    response = answer(client_director_a, ruling, node, 2, choice, **HTMX)
    assert message in response.content.decode()
    assert Step.objects.filter(ruling=ruling).count() == 1
    assert Ruling.objects.get(pk=ruling.pk).revision == 1


def test_a_two_tab_change_of_an_earlier_answer_is_stale(client_director_a, ruling):
    tab_a = client_director_a
    tab_b = logged_in(ruling.director)
    old_form_revision = ruling.revision
    answer(tab_a, ruling, "geaccepteerd", 2, "ja")
    answer(tab_a, Ruling.objects.get(pk=ruling.pk), "vervangen", 3, "nee")
    # Tab B still shows step 1's revisit page from before: changing step 1 there is refused.
    response = answer(tab_b, ruling, "onbedoeld", 1, "ja", revision=old_form_revision)
    assert "verouderd" in " ".join(messages_of(response))
    assert Ruling.objects.get(pk=ruling.pk).outcome_key == "straf"


def test_changing_an_answer_on_an_earlier_step(client_director_a, ruling, director_a):
    at_outcome(ruling, director_a)
    page = client_director_a.get(step_url(ruling, 1), **HTMX)
    html = page.content.decode()
    assert "eerder beantwoorde vraag" in html
    assert "gegeven antwoord" in html
    assert 'name="revision" value="3"' in html
    response = answer(client_director_a, ruling, "onbedoeld", 1, "ja", revision=3, **HTMX)
    html = response.content.decode()
    assert response["HX-Push-Url"] == step_url(ruling, 2)
    assert "Vervangt de speler het bod?" in html
    assert "eerder gekozen" in html
    assert Step.objects.filter(ruling=ruling, superseded=True).count() == 3
    assert AuditEvent.objects.filter(ruling=ruling, action="answer_changed").count() == 1


def test_looking_back_and_answering_the_same_moves_forward(client_director_a, ruling, director_a):
    at_outcome(ruling, director_a)
    response = answer(client_director_a, ruling, "onbedoeld", 1, "nee", revision=3)
    assert response["Location"] == step_url(ruling, 2)
    assert Step.objects.filter(ruling=ruling).count() == 3


def test_step_urls_beyond_the_current_step_lead_to_it(client_director_a, ruling, director_a):
    assert client_director_a.get(step_url(ruling, 5))["Location"] == step_url(ruling, 2)
    assert client_director_a.get(step_url(ruling, 0)).status_code == 404
    at_outcome(ruling, director_a)
    assert client_director_a.get(step_url(ruling, 4))["Location"] == ruling_url(ruling)


def test_the_history_restore_request_gets_the_whole_page(client_director_a, ruling):
    page = client_director_a.get(
        step_url(ruling, 1), HTTP_HX_HISTORY_RESTORE_REQUEST="true", **HTMX
    )
    assert "<html" in page.content.decode()


def test_the_current_question_page_without_htmx(client_director_a, ruling):
    page = client_director_a.get(ruling_url(ruling))
    html = page.content.decode()
    assert page.status_code == 200
    assert "<html" in html
    assert "Is het bod geaccepteerd?" in html
    assert "Eigen samenvatting" in html
    assert "Samenvatting in eigen woorden" in html
    assert 'href="/wetten/1997/artikel/27/#samenvatting"' in html
    assert "data-wizard-back" in html
    assert f'href="{step_url(ruling, 1)}"' in html


def test_the_step_in_english(client_director_a, ruling):
    client_director_a.post(reverse("set_language"), {"language": "en", "next": "/"})
    html = client_director_a.get(ruling_url(ruling)).content.decode()
    assert "Was the call accepted?" in html
    assert "Question 2" in html
    assert "Our summary: an insufficient bid may be accepted." in html
    assert "→ No" in html  # the path so far


# --- outcome, context, save, defer, resume -------------------------------------------------


def test_context_errors_are_shown_in_place(client_director_a, ruling, director_a):
    at_outcome(ruling, director_a)
    url = reverse("wizard:context", args=[ruling.uuid])
    bad = {"board": "129", "contract_strain": "H", "table": "0"}
    response = client_director_a.post(url, bad, **HTMX)
    html = response.content.decode()
    assert html.strip().startswith('<form id="context-form"')
    assert "Niet opgeslagen" in html
    assert "hoogstens 128" in html
    assert "Geef de hoogte van het contract" in html
    assert "minstens 1" in html
    plain = client_director_a.post(url, bad)
    assert plain.status_code == 200
    assert "<html" in plain.content.decode()
    assert "hoogstens 128" in plain.content.decode()
    assert Ruling.objects.get(pk=ruling.pk).board is None


@pytest.mark.parametrize("field", ["round", "table"])
@pytest.mark.parametrize("value", ["1000", "40000"])
def test_rounds_and_tables_stop_at_999(client_director_a, ruling, director_a, field, value):
    """40,000 is beyond PostgreSQL's smallint column: a form error, not a server error."""
    at_outcome(ruling, director_a)
    url = reverse("wizard:context", args=[ruling.uuid])
    html = client_director_a.post(url, {field: value}, **HTMX).content.decode()
    assert "Niet opgeslagen" in html
    assert "hoogstens 999" in html
    assert getattr(Ruling.objects.get(pk=ruling.pk), field) is None


def test_context_is_saved_with_an_audit_event(client_director_a, ruling, director_a):
    at_outcome(ruling, director_a)
    url = reverse("wizard:context", args=[ruling.uuid])
    response = client_director_a.post(
        url, {"table": "4", "board": "17", "offender_seat": "E"}, **HTMX
    )
    assert "De gegevens zijn bewaard" in response.content.decode()
    ruling.refresh_from_db()
    assert (ruling.table, ruling.board, ruling.offender_seat) == (4, 17, "E")
    assert ruling.audit_events.order_by("-sequence").first().action == "context_edited"


def test_save_needs_date_and_board(client_director_a, ruling, director_a):
    at_outcome(ruling, director_a)
    response = client_director_a.post(
        reverse("wizard:save", args=[ruling.uuid]), {"table": "2"}, **HTMX
    )
    html = response.content.decode()
    assert "Niet opgeslagen" in html
    assert html.count("Dit veld is verplicht") == 2
    assert Ruling.objects.get(pk=ruling.pk).status == Status.IN_PROGRESS


def test_save_makes_the_ruling_final_and_shows_the_print_page(
    client_director_a, ruling, director_a
):
    at_outcome(ruling, director_a)
    data = {
        "played_on": "2024-05-01",
        "board": "7",
        "table": "3",
        "contract_level": "4",
        "contract_strain": "S",
    }
    response = client_director_a.post(reverse("wizard:save", args=[ruling.uuid]), data, **HTMX)
    assert response.status_code == 200
    assert response["HX-Redirect"] == record_url(ruling)
    ruling.refresh_from_db()
    assert ruling.status == Status.FINAL
    assert ruling.board == 7
    # Old links to the wizard's URL lead to the record, for good.
    old = client_director_a.get(ruling_url(ruling))
    assert (old.status_code, old["Location"]) == (301, record_url(ruling))
    page = client_director_a.get(record_url(ruling))
    html = page.content.decode()
    assert "Arbitrage: Proefboom" in html
    assert "data-print" in html
    assert "De keten van het verslag is intact" in html
    assert "definitief opgeslagen" in html
    assert "4♠" in html
    again = answer(client_director_a, ruling, "onbedoeld", 1, "ja")
    assert again["Location"] == record_url(ruling)
    assert "definitief" in " ".join(messages_of(again))


def test_save_before_the_outcome_is_refused(client_director_a, ruling):
    data = {"played_on": "2024-05-01", "board": "7"}
    response = client_director_a.post(reverse("wizard:save", args=[ruling.uuid]), data)
    assert "nog geen uitkomst" in " ".join(messages_of(response))
    assert Ruling.objects.get(pk=ruling.pk).status == Status.IN_PROGRESS


def test_a_reviewer_reads_the_final_ruling_but_cannot_continue_one(
    client_reviewer_a, ruling, director_a
):
    assert client_reviewer_a.get(ruling_url(ruling)).status_code == 403
    at_outcome(ruling, director_a)
    wizard.save(ruling, director_a, {"played_on": date(2024, 5, 1), "board": 2})
    assert client_reviewer_a.get(ruling_url(ruling))["Location"] == record_url(ruling)
    assert client_reviewer_a.get(record_url(ruling)).status_code == 200


def test_defer_and_resume_from_the_home_page(client_director_a, ruling):
    url = reverse("wizard:defer", args=[ruling.uuid])
    # Deferring asks table and board: without them the ruling stays open and says why.
    refused = client_director_a.post(url, {"table": "4"})
    assert refused["Location"] != reverse("home")
    assert "geef tafel en spel" in " ".join(messages_of(refused))
    assert Ruling.objects.get(pk=ruling.pk).status == Status.IN_PROGRESS
    response = client_director_a.post(url, {"table": "4", "board": "17"})
    assert response["Location"] == reverse("home")
    assert (Ruling.objects.get(pk=ruling.pk).table, Ruling.objects.get(pk=ruling.pk).board) == (
        4,
        17,
    )
    home = client_director_a.get(reverse("home")).content.decode()
    assert "uitgesteld" in home
    assert f'data-open-ruling="{ruling.uuid}"' in home
    assert reverse("wizard:resume", args=[ruling.uuid]) in home
    page = client_director_a.get(ruling_url(ruling)).content.decode()
    assert "Hervat haar om verder te gaan" in page
    assert page.count(" disabled>") == 2  # the two answer buttons
    refused = answer(client_director_a, ruling, "geaccepteerd", 2, "ja")
    assert "Hervat haar eerst" in " ".join(messages_of(refused))
    resumed = client_director_a.post(reverse("wizard:resume", args=[ruling.uuid]))
    assert resumed["Location"] == step_url(ruling, 2)
    assert Ruling.objects.get(pk=ruling.pk).status == Status.IN_PROGRESS


def test_the_home_page_resumes_an_unfinished_ruling_where_it_stopped(client_director_a, ruling):
    answer(client_director_a, ruling, "geaccepteerd", 2, "ja")
    home = client_director_a.get(reverse("home")).content.decode()
    assert "Nieuwe arbitrage" in home
    assert 'href="/arbitrage/nieuw/"' in home
    assert f'href="{ruling_url(ruling)}"' in home
    assert "2 vragen beantwoord" in home
    page = client_director_a.get(ruling_url(ruling)).content.decode()
    assert "Vervangt de speler het bod?" in page


# --- who may do what -----------------------------------------------------------------------


def every_url(ruling):
    return {
        "get": [ruling_url(ruling), step_url(ruling, 1)],
        "post": [
            reverse(f"wizard:{name}", args=[ruling.uuid])
            for name in ("answer", "context", "defer", "resume", "save")
        ],
    }


def test_another_club_gets_404_everywhere(client_director_b, ruling):
    urls = every_url(ruling)
    for url in urls["get"]:
        assert client_director_b.get(url).status_code == 404, url
    for url in urls["post"]:
        assert (
            client_director_b.post(
                url, {"node": "geaccepteerd", "step": 2, "revision": 1, "choice": "ja"}
            ).status_code
            == 404
        ), url
    assert Ruling.objects.get(pk=ruling.pk).revision == 1


def test_a_colleague_cannot_continue_a_ruling(club_a, ruling):
    colleague = logged_in(make_user("carla", club_a, Role.DIRECTOR))
    urls = every_url(ruling)
    for url in urls["get"]:
        assert colleague.get(url).status_code == 403, url
    for url in urls["post"]:
        assert colleague.post(url, {}).status_code == 403, url


def test_a_club_admin_may_continue_a_ruling(client_admin_a, ruling):
    response = answer(client_admin_a, ruling, "geaccepteerd", 2, "ja")
    assert response["Location"] == step_url(ruling, 3)
    assert ruling.audit_events.order_by("-sequence").first().actor_name == "bert"


def test_a_member_of_two_clubs_only_reaches_their_own_rulings(
    client_director_b, director_b, club_a, ruling
):
    Membership.objects.create(user=director_b, club=club_a, role=Role.REVIEWER)
    assert client_director_b.get(ruling_url(ruling)).status_code == 403


def test_a_ruling_made_outside_the_wizard_is_shown_read_only(client_director_a, club_a, director_a):
    # e.g. created by hand or by an older version: no snapshot to continue on.
    bare = Ruling.objects.create(
        club=club_a,
        director=director_a,
        tree_slug="proef",
        tree_title="Proefboom",
        edition_code="1997",
        tree_version="x",
        current_node_key="onbedoeld",
    )
    # Not final, so the redirect to its record is not a permanent one.
    shown = client_director_a.get(ruling_url(bare))
    assert (shown.status_code, shown["Location"]) == (302, record_url(bare))
    assert client_director_a.get(record_url(bare)).status_code == 200
    assert client_director_a.get(step_url(bare, 1))["Location"] == record_url(bare)
    refused = answer(client_director_a, bare, "onbedoeld", 1, "ja", revision=0)
    assert refused["Location"] == record_url(bare)
    assert "bestaat niet" in " ".join(messages_of(refused))


def test_get_only_and_post_only(client_director_a, ruling):
    assert client_director_a.get(reverse("wizard:answer", args=[ruling.uuid])).status_code == 405
    assert client_director_a.post(ruling_url(ruling)).status_code == 405


def test_wizard_pages_have_no_inline_scripts_or_handlers(client_director_a, ruling, director_a):
    pages = [
        client_director_a.get(reverse("wizard:start")),
        client_director_a.get(ruling_url(ruling)),
    ]
    at_outcome(ruling, director_a)
    pages.append(client_director_a.get(ruling_url(ruling)))
    wizard.save(ruling, director_a, {"played_on": date(2024, 5, 1), "board": 2})
    pages.append(client_director_a.get(ruling_url(ruling)))
    for page in pages:
        html = page.content.decode()
        assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", html)
        assert not re.search(r"\son[a-z]+=", html)
        assert "https://" not in html
        assert "http://" not in html


# --- query budget (on a large archive: test_query_budget.py) -------------------------------


TRANSACTION_CONTROL = ("BEGIN", "COMMIT", "ROLLBACK", "SAVEPOINT", "RELEASE")


@pytest.mark.django_db(transaction=True)
def test_outside_a_test_transaction_a_step_is_still_within_budget(
    client_director_a, proef_tree, club_a, director_a
):
    # Inside a test transaction the wizard's own transaction costs no statement; here it is a
    # real one. SQLite then also runs BEGIN IMMEDIATE and COMMIT (PostgreSQL sends neither as a
    # statement): those are counted apart from the queries.
    ruling = begin_proef(club_a, director_a)
    # The law text beside a step is read once per process (laws.edition_law): warmed first, as in
    # test_query_budget.py.
    edition_law.law_of(ruling.edition_code)
    for request in (
        lambda: answer(client_director_a, ruling, "geaccepteerd", 2, "ja", **HTMX),
        lambda: answer(client_director_a, ruling, "onbedoeld", 1, "ja", revision=2, **HTMX),
        lambda: client_director_a.get(ruling_url(ruling), **HTMX),
    ):
        with CaptureQueriesContext(connection) as captured:
            assert request().status_code == 200
        statements = [query["sql"] for query in captured.captured_queries]
        queries = [sql for sql in statements if not sql.startswith(TRANSACTION_CONTROL)]
        assert len(queries) <= 7, queries
        assert len(statements) - len(queries) <= 2
    assert Ruling.objects.get(pk=ruling.pk).revision == 3
