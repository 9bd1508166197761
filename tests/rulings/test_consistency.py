"""Board details that contradict the answers (rulings/consistency.py): pure, no database."""

from __future__ import annotations

import pytest

from rulings import consistency
from rulings.consistency import DECLARER_SIDE, DEFENDER, contradictions
from tests.trees.test_tree_files import TREES_DIR
from trees.parse import load_tree_file

DEFENDER_PATH = [["situatie", "kaart-getoond"], ["bieding-afloop", "tegenspeler"]]
DECLARER_PATH = [["situatie", "kaart-getoond"], ["bieding-afloop", "leider-blinde"]]


def test_every_rule_names_a_question_and_answer_of_its_tree():
    """A renamed question or answer would make a rule silently never match."""
    missing = []
    for slug, node_key, choice_key in consistency.OFFENDER_ROLES:
        tree = load_tree_file(TREES_DIR / f"{slug}.yaml")
        if not tree.has_node(node_key) or tree.node(node_key).choice(choice_key) is None:
            missing.append((slug, node_key, choice_key))
    assert missing == []


@pytest.mark.parametrize(
    ("path", "offender", "declarer", "flagged"),
    [
        (DEFENDER_PATH, "E", "E", True),  # a defender in declarer's seat
        (DEFENDER_PATH, "W", "E", True),  # a defender in dummy's seat
        (DEFENDER_PATH, "N", "E", False),
        (DEFENDER_PATH, "S", "E", False),
        (DECLARER_PATH, "N", "E", True),  # declarer's side in a defender's seat
        (DECLARER_PATH, "S", "E", True),
        (DECLARER_PATH, "E", "E", False),
        (DECLARER_PATH, "W", "E", False),
    ],
)
def test_the_offender_seat_is_checked_against_the_answers(path, offender, declarer, flagged):
    found = contradictions("strafkaart", path, offender, declarer)
    assert bool(found) is flagged
    if flagged:
        assert found[0].node_key == "bieding-afloop"
        assert found[0].role == (DEFENDER if path is DEFENDER_PATH else DECLARER_SIDE)


def test_the_message_names_the_seats():
    [found] = contradictions("strafkaart", DEFENDER_PATH, "W", "E")
    assert "tegenspeler" in found.message
    assert "West" in found.message
    assert "Oost" in found.message


@pytest.mark.parametrize(("offender", "declarer"), [("", "E"), ("E", ""), ("", "")])
def test_nothing_is_flagged_while_a_seat_is_unknown(offender, declarer):
    assert contradictions("strafkaart", DEFENDER_PATH, offender, declarer) == []


def test_answers_that_do_not_say_who_offended_flag_nothing():
    path = [["situatie", "kaart-getoond"], ["bieding-afloop", "loopt-nog"]]
    assert contradictions("strafkaart", path, "E", "E") == []
    # The same keys in another tree mean nothing here.
    assert contradictions("proef", DEFENDER_PATH, "E", "E") == []


def test_the_last_answer_saying_who_offended_counts():
    path = [["situatie", "voor-partner"], ["twee-wie", "leider-blinde"]]
    [found] = contradictions("voortijdig-spelen", path, "N", "E")
    assert (found.node_key, found.role) == ("twee-wie", DECLARER_SIDE)
    assert contradictions("voortijdig-spelen", path, "E", "E") == []
