"""Stored deals: typed hands, a ruling's board (any case, sections), the double-dummy analysis
computed once per deal, and what the hand diagram shows. Importing: test_importing.py."""

from pathlib import Path

import pytest
from django.utils import translation

from lib.bridge import Seat, Vulnerability
from scores import deals as store
from scores.deal import DealError
from scores.double_dummy import DENOMINATIONS, DoubleDummy, ParContract
from scores.importing import import_file
from scores.models import Event, StoredDeal
from scores.pbn import parse_pbn, read_pbn
from tests.support.rulings import make_ruling

FIXTURE = Path(__file__).resolve().parent.parent / "data" / "deals.pbn"
HANDS = {
    Seat.NORTH: "AKQJ.AKQJ.AKQJ.A",
    Seat.EAST: "765.765.765.9876",
    Seat.SOUTH: "T98.T98.T98.KQJT",
    Seat.WEST: "432.432.432.5432",
}


@pytest.fixture
def counted_analysis(monkeypatch):
    """Replace the solver by a counter: each call gives a different (recognisable) table."""
    calls: list[str] = []

    def fake(deal):
        calls.append(deal.pbn)
        row = (len(calls), 0, 0, 0, 13)
        return DoubleDummy(
            tricks=(row, row, row, row),
            par_score=400,
            par_contracts=(ParContract(3, DENOMINATIONS[4], Seat.NORTH, "", 0),),
        )

    monkeypatch.setattr(store.double_dummy, "analyse", fake)
    return calls


def test_typed_deal_defaults_to_the_board_cycle_and_names_a_bad_card(club_a, director_a):
    deal = store.typed_deal(6, HANDS, event="Avond")
    assert deal.dealer is Seat.EAST
    assert deal.vulnerability is Vulnerability.EW
    row = store.store_typed(club_a, deal, director_a)
    assert row.typed
    assert row.to_deal() == deal
    assert Event.objects.get(club=club_a).name == "Avond"  # typing makes the event

    doubled = {**HANDS, Seat.WEST: "432.432.432.543A"}
    with pytest.raises(DealError, match="♣A zit twee keer"):
        store.typed_deal(6, doubled)
    missing = {**HANDS, Seat.WEST: "432.432.432.543"}
    with pytest.raises(DealError, match="ontbreekt: ♣2"):
        store.typed_deal(6, missing)


def test_typing_again_replaces_the_board_the_ruling_found(club_a, director_a):
    first = store.store_typed(club_a, store.typed_deal(6, HANDS, event="Avond"), director_a)
    swapped = {Seat.NORTH: HANDS[Seat.SOUTH], Seat.SOUTH: HANDS[Seat.NORTH]}
    ruling = make_ruling(club_a, director_a, event="AVOND", board=6)
    again = store.store_typed(
        club_a,
        store.typed_deal(6, {**HANDS, **swapped}, event=ruling.event),
        director_a,
        store.deal_for(ruling),
    )
    assert again.pk == first.pk
    assert StoredDeal.objects.count() == 1
    assert again.event == "Avond"  # the event keeps its name
    assert again.to_deal().north.pbn == HANDS[Seat.SOUTH]


def test_a_ruling_finds_its_board_in_its_own_club_only(club_a, club_b, director_a, director_b):
    pbn = read_pbn(FIXTURE)
    import_file(club_a, "Clubavond dinsdag", pbn, "deals.pbn")
    import_file(club_b, "Clubavond dinsdag", pbn, "deals.pbn")
    ruling = make_ruling(club_a, director_a, event="clubavond  Dinsdag", board=2)
    found = store.deal_for(ruling)
    assert found is not None
    assert (found.club, found.board) == (club_a, 2)

    other_board = make_ruling(club_a, director_a, event="Clubavond dinsdag", board=9)
    assert store.deal_for(other_board) is None
    other_event = make_ruling(club_a, director_a, event="Woensdag", board=2)
    assert store.deal_for(other_event) is None
    in_b = make_ruling(club_b, director_b, event="Clubavond dinsdag", board=2)
    found_b = store.deal_for(in_b)
    assert found_b is not None
    assert found_b.club == club_b


