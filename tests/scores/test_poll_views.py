"""A ruling's player poll: preparing it, the polling screen, typed answers and the sheet
(scores/poll_views.py). The tally itself: tests/rulings/test_poll_tally.py."""

import pytest
from django.urls import reverse

from lib.auction import parse_auction
from lib.bridge import Seat
from rulings.models import Poll, PollAnswer, Ruling
from scores import deals
from scores.polls import decision_point
from tests.support.rulings import actions_of, make_ruling

HAND = "AK32.QJ5.T98.765"
PREPARE = {
    "dealer": "N",
    "vulnerability": "None",
    "auction": "1h p 2h p",
    "hand": "",
    "question": "Wat bied je?",
    "table_call": "4h",
}


@pytest.fixture
def ruling(club_a, director_a):
    return make_ruling(club_a, director_a)


def prepare(client, ruling, **changes):
    data = PREPARE | {"sequence": ruling.audit_sequence} | changes
    return client.post(reverse("scores:poll_prepare", args=[ruling.uuid]), data)


@pytest.fixture
def poll(client_director_a, ruling):
    response = prepare(client_director_a, ruling, hand="AH32.VB5.1098.765")
    assert response.status_code == 302
    return Poll.objects.get(ruling=ruling)


def answer(client, ruling, call, considered=(), player="JdV", level="club", seen=None):
    if seen is None:
        seen = PollAnswer.objects.filter(poll__ruling=ruling).count()
    data = {"player": player, "level": level, "call": call, "considered": list(considered)}
    return client.post(reverse("scores:poll_screen", args=[ruling.uuid]), data | {"seen": seen})


def test_preparing_stores_the_poll_with_its_audit_event(poll, ruling):
    assert (poll.hand, poll.auction, poll.table_call, poll.dealer) == (HAND, "1H P 2H P", "4H", "N")
    assert actions_of(ruling)[-1] == "poll_prepared"


def test_an_illegal_auction_is_refused_with_the_call_named(client_director_a, ruling):
    response = prepare(client_director_a, ruling, auction="1h 1d", hand=HAND)
    assert response.status_code == 400
    assert "1♦" in response.content.decode()
    assert not Poll.objects.exists()


def test_a_table_call_that_is_not_legal_is_refused(client_director_a, ruling):
    response = prepare(client_director_a, ruling, table_call="2c", hand=HAND)
    assert response.status_code == 400
    assert "2♣" in response.content.decode()


def test_a_hand_that_is_not_thirteen_cards_is_refused(client_director_a, ruling):
    response = prepare(client_director_a, ruling, hand="AK32.QJ5.T98.76")
    assert response.status_code == 400
    assert "12 kaarten" in response.content.decode()


def test_without_a_typed_hand_the_stored_deal_gives_the_hand_of_the_seat_to_call(
    client_director_a, ruling, quick_analysis
):
    hands = {
        Seat.NORTH: "AKQJ.AKQJ.AKQJ.A", Seat.EAST: "765.765.765.9876",
        Seat.SOUTH: "T98.T98.T98.KQJT", Seat.WEST: "432.432.432.5432",
    }  # fmt: skip
    deal = deals.typed_deal(ruling.board, hands, event=ruling.event, dealer=Seat.NORTH)
    deals.store_typed(ruling.club, deal, None, None)
    # After 1H P 2H P North is to call again.
    response = prepare(client_director_a, ruling)
    assert response.status_code == 302
    assert Poll.objects.get(ruling=ruling).hand == "AKQJ.AKQJ.AKQJ.A"


def test_the_screen_shows_only_legal_calls_and_no_earlier_answers(client_director_a, ruling, poll):
    answer(client_director_a, ruling, "4h", player="Zichtbaar")
    page = client_director_a.get(reverse("scores:poll_screen", args=[ruling.uuid])).content
    page = page.decode()
    assert 'value="3H"' in page
    assert 'value="P"' in page
    assert 'value="2H"' not in page
    assert 'value="X"' not in page
    assert "Zichtbaar" not in page
    assert "gekozen" not in page


