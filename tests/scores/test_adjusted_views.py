"""/arbitrages/<uuid>/score/: recording and amending an adjusted score, its audit event, the
panel on the ruling pages, stale forms, and who may do what."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulings import audit
from rulings.models import AuditEvent
from scores.importing import import_file
from scores.models import AdjustedScore, Event
from scores.pbn import parse_pbn
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
    assert "<strong>4♠-1</strong> door N" in page  # the panel in the reader's notation


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


BOARD_7 = "N:AK32.QJ5.T98.765 QJ4.K987.AK3.K32 T98.T432.Q54.AJ4 765.A6.J762.QT98"


def import_board_7(club, scoring: str, *rows: str, columns: str = r"Table\2R;Score_NS\6R") -> None:
    """Board 7 of the ruling's event (all vulnerable), with a score table of ``rows``."""
    text = "\n".join(
        [
            '[Event "Dinsdagavond"]',
            f'[Scoring "{scoring}"]',
            '[Board "7"]',
            f'[Deal "{BOARD_7}"]',
            f'[ScoreTable "{columns}"]',
            *rows,
        ]
    )
    import_file(club, "Dinsdagavond", parse_pbn(text + "\n"), "dinsdag.pbn")


@pytest.fixture
def board_results(club_a, quick_analysis):
    """Board 7 imported with five results; table 3 (the ruling's) had 650."""
    import_board_7(club_a, "MP", "1 620", "2 650", "3 650", "4 -100", "5 170")


def test_the_field_leaves_out_the_rulings_own_table(client_director_a, straf, board_results):
    page = client_director_a.get(url(straf)).content.decode()
    assert 'name="field" value="620 650 -100 170"' in page
    assert (
        "4 uitslagen ingevuld als andere uitslagen (telling van de wedstrijd: matchpunten)" in page
    )
    assert "De uitslag van deze tafel is weggelaten (doorgestreept)." in page
    own = page.split('data-result="2"')[1].split("</tr>")[0]
    assert 'data-own class="text-decoration-line-through' in own  # struck through
    assert ">650</td>" in own
    assert "deze tafel, weggelaten" in own
    assert "data-own" not in page.split('data-result="1"')[1].split("</tr>")[0]

    response = client_director_a.post(url(straf), weighted(straf, field="620 650 -100 170"))
    assert response.status_code == 302
    assert AdjustedScore.objects.get(ruling=straf).field == [620, 650, -100, 170]


def test_without_a_table_number_the_director_marks_his_table(
    client_director_a, club_a, director_a, board_results
):
    ruling = make_ruling(club_a, director_a, ("ja", "nee"), board=7, table=None)
    page = client_director_a.get(url(ruling)).content.decode()
    assert 'name="field" value="620 650 650 -100 170"' in page
    assert "wijst de tafel van deze arbitrage niet aan" in page
    marked = client_director_a.get(url(ruling) + "?eigen=3").content.decode()
    assert 'name="field" value="620 650 650 170"' in marked
    assert "data-own" in marked.split('data-result="3"')[1].split(">")[0]
    assert f'action="{url(ruling)}?eigen=3"' in marked
    # A row number the board does not have, or no number at all, marks nothing.
    for bad in ("99", "x", "-1", "9" * 30):
        page = client_director_a.get(url(ruling) + f"?eigen={bad}").content.decode()
        assert 'name="field" value="620 650 650 -100 170"' in page


def test_the_scoring_of_the_event_is_the_forms_and_imps_compare_with_the_own_match(
    client_director_a, club_a, straf, quick_analysis
):
    import_board_7(
        club_a,
        "IMP",
        "A 3 Open 620",
        "A 3 Closed 650",
        "B 4 Open -100",
        "B 4 Closed 170",
        columns=r"Section;Table;Room;Score_NS",
    )
    page = client_director_a.get(url(straf) + "?eigen=0").content.decode()
    assert 'value="imps" required id="id_scoring_1" checked' in page
    assert 'name="field" value="650"' in page  # the other table of the ruling's match only
    assert "IMP&#x27;s tegen de andere tafel" in page


def test_butler_compares_with_the_datum(client_director_a, club_a, straf, board_results):
    Event.objects.filter(club=club_a).update(scoring="butl")
    data = weighted(straf, scoring="butl", field="620 650 -100 170 170", preview="1")
    page = client_director_a.post(url(straf), data).content.decode()
    # Datum of 620 650 -100 170 170 without the top and the bottom: 320 (from NS's view).
    assert "datum 320" in page
    assert "datum -320" in page


def test_typed_results_are_not_replaced_by_the_file(
    client_reviewer_a, client_director_a, straf, board_results
):
    client_director_a.post(url(straf), weighted(straf, field="420 450"))
    page = client_reviewer_a.get(url(straf)).content.decode()
    assert 'name="field" value="420 450"' in page


def test_without_a_deal_the_field_stays_empty(client_director_a, straf):
    page = client_director_a.get(url(straf)).content.decode()
    assert 'name="field" value=' not in page
    assert "Uitslagen uit het PBN-bestand" not in page


def test_the_form_with_fifty_results_needs_a_fixed_number_of_queries(
    client_director_a, club_a, straf, quick_analysis, django_assert_max_num_queries
):
    import_board_7(club_a, "MP", *(f"{table} {10 * table}" for table in range(1, 52)))
    client_director_a.get(url(straf))  # the analysis is cached on the first view
    with django_assert_max_num_queries(12):
        page = client_director_a.get(url(straf)).content.decode()
    assert page.count("data-result=") == 51
    assert "data-own" in page.split('data-result="2"')[1].split(">")[0]  # table 3
