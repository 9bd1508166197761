"""The result of the board: tricks made and after the rectification, their scores
(scores/board_result.py), recorded on the record page (scores/result_views.py) with an audit
event, and the adjusted-score form starting from it."""

from __future__ import annotations

import pytest
from django.urls import reverse

from lib.bridge import Seat, Vulnerability
from rulings import audit
from rulings.models import Ruling
from scores import board_result
from scores.models import BoardResult
from tests.support.rulings import actions_of, make_ruling

FOUR_SPADES = board_result.Contract(4, "S", "", Seat.SOUTH)


@pytest.mark.parametrize(
    ("tricks", "written", "score"),
    [(9, "4S-1", -50), (10, "4S=", 420), (11, "4S+1", 450), (0, "4S-10", -500)],
)
def test_a_line_writes_the_result_and_scores_it_for_north_south(tricks, written, score):
    line = board_result.line(FOUR_SPADES, tricks, Vulnerability.NONE)
    assert (line.notation, line.ns_score) == (written, score)


def test_east_west_declaring_doubled_and_vulnerable_scores_from_north_south():
    contract = board_result.Contract(3, "NT", "X", Seat.EAST)
    assert board_result.line(contract, 7, Vulnerability.EW).ns_score == 500
    assert board_result.line(contract, 9, Vulnerability.EW).ns_score == -750


def test_without_vulnerability_there_is_no_score_and_tricks_stay_on_the_board():
    assert board_result.line(FOUR_SPADES, 10, None).ns_score is None
    with pytest.raises(ValueError, match="0 to 13"):
        board_result.notation(FOUR_SPADES, 14)
    assert board_result.contract_of(None, "S", "", "S") is None
    assert board_result.contract_of(4, "S", "", "") is None


@pytest.fixture
def ruling(club_a, director_a) -> Ruling:
    made = make_ruling(club_a, director_a, ("ja", "nee"), board=1)  # board 1: none vulnerable
    Ruling.objects.filter(pk=made.pk).update(
        contract_level=4, contract_strain="S", declarer_seat="S"
    )
    made.refresh_from_db()
    return made


def post(client, ruling: Ruling, **data):
    ruling.refresh_from_db()
    return client.post(
        reverse("scores:result", args=[ruling.uuid]),
        {"sequence": ruling.audit_sequence, **data},
    )


def test_the_director_records_the_result_and_the_record_shows_both_scores(
    ruling, client_director_a
):
    response = post(client_director_a, ruling, tricks_made=9, rectified_tricks=10)
    assert response.status_code == 302
    assert response["Location"].endswith(f"/arbitrages/{ruling.uuid}/#uitslag")
    stored = BoardResult.objects.get(ruling=ruling)
    assert (stored.tricks_made, stored.rectified_tricks, stored.after_rectification) == (9, 10, 10)
    assert actions_of(ruling)[-1] == audit.Action.RESULT_RECORDED
    page = client_director_a.get(reverse("archive:detail", args=[ruling.uuid])).content.decode()
    assert 'data-result-line="made"' in page
    assert 'data-ns-score="-50"' in page
    assert 'data-ns-score="420"' in page
    assert "Uitslag vastgelegd: 4S-1; na rechtzetting 4S=" in page


def test_the_same_result_again_writes_nothing_and_a_change_is_recorded(ruling, client_director_a):
    post(client_director_a, ruling, tricks_made=9)
    events = len(actions_of(ruling))
    assert post(client_director_a, ruling, tricks_made=9).status_code == 302
    assert len(actions_of(ruling)) == events
    post(client_director_a, ruling, tricks_made=8, rectified_tricks=9)
    assert len(actions_of(ruling)) == events + 1
    assert BoardResult.objects.get(ruling=ruling).tricks_made == 8


def test_bad_and_stale_forms_are_shown_again_and_write_nothing(ruling, client_director_a):
    response = post(client_director_a, ruling, tricks_made=14)
    assert response.status_code == 400
    assert "data-field-error" in response.content.decode()
    stale = client_director_a.post(
        reverse("scores:result", args=[ruling.uuid]),
        {"sequence": ruling.audit_sequence - 1, "tricks_made": 9},
    )
    assert stale.status_code == 409
    assert "intussen gewijzigd" in stale.content.decode()
    assert not BoardResult.objects.filter(ruling=ruling).exists()


def test_without_a_contract_there_is_nothing_to_record(club_a, director_a, client_director_a):
    plain = make_ruling(club_a, director_a, ("ja", "nee"))
    assert post(client_director_a, plain, tricks_made=9).status_code == 302
    assert not BoardResult.objects.exists()
    page = client_director_a.get(reverse("archive:detail", args=[plain.uuid])).content.decode()
    assert "Vul contract en leider in" in page


def test_other_clubs_and_trainers_cannot_record_it(ruling, client_director_b, client_trainer_a):
    assert post(client_director_b, ruling, tricks_made=9).status_code == 404
    assert post(client_trainer_a, ruling, tricks_made=9).status_code == 403
    assert not BoardResult.objects.exists()


def test_the_adjusted_score_form_starts_from_the_result_after_rectification(
    club_a, director_a, client_director_a
):
    # The penalty outcome of the test tree allows an adjusted score (tests/support/rulings.py).
    ruling = make_ruling(club_a, director_a, ("ja", "nee"), board=1)
    outcome = {**ruling.outcome, "adjusted_score": True}
    Ruling.objects.filter(pk=ruling.pk).update(
        outcome=outcome, contract_level=4, contract_strain="S", declarer_seat="S"
    )
    post(client_director_a, ruling, tricks_made=9, rectified_tricks=10)
    form = client_director_a.get(reverse("scores:record", args=[ruling.uuid])).content.decode()
    assert 'name="non_contract_1" value="4S="' in form
    assert 'name="non_weight_1" value="100"' in form
