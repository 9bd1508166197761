"""The deal model: typed hands, the standard board cycle, seats and vulnerability."""

import pytest

from scores.deal import (
    DealError,
    Hand,
    Seat,
    Vulnerability,
    board_dealer,
    board_vulnerability,
    make_deal,
    north_south_score,
    parse_hand,
)

BOARD_1 = "N:AK32.QJ5.T98.765 QJ4.K987.AK3.K32 T98.T432.Q54.AJ4 765.A6.J762.QT98"


def test_make_deal_from_typed_hands():
    deal = make_deal(
        12,
        board_dealer(12),
        board_vulnerability(12),
        {
            Seat.NORTH: "AK32.QJ5.T98.765",
            Seat.EAST: "QJ4.K987.AK3.K32",
            Seat.SOUTH: "T98.T432.Q54.AJ4",
            Seat.WEST: "765.A6.J762.QT98",
        },
    )
    assert deal.pbn == BOARD_1
    assert deal.dealer is Seat.WEST
    assert deal.vulnerability is Vulnerability.NS
    assert deal.north.display == "♠AK32 ♥QJ5 ♦1098 ♣765"
    assert deal.east.display == "♠QJ4 ♥K987 ♦AK3 ♣K32"
    assert Hand("", "AKQJT98765432", "", "").display == "♠— ♥AKQJ1098765432 ♦— ♣—"


def test_make_deal_refuses_a_missing_hand():
    with pytest.raises(DealError, match="De hand van Oost ontbreekt"):
        make_deal(1, Seat.NORTH, Vulnerability.NONE, {Seat.NORTH: parse_hand("AK32.QJ5.T98.765")})


@pytest.mark.parametrize(
    ("board", "dealer", "vulnerability"),
    [
        (1, Seat.NORTH, Vulnerability.NONE),
        (2, Seat.EAST, Vulnerability.NS),
        (3, Seat.SOUTH, Vulnerability.EW),
        (4, Seat.WEST, Vulnerability.ALL),
        (5, Seat.NORTH, Vulnerability.NS),
        (8, Seat.WEST, Vulnerability.NONE),
        (9, Seat.NORTH, Vulnerability.EW),
        (13, Seat.NORTH, Vulnerability.ALL),
        (16, Seat.WEST, Vulnerability.EW),
        (17, Seat.NORTH, Vulnerability.NONE),
        (32, Seat.WEST, Vulnerability.EW),
    ],
)
def test_standard_board_cycle(board, dealer, vulnerability):
    assert board_dealer(board) is dealer
    assert board_vulnerability(board) is vulnerability


def test_vulnerability_per_seat():
    assert Vulnerability.NS.is_vulnerable(Seat.SOUTH)
    assert not Vulnerability.NS.is_vulnerable(Seat.EAST)
    assert Vulnerability.EW.is_vulnerable(Seat.WEST)
    assert not Vulnerability.EW.is_vulnerable(Seat.NORTH)
    assert Vulnerability.ALL.is_vulnerable(Seat.EAST)
    assert not Vulnerability.NONE.is_vulnerable(Seat.NORTH)


@pytest.mark.parametrize(
    ("text", "seat"), [("O", Seat.EAST), ("Z", Seat.SOUTH), ("oost", Seat.EAST), ("W", Seat.WEST)]
)
def test_dutch_seat_letters(text, seat):
    assert Seat.read(text) is seat


@pytest.mark.parametrize(
    ("contract", "declarer", "vulnerability", "expected"),
    [
        ("4SX-2", Seat.EAST, Vulnerability.EW, 500),
        ("4SX-2", Seat.EAST, Vulnerability.NS, 300),
        ("4S=", Seat.SOUTH, Vulnerability.NS, 620),
        ("4S=", Seat.NORTH, Vulnerability.EW, 420),
        ("3NT=", Seat.WEST, Vulnerability.ALL, -600),
        ("pass", Seat.WEST, Vulnerability.ALL, 0),
    ],
)
def test_north_south_score(contract, declarer, vulnerability, expected):
    assert north_south_score(contract, declarer, vulnerability) == expected
