"""scores/adjusted.py: both sides' results of a recorded adjusted score, against hand-computed
values (board 7: both vulnerable, so 4S= by North is 620 and 4S-1 is -100)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from lib.bridge import Side, Vulnerability
from scores import adjusted
from scores.calculator import ContractError, imps

ALL = Vulnerability.ALL


def rows(*items: tuple[str, str, int]) -> tuple[adjusted.Row, ...]:
    return tuple(adjusted.Row(c, d, Fraction(w)) for c, d, w in items)


WEIGHTED = rows(("4S=", "N", 60), ("4S-1", "N", 40))


def weighted(field=(620, 650, -100, 170), scoring="mp", offending_rows=()):
    return adjusted.Adjustment(
        kind="weighted",
        offending_side=Side.EW,
        non_offending=adjusted.SideScore(WEIGHTED),
        offending=adjusted.SideScore(offending_rows or WEIGHTED),
        scoring=scoring,
        field=tuple(field),
    )


def test_12c1c_weighted_matchpoints_for_both_sides():
    non_offending, offending = adjusted.evaluate(weighted(), ALL)
    assert (non_offending.side, offending.side) == ("NS", "EW")
    assert [r.side_score for r in non_offending.rows] == [620, -100]
    assert [r.side_score for r in offending.rows] == [-620, 100]
    # NS: 620 beats -100 and 170 and ties 620 (5); -100 ties -100 (1): 0.6*5 + 0.4*1.
    assert non_offending.matchpoints == pytest.approx(3.4)
    assert non_offending.top == 8
    assert non_offending.percentage == pytest.approx(42.5)
    assert non_offending.expected == pytest.approx(332)  # 0.6*620 + 0.4*-100
    # EW: -620 gets 3, +100 gets 7: 0.6*3 + 0.4*7; the two sides share the top.
    assert offending.matchpoints == pytest.approx(4.6)
    assert non_offending.matchpoints + offending.matchpoints == pytest.approx(8)


def test_weighted_imps_against_the_other_table():
    non_offending, offending = adjusted.evaluate(weighted(field=(420,), scoring="imps"), ALL)
    # +200 is 5 IMPs, -520 is -11: 0.6*5 + 0.4*-11.
    assert non_offending.imps == pytest.approx(-1.4)
    assert offending.imps == pytest.approx(1.4)
    assert non_offending.matchpoints is None


def test_cross_imps_and_butler():
    field = (620, 650, -100, 170, 170)
    cross, _ = adjusted.evaluate(weighted(field=field, scoring="ximp"), ALL)
    # IMPs against each of the five other results, weighted, then averaged.
    expected = sum(0.6 * imps(620 - other) + 0.4 * imps(-100 - other) for other in field) / len(
        field
    )
    assert cross.imps == pytest.approx(expected)
    assert cross.datum is None
    butler, offending = adjusted.evaluate(weighted(field=field, scoring="butl"), ALL)
    # The datum of the five without the top and the bottom is 320, from North-South's view.
    assert (butler.datum, offending.datum) == (320, -320)
    assert butler.imps == pytest.approx(0.6 * imps(300) + 0.4 * imps(-420))
    assert offending.imps == pytest.approx(-butler.imps)


def test_the_offending_side_may_have_its_own_weighting():
    own = rows(("4S=", "N", 100))
    non_offending, offending = adjusted.evaluate(weighted(offending_rows=own), ALL)
    assert non_offending.matchpoints == pytest.approx(3.4)
    assert [r.side_score for r in offending.rows] == [-620]
    assert offending.matchpoints == 3
    assert offending.percentage == pytest.approx(37.5)


def test_artificial_scores_use_the_recorded_percentages_and_3_imps():
    adjustment = adjusted.Adjustment(
        kind="artificial",
        offending_side=Side.NS,
        non_offending=adjusted.SideScore(artificial="plus", percent=60),
        offending=adjusted.SideScore(artificial="minus", percent=40),
        field=(100, 200, 300, 400),
    )
    non_offending, offending = adjusted.evaluate(adjustment, ALL)
    assert (non_offending.side, non_offending.percentage, non_offending.matchpoints) == (
        "EW",
        60.0,
        pytest.approx(4.8),
    )
    assert (offending.percentage, offending.matchpoints) == (40.0, pytest.approx(3.2))
    teams = adjusted.Adjustment(**{**adjustment.__dict__, "scoring": "imps"})
    assert [side.imps for side in adjusted.evaluate(teams, ALL)] == [3.0, -3.0]


def test_without_a_vulnerability_rows_have_no_scores():
    non_offending, _offending = adjusted.evaluate(weighted(), None)
    assert [r.side_score for r in non_offending.rows] == [None, None]
    assert non_offending.expected is None
    assert non_offending.matchpoints is None
    assert adjusted.vulnerability_of_board(None) is None
    assert adjusted.vulnerability_of_board(7) is Vulnerability.ALL
    assert adjusted.vulnerability_of_board(2) is Vulnerability.NS


def test_rows_round_trip_through_json_in_canonical_notation():
    stored = adjusted.rows_json(rows(("4♠x-1", "N", 40), ("3sa=", "E", 60)))
    assert stored == [
        {"contract": "4SX-1", "declarer": "N", "weight": 40},
        {"contract": "3NT=", "declarer": "E", "weight": 60},
    ]
    assert adjusted.rows_json(adjusted.read_rows(stored)) == stored
    thirds = (adjusted.Row("4S=", "N", Fraction("33.33")),)
    assert adjusted.rows_json(thirds)[0]["weight"] == "33.33"  # never a float in the chain
    assert adjusted.read_rows(adjusted.rows_json(thirds)) == thirds


@pytest.mark.parametrize(
    "data",
    [
        "4S=",
        [{"contract": "4S=", "declarer": "N"}],
        [{"contract": "4S=", "declarer": "X", "weight": 100}],
        [{"contract": "4S=", "declarer": "N", "weight": True}],
        [{"contract": "4S=", "declarer": "N", "weight": "veel"}],
        [{"contract": "4S=", "declarer": "N", "weight": 0}],
        [{"contract": "8S=", "declarer": "N", "weight": 100}],
    ],
)
def test_malformed_rows_are_refused(data):
    with pytest.raises(ValueError):  # noqa: PT011 - each case fails for its own reason
        adjusted.read_rows(data)


def test_an_unreadable_contract_says_why():
    with pytest.raises(ContractError, match="niveau 8"):
        adjusted.Row("8S=", "N", Fraction(100))
    assert "niveau 8" in (adjusted.contract_problem("8S=") or "")
    assert adjusted.contract_problem("4S=") is None


def test_summary_is_one_readable_line():
    assert adjusted.summary(weighted(field=(420,))) == (
        "weighted mp; NS 60% 4S= N + 40% 4S-1 N; EW (offending) same; field NS 420"
    )
    artificial = adjusted.Adjustment(
        kind="artificial",
        offending_side=Side.NS,
        non_offending=adjusted.SideScore(artificial="plus", percent=60),
        offending=adjusted.SideScore(artificial="average", percent=50),
    )
    assert adjusted.summary(artificial) == (
        "artificial mp; EW average plus 60%; NS (offending) average 50%"
    )
