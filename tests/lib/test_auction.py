"""The auction as typed: calls in English and Dutch notation, notes, legality, completion."""

import pytest
from django.utils import translation

from lib.auction import (
    Auction,
    AuctionCall,
    AuctionError,
    Call,
    load_auction,
    parse_auction,
    parse_call,
)
from lib.bridge import Seat


@pytest.fixture(autouse=True)
def _dutch():
    """Messages are asserted in Dutch: a request of an earlier test in this process may have
    left English active (the language middleware activates it for the thread)."""
    with translation.override("nl"):
        yield


@pytest.mark.parametrize(
    ("token", "code"),
    [
        ("p", "P"), ("PAS", "P"), ("pass", "P"), ("-", "P"),
        ("x", "X"), ("d", "X"), ("D", "X"), ("dbl", "X"), ("Dbl.", "X"), ("doublet", "X"),
        ("xx", "XX"), ("rd", "XX"), ("r", "XX"), ("redbl", "XX"), ("RDBL", "XX"),
        ("1c", "1C"), ("1k", "1C"), ("1♣", "1C"), ("1♣\ufe0f", "1C"),
        ("1d", "1D"), ("1r", "1D"), ("1♦", "1D"), ("1D", "1D"), ("1R", "1D"),
        ("1h", "1H"), ("1♥", "1H"), ("1H", "1H"),
        ("1s", "1S"), ("1♠", "1S"), ("1S", "1S"),
        ("1nt", "1NT"), ("1n", "1NT"), ("1sa", "1NT"), ("3NT", "3NT"), ("3SA", "3NT"),
        ("7nt", "7NT"),
    ],
)  # fmt: skip
def test_both_notations_and_symbols(token, code):
    assert parse_call(token).code == code


def test_the_bare_d_and_r_are_doubles_but_with_a_level_diamonds():
    assert parse_call("d") == Call("double")
    assert parse_call("1d") == Call("bid", 1, "D")
    assert parse_call("r") == Call("redouble")
    assert parse_call("1r") == Call("bid", 1, "D")


@pytest.mark.parametrize(
    ("call", "dutch", "english"),
    [
        (Call("pass"), "pas", "pass"),
        (Call("double"), "doublet", "double"),
        (Call("redouble"), "redoublet", "redouble"),
        (Call("bid", 1, "H"), "1♥", "1♥"),
        (Call("bid", 3, "NT"), "3SA", "3NT"),
    ],
)
def test_labels(call, dutch, english):
    assert call.label("nl") == dutch
    assert call.label("en") == english


@pytest.mark.parametrize("token", ["8h", "0c", "9nt"])
def test_a_bid_above_seven_is_refused_naming_it(token):
    with pytest.raises(AuctionError, match=token) as caught:
        parse_call(token)
    assert "1 tot 7" in str(caught.value)
    assert caught.value.token == token


@pytest.mark.parametrize("token", ["1z", "hh", "1", "", "1 h", "pasje"])
def test_unreadable_call_is_refused_naming_it(token):
    with pytest.raises(AuctionError) as caught:
        parse_call(token)
    assert f"‘{token}’" in str(caught.value)


def test_english_message_names_the_token():
    with translation.override("en"), pytest.raises(AuctionError, match="Unknown call ‘1z’"):
        parse_call("1z")


def test_auction_in_both_notations_is_the_same():
    english = parse_auction("1h p 2nt x p p xx p p p", "N")
    dutch = parse_auction("1H pas 2sa d pas pas rd pas pas pas", "N")
    assert english == dutch
    assert english.is_complete
    assert english.to_text() == "1H P 2NT X P P XX P P P"


def test_dashes_commas_and_standalone_dash():
    assert parse_auction("1h-p-2h", "N").to_text() == "1H P 2H"
    assert parse_auction("1h, p, 2h", "N").to_text() == "1H P 2H"
    assert parse_auction("1h - 2h", "N").to_text() == "1H P 2H"


def test_dealer_seats_and_dutch_letters():
    auction = parse_auction("p 1s", "O")
    assert auction.dealer is Seat.EAST
    assert auction.seat_of(0) is Seat.EAST
    assert auction.seat_of(1) is Seat.SOUTH
    assert auction.seat_of(3) is Seat.NORTH
    assert auction.seat_of(4) is Seat.EAST
    assert parse_auction("", "Z").dealer is Seat.SOUTH
    with pytest.raises(AuctionError, match="Q"):
        parse_auction("p", "Q")


def test_notes_attach_to_their_call():
    auction = parse_auction('1nt p 2d! "transfer" [Stayman]? p', "N")
    two = auction.calls[2]
    assert two == AuctionCall(
        Call("bid", 2, "D"), alert=True, explanation="transfer", agreement="Stayman", tempo=True
    )
    assert two.differs
    assert not auction.calls[0].annotated
    assert parse_auction('1c "  12-14  balanced " [12-14 Balanced]', "N").calls[0].differs is False


def test_typographic_quotes_and_marks_in_any_order():
    auction = parse_auction("1h?! “sterk” p", "W")
    assert auction.calls[0].alert
    assert auction.calls[0].tempo
    assert auction.calls[0].explanation == "sterk"
    auction = parse_auction("1h „zwak”", "W")
    assert auction.calls[0].explanation == "zwak"


