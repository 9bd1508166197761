"""/arbitrages/<uuid>/score/: recording and amending an adjusted score, its audit event, the
panel on the ruling pages, stale forms, and who may do what."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from rulings import audit
from rulings.models import AuditEvent
from scores import deals
from scores.double_dummy import DoubleDummy
from scores.models import AdjustedScore
from scores.pbn import read_pbn
from tests.support.rulings import make_ruling


@pytest.fixture
def straf(club_a, director_a):
    """A final ruling at ``straf`` (its outcome allows an adjusted score), board 7: all vul."""
    return make_ruling(club_a, director_a, ("ja", "nee"), board=7)


DATA = Path(__file__).resolve().parent.parent / "data"


def url(ruling) -> str:
    return f"/arbitrages/{ruling.uuid}/score/"


def weighted(ruling, **extra) -> dict[str, str]:
    ruling.refresh_from_db()
    return {
        "kind": "weighted",
        "scoring": "mp",
        "offending_side": "EW",
        "non_contract_1": "4S=",
        "non_declarer_1": "N",
        "non_weight_1": "60",
        "non_contract_2": "4S-1",
        "non_declarer_2": "N",
        "non_weight_2": "40",
        "field": "620 650 -100 170",
        "sequence": str(ruling.audit_sequence),
        **extra,
    }


def test_a_director_records_a_weighted_score_with_its_audit_event(client_director_a, straf):
    page = client_director_a.get(f"/arbitrages/{straf.uuid}/").content.decode()
    assert "Arbitrale score vastleggen" in page
    before = straf.audit_sequence

    response = client_director_a.post(url(straf), weighted(straf))

    assert response.status_code == 302
    assert response["Location"].endswith(f"/arbitrages/{straf.uuid}/#arbitrale-score")
    score = AdjustedScore.objects.get(ruling=straf)
    assert score.non_offending_rows == [
        {"contract": "4S=", "declarer": "N", "weight": 60},
        {"contract": "4S-1", "declarer": "N", "weight": 40},
    ]
    assert score.offending_rows == []
    assert score.field == [620, 650, -100, 170]
    assert score.recorded_by.username == "anna"
    event = AuditEvent.objects.get(ruling=straf, sequence=before + 1)
    assert event.action == "score_adjusted"
    assert event.data["non_offending"]["rows"][0]["contract"] == "4S="
    assert event.data["amended"] is False
    straf.refresh_from_db()
    assert audit.verify(straf) == []

    page = client_director_a.get(f"/arbitrages/{straf.uuid}/").content.decode()
    assert "Arbitrale score vastgelegd (gewogen): NZ 60 % 4S= (N), 40 % 4S-1 (N)" in page
    assert "3,40 / 8 (42,50 %)" in page  # NS, the non-offending side: 0.6 × 5 + 0.4 × 1
    assert "4,60 / 8 (57,50 %)" in page  # EW: 0.6 × 3 + 0.4 × 7
    assert "Arbitrale score wijzigen" not in page  # a director does not amend


def test_the_wizard_link_of_a_final_ruling_leads_to_the_score(client_director_a, straf):
    client_director_a.post(url(straf), weighted(straf))
    response = client_director_a.get(f"/arbitrage/{straf.uuid}/", follow=True)
    assert response.redirect_chain[-1][0] == f"/arbitrages/{straf.uuid}/"
    page = response.content.decode()
    assert 'id="arbitrale-score"' in page
    assert "4S-1" in page


def test_errors_show_in_place_and_keep_the_input(client_director_a, straf):
    response = client_director_a.post(url(straf), weighted(straf, non_weight_2="30"))
    assert response.status_code == 400
    page = response.content.decode()
    assert "tellen op tot 90 %" in page
    assert 'value="4S-1"' in page
    assert not AdjustedScore.objects.exists()


def test_preview_shows_the_effect_without_saving(client_director_a, straf):
    response = client_director_a.post(url(straf), weighted(straf, preview="1"))
    assert response.status_code == 200
    assert "Voorbeeld (nog niet opgeslagen)" in response.content.decode()
    assert not AdjustedScore.objects.exists()


def test_a_repeated_submission_is_refused_and_changes_nothing(client_director_a, straf):
    data = weighted(straf)
    client_director_a.post(url(straf), data)
    sequence = AuditEvent.objects.filter(ruling=straf).count()

    again = client_director_a.post(url(straf), data)

    assert again.status_code in (403, 409)
    assert AuditEvent.objects.filter(ruling=straf).count() == sequence


def test_a_reviewer_amends_and_a_stale_form_is_refused(
    client_director_a, client_reviewer_a, client_admin_a, straf
):
    client_director_a.post(url(straf), weighted(straf))
    form = client_reviewer_a.get(url(straf)).content.decode()
    assert 'value="4S-1"' in form  # the stored rows, to amend
    assert client_director_a.get(url(straf)).status_code == 403
    stale = weighted(straf)
    amended = weighted(straf, non_weight_1="70", non_weight_2="30")

    assert client_reviewer_a.post(url(straf), amended).status_code == 302
    conflict = client_admin_a.post(
        url(straf), {**stale, "non_weight_1": "50", "non_weight_2": "50"}
    )

    assert conflict.status_code == 409
    assert "intussen gewijzigd" in conflict.content.decode()
    score = AdjustedScore.objects.get(ruling=straf)
    assert [row["weight"] for row in score.non_offending_rows] == [70, 30]
    last = AuditEvent.objects.filter(ruling=straf).order_by("-sequence").first()
    assert (last.action, last.data["amended"]) == ("score_adjusted", True)


def test_artificial_scores_keep_the_club_percentages(client_director_a, straf, club_a):
    club_a.average_plus_percent = 65
    club_a.save()
    data = {
        "kind": "artificial",
        "scoring": "mp",
        "offending_side": "NS",
        "non_artificial": "plus",
        "off_artificial": "minus",
        "sequence": str(straf.audit_sequence),
    }
    assert client_director_a.post(url(straf), data).status_code == 302
    score = AdjustedScore.objects.get(ruling=straf)
    assert (score.non_offending_percent, score.offending_percent) == (65, 40)


def test_no_score_form_where_the_outcome_allows_none(client_director_a, club_a, director_a):
    replaced = make_ruling(club_a, director_a, ("ja", "ja"))  # vrij-vervangen
    assert client_director_a.get(url(replaced)).status_code == 404
    page = client_director_a.get(f"/arbitrages/{replaced.uuid}/").content.decode()
    assert "arbitrale-score" not in page
    unfinished = make_ruling(club_a, director_a, ("ja", "nee"), final=False)
    assert client_director_a.get(url(unfinished)).status_code == 404


def test_other_clubs_and_trainers(client_director_b, client_trainer_a, straf):
    assert client_director_b.get(url(straf)).status_code == 404
    assert client_director_b.post(url(straf), weighted(straf)).status_code == 404
    assert client_trainer_a.get(url(straf)).status_code == 403
    assert not AdjustedScore.objects.exists()


@pytest.fixture
def board_results(club_a, monkeypatch):
    """Board 7 of the ruling's event imported with four results at the other tables."""
    monkeypatch.setattr(
        deals.double_dummy,
        "analyse",
        lambda deal: DoubleDummy(tricks=((7,) * 5,) * 4, par_score=0, par_contracts=()),
    )
    (first, *_rest) = read_pbn(DATA / "deals-with-results.pbn")
    deal = replace(first, board=7, results=(620, 650, -100, 170))
    deals.import_deals(club_a, "Dinsdagavond", [deal], "dinsdag.pbn")


def test_the_field_is_prefilled_from_the_pbn_file(client_director_a, straf, board_results):
    page = client_director_a.get(url(straf)).content.decode()
    assert 'name="field" value="620 650 -100 170"' in page
    assert "4 uitslagen ingevuld uit het PBN-bestand." in page

    # The director removes the table's own result (650) and records the score.
    response = client_director_a.post(url(straf), weighted(straf, field="620 -100 170"))
    assert response.status_code == 302
    assert AdjustedScore.objects.get(ruling=straf).field == [620, -100, 170]


def test_typed_results_are_not_replaced_by_the_file(
    client_reviewer_a, client_director_a, straf, board_results
):
    client_director_a.post(url(straf), weighted(straf, field="420 450"))
    page = client_reviewer_a.get(url(straf)).content.decode()
    assert 'name="field" value="420 450"' in page
    assert "ingevuld uit het PBN-bestand" not in page


def test_without_a_deal_the_field_stays_empty(client_director_a, straf):
    page = client_director_a.get(url(straf)).content.decode()
    assert 'name="field" value=' not in page
    assert "ingevuld uit het PBN-bestand" not in page
