"""Double-dummy table and par through endplay, on deals whose answers are plain to see."""

import functools
from pathlib import Path

import pytest

from lib.bridge import SEATS, Seat, Vulnerability
from scores.calculator import Contract, contract_score
from scores.deal import make_deal
from scores.double_dummy import DENOMINATIONS, DoubleDummy, analyse
from scores.pbn import read_pbn

# Each analysis takes a fraction of a second up to a few seconds on a busy machine: once per deal.
solved = functools.cache(analyse)

FIXTURE = Path(__file__).resolve().parent.parent / "data" / "deals.pbn"
C, D, H, S, NT = DENOMINATIONS


def one_suit_each(vulnerability: Vulnerability):
    """North holds all the spades, East the hearts, South the diamonds, West the clubs."""
    return make_deal(
        1,
        Seat.NORTH,
        vulnerability,
        {
            Seat.NORTH: "AKQJT98765432...",
            Seat.EAST: ".AKQJT98765432..",
            Seat.SOUTH: "..AKQJT98765432.",
            Seat.WEST: "...AKQJT98765432",
        },
    )


def all_top_cards():
    """North-South hold the highest cards of every suit; East-West spades split 3-3."""
    return make_deal(
        1,
        Seat.NORTH,
        Vulnerability.NONE,
        {
            Seat.NORTH: "AKQJ.AKQJ.AKQJ.A",
            Seat.EAST: "765.765.765.9876",
            Seat.SOUTH: "T98.T98.T98.KQJT",
            Seat.WEST: "432.432.432.5432",
        },
    )


def test_one_suit_each_table():
    result = solved(one_suit_each(Vulnerability.NONE))
    # With their own suit as trumps North-South take everything; at notrump the opening
    # leader's side runs its suit.
    assert result.tricks_for(Seat.NORTH, S) == 13
    assert result.tricks_for(Seat.SOUTH, S) == 13
    assert result.tricks_for(Seat.SOUTH, D) == 13
    assert result.tricks_for(Seat.EAST, H) == 13
    assert result.tricks_for(Seat.WEST, C) == 13
    for seat in SEATS:
        assert result.tricks_for(seat, NT) == 0


def test_one_suit_each_par_is_seven_spades():
    # 7♠ made: 210 + 1000 (grand slam) + 300 (game) not vulnerable; 210 + 1500 + 500 vulnerable.
    # East-West's only bid over it, 7NT, goes thirteen down.
    for vulnerability, expected in ((Vulnerability.NONE, 1510), (Vulnerability.ALL, 2210)):
        result = solved(one_suit_each(vulnerability))
        assert result.par_score == expected
        declarers = {(c.level, c.denomination, c.declarer) for c in result.par_contracts}
        assert declarers == {(7, S, Seat.NORTH), (7, S, Seat.SOUTH)}
        assert all(c.penalty == "" and c.result == 0 for c in result.par_contracts)


def test_all_top_cards():
    result = solved(all_top_cards())
    for seat in (Seat.NORTH, Seat.SOUTH):
        assert result.tricks_for(seat, NT) == 13
        assert result.tricks_for(seat, S) == 13
    for seat in (Seat.EAST, Seat.WEST):
        assert result.tricks_for(seat, NT) == 0
    # 7NT: 220 + 1000 + 300.
    assert result.par_score == 1520
    assert (7, NT, Seat.NORTH) in {
        (c.level, c.denomination, c.declarer) for c in result.par_contracts
    }


@pytest.mark.parametrize("board", [1, 2, 3, 4])
def test_par_agrees_with_the_calculator_and_the_table(board):
    deal = {b.deal.board: b.deal for b in read_pbn(FIXTURE).boards}[board]
    result = solved(deal)
    assert result.par_contracts
    for contract in result.par_contracts:
        tricks = 6 + contract.level + contract.result
        assert result.tricks_for(contract.declarer, contract.denomination) == tricks
        played = Contract(contract.level, contract.denomination, contract.penalty, tricks)
        declarer_score = contract_score(played, deal.vulnerability.is_vulnerable(contract.declarer))
        north_south = contract.declarer in (Seat.NORTH, Seat.SOUTH)
        assert result.par_score == (declarer_score if north_south else -declarer_score)


def rotate(deal):
    """The same cards a quarter turn clockwise: North's hand goes to East, and so on."""
    swapped = {
        Vulnerability.NONE: Vulnerability.NONE,
        Vulnerability.ALL: Vulnerability.ALL,
        Vulnerability.NS: Vulnerability.EW,
        Vulnerability.EW: Vulnerability.NS,
    }
    hands = {seat.next: deal.hand(seat) for seat in SEATS}
    return make_deal(deal.board, deal.dealer.next, swapped[deal.vulnerability], hands)


@pytest.mark.parametrize("board", [2, 3])
def test_a_quarter_turn_moves_the_table_and_negates_par(board):
    deal = {b.deal.board: b.deal for b in read_pbn(FIXTURE).boards}[board]
    before, after = solved(deal), solved(rotate(deal))
    for seat in SEATS:
        for denomination in DENOMINATIONS:
            assert after.tricks_for(seat.next, denomination) == before.tricks_for(
                seat, denomination
            )
    assert after.par_score == -before.par_score
    assert {(c.notation.split()[0], c.declarer.next) for c in before.par_contracts} == {
        (c.notation.split()[0], c.declarer) for c in after.par_contracts
    }


def test_result_round_trips_through_a_dict():
    result = solved(all_top_cards())
    assert DoubleDummy.from_dict(result.as_dict()) == result
    assert result.as_dict()["tricks"]["N"]["NT"] == 13