def test_canonical_text_reads_back():
    text = '1H! "5+ harten" [4+ harten] 2NT? X P 3C P P P'
    auction = parse_auction(text, "S")
    assert auction.to_text() == text
    assert parse_auction(auction.to_text(), "S") == auction
    assert auction.stored() == "S: " + text
    assert load_auction(auction.stored()) == auction
    assert load_auction("") is None
    assert Auction(Seat.NORTH).stored() == ""


def test_unclosed_note_and_note_before_any_call():
    with pytest.raises(AuctionError, match="afsluitende"):
        parse_auction('1h "zwak', "N")
    with pytest.raises(AuctionError, match="\\]"):
        parse_auction("1h [zwak", "N")
    with pytest.raises(AuctionError, match="eerste bieding"):
        parse_auction('"zwak" 1h', "N")


@pytest.mark.parametrize(
    ("text", "position", "words"),
    [
        ("1h 1d", 2, "1♦ is niet hoger dan het laatste bod, 1♥"),
        ("1h p 1h", 3, "1♥ is niet hoger"),
        ("1h p x", 3, "van de partner"),
        ("x", 1, "nog geen bod"),
        ("1h x x", 3, "al gedoubleerd"),
        ("1h p p x p xx", 6, "het doublet is van de partner"),
        ("1h xx", 2, "alleen na een doublet"),
        ("xx", 1, "alleen na een doublet"),
        ("1h p p p p", 5, "al afgelopen"),
        ("p p p p p", 5, "al afgelopen"),
        ("p p 8h", 3, "1 tot 7"),
        ("p p 1z", 3, "‘1z’"),
    ],
)
def test_illegal_auctions_name_the_call_and_its_position(text, position, words):
    with pytest.raises(AuctionError) as caught:
        parse_auction(text, "N")
    message = str(caught.value)
    assert words in message
    assert f"Bieding {position}" in message
    assert caught.value.position == position


def test_illegal_in_dutch_notation_too():
    with pytest.raises(AuctionError, match=r"Bieding 2 .*1♦ is niet hoger dan het laatste bod, 1♥"):
        parse_auction("1h 1r", "N")
    with pytest.raises(AuctionError, match=r"Bieding 3 .*van de partner"):
        parse_auction("1h pas d", "N")


def test_error_names_the_seat_in_english():
    with translation.override("en"), pytest.raises(AuctionError) as caught:
        parse_auction("1h p x", "N")
    assert "Call 3 (South)" in str(caught.value)
    assert "partner" in str(caught.value)


def test_legal_next():
    assert len(Auction(Seat.NORTH).legal_next()) == 36  # pass and 35 bids
    assert Call("double") not in Auction(Seat.NORTH).legal_next()
    after_1h = parse_auction("1h", "N").legal_next()
    assert after_1h[:2] == [Call("pass"), Call("double")]
    assert Call("bid", 1, "H") not in after_1h
    assert Call("bid", 1, "S") in after_1h
    assert Call("redouble") in parse_auction("1h x", "N").legal_next()
    assert Call("double") not in parse_auction("1h p", "N").legal_next()
    assert Call("double") in parse_auction("1h p p", "N").legal_next()
    assert parse_auction("7nt x xx", "N").legal_next() == [Call("pass")]
    assert parse_auction("1h p p p", "N").legal_next() == []


def test_completion():
    assert not parse_auction("p p p", "N").is_complete
    assert parse_auction("p p p p", "N").is_complete
    assert parse_auction("p p p p", "N").is_passed_out
    assert not parse_auction("1h p p", "N").is_complete
    assert parse_auction("1h p p p", "N").is_complete
    assert parse_auction("p 1h x p p p", "N").is_complete
    assert not parse_auction("p 1h x p p p", "N").is_passed_out


def test_all_pass_ends_the_auction():
    assert parse_auction("1h ap", "N").to_text() == "1H P P P"
    assert parse_auction("ap", "N").to_text() == "P P P P"
    assert parse_auction("p 1s x AP", "N").to_text() == "P 1S X P P P"
    assert parse_auction("p p p rondpas", "N").to_text() == "P P P P"
    with pytest.raises(AuctionError, match="al afgelopen"):
        parse_auction("1h p p p ap", "N")


def test_diagram_rows_start_with_empty_cells_before_the_dealer():
    auction = parse_auction("1h p 2h p p p", "E")
    rows = auction.rows(first=Seat.WEST)
    assert auction.columns(Seat.WEST) == [Seat.WEST, Seat.NORTH, Seat.EAST, Seat.SOUTH]
    assert [[cell.call.code if cell else None for cell in row] for row in rows] == [
        [None, None, "1H", "P"],
        ["2H", "P", "P", "P"],
    ]
    assert parse_auction("", "N").rows() == []


def test_upto_and_plus():
    auction = parse_auction("1h p 2h p", "N")
    assert auction.upto(2).to_text() == "1H P"
    assert auction.upto(2).next_seat is Seat.SOUTH
    with pytest.raises(AuctionError, match="Bieding 3"):
        auction.upto(2).plus(Call("bid", 1, "C"))


def keystrokes_beyond_the_calls(text: str) -> int:
    """What a director types besides the calls themselves: separators, plus one Enter."""
    auction = parse_auction(text, "N")
    calls = sum(len(token) for token in text.split())
    assert len(auction) == len(text.split())
    return len(text) - calls + 1


def test_a_ten_call_auction_takes_under_15_keystrokes_beyond_the_calls():
    assert keystrokes_beyond_the_calls("1h p 2h x 3h p 4h p p p") < 15
    assert keystrokes_beyond_the_calls("p 1r d 1s p 2sa p 3sa p p") < 15
