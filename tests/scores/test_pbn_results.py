"""Every table's result in a PBN file: games per table, score tables with Multiplicity,
sections and matches, artificial scores; a result that is not a score names its line."""

import pytest

from scores.pbn import PbnError, parse_pbn
from scores.results import TableResult

BOARD = "N:AK32.QJ5.T98.765 QJ4.K987.AK3.K32 T98.T432.Q54.AJ4 765.A6.J762.QT98"
OTHER = "N:QJ4.K987.AK3.K32 AK32.QJ5.T98.765 T98.T432.Q54.AJ4 765.A6.J762.QT98"


def game(*tags: str, board: int = 1, deal: str = BOARD) -> str:
    return "\n".join([f'[Board "{board}"]', f'[Deal "{deal}"]', *tags]) + "\n\n"


def results(text: str) -> list[TableResult]:
    (board,) = parse_pbn(text).boards
    return list(board.results)


@pytest.mark.parametrize(
    ("score", "declarer", "expected"),
    [
        ("NS 420", "N", 420),
        ("EW 100", "N", -100),
        ("420", "N", 420),  # declarer's score
        ("420", "E", -420),
        ("NS 420 EW -420", "N", 420),
    ],
)
def test_a_score_tag_in_every_form_the_standard_gives(score, declarer, expected):
    [result] = results(game(f'[Score "{score}"]', f'[Declarer "{declarer}"]'))
    assert result.score == expected


@pytest.mark.parametrize(
    ("result", "declarer", "contract"),
    [("10", "S", "4S="), ("NS 10", "S", "4S="), ("EW 3", "S", "4S="), ("^11", "N", "4S+1")],
)
def test_a_result_tag_in_every_form_the_standard_gives(result, declarer, contract):
    [read] = results(game('[Contract "4S"]', f'[Declarer "{declarer}"]', f'[Result "{result}"]'))
    assert read.contract == contract


def test_a_passed_board_and_an_empty_contract():
    assert results(game('[Contract "Pass"]', '[Declarer ""]', '[Result ""]')) == [
        TableResult(0, "pass", "")
    ]
    assert results(game('[Contract ""]', '[Declarer ""]', '[Result ""]')) == []
    assert results(game('[Contract "?"]')) == []


def test_a_contract_without_result_or_score_names_its_line():
    with pytest.raises(PbnError) as raised:
        parse_pbn(game('[Contract "4S"]', '[Declarer "N"]'))
    assert raised.value.line == 3
    assert "spel 1, uitslagen: contract 4S: de uitslag ontbreekt" in str(raised.value)


def test_a_result_that_is_not_a_score_names_its_line():
    with pytest.raises(PbnError) as raised:
        parse_pbn(game('[Score "veel"]', '[Declarer "N"]'))
    assert raised.value.line == 3
    assert "Score 'veel' is geen score" in str(raised.value)


def test_games_per_table_are_all_kept_with_players_and_table():
    text = "".join(
        game(
            f'[Table "{table}"]',
            '[North "Jansen"]',
            '[South "de Vries"]',
            '[East "?"]',
            '[West ""]',
            '[Contract "3NT"]',
            '[Declarer "S"]',
            f'[Result "{tricks}"]',
        )
        for table, tricks in ((1, 9), (2, 10), (3, 8))
    )
    read = results(text)
    assert [(r.table, r.score) for r in read] == [(1, 400), (2, 430), (3, -50)]
    assert {(r.ns, r.ew) for r in read} == {("Jansen – de Vries", "")}


def test_a_game_with_a_score_table_is_not_a_result_itself_and_a_repeated_table_counts_once():
    table = ['[ScoreTable "Table;Score_NS"]', "1 420", "2 -50"]
    header = game('[Contract "4S"]', '[Declarer "N"]', '[Result "10"]', *table)
    assert [r.score for r in results(header)] == [420, -50]
    assert [r.score for r in results(header + header)] == [420, -50]


def test_multiplicity_counts_tables():
    text = game('[ScoreTable "Score_NS;Multiplicity"]', "420 3", "-50 1", "170 -")
    read = results(text)
    assert [(r.score, r.count) for r in read] == [(420, 3), (-50, 1), (170, 1)]
    assert parse_pbn(text).results == 5
    with pytest.raises(PbnError, match="Multiplicity '0' is geen aantal tafels"):
        parse_pbn(game('[ScoreTable "Score_NS;Multiplicity"]', "420 0"))


def test_artificial_scores_in_the_score_columns():
    text = game(
        '[ScoreTable "Table;Score_NS;Score_EW"]', "1 A+ A-", "2 A= A", "3 60% 40%", "4 420 -"
    )
    read = results(text)
    assert [(r.score, r.artificial_ns, r.artificial_ew) for r in read] == [
        (None, "A+", "A-"),
        (None, "A", "A"),
        (None, "60%", "40%"),
        (420, "", ""),
    ]


def test_sections_with_the_same_cards_are_one_board_with_each_sections_results():
    text = game('[Section "A"]', '[ScoreTable "Score_NS"]', "420") + game(
        '[Section "B"]', '[ScoreTable "Score_NS"]', "-50"
    )
    (board,) = parse_pbn(text).boards
    assert board.section == ""
    assert [(r.section, r.score) for r in board.results] == [("A", 420), ("B", -50)]


def test_sections_with_other_cards_are_boards_of_their_own():
    text = game('[Section "A"]', '[Contract "4S"]', '[Declarer "N"]', '[Result "10"]') + game(
        '[Section "B"]', '[Contract "4S"]', '[Declarer "N"]', '[Result "9"]', deal=OTHER
    )
    first, second = parse_pbn(text).boards
    assert (first.key, first.deal.pbn, [r.score for r in first.results]) == (
        ("A", 1),
        BOARD,
        [420],
    )
    assert (second.key, second.deal.pbn, [r.score for r in second.results]) == (
        ("B", 1),
        OTHER,
        [-50],
    )


def test_matches_with_other_cards_are_told_apart_by_their_teams():
    text = game('[HomeTeam "Noord"]', '[VisitTeam "Zuid"]') + game(
        '[HomeTeam "Oost"]', '[VisitTeam "West"]', deal=OTHER
    )
    assert [b.key for b in parse_pbn(text).boards] == [("Noord – Zuid", 1), ("Oost – West", 1)]


def test_other_cards_in_the_same_section_are_refused_naming_both_lines():
    text = game('[Section "A"]') + game('[Section "A"]', deal=OTHER)
    with pytest.raises(PbnError) as raised:
        parse_pbn(text)
    assert raised.value.line == 6
    assert "spel 1 staat er al (regel 2) met andere kaarten" in str(raised.value)


def test_results_without_cards_are_left_out_with_a_warning():
    text = game() + '[Board "2"]\n[Contract "3NT"]\n[Declarer "S"]\n[Result "9"]\n'
    file = parse_pbn(text)
    assert [b.deal.board for b in file.boards] == [1]
    assert file.warnings == (
        "Regel 4: spel 2 heeft geen kaarten ([Deal] leeg of afwezig); niet ingelezen.",
    )
