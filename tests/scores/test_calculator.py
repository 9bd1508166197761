"""The score calculator against the Law 77 scoring table and the Law 78B IMP scale.

Expected scores below are worked out by hand from the published table (trick score, game or
partscore premium, slam premium, insult, overtricks, undertricks), not taken from the code.
"""

import itertools
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scores.calculator import (
    Contract,
    ContractError,
    Denomination,
    WeightError,
    contract_score,
    datum,
    duplicate_score,
    imps,
    matchpoints,
    parse_contract,
    percentage,
    weighted_imps,
    weighted_matchpoints,
)

V, NV = True, False

SCORING_TABLE = [
    # The examples in issue 16.
    ("4SX-2", V, -500),
    ("3NT=", NV, 400),
    ("7NTXX=", V, 2980),
    ("1SX+1", V, 360),
    ("1CX-7", NV, -1700),
    # Partscores: trick score + 50.
    ("1C=", NV, 70),
    ("1D+1", NV, 90),
    ("2C=", V, 90),
    ("1H=", NV, 80),
    ("2S+1", NV, 140),
    ("1NT=", NV, 90),
    ("1NT+2", V, 150),
    ("2NT=", V, 120),
    ("2NT+1", NV, 150),
    ("3H=", NV, 140),
    ("4C=", NV, 130),
    ("4D+1", V, 150),
    # Games: 300 not vulnerable, 500 vulnerable.
    ("3NT+1", V, 630),
    ("4H=", NV, 420),
    ("4S=", V, 620),
    ("4S+2", V, 680),
    ("5C=", NV, 400),
    ("5D=", V, 600),
    ("5D+1", V, 620),
    # Slams: small 500/750, grand 1000/1500.
    ("6C=", NV, 920),
    ("6H=", V, 1430),
    ("6NT=", NV, 990),
    ("6NT+1", V, 1470),
    ("7C=", V, 2140),
    ("7S=", NV, 1510),
    ("7NT=", V, 2220),
    ("7NT=", NV, 1520),
    # Doubled and made: trick score ×2, insult 50, overtricks 100/200.
    ("1CX=", NV, 140),
    ("1SX=", V, 160),
    ("2HX=", NV, 470),
    ("2HX=", V, 670),
    ("1NTX=", V, 180),
    ("1NTX+1", V, 380),
    ("1NTX+1", NV, 280),
    ("2SX+2", NV, 670),
    ("3NTX=", NV, 550),
    ("3NTX+1", V, 950),
    ("4SX=", V, 790),
    ("5CX=", NV, 550),
    ("6HX=", NV, 1210),
    ("7NTX=", V, 2490),
    # Redoubled and made: trick score ×4, insult 100, overtricks 200/400.
    ("1CXX=", NV, 230),
    ("1CXX=", V, 230),
    ("1SXX=", NV, 520),
    ("1SXX+1", V, 1120),
    ("1NTXX=", NV, 560),
    ("2DXX+1", NV, 760),
    ("6CXX=", V, 1830),
    # Undoubled undertricks: 50 / 100 each.
    ("4S-1", NV, -50),
    ("4S-1", V, -100),
    ("3NT-3", NV, -150),
    ("6NT-4", V, -400),
    # Doubled undertricks, not vulnerable: 100, 200, 200, then 300 each.
    ("4SX-1", NV, -100),
    ("4SX-2", NV, -300),
    ("4SX-3", NV, -500),
    ("4SX-4", NV, -800),
    ("4SX-5", NV, -1100),
    # Doubled undertricks, vulnerable: 200, then 300 each.
    ("4SX-1", V, -200),
    ("4SX-3", V, -800),
    ("4SX-4", V, -1100),
    ("7NTX-13", V, -3800),
    # Redoubled undertricks: twice the doubled penalty.
    ("3NTXX-1", NV, -200),
    ("3NTXX-2", NV, -600),
    ("3NTXX-3", NV, -1000),
    ("3NTXX-4", NV, -1600),
    ("3NTXX-1", V, -400),
    ("3NTXX-2", V, -1000),
    ("3NTXX-4", V, -2200),
    ("7NTXX-13", NV, -7000),
    ("7NTXX-13", V, -7600),
    # A passed-out board.
    ("pass", NV, 0),
    ("pass", V, 0),
]


@pytest.mark.parametrize(("contract", "vulnerable", "expected"), SCORING_TABLE)
def test_scoring_table(contract, vulnerable, expected):
    assert duplicate_score(contract, vulnerable) == expected


