"""Stored deals: import (all or nothing, re-import replaces), typed hands, a ruling's board,
and the double-dummy analysis computed once per deal."""

from dataclasses import replace
from pathlib import Path

import pytest

from scores import deals as store
from scores.deal import DealError, Seat, Vulnerability
from scores.double_dummy import DENOMINATIONS, DoubleDummy, ParContract
from scores.models import StoredDeal
from scores.pbn import read_pbn
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


def test_import_stores_every_board_and_reimport_replaces(club_a, director_a):
    deals = read_pbn(FIXTURE)
    first = store.import_deals(club_a, " Clubavond  dinsdag ", deals, "deals.pbn", director_a)
    assert first.event == "Clubavond dinsdag"
    assert first.added == [d.board for d in deals]
    assert first.replaced == []
    row = StoredDeal.objects.get(club=club_a, event="Clubavond dinsdag", board=deals[0].board)
    assert row.cards == deals[0].pbn
    assert row.dealer == deals[0].dealer.value
    assert row.source == "deals.pbn"
    assert row.entered_by == director_a

    row.cards = "changed"
    row.save()
    second = store.import_deals(club_a, "Clubavond dinsdag", deals[:2], "nieuw.pbn")
    assert second.added == []
    assert second.replaced == [deals[0].board, deals[1].board]
    assert StoredDeal.objects.filter(club=club_a).count() == len(deals)
    row.refresh_from_db()
    assert row.cards == deals[0].pbn
    assert row.source == "nieuw.pbn"


def test_import_is_all_or_nothing(club_a):
    deals = read_pbn(FIXTURE)

    def fail_on_third(deal, replaced):
        if deal is deals[2]:
            raise RuntimeError("disk full")

    with pytest.raises(RuntimeError):
        store.import_deals(club_a, "Avond", deals, "deals.pbn", progress=fail_on_third)
    assert not StoredDeal.objects.exists()


def test_typed_deal_defaults_to_the_board_cycle_and_names_a_bad_card(club_a, director_a):
    deal = store.typed_deal(6, HANDS, event="Avond")
    assert deal.dealer is Seat.EAST
    assert deal.vulnerability is Vulnerability.EW
    row = store.store_typed(club_a, deal, director_a)
    assert row.typed
    assert row.to_deal() == deal

    doubled = {**HANDS, Seat.WEST: "432.432.432.543A"}
    with pytest.raises(DealError, match="♣A zit twee keer"):
        store.typed_deal(6, doubled)
    missing = {**HANDS, Seat.WEST: "432.432.432.543"}
    with pytest.raises(DealError, match="ontbreekt: ♣2"):
        store.typed_deal(6, missing)


def test_typing_again_replaces_the_board(club_a, director_a):
    store.store_typed(club_a, store.typed_deal(6, HANDS, event="Avond"), director_a)
    swapped = {Seat.NORTH: HANDS[Seat.SOUTH], Seat.SOUTH: HANDS[Seat.NORTH]}
    again = store.store_typed(
        club_a, store.typed_deal(6, {**HANDS, **swapped}, event="Avond"), director_a
    )
    assert StoredDeal.objects.count() == 1
    assert again.to_deal().north.pbn == HANDS[Seat.SOUTH]


def test_a_ruling_finds_its_board_in_its_own_club_only(club_a, club_b, director_a, director_b):
    deals = read_pbn(FIXTURE)
    store.import_deals(club_a, "Clubavond dinsdag", deals, "deals.pbn")
    store.import_deals(club_b, "Clubavond dinsdag", deals, "deals.pbn")
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
    store.store_typed(club_a, store.typed_deal(1, swapped), director_a)
    changed = store.analysis_of(StoredDeal.objects.get(pk=row.pk))
    assert len(counted_analysis) == 2
    assert changed is not None
    assert changed.tricks_for(Seat.NORTH, DENOMINATIONS[0]) == 2
    store.analysis_of(StoredDeal.objects.get(pk=row.pk))
    assert len(counted_analysis) == 2


def test_the_diagram_view_shows_seats_suits_and_table(club_a, director_a, counted_analysis):
    store.store_typed(club_a, store.typed_deal(3, HANDS, event="Avond"), director_a)
    ruling = make_ruling(club_a, director_a, event="Avond", board=3)
    view = store.shown_deal_for(ruling)
    assert view is not None
    assert view.dealer == "Zuid"
    assert view.vulnerability == "OW kwetsbaar"
    north = view.hands["north"]
    assert [s.cards for s in north.suits] == ["A K Q J"] * 3 + ["A"]
    assert [s.red for s in north.suits] == [False, True, True, False]
    assert view.hands["south"].suits[0].cards == "10 9 8"
    assert view.hands["south"].dealer
    assert view.hands["east"].vulnerable
    assert not view.hands["north"].vulnerable
    assert view.table is not None
    assert [row.seat for row in view.table] == [Seat.NORTH, Seat.EAST, Seat.SOUTH, Seat.WEST]
    assert view.par_contracts == ["3SA= Noord"]


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


def test_import_stores_the_boards_results_and_reimport_replaces_them(club_a, director_a):
    deals = read_pbn(RESULTS_FIXTURE)
    store.import_deals(club_a, "Zomerdrive", deals, "zomer.pbn", director_a)
    stored = {row.board: row.results for row in StoredDeal.objects.filter(club=club_a)}
    assert stored == {1: [-120, 110, 50], 2: [-100, 620], 3: [500, 430, 0, -110]}

    # The same event again from a file whose board 1 has other results and board 2 none.
    corrected = [
        replace(deals[0], results=(-120, 110)),
        replace(deals[1], results=()),
    ]
    summary = store.import_deals(club_a, "Zomerdrive", corrected, "zomer-2.pbn")
    assert summary.replaced == [1, 2]
    stored = {row.board: row.results for row in StoredDeal.objects.filter(club=club_a)}
    assert stored == {1: [-120, 110], 2: [], 3: [500, 430, 0, -110]}


def test_typing_the_hands_keeps_the_imported_results(club_a, director_a):
    (first, *_rest) = read_pbn(RESULTS_FIXTURE)
    store.import_deals(club_a, "Zomerdrive", [first], "zomer.pbn")
    typed = store.typed_deal(1, HANDS, event="Zomerdrive")
    row = store.store_typed(club_a, typed, director_a)
    row.refresh_from_db()
    assert row.cards == typed.pbn
    assert row.results == [-120, 110, 50]
