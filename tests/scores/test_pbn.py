"""The PBN reader on a fixture written like a dealing machine's file, and on hostile variants.
Results are tested in test_pbn_results.py, the programs' own shapes in test_pbn_styles.py."""

from pathlib import Path

import pytest

from lib.bridge import Seat, Vulnerability
from scores.deal import Deal, Hand
from scores.pbn import MAX_BYTES, PbnError, decode_pbn, parse_pbn, read_pbn, read_pbn_bytes

FIXTURE = Path(__file__).resolve().parent.parent / "data" / "deals.pbn"
TEXT = FIXTURE.read_text(encoding="utf-8")
BOARD_1 = "N:AK32.QJ5.T98.765 QJ4.K987.AK3.K32 T98.T432.Q54.AJ4 765.A6.J762.QT98"


def line_of(text: str, fragment: str) -> int:
    """1-based number of the first line holding ``fragment``."""
    for number, line in enumerate(text.splitlines(), start=1):
        if fragment in line:
            return number
    raise AssertionError(fragment)


def deals_of(text: str) -> list[Deal]:
    return [board.deal for board in parse_pbn(text).boards]


def fixture_deals() -> list[Deal]:
    return [board.deal for board in read_pbn(FIXTURE).boards]


def refused(text: str) -> PbnError:
    with pytest.raises(PbnError) as raised:
        parse_pbn(text)
    message = str(raised.value)
    assert "\n" not in message
    return raised.value


# The fixture.


def test_reads_every_board_of_the_fixture():
    deals = fixture_deals()
    assert [d.board for d in deals] == [1, 2, 3, 4, 5]
    assert all(isinstance(d, Deal) for d in deals)


def test_board_one_in_detail():
    deal = fixture_deals()[0]
    assert deal.event == "Clubavond dinsdag – Café de Ruiten"
    assert deal.dealer is Seat.NORTH
    assert deal.vulnerability is Vulnerability.NONE
    assert deal.north == Hand("AK32", "QJ5", "T98", "765")
    assert deal.east == Hand("QJ4", "K987", "AK3", "K32")
    assert deal.south == Hand("T98", "T432", "Q54", "AJ4")
    assert deal.west == Hand("765", "A6", "J762", "QT98")
    assert deal.pbn == BOARD_1


def test_first_seat_of_the_deal_tag_is_honoured():
    deals = {d.board: d for d in fixture_deals()}
    # Board 2 starts with East, board 3 with West, board 4 with South.
    assert deals[2].north == Hand("QJ942", "AT3", "8", "KQ82")
    assert deals[2].east == Hand("873", "752", "KJ9653", "T")
    assert deals[3].north == Hand("J86", "AJ63", "K852", "K5")
    assert deals[3].west == Hand("AT5", "Q874", "J97", "Q93")
    assert deals[4].north == Hand("T94", "T98", "A95", "AQ84")
    assert deals[4].east == Hand("", "K76543", "KQT862", "9")  # a void in spades
    assert deals[4].west.diamonds == ""


def test_dealer_vulnerability_and_inherited_event():
    deals = {d.board: d for d in fixture_deals()}
    assert [(deals[b].dealer, deals[b].vulnerability) for b in (2, 3, 4)] == [
        (Seat.EAST, Vulnerability.NS),
        (Seat.SOUTH, Vulnerability.EW),
        (Seat.WEST, Vulnerability.ALL),  # written "Both"
    ]
    assert {d.event for d in deals.values()} == {"Clubavond dinsdag – Café de Ruiten"}


def test_missing_dealer_and_vulnerability_follow_the_board_number():
    deal = fixture_deals()[4]
    assert deal.board == 5
    assert deal.dealer is Seat.NORTH
    assert deal.vulnerability is Vulnerability.NS


