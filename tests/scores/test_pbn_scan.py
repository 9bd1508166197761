"""scores/pbn_scan.py through the reader: tag syntax as lenient as PBN 2.1's import format,
inheritance with "#" and "##", comments and section data that hold brackets, quotes and
braces, and board numbers that are no board."""

import pytest

from scores.pbn import PbnError, parse_pbn
from scores.pbn_scan import scan

BOARD = "N:AK32.QJ5.T98.765 QJ4.K987.AK3.K32 T98.T432.Q54.AJ4 765.A6.J762.QT98"


def test_tags_need_no_space_and_may_share_a_line_or_spread_over_lines():
    text = (
        f'[Event"Dinsdag"] [Board "1"]\n[Deal\n "{BOARD}" ]\n'
        '[Contract "3NT"][Declarer "S"]\n[Result "9"]\n'
    )
    file = parse_pbn(text)
    (board,) = file.boards
    assert file.event == "Dinsdag"
    assert board.deal.pbn == BOARD
    assert [r.contract for r in board.results] == ["3NT="]
    assert board.results[0].score == 400


def test_a_hash_inherits_and_two_hashes_hold_for_every_later_game():
    text = (
        '[Event "##Clubavond"]\n[Site "Zeist"]\n[Board "1"]\n[Deal "' + BOARD + '"]\n\n'
        '[Site "#"]\n[Board "2"]\n[Deal "' + BOARD + '"]\n\n'
        '[Event "Andere avond"]\n[Board "3"]\n[Deal "' + BOARD + '"]\n\n'
        '[Board "4"]\n[Deal "' + BOARD + '"]\n'
    )
    games = scan(text)
    assert [game.value("Event") for game in games] == [
        "Clubavond",
        "Clubavond",
        "Andere avond",  # given again: from here on the new value
        "Andere avond",
    ]
    # Without "#" or "##" a tag is not inherited.
    assert [game.value("Site") for game in games] == ["Zeist", "Zeist", "", ""]


def test_a_second_note_does_not_start_a_new_game():
    text = (
        f'[Board "1"]\n[Deal "{BOARD}"]\n[Auction "N"]\n1C =1= 1D =2= Pass Pass\nPass\n'
        '[Note "1:better minor"]\n[Note "2:natural"]\n'
        '[ScoreTable "Score_NS"]\n420\n-50\n'
    )
    (board,) = parse_pbn(text).boards
    assert [r.score for r in board.results] == [420, -50]


def test_quotes_brackets_and_braces_inside_skipped_sections_are_data():
    text = (
        f'[Board "1"]\n[Deal "{BOARD}"]\n'
        '[TotalScoreTable "Rank;Team\\16L;IMP"]\n1 "Team {A" 34\n2 "Jan [invaller]" 12\n'
        '3 "Dubbel \\"X\\"" 9\n[Contract "4S"]\n[Declarer "N"]\n[Result "10"]\n'
    )
    (board,) = parse_pbn(text).boards
    assert [r.contract for r in board.results] == ["4S="]


def test_a_comment_may_hold_an_empty_line_and_a_tag():
    text = f'{{ first line\n\n[Board "99"] is no tag }}\n[Board "1"]\n[Deal "{BOARD}"]\n'
    assert [b.deal.board for b in parse_pbn(text).boards] == [1]


def test_an_empty_deal_is_skipped_with_a_warning_naming_its_line():
    text = f'[Board "1"]\n[Deal "{BOARD}"]\n\n[Board "2"]\n[Deal ""]\n'
    file = parse_pbn(text)
    assert [b.deal.board for b in file.boards] == [1]
    assert file.warnings == (
        "Regel 4: spel 2 heeft geen kaarten ([Deal] leeg of afwezig); niet ingelezen.",
    )


@pytest.mark.parametrize("value", ["²", "１", "3a", "0", "-2", "", "1 2", "1e3"])
def test_a_board_number_that_is_no_whole_number_names_its_line(value):
    with pytest.raises(PbnError) as raised:
        parse_pbn(f'[Event "x"]\n[Board "{value}"]\n[Deal "{BOARD}"]\n')
    assert raised.value.line == 2
    assert f"spelnummer '{value}' is geen geheel getal vanaf 1" in str(raised.value)


@pytest.mark.parametrize("value", ["129", "999999999", "1" * 30, "9" * 5000])
def test_a_board_number_above_128_is_skipped_with_a_warning(value):
    text = f'[Board "1"]\n[Deal "{BOARD}"]\n\n[Board "{value}"]\n[Deal "{BOARD}"]\n'
    if len(value) > 9:
        with pytest.raises(PbnError, match="geen geheel getal"):
            parse_pbn(text)  # more digits than any board number could have
        return
    file = parse_pbn(text)
    assert [b.deal.board for b in file.boards] == [1]
    assert file.warnings == (
        f"Regel 4: spel {value} overgeslagen: Leidraad kent spellen 1 t/m 128.",
    )


def test_an_unclosed_brace_and_a_broken_tag_name_their_line():
    with pytest.raises(PbnError, match=r"^Regel 2: commentaar met \{"):
        parse_pbn(f'[Board "1"]\n{{ never closed\n[Deal "{BOARD}"]\n')
    with pytest.raises(PbnError, match=r"^Regel 2: tag niet te lezen: '\[Deal N:AK32"):
        parse_pbn(f'[Board "1"]\n[Deal {BOARD}]\n')
