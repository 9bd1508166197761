"""Answers that say who the offender is (``offender`` on a choice, docs/TREE_FORMAT.md):
parsed, hashed, frozen, stored as rows and read back; a wrong role is named. The warning it
drives is tested in tests/rulings/test_consistency.py and test_outcome_views.py."""

import pytest

from tests.support.tree_texts import GOOD, SOURCE, frozen, replace, tree_from
from trees.hashing import canonical_data
from trees.loading import spec_from_rows
from trees.models import Choice, Tree
from trees.parse import parse_tree
from trees.spec import Snapshot, SnapshotFormatError, TreeError, content_hash

SAYING = replace(
    '        label: {nl: "Nee", en: "No"}\n        next: uitkomst-b\n',
    '        label: {nl: "Nee", en: "No"}\n        next: uitkomst-b\n'
    "        offender: declarer_side\n",
)


def test_an_answer_says_who_offended_and_the_hash_covers_it():
    tree = tree_from(SAYING)
    assert tree.node("vraag-b").choice("nee").offender == "declarer_side"
    assert tree.node("vraag-b").choice("ja").offender == ""
    assert content_hash(tree) != content_hash(tree_from(GOOD))


def test_answers_without_a_role_keep_the_hash_they_had():
    # As with answer cites: the pinned hashes (tests/transfer/test_pinned_formats.py) stay.
    plain = canonical_data(tree_from(GOOD))
    assert all("offender" not in c for node in plain["nodes"] for c in node["choices"])
    saying = canonical_data(tree_from(SAYING))
    assert [c.get("offender") for c in saying["nodes"][1]["choices"]] == [None, "declarer_side"]


@pytest.mark.parametrize("role", ["leider", "[defender]", "Defender"])
def test_an_unknown_role_is_named(role):
    with pytest.raises(TreeError) as info:
        parse_tree(replace("offender: declarer_side", f"offender: {role}", SAYING), SOURCE)
    assert "node 'vraag-b': choice 'nee': offender must be one of defender, declarer_side" in str(
        info.value
    )


def test_a_snapshot_keeps_the_role_and_reads_it_back():
    frozen_tree = frozen(SAYING)
    data = frozen_tree.to_json()
    choices = data["nodes"]["vraag-b"]["choices"]
    assert choices[1]["offender"] == "declarer_side"
    assert "offender" not in choices[0]
    again = Snapshot.from_json(data)
    assert again.choice("vraag-b", "nee").offender == "declarer_side"
    assert again.to_json() == data
    # A snapshot of a tree without roles has no such key (its digest stays).
    assert "offender" not in str(frozen(GOOD).to_json())


def test_a_stored_snapshot_with_an_odd_role_is_refused():
    data = frozen(SAYING).to_json()
    data["nodes"]["vraag-b"]["choices"][1]["offender"] = "partner"
    with pytest.raises(SnapshotFormatError) as info:
        Snapshot.from_json(data)
    assert str(info.value) == (
        "snapshot.nodes.vraag-b.choices[1].offender: must be one of defender, declarer_side"
    )


def test_the_shipped_trees_store_their_roles_as_rows(db, shipped):
    tree = Tree.objects.get(slug="strafkaart")
    choice = Choice.objects.get(node__tree=tree, node__key="wie", key="tegenspeler")
    assert choice.offender == "defender"
    spec = spec_from_rows(tree)
    assert spec.node("wie").choice("leider-blinde").offender == "declarer_side"
    assert content_hash(spec) == tree.version
