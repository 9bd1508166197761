"""A practice case with an auction and a poll hand, and a trainer polling the room in a
session: each participant answers once from his own device, the trainer sees the tally
(training/room_polls.py, training/poll_views.py)."""

import pytest
from django.test import Client

from tests.conftest import make_user
from training import room_polls
from training.models import (
    RoomPoll,
    RoomPollAnswer,
    SessionParticipant,
    TrainingCase,
    TrainingSession,
)

HAND = "AK32.QJ5.T98.765"


@pytest.fixture
def case(db, club_a):
    return TrainingCase.objects.create(
        club=club_a,
        slug="denkpauze",
        title_nl="Denkpauze voor 4♥",
        situation_nl="Zuid denkt lang na voor 2♥; Noord biedt 4♥.",
        tree_slug="ongeoorloofde-informatie",
        expected_outcomes=["arbitrale-score"],
        explanation_nl="Uitleg",
        auction="N: 1H P 2H? P 4H P P P",
        poll_hand=HAND,
    )


@pytest.fixture
def session(case, club_a, trainer_a):
    session = TrainingSession.objects.create(
        club=club_a, trainer=trainer_a, title="Dinsdag", code="K7MW2Q"
    )
    session.cases.set([case])
    return session


def trainee(session, name):
    user = make_user(name, session.club, "director")
    SessionParticipant.objects.create(session=session, user=user)
    client = Client()
    client.force_login(user)
    return client


def url(session, name=""):
    return f"/oefenen/sessies/{session.pk}/peiling/{name}"


def test_the_case_form_takes_an_auction_and_a_hand(client_trainer_a, case):
    from training.forms import TrainingCaseForm

    data = {
        "title_nl": "X", "tree_slug": "ongeoorloofde-informatie", "situation_nl": "S",
        "expected_outcomes": ["arbitrale-score"], "explanation_nl": "U", "difficulty": 1,
        "auction": "n: 1h p 2h? p 4h", "poll_hand": "ah32.vb5.1098.765",
    }  # fmt: skip
    form = TrainingCaseForm(data, instance=case, clubs=[case.club])
    assert form.is_valid(), form.errors
    assert (form.cleaned_data["auction"], form.cleaned_data["poll_hand"]) == (
        "N: 1H P 2H? P 4H",
        HAND,
    )
    bad = TrainingCaseForm(
        data | {"auction": "n: 1h 1d", "poll_hand": "a.k.q.j"}, instance=case, clubs=[case.club]
    )
    assert not bad.is_valid()
    assert "1♦" in str(bad.errors["auction"])
    assert "4 kaarten" in str(bad.errors["poll_hand"])


def test_the_case_page_shows_its_auction(client_trainer_a, case, shipped):
    page = client_trainer_a.get(f"/oefenen/casussen/{case.pk}/").content.decode()
    assert "data-case-auction" in page
    assert 'data-call="4♥"' in page


def test_a_room_poll_from_opening_to_tally(
    client_trainer_a, session, django_assert_max_num_queries
):
    jan, piet = trainee(session, "jan"), trainee(session, "piet")
    assert (
        client_trainer_a.post(url(session, "openen/"), {"case": session.cases.get().pk}).status_code
        == 302
    )
    poll = RoomPoll.objects.get()
    # After South's slow 2♥ the decision is North's 4♥: the poll stops before it.
    assert (poll.auction, poll.table_call, poll.hand) == ("1H P 2H P", "4H", HAND)
    page = jan.get(f"/oefenen/sessies/{session.pk}/oefenen/").content.decode()
    assert "data-room-poll-link" in page
    screen = jan.get(url(session)).content.decode()
    assert 'value="3H"' in screen
    assert 'value="2H"' not in screen
    refused = jan.post(url(session), {"call": "2c"})
    assert refused.status_code == 400
    assert "2♣" in refused.content.decode()
    assert jan.post(url(session), {"call": "4h", "considered": ["P"]}).status_code == 302
    assert jan.post(url(session), {"call": "p"}).status_code == 200  # once: already answered
    assert piet.post(url(session), {"call": "P"}).status_code == 302
    assert list(
        RoomPollAnswer.objects.order_by("user__username").values_list("call", "considered")
    ) == [
        ("4H", ["P"]),
        ("P", []),
    ]
    with django_assert_max_num_queries(14):
        page = client_trainer_a.get(f"/oefenen/sessies/{session.pk}/").content.decode()
    assert 'data-poll-call="P"' in page
    assert "jan: 4♥" in page
    assert client_trainer_a.post(url(session, "sluiten/")).status_code == 302
    assert jan.get(url(session)).status_code == 404  # closed