def test_crlf_bom_and_windows_encoding():
    crlf = TEXT.replace("\n", "\r\n")
    expected = read_pbn(FIXTURE)
    assert read_pbn_bytes(b"\xef\xbb\xbf" + crlf.encode("utf-8")) == expected
    assert read_pbn_bytes(TEXT.replace("\n", "\r").encode("utf-8")) == expected
    assert read_pbn_bytes(crlf.encode("utf-16")) == expected
    cp1252 = read_pbn_bytes(crlf.encode("cp1252"))
    assert cp1252 == expected
    latin = TEXT.replace("–", "-")
    assert read_pbn_bytes(latin.encode("latin-1")).event == "Clubavond dinsdag - Café de Ruiten"
    assert parse_pbn("\ufeff" + TEXT) == expected


def test_games_without_a_blank_line_between_them():
    text = f'[Board "1"]\n[Deal "{BOARD_1}"]\n[Board "2"]\n[Deal "{BOARD_1}"]\n'
    assert [d.board for d in deals_of(text)] == [1, 2]


def test_same_board_with_same_cards_is_kept_once():
    # Scoring programs repeat a board for every table that played it.
    text = f'[Board "1"]\n[Deal "{BOARD_1}"]\n\n[Board "1"]\n[Deal "{BOARD_1}"]\n'
    assert len(deals_of(text)) == 1


def test_a_header_game_without_a_deal_is_skipped():
    text = f'[Event "Header"]\n[Site "Zeist"]\n\n[Board "7"]\n[Deal "{BOARD_1}"]\n'
    [deal] = deals_of(text)
    assert deal.board == 7
    assert deal.event == ""  # the header is a game of its own, not inherited without "#"


def test_lowercase_seat_letters_and_tens():
    deal_value = BOARD_1.replace("N:", "n:").replace("T98.765", "1098.765")
    text = f'[Board "1"]\n[Dealer "z"]\n[Deal "{deal_value}"]\n'
    [deal] = deals_of(text)
    assert deal.dealer is Seat.SOUTH
    assert deal.north.diamonds == "T98"


# Hostile variants: each names the line and the problem, and nothing is returned.


def test_missing_card():
    text = TEXT.replace("QJ4.K987.AK3.K32", "QJ4.K987.AK3.K3")
    error = refused(text)
    assert error.line == line_of(TEXT, "QJ4.K987.AK3.K32")
    assert "spel 1: Oost heeft 12 kaarten in plaats van 13; ontbreekt: ♣2" in str(error)
    assert str(error).startswith(f"Regel {error.line}: ")


def test_doubled_card():
    text = TEXT.replace("QJ4.K987.AK3.K32", "QJ4.K987.AK3.K35")
    error = refused(text)
    assert error.line == line_of(TEXT, "QJ4.K987.AK3.K32")
    assert "spel 1: ♣5 zit twee keer in het spel (bij Noord en bij Oost)" in str(error)


def test_doubled_card_in_one_hand():
    text = TEXT.replace("QJ4.K987.AK3.K32", "QJ4.K987.AK3.KK2")
    error = refused(text)
    assert "Oost" in str(error)
    assert "♣K staat er twee keer in" in str(error)


def test_card_that_does_not_exist():
    error = refused(TEXT.replace("QJ4.K987.AK3.K32", "QJ4.K987.AK3.K3X"))
    assert "'X' is geen kaart in ♣" in str(error)


def test_unknown_hand():
    deal = "N:AK32.QJ5.T98.765 - T98.T432.Q54.AJ4 765.A6.J762.QT98"
    error = refused(TEXT.replace(BOARD_1, deal))
    assert "de hand van Oost ontbreekt ('-')" in str(error)


def test_three_hands():
    error = refused(TEXT.replace(BOARD_1, BOARD_1.rsplit(" ", 1)[0]))
    assert "[Deal] heeft 3 handen" in str(error)


def test_hand_without_four_suits():
    error = refused(TEXT.replace("QJ4.K987.AK3.K32", "QJ4.K987.AK3K32"))
    assert "schrijf vier kleuren" in str(error)


