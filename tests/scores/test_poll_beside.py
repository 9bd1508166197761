"""The poll beside the question it answers (``poll: true`` in the tree: 16B1(b)'s logical
alternative) in the wizard, and beside the director's decision on the record."""

from datetime import date

import pytest
from django.urls import reverse

from rulings import polling, wizard
from rulings.models import PollAnswer
from tests.support.rulings import make_ruling

TO_QUESTION = ("na-afloop", "ja", "ja")  # ongeoorloofde-informatie up to logisch-alternatief
VALUES = {
    "dealer": "N",
    "vulnerability": "None",
    "hand": "AK32.QJ5.T98.765",
    "auction": "1H P 2H P",
    "question": "Wat bied je?",
    "table_call": "4H",
}


@pytest.fixture
def open_ruling(shipped, club_a, director_a):
    return make_ruling(
        club_a, director_a, TO_QUESTION, tree_slug="ongeoorloofde-informatie", final=False
    )


def poll_with(ruling, user, calls):
    poll = polling.prepare(ruling, user, VALUES, ruling.audit_sequence)
    for number, (call, considered) in enumerate(calls):
        values = {"player": f"S{number}", "level": "club", "call": call, "considered": considered}
        polling.record_answer(poll, user, values, number)
    return poll


def step_url(ruling):
    return reverse("wizard:step", args=[ruling.uuid, len(ruling.path) + 1])


def test_the_question_offers_a_poll_when_there_is_none(client_director_a, open_ruling):
    assert open_ruling.current_node_key == "logisch-alternatief"
    page = client_director_a.get(step_url(open_ruling)).content.decode()
    assert "data-poll-beside" in page
    assert reverse("scores:poll", args=[open_ruling.uuid]) in page
    assert "data-poll-tally" not in page


def test_other_questions_show_no_poll(client_director_a, shipped, club_a, director_a):
    ruling = make_ruling(
        club_a, director_a, ("na-afloop", "ja"), tree_slug="ongeoorloofde-informatie", final=False
    )
    assert "data-poll-beside" not in client_director_a.get(step_url(ruling)).content.decode()


def test_the_question_shows_the_tally_and_suggestion_in_a_bounded_number_of_queries(
    client_director_a, open_ruling, director_a, django_assert_max_num_queries
):
    poll_with(open_ruling, director_a, [("P", []), ("4H", ["P"]), ("4H", []), ("4H", [])])
    open_ruling.refresh_from_db()
    # A step's eight, and two for the poll and its answers on this question only.
    with django_assert_max_num_queries(10):
        page = client_director_a.get(step_url(open_ruling)).content.decode()
    assert 'data-poll-call="P"' in page
    assert "Suggestie: ja, er was een logisch alternatief" in page
    # The suggestion never answers: both answers stay open, none pre-selected by the poll.
    assert "data-wizard-selected" not in page


def test_the_record_shows_the_poll_beside_the_decision(
    client_director_a, open_ruling, director_a, django_assert_max_num_queries
):
    poll_with(open_ruling, director_a, [("P", []), ("4H", ["P"]), ("4H", []), ("4H", [])])
    open_ruling.refresh_from_db()
    wizard.answer(open_ruling, "logisch-alternatief", 4, "nee", director_a)
    open_ruling.refresh_from_db()
    wizard.save(open_ruling, director_a, {"board": 5, "played_on": date(2026, 12, 1)})
    assert PollAnswer.objects.count() == 4
    url = reverse("archive:detail", args=[open_ruling.uuid])
    with django_assert_max_num_queries(14):
        page = client_director_a.get(url).content.decode()
    assert "data-poll-record" in page
    assert "Suggestie: ja, er was een logisch alternatief" in page
    decision = page.split("data-poll-decision")[1]
    assert "Was er een logisch alternatief voor de gekozen actie?" in decision
    assert "Nee, de gekozen actie was de enige logische" in decision
    assert "S1 (clubspeler): 4♥ [pas]" in page


def test_a_record_without_a_poll_offers_one(
    client_director_a, client_trainer_a, club_a, director_a
):
    ruling = make_ruling(club_a, director_a)
    url = reverse("archive:detail", args=[ruling.uuid])
    assert "data-poll-start" in client_director_a.get(url).content.decode()
    assert "data-poll-start" not in client_trainer_a.get(url).content.decode()


def test_the_poll_page_of_an_open_ruling_leads_back_to_its_question(
    client_director_a, open_ruling, director_a
):
    poll_with(open_ruling, director_a, [])
    page = client_director_a.get(reverse("scores:poll", args=[open_ruling.uuid])).content
    back = reverse("wizard:ruling", args=[open_ruling.uuid])
    assert f'href="{back}" data-poll-back-to-question'.encode() in page
    screen = client_director_a.get(reverse("scores:poll_screen", args=[open_ruling.uuid]))
    assert b"poll-handed-over" in screen.content  # the menu is hidden from the polled player