def test_an_answer_is_recorded_once_with_its_audit_event(client_director_a, ruling, poll):
    response = answer(client_director_a, ruling, "4h", considered=["P", "4H", "3H"])
    assert response.status_code == 302
    assert response["Location"].endswith("?klaar=1")
    again = answer(client_director_a, ruling, "4h", seen=0)  # the same form sent twice
    assert again.status_code == 302
    row = PollAnswer.objects.get()
    assert (row.call, row.considered, row.level) == ("4H", ["P", "3H"], "club")
    assert actions_of(ruling).count("poll_answered") == 1


def test_an_illegal_answer_is_refused_with_the_call_named(client_director_a, ruling, poll):
    response = answer(client_director_a, ruling, "2c")
    assert response.status_code == 400
    assert "2♣" in response.content.decode()
    assert not PollAnswer.objects.exists()


def test_a_typed_answer_from_a_sheet(client_director_a, ruling, poll):
    url = reverse("scores:poll_typed", args=[ruling.uuid])
    data = {"player": "AB", "level": "top", "call": "p", "considered": "4h 3h", "seen": 0}
    assert client_director_a.post(url, data).status_code == 302
    bad = client_director_a.post(url, data | {"considered": "1s", "seen": 1})
    assert bad.status_code == 400
    assert "1♠" in bad.content.decode()
    assert list(PollAnswer.objects.values_list("call", "considered")) == [("P", ["4H", "3H"])]


def test_the_poll_page_shows_the_tally_and_suggestion_in_constant_queries(
    client_director_a, ruling, poll, django_assert_max_num_queries
):
    for number, call in enumerate(["p", "4h", "4h", "4h"]):
        answer(client_director_a, ruling, call, considered=["P"], player=f"S{number}")
    url = reverse("scores:poll", args=[ruling.uuid])
    with django_assert_max_num_queries(12):
        page = client_director_a.get(url).content.decode()
    assert 'data-poll-call="P"' in page
    assert "Suggestie: ja, er was een logisch alternatief" in page


def test_the_screen_in_constant_queries(
    client_director_a, ruling, poll, django_assert_max_num_queries
):
    with django_assert_max_num_queries(8):
        assert (
            client_director_a.get(reverse("scores:poll_screen", args=[ruling.uuid])).status_code
            == 200
        )


def test_the_sheet_prints_the_hand_and_rows(client_director_a, ruling, poll):
    page = client_director_a.get(reverse("scores:poll_sheet", args=[ruling.uuid])).content
    assert b"data-poll-sheet" in page
    assert b"A H 3 2" in page  # the ranks as the reader writes them
    assert "♠".encode() in page


def test_another_club_gets_404(client_director_b, ruling, poll):
    for name in ("poll", "poll_screen", "poll_sheet"):
        assert (
            client_director_b.get(reverse(f"scores:{name}", args=[ruling.uuid])).status_code == 404
        )
    assert prepare(client_director_b, ruling).status_code == 404


def test_a_screen_without_a_poll_is_404(client_director_a, ruling):
    assert (
        client_director_a.get(reverse("scores:poll_screen", args=[ruling.uuid])).status_code == 404
    )


def test_the_club_admin_sets_the_thresholds_and_the_suggestion_follows(
    client_admin_a, client_director_a, club_a, ruling, poll
):
    for number, call in enumerate(["p", "4h", "4h", "4h"]):
        answer(client_director_a, ruling, call, player=f"S{number}")
    url = reverse("scores:poll", args=[ruling.uuid])
    assert "Suggestie: ja" in client_director_a.get(url).content.decode()  # 1 of 4: 25 %
    settings_url = reverse("club_poll_settings", args=[club_a.slug])
    data = {"poll_consider_percent": 30, "poll_choose_minimum": 1, "poll_minimum_answers": 4}
    assert client_admin_a.post(settings_url, data).status_code == 302
    assert "Suggestie: nee" in client_director_a.get(url).content.decode()
    refused = client_admin_a.post(settings_url, data | {"poll_consider_percent": 0})
    assert refused.status_code == 400
    assert client_director_a.post(settings_url, data).status_code == 403
    club_a.refresh_from_db()
    assert club_a.poll_consider_percent == 30


