"""The deal model: typed hands in either language, checked deals, North-South's score."""

import pytest
from django.utils import translation

from lib.bridge import Seat, Vulnerability, board_dealer, board_vulnerability
from scores.deal import DealError, Hand, make_deal, north_south_score, parse_hand

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
    with translation.override("nl"):
        assert deal.east.typed == "VB4.H987.AH3.H32"
        assert Hand("", "AKQJT98765432", "", "").typed == ".AHVB1098765432.."
    with translation.override("en"):
        assert deal.east.typed == "QJ4.K987.AK3.K32"


@pytest.mark.parametrize(
    "typed",
    ["AHV2.B93..H108654", "AKQ2.J93..KT8654", "akq2.j93..k108654", "2QKA.93B..4568TK"],
)
def test_hands_are_typed_in_dutch_or_english(typed):
    hand = parse_hand(typed)
    assert hand == Hand("AKQ2", "J93", "", "KT8654")
    assert parse_hand(hand.typed) == hand  # what the form shows reads back


@pytest.mark.parametrize(
    ("typed", "problem"),
    [
        ("AKX2.J93..KT8654", "'X' is geen kaart in ♠"),
        ("AKQ2.J93..HKT865", "♣K staat er twee keer in"),
        ("AKQ2.J93.KT8654", "schrijf vier kleuren"),
    ],
)
def test_a_typed_hand_that_cannot_be_read_says_why(typed, problem):
    with pytest.raises(DealError, match=problem):
        parse_hand(typed)


def test_make_deal_refuses_a_missing_hand():
    with pytest.raises(DealError, match="De hand van Oost ontbreekt"):
        make_deal(1, Seat.NORTH, Vulnerability.NONE, {Seat.NORTH: parse_hand("AK32.QJ5.T98.765")})


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
