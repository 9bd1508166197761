"""The question and outcome pages over HTTP: the progress hint, the check-your-answers summary
before the final save, the two save buttons, and contradicting board details flagged."""

from __future__ import annotations

import uuid

import pytest
from django.urls import reverse

from rulings import wizard
from rulings.models import Ruling, Status
from tests.rulings.test_views import HTMX, at_outcome, ruling_url
from tests.support.rulings import begin_proef
from trees.loading import TREES_DIR
from trees.parse import load_tree_file
from trees.progress import remaining_questions
from trees.validate import paths


@pytest.fixture
def ruling(proef_tree, club_a, director_a):
    return begin_proef(club_a, director_a)


def _longest_from(tree, node_key):
    return remaining_questions(tree)[node_key]


def test_the_question_says_which_of_about_how_many_it_is(client_director_a, ruling):
    tree = wizard.start("proef").tree
    expected = 1 + _longest_from(tree, ruling.current_node_key)
    html = client_director_a.get(ruling_url(ruling)).content.decode()
    assert f"Vraag 2 van ongeveer {expected}" in html
    first = client_director_a.get(reverse("wizard:step", args=[ruling.uuid, 1])).content
    assert f"Vraag 1 van ongeveer {_longest_from(tree, 'onbedoeld')}" in first.decode()


def test_the_progress_hint_in_english(client_director_a, ruling):
    client_director_a.post(reverse("set_language"), {"language": "en", "next": "/"})
    html = client_director_a.get(ruling_url(ruling)).content.decode()
    assert "Question 2 of about" in html


def test_the_outcome_lists_the_answers_to_check_before_the_final_save(
    client_director_a, ruling, director_a
):
    at_outcome(ruling, director_a)
    html = client_director_a.get(ruling_url(ruling)).content.decode()
    announce = html.index("data-announce")
    check = html.index("Controleer uw antwoorden")
    assert announce < check < html.index("data-wizard-save")
    # The path is no longer above the outcome: what to say at the table comes first.
    assert "wizard-path" not in html[:announce]
    for number in range(1, len(ruling.path) + 1):
        change = reverse("wizard:step", args=[ruling.uuid, number])
        assert f'href="{change}"' in html[check:]
    assert "Vervangt de speler het bod?" in html[check:]
    assert "nog niet ingevuld" in html[check:]
    assert "Gegevens bewaren (blijft open)" in html
    assert "Definitief opslaan (niet meer te wijzigen)" in html
    assert "kan daarna niet meer worden gewijzigd, alleen beoordeeld" in html


def test_saving_the_details_shows_them_in_the_summary(client_director_a, ruling, director_a):
    at_outcome(ruling, director_a)
    url = reverse("wizard:context", args=[ruling.uuid])
    data = {"played_on": "2025-03-04", "table": "7", "board": "12", "offender_seat": "E"}
    html = client_director_a.post(url, data, **HTMX).content.decode()
    summary = html[html.index("data-board-details") :]
    assert "tafel 7" in summary
    assert "spel 12" in summary
    assert "overtreder Oost" in summary
    ruling.refresh_from_db()
    assert ruling.status == Status.IN_PROGRESS


def _shipped_ruling(club, director, slug, node_key, choice_key) -> Ruling:
    """A ruling on a shipped tree, answered along the first path through ``choice_key``."""
    spec = load_tree_file(TREES_DIR / f"{slug}.yaml")
    path = next(p for p in paths(spec) if (node_key, choice_key) in p.steps)
    tree = wizard.start(slug)
    first_node, first_choice = path.steps[0]
    found = wizard.begin(
        uuid=uuid.uuid4(),
        club=club,
        director=director,
        tree=tree,
        node_key=first_node,
        choice_key=first_choice,
    ).ruling
    for number, (node, choice) in enumerate(path.steps[1:], start=2):
        wizard.answer(found, node, number, choice, director)
    return found


def test_a_contradiction_is_flagged_and_saving_still_works(
    shipped, client_director_a, club_a, director_a
):
    found = _shipped_ruling(club_a, director_a, "strafkaart", "wie", "tegenspeler")
    context_url = reverse("wizard:context", args=[found.uuid])
    details = {"played_on": "2025-03-04", "table": "3", "board": "5", "declarer_seat": "N"}
    html = client_director_a.post(
        context_url, {**details, "offender_seat": "E"}, **HTMX
    ).content.decode()
    assert "data-contradiction" not in html
    html = client_director_a.post(
        context_url, {**details, "offender_seat": "S"}, **HTMX
    ).content.decode()
    assert "data-contradiction" in html
    assert "de blinde" in html
    page = client_director_a.get(ruling_url(found)).content.decode()
    assert "data-contradiction" in page
    # A warning, not a refusal.
    save = reverse("wizard:save", args=[found.uuid])
    client_director_a.post(save, {**details, "offender_seat": "S", "event": "Dinsdag"})
    found.refresh_from_db()
    assert found.status == Status.FINAL


def test_the_outcome_page_keeps_its_query_count(
    client_director_a, ruling, director_a, django_assert_max_num_queries
):
    at_outcome(ruling, director_a)
    client_director_a.get(ruling_url(ruling))  # the snapshot is now in memory
    # Session, user, memberships, ruling, the club's event names for the board form: the
    # answers and the flags cost no query.
    with django_assert_max_num_queries(5):
        response = client_director_a.get(ruling_url(ruling))
    assert response.status_code == 200


def test_the_board_details_line_leaves_out_what_is_not_filled_in(ruling):
    from rulings.templatetags.outcome_tags import board_details

    assert board_details(ruling) == []
    ruling.table, ruling.board, ruling.declarer_seat = 7, 12, "N"
    ruling.contract_level, ruling.contract_strain, ruling.contract_doubled = 4, "S", "X"
    assert board_details(ruling) == ["tafel 7", "spel 12", "leider Noord", "contract 4♠X"]