NOTATIONS = [
    ("4♠X-2", V, -500),
    ("4sx-2", V, -500),
    (" 4 S X -2 ", V, -500),
    ("4SX−2", V, -500),  # a typographic minus sign
    ("4SX 8", V, -500),  # tricks taken instead of a result
    ("4♤x-2", V, -500),
    ("3SA=", NV, 400),
    ("3sa=", NV, 400),
    ("3ZT=", NV, 400),
    ("3N=", NV, 400),
    ("3nt 9", NV, 400),
    ("4R=", NV, 130),  # ruiten
    ("4K=", NV, 130),  # klaveren
    ("4♦=", NV, 130),
    ("4♣=", NV, 130),
    ("4♥+1", NV, 450),
    ("4♡=", NV, 420),
    ("4H 10", NV, 420),
    ("4S 11", NV, 450),
    ("1C 0", NV, -350),
    ("PASS", NV, 0),
    ("pas", V, 0),
    ("Passed", NV, 0),
]


@pytest.mark.parametrize(("contract", "vulnerable", "expected"), NOTATIONS)
def test_notations(contract, vulnerable, expected):
    assert duplicate_score(contract, vulnerable) == expected


def test_parse_contract_reads_the_parts():
    assert parse_contract("4♠X-2") == Contract(4, Denomination.SPADES, "X", 8)
    assert parse_contract("3SA=") == Contract(3, Denomination.NOTRUMP, "", 9)
    assert parse_contract("7NTXX=") == Contract(7, Denomination.NOTRUMP, "XX", 13)
    assert parse_contract("pass") is None
    assert parse_contract("2R+1").notation == "2D+1"


ERRORS = [
    ("8S=", "niveau 8 bestaat niet"),
    ("0S=", "niveau 0 bestaat niet"),
    ("10S=", "niveau 10 bestaat niet"),
    ("4S+8", "8 overslagen kan niet; op niveau 4 zijn er hoogstens 3"),
    ("7NT+1", "1 overslag kan niet; op niveau 7 zijn er hoogstens 0"),
    ("1C-8", "8 down kan niet; op niveau 1 hoogstens 7 down"),
    ("4S 14", "14 slagen kan niet"),
    ("4S", "de uitslag ontbreekt"),
    ("4Q=", "onbekende kleur 'Q'"),
    ("4", "onbekende kleur 'niets'"),
    ("S4=", "moet beginnen met een niveau"),
    ("4SXXX=", "meer dan XX"),
    ("4SD-1", "schrijf X voor doublet"),
    ("4SR-1", "schrijf X voor doublet"),
    ("4S+0", "schrijf = voor precies gemaakt"),
    ("4S-0", "schrijf = voor precies gemaakt"),
    ("4S=X", "uitslag '=X' onbekend"),
    ("4S++1", "uitslag '++1' onbekend"),
    ("4SN=", "uitslag 'N=' onbekend"),
    ("", "Geen contract ingevuld"),
    ("   ", "Geen contract ingevuld"),
]


@pytest.mark.parametrize(("text", "message"), ERRORS)
def test_unreadable_contracts_say_why_in_one_line(text, message):
    with pytest.raises(ContractError) as raised:
        duplicate_score(text, False)
    assert message in str(raised.value)
    assert "\n" not in str(raised.value)
    assert isinstance(raised.value, ValueError)


def test_contract_object_refuses_impossible_values():
    with pytest.raises(ContractError, match="Niveau 8"):
        Contract(8, Denomination.SPADES, "", 13)
    with pytest.raises(ContractError, match="14 slagen"):
        Contract(1, Denomination.SPADES, "", 14)


# Law 78B, as published: (lowest difference, highest difference, IMPs).
IMP_BANDS = [
    (0, 10, 0), (20, 40, 1), (50, 80, 2), (90, 120, 3), (130, 160, 4), (170, 210, 5),
    (220, 260, 6), (270, 310, 7), (320, 360, 8), (370, 420, 9), (430, 490, 10),
    (500, 590, 11), (600, 740, 12), (750, 890, 13), (900, 1090, 14), (1100, 1290, 15),
    (1300, 1490, 16), (1500, 1740, 17), (1750, 1990, 18), (2000, 2240, 19),
    (2250, 2490, 20), (2500, 2990, 21), (3000, 3490, 22), (3500, 3990, 23),
]  # fmt: skip


