"""The results of a board from a PBN [ScoreTable]: read as scoring programs write it."""

from pathlib import Path

import pytest

from lib.bridge import Vulnerability
from scores.pbn import PbnError, parse_pbn, read_pbn
from scores.results import TableResult
from scores.score_table import ScoreTableError, read_score_table

DATA = Path(__file__).resolve().parent.parent / "data"
FIXTURE = DATA / "deals-with-results.pbn"
TEXT = FIXTURE.read_text(encoding="utf-8")
HEADER = (
    '[Event "Test"]\n[Board "1"]\n[Dealer "N"]\n[Vulnerable "{vul}"]\n'
    '[Deal "N:AK32.QJ5.T98.765 QJ4.K987.AK3.K32 T98.T432.Q54.AJ4 765.A6.J762.QT98"]\n'
)


def board(table: str, *rows: str, vul: str = "None") -> str:
    """A one-board PBN text with a score table; the rows start on line 7."""
    return HEADER.format(vul=vul) + f'[ScoreTable "{table}"]\n' + "\n".join(rows) + "\n"


def rows_of(table: str, *rows: str, vul: str = "None") -> tuple[TableResult, ...]:
    (read,) = parse_pbn(board(table, *rows, vul=vul)).boards
    return read.results


def results(table: str, *rows: str, vul: str = "None") -> tuple[int | None, ...]:
    """North-South's score of each row (None for an artificial score)."""
    return tuple(result.score for result in rows_of(table, *rows, vul=vul))


def refused(text: str) -> PbnError:
    with pytest.raises(PbnError) as raised:
        parse_pbn(text)
    return raised.value


def line_of(fragment: str) -> int:
    return next(n for n, line in enumerate(TEXT.splitlines(), 1) if fragment in line)


def test_the_fixture_gives_each_board_its_north_south_scores():
    deals = {
        board.deal.board: tuple(result.score for result in board.results)
        for board in read_pbn(FIXTURE).boards
    }
    # Board 1 from Score_NS or minus Score_EW; the table that did not play it is left out.
    assert deals[1] == (-120, 110, 50)
    # Board 2 has only Score_EW, in another column order, and a quoted name with spaces.
    assert deals[2] == (-100, 620)
    # Board 3 is computed from contract, declarer and tricks at its vulnerability (EW):
    # 4SX by East two down vulnerable, 3NT by South +1, passed out, 2H by West made.
    assert deals[3] == (500, 430, 0, -110)


def test_boards_without_a_score_table_or_contract_have_no_results():
    first, *others = read_pbn(DATA / "deals.pbn").boards
    assert others
    assert all(board.results == () for board in others)  # an OptimumResultTable is not one
    # Board 1 is one table's game: 1NT by West with 8 tricks (+1) is North-South's -120.
    assert first.results == (
        TableResult(-120, "1NT+1", "W", ns="de Vries – Visser", ew="Bakker – Jansen"),
    )


def test_columns_may_come_in_any_order_with_widths_and_sort_signs():
    first = results(r"Score_NS\6R;Contract\4L;Declarer\1R;Result\2R", "420 4S N 10", "- 4S N 9")
    turned = results(r"Result\2R;-Declarer\1R;+Contract\4L;Score_NS\6R", "10 N 4S 420", "9 N 4S -")
    assert first == turned == (420, -50)


def test_score_ew_only_is_turned_to_north_south():
    assert results(r"Table\2R;Score_EW\6R", "1 -420", "2 50", "3 +100") == (420, -50, -100)


def test_a_score_with_its_side_and_artificial_scores():
    rows = ('1 "NS 420"', '2 "EW 100"', '3 "ew -50"', "4 A+", "5 60%")
    read = rows_of(r"Table\2R;Score\6R", *rows)
    assert [result.score for result in read] == [420, -100, 50, None, None]
    # An artificial score is kept as such, for North-South (the side a Score column names).
    assert [(r.table, r.artificial_ns) for r in read[3:]] == [(4, "A+"), (5, "60%")]
    error = refused(board(r"Table\2R;Score\6R", "1 420"))
    assert error.line == 7
    assert "NS 420" in str(error)


def test_score_ns_wins_over_the_contract():
    # A scoring program's corrected score stands even where the contract would say otherwise.
    assert results(r"Contract\4L;Declarer\1R;Result\2R;Score_NS\6R", "4S N 10 300") == (300,)


def test_a_computed_score_depends_on_the_boards_vulnerability():
    table = r"Contract\5L;Declarer\1R;Result\2R"
    assert results(table, "4SX E 8", vul="None") == (300,)
    assert results(table, "4SX E 8", vul="EW") == (500,)
    assert results(table, "4S S +1", "4S S -1", vul="NS") == (650, -100)


def test_a_comment_line_and_a_trailing_comment_are_not_rows():
    assert results(r"Score_NS\6R", "; a comment", "420 ; the top", "{ note } ", "-50") == (
        420,
        -50,
    )


@pytest.mark.parametrize(
    ("table", "row", "problem"),
    [
        (r"Table\2R;Score_NS\6R", "1", "heeft 1 waarde,"),
        (r"Table\2R;Score_NS\6R", "1 420 7", "3 waarden"),
        (r"Score_NS\6R", "veel", "'veel' is geen score"),
        (r"Score_NS\6R", "425", "'425' kan geen bridgescore zijn"),
        (r"Score_EW\6R", "9000", "'9000' kan geen bridgescore zijn"),
        (r"Contract\4L;Declarer\1R;Result\2R", "4S - 10", "zonder leider"),
        (r"Contract\4L;Declarer\1R;Result\2R", "4S Q 10", "Q"),
        (r"Contract\4L;Declarer\1R;Result\2R", "8S N 10", "8S"),
        (r"Contract\4L;Declarer\1R;Result\2R", "4S N -", "uitslag ontbreekt"),
    ],
)
def test_a_row_that_cannot_be_read_refuses_the_file_naming_its_line(table, row, problem):
    good = board(r"Score_NS\6R", "420").replace('[Board "1"]', '[Board "2"]')
    error = refused(good + "\n" + board(table, row))
    assert error.line == len(good.splitlines()) + 1 + 7  # the second game's first row
    assert "spel 1, uitslagen" in str(error)
    assert problem in str(error)


def test_a_table_without_score_or_contract_columns_names_its_tag_line():
    error = refused(board(r"PairId_NS\2R;PairId_EW\2R", "1 2"))
    assert error.line == 6
    assert "Score_NS, Score_EW, Score of Contract" in str(error)


def test_the_error_in_the_fixture_names_the_line_in_the_file():
    broken = TEXT.replace("  -620 N 4H  10", "  zes N 4H  10")
    error = refused(broken)
    assert error.line == line_of("-620 N 4H")
    assert "spel 2, uitslagen: Score_EW 'zes' is geen score" in str(error)


def test_the_same_board_again_with_its_results_keeps_them():
    header_game = HEADER.format(vul="None")
    (read,) = parse_pbn(header_game + "\n" + board(r"Score_NS\6R", "420", "-50")).boards
    assert [result.score for result in read.results] == [420, -50]


def test_the_pure_reader_names_the_row_line():
    with pytest.raises(ScoreTableError) as raised:
        read_score_table(r"Score_NS\6R", 10, [(11, ["420"]), (12, ["x"])], Vulnerability.NONE)
    assert raised.value.line == 12
    assert read_score_table("Score_NS", 1, [(2, ["-"])], Vulnerability.ALL) == ()
