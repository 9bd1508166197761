"""The auction as pages show it (lib/auction_view.py): the diagram's rows by seat from West,
the marks, the numbered notes and how each explanation compares with the agreement."""

from lib.auction import parse_auction
from lib.auction_view import diagram
from lib.bridge import Seat


def test_rows_start_at_west_with_empty_cells_before_the_dealer():
    shown = diagram(parse_auction("1h! p 2h? p p p", "S"), "nl")
    assert shown.columns == [Seat.WEST, Seat.NORTH, Seat.EAST, Seat.SOUTH]
    texts = [[cell.text if cell else None for cell in row] for row in shown.rows]
    assert texts == [
        [None, None, None, "1♥"],
        ["pas", "2♥", "pas", "pas"],
        ["pas", None, None, None],
    ]
    first = shown.rows[0][3]
    assert first is not None
    assert (first.alert, first.tempo) == (True, False)
    assert shown.rows[1][1] is not None
    assert shown.rows[1][1].tempo
    assert shown.complete


def test_doubles_are_short_and_notrump_in_the_readers_language():
    english = diagram(parse_auction("1nt x xx", "W"), "en")
    assert [cell.text for cell in english.rows[0] if cell] == ["1NT", "X", "XX"]
    dutch = diagram(parse_auction("1nt x xx", "W"), "nl")
    assert [cell.text for cell in dutch.rows[0] if cell] == ["1SA", "X", "XX"]
    assert not dutch.complete


def test_notes_are_numbered_with_their_verdict():
    auction = parse_auction(
        '1nt! "12-14" [15-17] p 2d! "transfer" [Transfer] p 2h "harten" 3c [natuurlijk]', "N"
    )
    shown = diagram(auction, "nl")
    assert [(n.number, n.position, n.call, n.seat) for n in shown.notes] == [
        (1, 1, "1SA", Seat.NORTH),
        (2, 3, "2♦", Seat.SOUTH),
        (3, 5, "2♥", Seat.NORTH),
        (4, 6, "3♣", Seat.EAST),
    ]
    assert [n.verdict for n in shown.notes] == ["differs", "same", "no_agreement", "no_explanation"]
    assert shown.differences == 1
    # The cells point at their notes.
    assert [cell.note for row in shown.rows for cell in row if cell] == [1, None, 2, None, 3, 4]


def test_an_empty_auction_has_no_rows():
    shown = diagram(parse_auction("", "E"), "nl")
    assert shown.rows == []
    assert shown.notes == []