@pytest.mark.parametrize(("low", "high", "expected"), IMP_BANDS)
def test_imp_scale_at_both_ends_of_every_band(low, high, expected):
    assert imps(low) == expected
    assert imps(high) == expected
    assert imps(-low) == -expected
    assert imps(-high) == -expected
    # The next multiple of ten is the next band.
    assert imps(high + 10) == expected + 1
    assert imps(-(high + 10)) == -(expected + 1)


def test_imp_scale_tops_out_at_24():
    assert imps(4000) == 24
    assert imps(7600) == 24
    assert imps(-4000) == -24
    assert imps(3990) == 23


def test_imps_between_bands_count_by_the_lower_band():
    assert imps(15) == 0
    assert imps(45) == 1
    assert imps(-45) == -1


FIELD = [420, 450, -50, 170]


def test_matchpoints_example_from_the_issue():
    assert matchpoints(420, FIELD) == 5


def test_matchpoints_top_bottom_and_ties():
    assert matchpoints(480, FIELD) == 8  # top: 2 × 4
    assert matchpoints(-100, FIELD) == 0
    assert matchpoints(170, FIELD) == 3  # beats -50, ties 170
    assert matchpoints(100, [100, 100, 100]) == 3
    assert matchpoints(100, []) == 0


def test_percentage():
    assert percentage(5, 4) == 62.5
    assert percentage(8, 4) == 100
    assert percentage(0, 4) == 0
    assert percentage(3.4, 4) == pytest.approx(42.5)


@pytest.mark.parametrize(
    ("points", "comparisons", "message"),
    [(5, 0, "Geen andere uitslagen"), (9, 4, "buiten 0 t/m 8"), (-1, 4, "buiten 0 t/m 8")],
)
def test_percentage_refuses(points, comparisons, message):
    with pytest.raises(ValueError, match=message):
        percentage(points, comparisons)


def test_weighted_matchpoints_example_from_the_issue():
    assert weighted_matchpoints([(420, 0.6), (-50, 0.4)], FIELD) == pytest.approx(3.4)


def test_weighted_matchpoints_accepts_percentages_and_fractions():
    assert weighted_matchpoints([(420, 60), (-50, 40)], FIELD) == pytest.approx(3.4)
    assert weighted_matchpoints([(420, Fraction(3, 5)), (-50, Fraction(2, 5))], FIELD) == 3.4
    # 0.1 + 0.2 + 0.7 is not exactly 1 in floating point, but it is what the director typed.
    assert weighted_matchpoints([(420, 0.1), (450, 0.2), (-50, 0.7)], FIELD) == pytest.approx(
        0.1 * 5 + 0.2 * 7 + 0.7 * 1
    )
    assert weighted_matchpoints([(420, 33.33), (450, 33.33), (-50, 33.34)], FIELD) == pytest.approx(
        (33.33 * 5 + 33.33 * 7 + 33.34 * 1) / 100
    )


@pytest.mark.parametrize(
    ("weighted", "message"),
    [
        ([(420, 0.6), (-50, 0.3)], "tellen op tot 0.9"),
        ([(420, 60), (-50, 30)], "tellen op tot 90"),
        ([(420, 0.6), (-50, 40)], "tellen op tot 40.6"),
        ([(420, 1.2), (-50, -0.2)], "moet groter dan 0"),
        ([(420, 1), (-50, 0)], "moet groter dan 0"),
        ([], "Geen uitslagen om te wegen"),
        ([(420, "60"), (-50, 40)], "is geen getal"),
        ([(420, float("nan"))], "is geen getal"),
    ],
)
def test_weights_that_do_not_add_up_are_refused(weighted, message):
    with pytest.raises(WeightError, match=message) as raised:
        weighted_matchpoints(weighted, FIELD)
    assert "\n" not in str(raised.value)
    with pytest.raises(WeightError, match=message):
        weighted_imps(weighted, 0)


def test_weighted_imps():
    # Against 170 at the other table: +250 is 6 IMPs, -220 is -6 IMPs.
    assert weighted_imps([(420, 0.6), (-50, 0.4)], 170) == pytest.approx(1.2)
    # Against 420: 0 IMPs and -470 (10 IMPs lost).
    assert weighted_imps([(420, 60), (-50, 40)], 420) == pytest.approx(-4.0)
    assert weighted_imps([(620, 1)], -100) == 12  # 720: 600-740


# Properties.

