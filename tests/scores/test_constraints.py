"""The database refuses an adjusted score, a deal or an event outside what the models promise
(lib/constraints.py), however the row is written: here by ``QuerySet.update``."""

from __future__ import annotations

import pytest
from django.db import IntegrityError, transaction

from scores.models import AdjustedScore, Event, StoredDeal
from tests.support.rulings import make_ruling
from tests.support.scores import record_weighted

pytestmark = pytest.mark.django_db

BOARD = "N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765"
ARTIFICIAL = {
    "kind": "artificial",
    "non_offending_artificial": "plus",
    "offending_artificial": "minus",
    "non_offending_percent": 60,
    "offending_percent": 40,
}


def refused(queryset, **values) -> None:
    with pytest.raises(IntegrityError), transaction.atomic():
        queryset.update(**values)


@pytest.fixture
def score(club_a, director_a) -> AdjustedScore:
    return record_weighted(make_ruling(club_a, director_a, ("ja", "nee")), director_a)


def test_an_adjusted_score_holds_the_fields_of_its_kind(score):
    scores = AdjustedScore.objects.filter(pk=score.pk)
    refused(scores, kind="assigned2")
    refused(scores, scoring="pct")
    refused(scores, offending_side="N")
    # Weighted or assigned: no artificial choices or percentages.
    refused(scores, non_offending_artificial="plus")
    refused(scores, offending_percent=40)
    # Artificial: a choice and a percentage (at most 100) for each side.
    refused(scores, kind="artificial")
    refused(scores, **{**ARTIFICIAL, "offending_percent": None})
    refused(scores, **{**ARTIFICIAL, "non_offending_percent": 101})
    refused(scores, **{**ARTIFICIAL, "offending_artificial": ""})
    refused(scores, **{**ARTIFICIAL, "offending_artificial": "half"})
    assert scores.update(**ARTIFICIAL) == 1
    assert (
        scores.update(
            kind="assigned",
            non_offending_artificial="",
            offending_artificial="",
            non_offending_percent=None,
            offending_percent=None,
        )
        == 1
    )


def test_a_deal_has_a_board_a_dealer_and_a_vulnerability_that_exist(club_a):
    deal = StoredDeal.objects.create(
        club=club_a, event="Dinsdag", board=1, dealer="N", vulnerability="None", cards=BOARD
    )
    deals = StoredDeal.objects.filter(pk=deal.pk)
    refused(deals, board=0)
    refused(deals, board=129)
    refused(deals, dealer="")
    refused(deals, dealer="Z")
    refused(deals, vulnerability="Both")
    assert deals.update(board=128, dealer="W", vulnerability="All") == 1


def test_an_event_is_scored_one_of_the_known_ways(club_a):
    event = Event.objects.create(club=club_a, name="Dinsdag")
    refused(Event.objects.filter(pk=event.pk), scoring="pct")
    assert Event.objects.filter(pk=event.pk).update(scoring="butl") == 1
