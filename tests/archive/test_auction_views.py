"""The auction on the ruling (issue 33.1, 33.4): typed on the outcome with the board details,
changed on the record (also after the final save) as an audit event, shown as a bidding
diagram on the outcome and the record; the explanation against the agreement on a
misinformation ruling."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from rulings import audit, transitions
from rulings.auction_edit import StaleAuction, plan_auction
from rulings.errors import WizardError
from rulings.models import Ruling, Status
from tests.support.rulings import actions_of, make_ruling

pytestmark = pytest.mark.django_db


@pytest.fixture
def ruling(club_a, director_a) -> Ruling:
    return make_ruling(club_a, director_a, ("ja", "nee"), board=2)  # board 2: East deals


def post(client, ruling: Ruling, text: str, **extra):
    ruling.refresh_from_db()
    data = {"auction": text, "sequence": ruling.audit_sequence, **extra}
    return client.post(reverse("archive:auction", args=[ruling.uuid]), data, **extra)


def record(client, ruling: Ruling) -> str:
    return client.get(reverse("archive:detail", args=[ruling.uuid])).content.decode()


def test_a_final_ruling_gets_its_auction_as_an_audit_event_and_the_record_shows_it(
    ruling, client_director_a
):
    assert ruling.status == Status.FINAL
    response = post(client_director_a, ruling, '1h p 2sa! "zwak" [sterk] x? ap')
    assert response.status_code == 302
    assert response["Location"].endswith(f"/arbitrages/{ruling.uuid}/#bieding")
    ruling.refresh_from_db()
    # Board 2: East deals; the stored text names the dealer and is canonical.
    assert ruling.auction == 'E: 1H P 2NT! "zwak" [sterk] X? P P P'
    assert actions_of(ruling)[-1] == audit.Action.AUCTION_EDITED
    assert audit.verify(ruling) == []
    page = record(client_director_a, ruling)
    assert 'id="bieding"' in page
    assert 'data-call="1♥"' in page
    assert 'data-call="2SA"' in page
    assert "Bieding gewijzigd: – → E: 1H P 2NT!" in page
    assert 'data-auction-note="1"' in page


def test_a_dealer_typed_in_front_overrides_the_board(ruling, client_director_a):
    post(client_director_a, ruling, "z: p 1k")
    ruling.refresh_from_db()
    assert ruling.auction == "S: P 1C"


def test_an_illegal_auction_is_refused_in_place_naming_the_call(ruling, client_director_a):
    response = post(client_director_a, ruling, "1h p x")
    assert response.status_code == 400
    page = response.content.decode()
    assert "Bieding 3 (West)" in page
    assert "van de partner" in page
    assert 'value="1h p x"' in page  # what was typed is kept
    ruling.refresh_from_db()
    assert ruling.auction == ""


def test_htmx_swaps_the_section_and_an_error_stays_in_place(ruling, client_director_a):
    headers = {"HTTP_HX_REQUEST": "true"}
    ok = post(client_director_a, ruling, "1h ap", **headers)
    assert ok.status_code == 200
    html = ok.content.decode()
    assert html.lstrip().startswith('<section id="bieding"')
    assert 'data-call="1♥"' in html
    bad = post(client_director_a, ruling, "1h 1c", **headers)
    assert bad.status_code == 400
    assert "1♣ is niet hoger dan het laatste bod, 1♥" in bad.content.decode()


def test_a_stale_form_changes_nothing_and_says_so(ruling, client_director_a):
    stale = ruling.audit_sequence
    post(client_director_a, ruling, "1h ap")
    response = client_director_a.post(
        reverse("archive:auction", args=[ruling.uuid]), {"auction": "1s ap", "sequence": stale}
    )
    assert response.status_code == 409
    ruling.refresh_from_db()
    assert ruling.auction == "E: 1H P P P"


def test_the_same_auction_again_writes_nothing_and_clearing_is_recorded(ruling, client_director_a):
    post(client_director_a, ruling, "1h ap")
    events = len(actions_of(ruling))
    post(client_director_a, ruling, "1H P P P")
    assert len(actions_of(ruling)) == events
    post(client_director_a, ruling, "")
    ruling.refresh_from_db()
    assert ruling.auction == ""
    assert len(actions_of(ruling)) == events + 1


def test_other_clubs_get_404_and_members_without_the_role_403(
    ruling, client_director_b, client_trainer_a
):
    assert post(client_director_b, ruling, "1h ap").status_code == 404
    assert post(client_trainer_a, ruling, "1h ap").status_code == 403
    ruling.refresh_from_db()
    assert ruling.auction == ""


def test_get_goes_back_to_the_record(ruling, client_director_a):
    response = client_director_a.get(reverse("archive:auction", args=[ruling.uuid]))
    assert response.status_code == 302


def test_a_discarded_ruling_keeps_its_auction_and_a_stale_plan_writes_nothing(club_a, director_a):
    ruling = make_ruling(club_a, director_a, ("ja",), final=False)
    Ruling.objects.filter(pk=ruling.pk).update(status=Status.DISCARDED)
    ruling.refresh_from_db()
    with pytest.raises(WizardError):
        transitions.run(ruling, director_a, None, plan_auction("N: 1H", None))
    ruling.status = Status.FINAL  # in memory only: the stale check comes next
    stale = plan_auction("N: 1H", ruling.audit_sequence - 1)
    with pytest.raises(StaleAuction):
        transitions.run(ruling, director_a, None, stale)


def test_the_outcome_form_takes_the_auction_with_the_board(club_a, director_a, client_director_a):
    ruling = make_ruling(club_a, director_a, ("ja", "nee"), final=False, board=3)
    url = reverse("wizard:context", args=[ruling.uuid])
    data = {"board": 4, "played_on": "2026-12-01", "auction": "p 1h! ap"}
    response = client_director_a.post(url, data)
    assert response.status_code in (200, 302)
    ruling.refresh_from_db()
    # The board in the same form gives the dealer: board 4, West.
    assert ruling.auction == "W: P 1H! P P P"
    assert actions_of(ruling)[-1] == audit.Action.CONTEXT_EDITED
    outcome = client_director_a.get(reverse("wizard:ruling", args=[ruling.uuid]), follow=True)
    assert "data-auction-diagram" in outcome.content.decode()
    # The context form shows its errors as it always did (the step page again).
    bad = client_director_a.post(url, {**data, "auction": "1h 1d"})
    assert "1♦ is niet hoger dan het laatste bod, 1♥" in bad.content.decode()
    ruling.refresh_from_db()
    assert ruling.auction == "W: P 1H! P P P"


def _misinformation_ruling(club, director, slug: str) -> Ruling:
    from rulings import wizard
    from trees import validate

    path = next(iter(validate.paths(wizard.start(slug).tree)))
    return make_ruling(club, director, path.answers, tree_slug=slug, board=1)


@pytest.mark.parametrize("slug", ["verkeerde-uitleg", "partner-bij-uitleg"])
def test_a_misinformation_record_lines_up_explanation_and_agreement(
    slug, shipped, club_a, director_a, client_director_a
):
    ruling = _misinformation_ruling(club_a, director_a, slug)
    typed = '1nt! "12-14" [15-17] p 2d! "transfer" [transfer] x "lead-directing"'
    assert post(client_director_a, ruling, typed).status_code == 302
    page = record(client_director_a, ruling)
    assert "data-auction-compare" in page
    assert 'data-verdict="differs"' in page
    assert "verkeerde uitleg (75B)" in page
    assert 'data-verdict="same"' in page
    assert "verkeerde bieding (75C)" in page
    assert 'data-verdict="no_agreement"' in page
    assert "1 verschil" in page


def test_another_ruling_lists_its_notes_without_comparing(ruling, client_director_a):
    post(client_director_a, ruling, '1nt! "12-14" [15-17]')
    page = record(client_director_a, ruling)
    assert "data-auction-compare" not in page
    assert "uitleg ‘12-14’; afspraak ‘15-17’" in page


def test_the_record_with_an_auction_costs_no_query_more(
    ruling, client_director_a, django_assert_num_queries
):
    """The diagram is read from the ruling's own row: the record asks the same queries with
    an auction as without (RECORD_QUERIES, the whole page, form and trail included)."""
    url = reverse("archive:detail", args=[ruling.uuid])
    with django_assert_num_queries(RECORD_QUERIES):
        client_director_a.get(url)
    post(client_director_a, ruling, '1nt! "12-14" [15-17] p 2d! x p p p')
    client_director_a.get(url)  # shows (and clears) the message "De bieding is vastgelegd."
    with django_assert_num_queries(RECORD_QUERIES):
        page = client_director_a.get(url).content.decode()
    assert "data-auction-diagram" in page


RECORD_QUERIES = 12


def test_saving_a_long_auction_asks_no_more_queries_than_a_short_one(ruling, client_director_a):
    long = '1c! "16+" [16+] 1d! "0-7" [0-7] ' + "1h 1s 2c 2d 2h 2s 3c 3d 3h 3s 4c 4d 4h 4s x xx ap"
    counts = []
    for text in ("1h ap", long):
        ruling.refresh_from_db()
        data = {"auction": text, "sequence": ruling.audit_sequence}
        with CaptureQueriesContext(connection) as captured:
            response = client_director_a.post(reverse("archive:auction", args=[ruling.uuid]), data)
        assert response.status_code == 302
        counts.append(len(captured))
    # The same for both; the number itself differs by one between SQLite and PostgreSQL.
    assert counts[0] == counts[1] <= SAVE_QUERIES, counts


SAVE_QUERIES = 10


def test_in_english_the_record_says_it_in_english(shipped, club_a, director_a, client_director_a):
    ruling = _misinformation_ruling(club_a, director_a, "verkeerde-uitleg")
    post(client_director_a, ruling, '1nt! "12-14" [15-17] p? 2c')
    session = client_director_a.session
    session["language"] = "en"
    session.save()
    page = record(client_director_a, ruling)
    assert 'data-call="1NT"' in page
    assert "Explanation against agreement (system card)" in page
    assert "differs: mistaken explanation (75B)" in page
    assert "A: alerted · T: tempo (hesitation)." in page
    assert "Change the auction" in page
    bad = post(client_director_a, ruling, "1h p x")
    assert "Call 3 (South): Double is not possible: the last bid is partner" in bad.content.decode()
