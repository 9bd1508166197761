"""Board details that contradict the answers (rulings/consistency.py): pure, no database.

Who the offender is by an answer is said in the tree files (``offender`` on a choice)."""

from __future__ import annotations

import pytest

from rulings.consistency import DECLARER_SIDE, DEFENDER, contradictions
from tests.trees.test_tree_files import TREES_DIR
from trees.loading import read_tree_files
from trees.parse import load_tree_file

DEFENDER_PATH = [["situatie", "kaart-getoond"], ["bieding-afloop", "tegenspeler"]]
DECLARER_PATH = [["situatie", "kaart-getoond"], ["bieding-afloop", "leider-blinde"]]
STRAFKAART = load_tree_file(TREES_DIR / "strafkaart.yaml")
VOORTIJDIG = load_tree_file(TREES_DIR / "voortijdig-spelen.yaml")

# The answers that said who offended when the roles were a table in rulings/consistency.py
# (moved into the tree files, issue 26): none may get lost. A new tree adds its own in its file.
ROLES_WHEN_MOVED = {
    ("strafkaart", "wie", "tegenspeler"): DEFENDER,
    ("strafkaart", "wie", "leider-blinde"): DECLARER_SIDE,
    ("strafkaart", "bieding-afloop", "tegenspeler"): DEFENDER,
    ("strafkaart", "bieding-afloop", "leider-blinde"): DECLARER_SIDE,
    ("strafkaart-1963", "wie", "tegenspeler"): DEFENDER,
    ("strafkaart-1963", "wie", "leider-blinde"): DECLARER_SIDE,
    ("teruggenomen-kaart", "gespeeld", "nee-tegenspeler"): DEFENDER,
    ("teruggenomen-kaart", "gespeeld", "nee-leider"): DECLARER_SIDE,
    ("teruggenomen-kaart", "wie-onreglementair", "tegenspeler"): DEFENDER,
    ("teruggenomen-kaart", "wie-onreglementair", "leider"): DECLARER_SIDE,
    ("verzaking", "wiens-kaart", "tegenspeler"): DEFENDER,
    ("verzaking-2007", "wiens-kaart", "tegenspeler"): DEFENDER,
    ("voor-de-beurt-uitkomen", "wie-speelde-voor", "uitkomst-tegenspeler"): DEFENDER,
    ("voor-de-beurt-uitkomen", "wie-speelde-voor", "later-tegenspeler"): DEFENDER,
    ("voor-de-beurt-uitkomen", "wie-speelde-voor", "uitkomst-leidende-partij"): DECLARER_SIDE,
    ("voor-de-beurt-uitkomen", "wie-speelde-voor", "later-leider"): DECLARER_SIDE,
    ("voortijdig-spelen", "situatie", "voor-partner"): DEFENDER,
    ("voortijdig-spelen", "situatie", "voor-rechts"): DEFENDER,
    ("voortijdig-spelen", "situatie", "na-terugname"): DEFENDER,
    ("voortijdig-spelen", "situatie", "leider"): DECLARER_SIDE,
    ("voortijdig-spelen", "twee-wie", "tegenspeler"): DEFENDER,
    ("voortijdig-spelen", "twee-wie", "leider-blinde"): DECLARER_SIDE,
}


def test_the_tree_files_keep_every_role_the_table_had():
    """A renamed question or answer keeps its role only if the file says it again."""
    said = {
        (tree.slug, node.key, choice.key): choice.offender
        for tree in read_tree_files(TREES_DIR)
        for node in tree.nodes
        for choice in node.choices
        if choice.offender
    }
    assert {key: said.get(key) for key in ROLES_WHEN_MOVED} == ROLES_WHEN_MOVED


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
    found = contradictions(STRAFKAART, path, offender, declarer)
    assert bool(found) is flagged
    if flagged:
        assert found[0].node_key == "bieding-afloop"
        assert found[0].role == (DEFENDER if path is DEFENDER_PATH else DECLARER_SIDE)


def test_the_message_names_the_seats():
    [found] = contradictions(STRAFKAART, DEFENDER_PATH, "W", "E")
    assert "tegenspeler" in found.message
    assert "West" in found.message
    assert "Oost" in found.message


@pytest.mark.parametrize(("offender", "declarer"), [("", "E"), ("E", ""), ("", "")])
def test_nothing_is_flagged_while_a_seat_is_unknown(offender, declarer):
    assert contradictions(STRAFKAART, DEFENDER_PATH, offender, declarer) == []


def test_answers_that_do_not_say_who_offended_flag_nothing():
    path = [["situatie", "kaart-getoond"], ["bieding-afloop", "loopt-nog"]]
    assert contradictions(STRAFKAART, path, "E", "E") == []
    # The same keys in another tree mean nothing there.
    other = load_tree_file(TREES_DIR / "claim.yaml")
    assert contradictions(other, DEFENDER_PATH, "E", "E") == []


def test_the_last_answer_saying_who_offended_counts():
    path = [["situatie", "voor-partner"], ["twee-wie", "leider-blinde"]]
    [found] = contradictions(VOORTIJDIG, path, "N", "E")
    assert (found.node_key, found.role) == ("twee-wie", DECLARER_SIDE)
    assert contradictions(VOORTIJDIG, path, "E", "E") == []
