"""The tally of a player poll and its 16B1(b) suggestion (rulings/poll_tally.py), pure."""

import pytest

from rulings.poll_tally import Answer, Thresholds, suggest, tally

ORDER = ["P", "X", "3H", "3S", "4H"]


def answers(*rows: tuple[str, tuple[str, ...]]) -> list[Answer]:
    return [Answer(chosen, considered) for chosen, considered in rows]


def test_counts_chosen_and_considered_with_choosers_counted_as_considering():
    result = tally(
        answers(("P", ("4H",)), ("4H", ("P",)), ("P", ()), ("P", ("3S", "3S", "P"))),
        order=ORDER,
    )
    assert result.answers == 4
    assert [(r.code, r.chosen, r.considered) for r in result.calls] == [
        ("P", 3, 4),
        ("4H", 1, 2),
        ("3S", 0, 1),
    ]
    assert result.get("3S").share == 25
    assert result.get("X") is None


def test_ties_follow_the_bidding_box_order():
    result = tally(answers(("4H", ()), ("P", ())), order=ORDER)
    assert [row.code for row in result.calls] == ["P", "4H"]


def test_a_call_is_an_alternative_when_considered_often_enough_and_chosen_by_some():
    limits = Thresholds(consider_percent=25, choose_minimum=1, minimum_answers=4)
    result = tally(
        answers(("4H", ("P",)), ("4H", ()), ("4H", ()), ("4H", ("3S",)), ("4H", ()), ("P", ())),
        limits,
    )
    # Pass: considered by 2 of 6 (33 %), chosen by 1 -> an alternative; 3S considered by one
    # (17 %) and chosen by none -> not.
    assert result.alternatives == ("4H", "P")
    assert suggest(result, "4H", limits).answer is True
    assert suggest(result, "4H", limits).alternatives == ("P",)


def test_considered_but_never_chosen_is_no_alternative():
    limits = Thresholds(consider_percent=25, choose_minimum=1, minimum_answers=4)
    result = tally(answers(*[("4H", ("P",))] * 5), limits)
    assert result.get("P").considered == 5
    assert not result.get("P").alternative
    suggestion = suggest(result, "4H", limits)
    assert suggestion.answer is False
    assert suggestion.alternatives == ()


def test_the_club_thresholds_decide():
    rows = answers(("4H", ()), ("4H", ()), ("4H", ()), ("4H", ()), ("P", ()))
    lenient = Thresholds(consider_percent=20, choose_minimum=1, minimum_answers=4)
    strict = Thresholds(consider_percent=30, choose_minimum=1, minimum_answers=4)
    two_choose = Thresholds(consider_percent=20, choose_minimum=2, minimum_answers=4)
    assert suggest(tally(rows, lenient), "4H", lenient).answer is True
    assert suggest(tally(rows, strict), "4H", strict).answer is False
    assert suggest(tally(rows, two_choose), "4H", two_choose).answer is False


def test_too_few_answers_suggest_nothing():
    limits = Thresholds(minimum_answers=4)
    result = tally(answers(("P", ()), ("4H", ()), ("P", ())), limits)
    suggestion = suggest(result, "4H", limits)
    assert (suggestion.enough, suggestion.answer, suggestion.alternatives) == (False, None, ())
    assert result.alternatives == ()


def test_without_the_table_call_the_alternatives_are_listed_but_not_answered():
    limits = Thresholds(minimum_answers=1)
    result = tally(answers(("P", ()), ("4H", ())), limits)
    suggestion = suggest(result, "", limits)
    assert suggestion.answer is None
    assert set(suggestion.alternatives) == {"P", "4H"}


def test_an_empty_poll():
    result = tally([])
    assert (result.answers, result.calls) == (0, ())
    assert suggest(result, "P").enough is False


@pytest.mark.parametrize(
    "values", [{"consider_percent": 0}, {"consider_percent": 101}, {"choose_minimum": 0}]
)
def test_thresholds_out_of_range_are_refused(values):
    with pytest.raises(ValueError, match="must be"):
        Thresholds(**values)