def test_deal_without_seat():
    error = refused(TEXT.replace("N:AK32", "AK32"))
    assert "[Deal] moet beginnen met N:, E:, S: of W:" in str(error)
    error = refused(TEXT.replace("N:AK32", "X:AK32"))
    assert "[Deal] begint met 'X'" in str(error)


def test_unreadable_tag():
    text = TEXT.replace('[Board "3"]', '[Board "3"')
    error = refused(text)
    assert error.line == line_of(TEXT, '[Board "3"]')
    assert "tag niet te lezen: '[Board \"3\"'" in str(error)


@pytest.mark.parametrize("value", ["abc", "0", "-2", "3a", ""])
def test_bad_board_number(value):
    error = refused(TEXT.replace('[Board "3"]', f'[Board "{value}"]'))
    assert error.line == line_of(TEXT, '[Board "3"]')
    assert f"spelnummer '{value}' is geen geheel getal vanaf 1" in str(error)


def test_bad_dealer():
    error = refused(TEXT.replace('[Dealer "S"]', '[Dealer "Q"]'))
    assert error.line == line_of(TEXT, '[Dealer "S"]')
    assert "Onbekende windrichting 'Q'" in str(error)


def test_bad_vulnerability():
    error = refused(TEXT.replace('[Vulnerable "EW"]', '[Vulnerable "Sometimes"]'))
    assert error.line == line_of(TEXT, '[Vulnerable "EW"]')
    assert "Onbekende kwetsbaarheid 'Sometimes'" in str(error)


def test_unclosed_comment():
    text = TEXT.replace("{ short comment }", "{ short comment")
    error = refused(text)
    assert error.line == line_of(TEXT, "{ short comment }")
    assert "commentaar met { wordt nergens met } gesloten" in str(error)


def test_same_board_twice_with_different_cards():
    other = "N:QJ4.K987.AK3.K32 AK32.QJ5.T98.765 T98.T432.Q54.AJ4 765.A6.J762.QT98"
    text = f'[Board "1"]\n[Deal "{BOARD_1}"]\n\n[Board "1"]\n[Deal "{other}"]\n'
    error = refused(text)
    assert error.line == 5
    assert "spel 1 staat er al (regel 2) met andere kaarten" in str(error)


def test_deal_without_board():
    error = refused(f'[Event "x"]\n[Deal "{BOARD_1}"]\n')
    assert error.line == 2
    assert "zonder [Board" in str(error)


def test_inheritance_without_a_previous_value_is_empty():
    # PBN 2.1, 4.8: with no earlier game giving the tag, "#" is the empty value.
    [deal] = deals_of(f'[Event "#"]\n[Board "1"]\n[Deal "{BOARD_1}"]\n')
    assert deal.event == ""


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "geen PBN-tags gevonden"),
        ("just some text\nno tags here\n", "geen PBN-tags gevonden"),
        ('[Event "Only a header"]\n[Site "x"]\n', "geen spel met [Deal"),
    ],
)
def test_files_without_deals(text, message):
    error = refused(text)
    assert error.line is None
    assert str(error).startswith("PBN-bestand: ")
    assert message in str(error)


def test_binary_and_oversized_files():
    with pytest.raises(PbnError, match="geen tekstbestand"):
        read_pbn_bytes(b"PK\x03\x04\x00\x00binary")
    with pytest.raises(PbnError, match="te groot"):
        decode_pbn(b" " * (MAX_BYTES + 1))


def test_nothing_is_returned_when_a_later_board_is_bad():
    # Board 5 is the last one; breaking it must refuse the whole file.
    text = TEXT.replace("...AKQJT98765432", "...AKQJT9876543")
    error = refused(text)
    assert error.line == line_of(TEXT, "...AKQJT98765432")
    assert "spel 5" in str(error)