def test_only_the_trainer_opens_and_only_participants_answer(
    client_director_a, client_director_b, session
):
    case = session.cases.get()
    assert client_director_a.post(url(session, "openen/"), {"case": case.pk}).status_code == 403
    assert client_director_b.post(url(session, "openen/"), {"case": case.pk}).status_code == 404
    room_polls.open_for(session, case)
    assert client_director_a.get(url(session)).status_code == 404  # not a participant
    assert client_director_b.get(url(session)).status_code == 404


def test_a_case_without_auction_cannot_poll(client_trainer_a, session):
    TrainingCase.objects.update(auction=None)
    response = client_trainer_a.post(url(session, "openen/"), {"case": session.cases.get().pk})
    assert response.status_code == 302
    assert not RoomPoll.objects.exists()


CASE_FILE = """slug: x
tree: ongeoorloofde-informatie
title: {nl: "T", en: "T"}
situation: {nl: "S", en: "S"}
explanation: {nl: "U", en: "E"}
expected: {outcomes: [arbitrale-score]}
"""


def test_a_case_file_carries_an_auction_and_a_poll_hand():
    from training.files import CaseError, parse_case

    plain = parse_case(CASE_FILE)
    spec = parse_case(
        CASE_FILE + 'auction: "w: 1s 2h 2s 3h p? p 3s"\npoll_hand: "K873.J4.KQ62.943"\n'
    )
    assert (spec.auction, spec.poll_hand) == ("W: 1S 2H 2S 3H P? P 3S", "K873.J4.KQ62.943")
    assert "auction" not in plain.as_fields()  # cases without a poll keep their content hash
    with pytest.raises(CaseError, match="go together"):
        parse_case(CASE_FILE + 'auction: "w: 1s"\n')
    with pytest.raises(CaseError, match="1♦"):
        parse_case(CASE_FILE + 'auction: "n: 1s 1d"\npoll_hand: "K873.J4.KQ62.943"\n')


def test_the_shipped_hesitation_case_polls_the_room(db):
    case = TrainingCase.objects.get(slug="ui-denkpauze-doorbieden", club__isnull=True)
    assert room_polls.pollable([case]) == [case]


def test_a_practice_shows_the_cases_auction_and_no_poll_box(
    client_director_a, director_a, case, shipped
):
    from rulings import wizard
    from training.practice import begin_practice

    ruling = begin_practice(director_a, case, None, "wanneer", "na-afloop").ruling
    for number, choice in enumerate(["ja", "ja"], start=2):
        wizard.answer(ruling, ruling.current_node_key, number, choice, director_a)
    ruling.refresh_from_db()
    assert ruling.current_node_key == "logisch-alternatief"
    page = client_director_a.get(f"/oefenen/pogingen/{ruling.uuid}/").content.decode()
    assert "data-case-auction" in page
    assert 'data-call="4♥"' in page
    assert "data-poll-beside" not in page  # a trainee's practice holds no poll


def test_a_closed_session_takes_no_more_answers(client_trainer_a, session):
    jan = trainee(session, "jan")
    room_polls.open_for(session, session.cases.get())
    assert client_trainer_a.post(f"/oefenen/sessies/{session.pk}/sluiten/").status_code == 302
    assert jan.get(url(session)).status_code == 404
    assert jan.post(url(session), {"call": "P"}).status_code == 404
    assert (
        "data-room-poll" not in jan.get(f"/oefenen/sessies/{session.pk}/oefenen/").content.decode()
    )
