"""The finder over the loaded trees (trees/lookup.py): results with their line and question,
each tree's index made once per version, and the trees a word names (for the archive)."""

import pytest

from trees import lookup
from trees.models import Tree


@pytest.fixture
def rows(shipped):
    lookup.clear_cache()
    return list(Tree.objects.select_related("edition").order_by("slug"))


def test_results_carry_when_the_tree_applies_and_where_it_opens(rows):
    found = lookup.find(rows, "strafkaart niet gespeeld")
    penalty = next(item for item in found if item.tree.slug == "strafkaart")
    assert penalty.question == "kon-spelen"
    assert penalty.question_text.nl == "Moest hij op dat moment de strafkaart spelen?"
    assert penalty.when.nl.startswith("Een tegenspeler heeft een kaart getoond")
    assert all(item.score >= lookup.CUT * found[0].score for item in found)


def test_weak_matches_are_cut(rows):
    """Only trees scoring a good share of the best are listed."""
    found = lookup.find(rows, "verzaakt")
    assert {item.tree.slug for item in found} >= {"verzaking", "verzaking-2007"}
    assert len(found) < len(rows)


def test_nothing_typed_lists_every_tree(rows):
    found = lookup.find(rows, "")
    assert {item.tree.slug for item in found} == {tree.slug for tree in rows}
    assert all(not item.question for item in found)


def test_an_index_is_made_once_per_tree_version(rows, django_assert_num_queries):
    with django_assert_num_queries(3):  # nodes, their answers and their citations
        lookup.find(rows, "verzaakt")
    with django_assert_num_queries(0):
        lookup.find(rows, "denkpauze")
    # A reloaded tree (another version) is read again; the others are not.
    Tree.objects.filter(slug="claim").update(version="0" * 64)
    again = list(Tree.objects.select_related("edition"))
    with django_assert_num_queries(3):
        assert lookup.find(again, "claim")[0].tree.slug == "claim"
    assert len(lookup.index_of(again)) == len(rows)


def test_ambiguous_when_two_trees_fit_almost_equally(rows):
    turn = [
        item
        for item in lookup.find(rows, "opening voor de beurt")
        if item.tree.edition.code == "2017"
    ]
    assert {item.tree.slug for item in turn[:2]} == {"bod-voor-de-beurt", "voor-de-beurt-uitkomen"}
    assert lookup.ambiguous(turn)
    revoke = [item for item in lookup.find(rows, "verzaakt") if item.tree.edition.code == "2017"]
    assert not lookup.ambiguous(revoke)


@pytest.mark.parametrize(
    ("word", "slugs"),
    [
        ("denkpauze", {"ongeoorloofde-informatie"}),  # the title and a finder word
        ("Hesitation", {"ongeoorloofde-informatie"}),  # English
        ("pauze", {"ongeoorloofde-informatie"}),  # a synonym
        ("verzak", {"verzaking", "verzaking-2007"}),  # the start of a word
        ("zwaluw", set()),
    ],
)
def test_the_trees_a_word_names(rows, word, slugs):
    assert set(lookup.trees_named(rows, word)) == slugs


def test_a_typo_names_no_tree_for_the_archive(rows):
    assert lookup.trees_named(rows, "denkpauzr") == []


def test_one_word_of_a_finder_phrase_names_no_tree(rows):
    """The word "uitgelegd" is a synonym of the misinformation tree; the claim tree has it in the
    phrase "niet uitgelegd", which names a claim without a line of play, not every ruling
    that explains something. (The tree on partner's conduct around explanations has "uitleg" in
    its title, so it is named too.)"""
    assert lookup.trees_named(rows, "uitgelegd") == ["partner-bij-uitleg", "verkeerde-uitleg"]
