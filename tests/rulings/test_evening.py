"""The evening remembered (issue 30, item 5): the date, event and round the director saved last
are offered on the next ruling's board form; the club's imported events are offered as choices;
the form says when no stored deal matches the event and board typed."""

from __future__ import annotations

from datetime import date

import pytest
from django.test import RequestFactory
from django.urls import reverse

from rulings import session_memory
from scores import deals
from scores.models import Event
from tests.rulings.test_views import at_outcome, ruling_url
from tests.support.rulings import begin_proef

HANDS = {
    "N": "AKQJ.AKQJ.AKQJ.A",
    "E": "765.765.765.9876",
    "S": "T98.T98.T98.KQJT",
    "W": "432.432.432.5432",
}


def test_remember_keeps_only_what_was_given():
    request = RequestFactory().get("/")
    request.session = {}
    session_memory.remember(request, {"played_on": date(2026, 3, 3), "event": "Dinsdag"})
    session_memory.remember(request, {"event": "", "round": 4, "table": 9})
    assert session_memory.recalled(request) == {
        "played_on": date(2026, 3, 3),
        "event": "Dinsdag",
        "round": 4,
    }


@pytest.fixture
def two_rulings(proef_tree, club_a, director_a):
    first, second = begin_proef(club_a, director_a), begin_proef(club_a, director_a)
    at_outcome(first, director_a)
    at_outcome(second, director_a)
    return first, second


def test_the_next_ruling_starts_from_the_evening(two_rulings, client_director_a):
    first, second = two_rulings
    client_director_a.post(
        reverse("wizard:context", args=[first.uuid]),
        {"played_on": "2026-03-03", "event": "Dinsdagavond B", "round": "4", "table": "7"},
    )
    page = client_director_a.get(ruling_url(second)).content.decode()
    assert 'value="Dinsdagavond B"' in page
    assert 'value="2026-03-03"' in page
    assert 'name="round" value="4"' in page
    assert 'name="table" value="7"' not in page  # the table is the ruling's own


def test_imported_events_are_offered_and_a_missing_deal_is_said(
    two_rulings, club_a, director_a, client_director_a
):
    first, _second = two_rulings
    deals.store_typed(club_a, deals.typed_deal(3, HANDS, event="Dinsdagavond"), director_a)
    assert Event.objects.filter(club=club_a, name="Dinsdagavond").exists()
    client_director_a.post(
        reverse("wizard:context", args=[first.uuid]), {"event": "Dinsdag avond", "board": "3"}
    )
    page = client_director_a.get(ruling_url(first)).content.decode()
    assert 'list="club-events"' in page
    assert '<option value="Dinsdagavond">' in page
    assert '<datalist id="event-boards"></datalist>' in page  # no deals for "Dinsdag avond"
    assert "data-no-deal" in page
    client_director_a.post(
        reverse("wizard:context", args=[first.uuid]), {"event": "Dinsdagavond", "board": "3"}
    )
    page = client_director_a.get(ruling_url(first)).content.decode()
    assert "data-no-deal" not in page
    assert '<datalist id="event-boards"><option value="3"></datalist>' in page
