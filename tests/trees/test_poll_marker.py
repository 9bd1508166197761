"""A question a player poll answers (``poll: true`` on a question, docs/TREE_FORMAT.md):
parsed, hashed, frozen, stored as rows and read back; refused on an outcome. What the wizard
and the record show for it: tests/scores/test_poll_beside.py."""

import pytest

from tests.support.tree_texts import GOOD, SOURCE, frozen, replace, tree_from
from trees.hashing import canonical_data
from trees.loading import spec_from_rows
from trees.models import Node, Tree
from trees.parse import parse_tree
from trees.spec import Snapshot, SnapshotFormatError, TreeError, content_hash

QUESTION = '    question: {nl: "Tweede vraag?", en: "Second question?"}\n'
POLLED = replace(QUESTION, QUESTION + "    poll: true\n")


def test_a_question_is_marked_and_the_hash_covers_it():
    tree = tree_from(POLLED)
    assert tree.node("vraag-b").poll
    assert not tree.node("vraag-a").poll
    assert content_hash(tree) != content_hash(tree_from(GOOD))


def test_questions_without_the_mark_keep_the_hash_they_had():
    assert all("poll" not in node for node in canonical_data(tree_from(GOOD))["nodes"])


def test_an_outcome_cannot_be_polled_and_the_mark_is_a_boolean():
    with pytest.raises(TreeError, match="only a question is answered by a poll"):
        parse_tree(replace("  uitkomst-a:\n", "  uitkomst-a:\n    poll: true\n", GOOD), SOURCE)
    with pytest.raises(TreeError, match="poll must be true or false"):
        parse_tree(replace("poll: true", 'poll: "ja"', POLLED), SOURCE)


def test_a_snapshot_keeps_the_mark_and_reads_it_back():
    data = frozen(POLLED).to_json()
    assert data["nodes"]["vraag-b"]["poll"] is True
    assert "poll" not in data["nodes"]["vraag-a"]
    again = Snapshot.from_json(data)
    assert again.node("vraag-b").poll
    assert again.to_json() == data
    assert "poll" not in str(frozen(GOOD).to_json())  # other snapshots keep their digest
    data["nodes"]["vraag-b"]["poll"] = "ja"
    with pytest.raises(SnapshotFormatError, match="poll: must be bool"):
        Snapshot.from_json(data)


@pytest.mark.parametrize(
    ("slug", "key"),
    [
        ("ongeoorloofde-informatie", "logisch-alternatief"),
        ("partner-bij-uitleg", "logisch-alternatief"),
    ],
)
def test_the_shipped_logical_alternative_questions_are_marked_and_stored(db, shipped, slug, key):
    tree = Tree.objects.get(slug=slug)
    assert list(Node.objects.filter(tree=tree, poll=True).values_list("key", flat=True)) == [key]
    spec = spec_from_rows(tree)
    assert spec.node(key).poll
    assert content_hash(spec) == tree.version
