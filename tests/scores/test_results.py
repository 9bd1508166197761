"""scores/results.py: a table's result as stored, the ruling's own table, and which results
an adjusted score is compared with."""

import pytest

from scores.results import Compared, TableResult, comparison, own_result

FIELD = (
    TableResult(420, "4S=", "N", table=1),
    TableResult(450, "4S+1", "N", table=2),
    TableResult(None, artificial_ns="A+", artificial_ew="A-", table=3),
    TableResult(-50, "4S-1", "S", table=4, count=3),
)


def test_stored_json_is_compact_and_reads_back():
    full = TableResult(
        -100, "3NTX-1", "W", section="A", table=7, room="Open", ns="3", ew="12", count=2
    )
    assert TableResult(420).to_json() == {"score": 420}
    assert TableResult.from_json(full.to_json()) == full
    assert TableResult.from_json({"score": None, "artificial_ns": "A+"}).artificial


@pytest.mark.parametrize(
    "data", [420, [], {}, {"score": "420"}, {"score": True}, {"score": 1, "colour": "red"}]
)
def test_anything_else_is_refused(data):
    with pytest.raises((ValueError, TypeError)):
        TableResult.from_json(data)


def test_the_own_table_is_the_one_result_at_the_rulings_table():
    assert own_result(FIELD, 2) == 1
    assert own_result(FIELD, None) is None
    assert own_result(FIELD, 9) is None
    assert own_result(FIELD, 4) is None  # a row of three tables is not one table's result
    twice = (TableResult(420, table=2, section="A"), TableResult(450, table=2, section="B"))
    assert own_result(twice, 2) is None  # the file does not tell them apart


def test_the_field_leaves_out_the_own_table_and_artificial_scores():
    rows, field = comparison(FIELD, 1, "mp")
    assert field == (420, -50, -50, -50)
    assert [(row.own, row.used) for row in rows] == [
        (False, True),
        (True, False),
        (False, True),
        (False, True),
    ]
    assert isinstance(rows[0], Compared)
    assert comparison(FIELD, None, "mp")[1] == (420, 450, -50, -50, -50)


def test_imps_against_the_other_table_compare_within_the_own_match():
    match = (
        TableResult(620, section="A", room="Open"),
        TableResult(650, section="A", room="Closed"),
        TableResult(-100, section="B", room="Open"),
        TableResult(170, section="B", room="Closed"),
    )
    rows, field = comparison(match, 0, "imps")
    assert field == (650,)
    assert [row.used for row in rows] == [False, True, False, False]
    assert comparison(match, 0, "ximp")[1] == (650, -100, 170)  # cross-IMPs: every other
    assert comparison(match, None, "imps")[1] == (620, 650, -100, 170)  # own match unknown