levels = st.integers(min_value=1, max_value=7)
denominations = st.sampled_from(list(Denomination))
penalties = st.sampled_from(["", "X", "XX"])
vulnerability = st.booleans()


@given(levels, denominations, penalties, vulnerability)
def test_score_rises_with_every_trick(level, denomination, penalty, vulnerable):
    scores = [
        contract_score(Contract(level, denomination, penalty, tricks), vulnerable)
        for tricks in range(14)
    ]
    assert all(a < b for a, b in itertools.pairwise(scores))


@given(levels, penalties, vulnerability, st.integers(min_value=0, max_value=13))
def test_minors_score_alike_and_majors_score_alike(level, penalty, vulnerable, tricks):
    def score(denomination):
        return contract_score(Contract(level, denomination, penalty, tricks), vulnerable)

    assert score(Denomination.CLUBS) == score(Denomination.DIAMONDS)
    assert score(Denomination.HEARTS) == score(Denomination.SPADES)


@given(levels, levels, denominations, denominations, penalties, vulnerability, st.data())
def test_undertricks_depend_only_on_their_number(
    level_a, level_b, denom_a, denom_b, penalty, vulnerable, data
):
    down = data.draw(st.integers(min_value=1, max_value=6 + min(level_a, level_b)))
    a = Contract(level_a, denom_a, penalty, 6 + level_a - down)
    b = Contract(level_b, denom_b, penalty, 6 + level_b - down)
    assert contract_score(a, vulnerable) == contract_score(b, vulnerable) < 0


@given(levels, denominations, penalties, st.integers(min_value=0, max_value=13))
def test_vulnerability_raises_the_stakes(level, denomination, penalty, tricks):
    contract = Contract(level, denomination, penalty, tricks)
    vul, not_vul = contract_score(contract, True), contract_score(contract, False)
    if contract.result >= 0:
        assert 0 < not_vul <= vul
    else:
        assert vul < not_vul < 0


@given(levels, denominations, penalties, vulnerability, st.integers(min_value=0, max_value=13))
def test_notation_round_trips(level, denomination, penalty, vulnerable, tricks):
    contract = Contract(level, denomination, penalty, tricks)
    assert parse_contract(contract.notation) == contract
    assert duplicate_score(contract.notation, vulnerable) == contract_score(contract, vulnerable)


@given(st.integers(min_value=-10000, max_value=10000))
def test_imps_are_odd_symmetric_and_bounded(difference):
    assert imps(-difference) == -imps(difference)
    assert -24 <= imps(difference) <= 24


@given(st.integers(min_value=-10000, max_value=10000), st.integers(min_value=0, max_value=500))
def test_imps_never_fall_as_the_difference_grows(difference, step):
    assert imps(difference) <= imps(difference + step)


scores = st.integers(min_value=-400, max_value=400).map(lambda n: n * 10)


@given(scores, st.lists(scores, max_size=20))
def test_matchpoints_lie_between_zero_and_top(score, field):
    assert 0 <= matchpoints(score, field) <= 2 * len(field)


@given(scores, st.lists(scores, max_size=20))
def test_matchpoints_of_both_sides_add_up_to_the_top(score, field):
    east_west = matchpoints(-score, [-other for other in field])
    assert matchpoints(score, field) + east_west == 2 * len(field)


@given(st.lists(scores, min_size=1, max_size=12))
def test_all_results_on_a_board_share_n_times_n_minus_one(results):
    total = sum(matchpoints(s, results[:i] + results[i + 1 :]) for i, s in enumerate(results))
    assert total == len(results) * (len(results) - 1)


@given(scores, st.lists(scores, max_size=20))
def test_a_single_weight_of_one_is_plain_matchpoints(score, field):
    assert weighted_matchpoints([(score, 1)], field) == matchpoints(score, field)
    assert weighted_matchpoints([(score, 100)], field) == matchpoints(score, field)


@pytest.mark.parametrize(
    ("scores", "expected"),
    [
        ([420], 420),
        ([420, 450], 440),  # 435 rounds away from zero
        ([-420, -450], -440),
        ([420, 450, -50, 170], 250),  # four scores: all count
        ([420, 450, -50, 170, 420], 340),  # five: without the top and the bottom
        ([0, 0, 0, 10, 7600], 0),
    ],
)
def test_the_butler_datum(scores, expected):
    assert datum(scores) == expected


def test_no_datum_without_scores():
    with pytest.raises(ValueError, match="een datum kan niet"):
        datum([])
