"""Hostile values in a ruling's player poll (issue 33): the prepare form, the polling screen
and a typed answer take anything a request can carry; every reply is 302, 400 or 409, nothing
is stored unless it was valid, what was stored is shown inert on the poll pages and the
record, and the audit chain stays whole."""

from __future__ import annotations

import pytest
from django.urls import reverse
from hypothesis import given, settings
from hypothesis import strategies as st

from rulings import audit
from rulings.models import Poll, PollAnswer
from tests.support.hostile import assert_inert, hostile_text, number_like
from training import room_polls
from training.models import TrainingCase

pytestmark = pytest.mark.django_db
PROFILE = settings.get_profile("leidraad-security")

calls = st.one_of(st.sampled_from(["p", "4h", "3sa", "x", "xx", "1c", "8nt", ""]), hostile_text)


@PROFILE
@given(
    auction=st.one_of(st.sampled_from(["1h p 2h p", "1h 1d", "p p p p", ""]), hostile_text),
    hand=st.one_of(st.sampled_from(["AK32.QJ5.T98.765", "AK.Q", ""]), hostile_text),
    question=st.one_of(st.just("Wat bied je?"), hostile_text),
    table_call=calls,
    dealer=st.one_of(st.sampled_from(["N", "O", "Z"]), hostile_text),
    sequence=st.one_of(st.just("current"), number_like),
    call=calls,
    considered=st.lists(calls, max_size=3),
    player=st.one_of(st.just("JdV"), hostile_text),
    level=st.one_of(st.sampled_from(["club", "top"]), hostile_text),
    typed=st.booleans(),
)
def test_poll_forms_with_hostile_values(
    world, client_as, count_example, auction, hand, question, table_call, dealer, sequence,
    call, considered, player, level, typed,
):  # fmt: skip
    count_example()
    client = client_as("director_a")
    ruling = world.final
    ruling.refresh_from_db()
    events = ruling.audit_events.count()
    data = {
        "dealer": dealer,
        "vulnerability": "None",
        "auction": auction,
        "hand": hand,
        "question": question,
        "table_call": table_call,
        "sequence": str(ruling.audit_sequence) if sequence == "current" else sequence,
    }
    response = client.post(reverse("scores:poll_prepare", args=[ruling.uuid]), data)
    assert response.status_code in (302, 400, 409)
    grown = ruling.audit_events.count() - events
    assert grown in ((0, 1) if response.status_code == 302 else (0,))
    assert_inert(response, data)
    poll = Poll.objects.filter(ruling=ruling).first()
    if poll is None:
        return
    answers = PollAnswer.objects.filter(poll=poll).count()
    answer = {"player": player, "level": level, "call": call, "seen": answers}
    if typed:
        answer["considered"] = " ".join(considered)
        url = reverse("scores:poll_typed", args=[ruling.uuid])
    else:
        answer["considered"] = considered
        url = reverse("scores:poll_screen", args=[ruling.uuid])
    response = client.post(url, answer)
    assert response.status_code in (302, 400)
    stored = PollAnswer.objects.filter(poll=poll).count() - answers
    assert stored == (1 if response.status_code == 302 else 0)
    assert_inert(response, answer)
    for page in ("scores:poll", "scores:poll_screen", "scores:poll_sheet", "archive:detail"):
        assert_inert(client.get(reverse(page, args=[ruling.uuid])), [data, answer])
    assert audit.verify(ruling) == []


@PROFILE
@given(
    auction=st.one_of(
        st.sampled_from(["N: 1h p 2h? p 4h", "w: 1s 2h", "1h p", "N: 1h 1d", ""]), hostile_text
    ),
    poll_hand=st.one_of(st.sampled_from(["AK32.QJ5.T98.765", "AK.Q", ""]), hostile_text),
    call=calls,
)
def test_a_case_poll_and_a_room_answer_with_hostile_values(
    world, client_as, count_example, auction, poll_hand, call
):
    """The case form's auction and poll hand, then a room poll of the case answered with any
    call: refused in place or stored canonically, shown inert."""
    count_example()
    trainer = client_as("trainer_a")
    data = {
        "title_nl": "Casus",
        "tree_slug": world.case.tree_slug,
        "situation_nl": "S",
        "expected_outcomes": list(world.case.expected_outcomes),
        "explanation_nl": "U",
        "difficulty": "1",
        "auction": auction,
        "poll_hand": poll_hand,
    }
    response = trainer.post(reverse("training:case_edit", args=[world.case.pk]), data)
    assert response.status_code in (200, 302), response.status_code
    assert_inert(response, data)
    case = TrainingCase.objects.get(pk=world.case.pk)
    page = trainer.get(reverse("training:case", args=[case.pk]))
    assert_inert(page, data)
    if response.status_code != 302 or not room_polls.pollable([case]):
        return
    room_polls.open_for(world.session, case)
    trainee = client_as("director_a")  # the world's participant
    url = reverse("training:room_poll", args=[world.session.pk])
    answered = trainee.post(url, {"call": call})
    assert answered.status_code in (200, 302, 400), answered.status_code
    assert_inert(answered, [call])
    assert_inert(trainer.get(reverse("training:session", args=[world.session.pk])), [call])
