"""The way to a question a search found (trees/routes.py): the answer at each step that leads
there."""

from tests.support.tree_texts import GOOD
from trees import routes
from trees.loading import TREES_DIR
from trees.parse import load_tree_file, parse_tree
from trees.spec import Snapshot


def test_every_question_before_the_target_has_the_answer_on_the_shortest_way():
    tree = parse_tree(GOOD, "proef.yaml")
    # vraag-a leads to vraag-b by "ja" and by "nee": the first in the file is taken.
    assert routes.shortest_answers(tree, "vraag-b") == {"vraag-a": "ja"}
    assert routes.shortest_answers(tree, "vraag-a") == {}  # the start: nothing before it


def test_an_outcome_or_an_unknown_node_is_no_target():
    tree = parse_tree(GOOD, "proef.yaml")
    assert routes.shortest_answers(tree, "uitkomst-a") == {}
    assert routes.shortest_answers(tree, "nergens") == {}


def test_the_penalty_card_tree_is_walked_to_the_question_found():
    tree = load_tree_file(TREES_DIR / "strafkaart.yaml")
    answers = routes.shortest_answers(tree, "kon-spelen")
    assert answers == {"situatie": "andere-kaart"}
    deeper = routes.shortest_answers(tree, "twee-zichtbaar")
    assert deeper == {
        "situatie": "kaart-getoond",
        "wanneer": "spel",
        "wie": "tegenspeler",
        "hoe": "twee-tegelijk",
        # Asked since the 2017 trees were corrected: still in time (Law 58B4).
        "twee-ontdekt": "ja",
    }
    # Questions off the way have no answer: an answer there left the way.
    assert "partner-strafkaarten" not in deeper


def test_a_snapshot_is_walked_once_per_digest_and_target():
    tree = parse_tree(GOOD, "proef.yaml")
    snapshot = Snapshot(tree=tree, version="v", law={}, digest="d" * 64)
    routes.clear_cache()
    first = routes.toward(snapshot, "vraag-b")
    assert routes.toward(snapshot, "vraag-b") is first
    assert routes.toward(snapshot, "") == {}
