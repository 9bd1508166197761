"""The shared bridge vocabulary: seats, sides, partner, vulnerability, ranks and letters in
the reader's language."""

import pytest
from django.utils import translation

from lib.bridge import (
    RANKS,
    SEATS,
    BridgeError,
    Seat,
    Side,
    Vulnerability,
    board_dealer,
    board_vulnerability,
    notrump,
    rank_text,
    read_rank,
    side_of,
)


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


def test_board_zero_is_refused():
    with pytest.raises(BridgeError, match="Spelnummer 0 kan niet"):
        board_dealer(0)
    with pytest.raises(BridgeError, match="Spelnummer -1 kan niet"):
        board_vulnerability(-1)


def test_partner_next_and_side():
    assert [seat.partner for seat in SEATS] == [Seat.SOUTH, Seat.WEST, Seat.NORTH, Seat.EAST]
    assert [seat.next for seat in SEATS] == [Seat.EAST, Seat.SOUTH, Seat.WEST, Seat.NORTH]
    assert [seat.side for seat in SEATS] == [Side.NS, Side.EW, Side.NS, Side.EW]
    assert Side.NS.other is Side.EW
    assert Side.EW.other is Side.NS
    assert Side.EW.seats == (Seat.EAST, Seat.WEST)
    assert side_of("W") is Side.EW
    assert side_of("") is None
    assert side_of("X") is None


def test_vulnerability_per_seat():
    assert Vulnerability.NS.is_vulnerable(Seat.SOUTH)
    assert not Vulnerability.NS.is_vulnerable(Seat.EAST)
    assert Vulnerability.EW.is_vulnerable(Seat.WEST)
    assert not Vulnerability.EW.is_vulnerable(Seat.NORTH)
    assert Vulnerability.ALL.is_vulnerable(Seat.EAST)
    assert not Vulnerability.NONE.is_vulnerable(Seat.NORTH)


@pytest.mark.parametrize(
    ("text", "seat"),
    [
        ("O", Seat.EAST),
        ("Z", Seat.SOUTH),
        ("oost", Seat.EAST),
        ("W", Seat.WEST),
        (" n ", Seat.NORTH),
    ],
)
def test_seats_are_read_in_dutch_and_english(text, seat):
    assert Seat.read(text) is seat


def test_an_unknown_seat_or_vulnerability_says_what_to_write():
    with pytest.raises(BridgeError, match="Onbekende windrichting 'Q'"):
        Seat.read("Q")
    with pytest.raises(BridgeError, match="Onbekende kwetsbaarheid 'Sometimes'"):
        Vulnerability.read("Sometimes")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Love", "None"),
        ("-", "None"),
        ("Both", "All"),
        ("nz", "NS"),
        ("OW", "EW"),
        ("allen", "All"),
    ],
)
def test_vulnerability_words(text, expected):
    assert Vulnerability.read(text) is Vulnerability(expected)


def test_ranks_are_read_in_both_languages():
    assert [read_rank(char) for char in "AHVB"] == ["A", "K", "Q", "J"]
    assert [read_rank(char) for char in "akqjt9"] == ["A", "K", "Q", "J", "T", "9"]
    assert read_rank("X") is None
    assert read_rank("1") is None  # a ten is "10", read by the caller as two characters


def test_letters_follow_the_language():
    with translation.override("nl"):
        assert [seat.letter for seat in SEATS] == ["N", "O", "Z", "W"]
        assert [rank_text(rank) for rank in RANKS[:5]] == ["A", "H", "V", "B", "10"]
        assert notrump() == "SA"
        assert str(Seat.EAST.label) == "Oost"
    with translation.override("en"):
        assert [seat.letter for seat in SEATS] == ["N", "E", "S", "W"]
        assert [rank_text(rank) for rank in RANKS[:5]] == ["A", "K", "Q", "J", "10"]
        assert notrump() == "NT"
        assert str(Seat.EAST.label) == "East"
        assert Side.NS.long_label == "North-South"