def test_double_dummy_is_computed_once_per_deal(club_a, director_a, counted_analysis):
    row = store.store_typed(club_a, store.typed_deal(1, HANDS), director_a)
    first = store.analysis_of(StoredDeal.objects.get(pk=row.pk))
    again = store.analysis_of(StoredDeal.objects.get(pk=row.pk))
    assert len(counted_analysis) == 1
    assert first == again
    assert again is not None
    assert again.tricks_for(Seat.NORTH, DENOMINATIONS[0]) == 1

    # New cards for the board: the cached table is stale and is computed again.
    swapped = {**HANDS, Seat.NORTH: HANDS[Seat.SOUTH], Seat.SOUTH: HANDS[Seat.NORTH]}
    store.store_typed(club_a, store.typed_deal(1, swapped), director_a, row)
    changed = store.analysis_of(StoredDeal.objects.get(pk=row.pk))
    assert len(counted_analysis) == 2
    assert changed is not None
    assert changed.tricks_for(Seat.NORTH, DENOMINATIONS[0]) == 2
    store.analysis_of(StoredDeal.objects.get(pk=row.pk))
    assert len(counted_analysis) == 2


def test_the_diagram_view_shows_seats_suits_and_table(club_a, director_a, counted_analysis):
    store.store_typed(club_a, store.typed_deal(3, HANDS, event="Avond"), director_a)
    ruling = make_ruling(club_a, director_a, event="Avond", board=3)
    with translation.override("nl"):
        view = store.shown_deal_for(ruling)
    assert view is not None
    assert view.dealer == "Zuid"
    assert view.vulnerability == "OW kwetsbaar"
    north = view.hands["north"]
    assert [s.cards for s in north.suits] == ["A H V B"] * 3 + ["A"]
    assert [s.red for s in north.suits] == [False, True, True, False]
    assert view.hands["south"].suits[0].cards == "10 9 8"
    assert view.hands["south"].dealer
    assert view.hands["east"].vulnerable
    assert not view.hands["north"].vulnerable
    assert view.table is not None
    assert [row.seat for row in view.table] == [Seat.NORTH, Seat.EAST, Seat.SOUTH, Seat.WEST]
    assert view.par_contracts == ["3SA= Noord"]
    with translation.override("nl"):
        assert view.compass == ["N", "W", "O", "Z"]
    with translation.override("en"):
        english = store.shown_deal_for(ruling)
        assert english is not None
        assert english.hands["north"].suits[0].cards == "A K Q J"
        assert english.par_contracts == ["3NT= North"]
        assert english.compass == ["N", "W", "E", "S"]


def test_real_solver_result_is_cached_on_the_row(club_a, director_a):
    """One real endplay run: the deal where North-South hold every top card."""
    row = store.store_typed(club_a, store.typed_deal(1, HANDS), director_a)
    result = store.analysis_of(row)
    assert result is not None
    assert result.tricks_for(Seat.NORTH, DENOMINATIONS[4]) == 13
    stored = StoredDeal.objects.get(pk=row.pk)
    assert stored.analysis_digest == stored.digest
    assert DoubleDummy.from_dict(stored.analysis) == result


RESULTS_FIXTURE = FIXTURE.parent / "deals-with-results.pbn"


def test_typing_the_hands_keeps_the_imported_results(club_a, director_a):
    import_file(club_a, "Zomerdrive", read_pbn(RESULTS_FIXTURE), "zomer.pbn")
    ruling = make_ruling(club_a, director_a, event="zomerdrive", board=1)
    typed = store.typed_deal(1, HANDS, event=ruling.event)
    row = store.store_typed(club_a, typed, director_a, store.deal_for(ruling))
    row.refresh_from_db()
    assert row.cards == typed.pbn
    assert [result.score for result in store.results_of(row)] == [-120, 110, 50]


BOARD = "N:AK32.QJ5.T98.765 QJ4.K987.AK3.K32 T98.T432.Q54.AJ4 765.A6.J762.QT98"
OTHER = "N:QJ4.K987.AK3.K32 AK32.QJ5.T98.765 T98.T432.Q54.AJ4 765.A6.J762.QT98"


def test_a_section_with_other_cards_is_found_by_the_event_and_its_name(club_a, director_a):
    text = (
        f'[Event "Dinsdag"]\n[Section "A"]\n[Board "1"]\n[Deal "{BOARD}"]\n\n'
        f'[Event "Dinsdag"]\n[Section "B"]\n[Board "1"]\n[Deal "{OTHER}"]\n'
    )
    import_file(club_a, "Dinsdag", parse_pbn(text), "lijnen.pbn")
    in_b = store.deal_for(make_ruling(club_a, director_a, event="dinsdag  b", board=1))
    assert in_b is not None
    assert (in_b.section, in_b.cards) == ("B", OTHER)
    in_a = store.deal_for(make_ruling(club_a, director_a, event="Dinsdag A", board=1))
    assert in_a is not None
    assert in_a.section == "A"
    unnamed = store.deal_for(make_ruling(club_a, director_a, event="Dinsdag", board=1))
    assert unnamed is not None
    assert unnamed.section == "A"  # the first section, when the ruling names none
