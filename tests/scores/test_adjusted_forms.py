"""scores/adjusted_forms.py: rows without JavaScript, weights summing to 100 % per side,
contracts the calculator cannot read, at least one row; errors on the field they concern."""

from __future__ import annotations

from fractions import Fraction

from scores.adjusted_forms import AdjustedScoreForm


def form(**data) -> AdjustedScoreForm:
    base = {"kind": "weighted", "scoring": "mp", "offending_side": "EW", "sequence": "3"}
    return AdjustedScoreForm({**base, **data})


def test_weighted_rows_are_read_and_blank_rows_ignored():
    f = form(
        non_contract_1="4S=",
        non_declarer_1="N",
        non_weight_1="60",
        non_contract_3="4s-1",
        non_declarer_3="N",
        non_weight_3="40",
        field="620, 650 -100;170",
    )
    assert f.is_valid(), f.errors
    rows = f.cleaned_data["non_rows"]
    assert [(r.notation, r.declarer, r.weight) for r in rows] == [
        ("4S=", "N", Fraction(60)),
        ("4S-1", "N", Fraction(40)),
    ]
    assert f.cleaned_data["off_rows"] == []  # the same weighting
    assert f.cleaned_data["field"] == [620, 650, -100, 170]


def test_weights_must_sum_to_100_per_side():
    f = form(
        non_contract_1="4S=",
        non_declarer_1="N",
        non_weight_1="60",
        non_contract_2="4S-1",
        non_declarer_2="N",
        non_weight_2="30",
        off_contract_1="4S=",
        off_declarer_1="N",
        off_weight_1="110",
    )
    assert not f.is_valid()
    assert "tellen op tot 90 %" in f.errors["non_contract_1"][0]
    assert "off_weight_1" in f.errors  # over 100


def test_an_unreadable_contract_says_why_in_place():
    f = form(non_contract_1="8S=", non_declarer_1="N", non_weight_1="100")
    assert not f.is_valid()
    assert "niveau 8 bestaat niet" in f.errors["non_contract_1"][0]


def test_at_least_one_row_and_a_declarer():
    empty = form()
    assert not empty.is_valid()
    assert "minstens één uitslag" in empty.errors["non_contract_1"][0]
    no_declarer = form(non_contract_1="4S=", non_weight_1="100")
    assert not no_declarer.is_valid()
    assert "non_declarer_1" in no_declarer.errors


def test_assigned_is_one_row_with_weight_100_by_default():
    f = form(kind="assigned", non_contract_1="3NT=", non_declarer_1="S")
    assert f.is_valid(), f.errors
    assert [r.weight for r in f.cleaned_data["non_rows"]] == [100]
    two = form(
        kind="assigned",
        non_contract_1="3NT=",
        non_declarer_1="S",
        non_weight_1="50",
        non_contract_2="3NT-1",
        non_declarer_2="S",
        non_weight_2="50",
    )
    assert not two.is_valid()
    assert "één uitslag" in two.errors["non_contract_1"][0]


def test_artificial_needs_both_sides_and_ignores_rows():
    f = form(kind="artificial", non_artificial="plus")
    assert not f.is_valid()
    assert "off_artificial" in f.errors
    ok = form(kind="artificial", non_artificial="plus", off_artificial="minus")
    assert ok.is_valid(), ok.errors
    assert ok.cleaned_data["non_rows"] == []


def test_other_results_must_be_bridge_scores():
    f = form(non_contract_1="4S=", non_declarer_1="N", non_weight_1="100", field="420 abc")
    assert not f.is_valid()
    assert "abc" in f.errors["field"][0]
    odd = form(non_contract_1="4S=", non_declarer_1="N", non_weight_1="100", field="425")
    assert not odd.is_valid()