@pytest.mark.parametrize(
    ("typed", "expected"),
    [
        ("1h p? 2h", ("1H P 2H", "")),  # the pauser's partner has not called yet
        ("1h p? 2h p", ("1H P 2H", "P")),
        ('1h! "sterk" p 2h? p 4h p p p', ("1H P 2H P", "4H")),  # notes left out
        ("1h p? 2h p 4h? p p x", ("1H P 2H P 4H P", "P")),  # the last pause counts
        ("1h p 2h p", ("1H P 2H P", "")),
        ("1h p p p", ("", "")),  # ended, no pause: nothing to poll about
    ],
)
def test_the_decision_point_follows_the_last_tempo_remark(typed, expected):
    assert decision_point(parse_auction(typed, "N")) == expected


def test_the_form_starts_from_the_rulings_auction(client_director_a, ruling):
    Ruling.objects.filter(pk=ruling.pk).update(auction="E: 1H? P 2H P 4H P P P")
    page = client_director_a.get(reverse("scores:poll", args=[ruling.uuid])).content.decode()
    assert 'name="auction" value="1H P"' in page
    assert 'name="table_call" value="2H"' in page
    assert '<option value="E" selected>' in page


def test_an_answer_is_withdrawn_once_and_no_longer_counts(
    client_director_a, client_director_b, ruling, poll
):
    answer(client_director_a, ruling, "4h", player="Fout")
    answer(client_director_a, ruling, "p", player="Goed")
    wrong = PollAnswer.objects.get(player="Fout")
    url = reverse("scores:poll_withdraw", args=[ruling.uuid, wrong.pk])
    assert client_director_b.post(url).status_code == 404
    assert client_director_a.post(url).status_code == 302
    assert client_director_a.post(url).status_code == 302  # again: nothing more happens
    assert actions_of(ruling).count("poll_answer_withdrawn") == 1
    wrong.refresh_from_db()
    assert wrong.withdrawn
    page = client_director_a.get(reverse("scores:poll", args=[ruling.uuid])).content.decode()
    assert 'data-poll-call="4H"' not in page  # the tally counts Goed's pass only
    assert 'data-poll-call="P"' in page
    assert "<del>Fout</del>" in page
    # A new answer after a withdrawal is still taken (the stale check counts every row).
    assert answer(client_director_a, ruling, "3h", player="Nieuw").status_code == 302
    assert PollAnswer.objects.filter(withdrawn=False).count() == 2


def test_with_answers_the_hand_and_auction_stay_what_was_asked(client_director_a, ruling, poll):
    answer(client_director_a, ruling, "4h")
    ruling.refresh_from_db()
    locked = prepare(client_director_a, ruling, hand=HAND, auction="1h p 3h p")
    assert locked.status_code == 409
    assert "liggen vast" in locked.content.decode()
    ruling.refresh_from_db()
    # The question and the call at the table may still change.
    assert prepare(client_director_a, ruling, hand=HAND, question="Wat nu?").status_code == 302
    poll.refresh_from_db()
    assert (poll.auction, poll.question) == ("1H P 2H P", "Wat nu?")
    # Once the answer is withdrawn, the poll may be prepared afresh.
    row = PollAnswer.objects.get()
    client_director_a.post(reverse("scores:poll_withdraw", args=[ruling.uuid, row.pk]))
    ruling.refresh_from_db()
    assert prepare(client_director_a, ruling, hand=HAND, auction="1h p 3h p").status_code == 302
