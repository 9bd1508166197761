"""The tree type itself (trees/spec.py): its content hash, and a tree built in code. No
database."""

from __future__ import annotations

import dataclasses
import textwrap

from tests.support.tree_texts import GOOD, replace, tree_from
from trees.parse import parse_tree
from trees.spec import content_hash
from trees.validate import validate


def test_hash_ignores_layout_and_comments():
    reformatted = textwrap.dedent(
        """\
        # a comment on top
        slug: "proef"
        phase: "play"        # order of the top-level fields does not matter
        edition: '2017'
        title:
          en: Test tree
          nl: Proefboom
        description: {en: "A tree to test with.", nl: "Een boom om te testen."}
        notes: "Only for tests.\\n"
        start: vraag-a
        """
    ) + GOOD.split("start: vraag-a\n", 1)[1].replace('cites: ["64C"]', "cites:\n      - 64 C")
    assert content_hash(tree_from(reformatted)) == content_hash(tree_from(GOOD))


def test_hash_changes_with_content():
    base = content_hash(tree_from(GOOD))
    assert len(base) == 64
    assert int(base, 16) >= 0
    changed_text = replace(
        'ruling: {nl: "Doe B.", en: "Do B."}', 'ruling: {nl: "Doe B!", en: "Do B."}'
    )
    changed_cite = replace('cites: ["64B3"]', 'cites: ["64B4"]')
    changed_target = replace("next: uitkomst-c", "next: uitkomst-b")
    hashes = {content_hash(tree_from(t)) for t in (changed_text, changed_cite, changed_target)}
    assert base not in hashes
    assert len(hashes) == 3


def test_hash_does_not_depend_on_source():
    assert content_hash(parse_tree(GOOD, "a.yaml")) == content_hash(parse_tree(GOOD, "b.yaml"))


# ---------------------------------------------------------------------------------------------
# Paths and walk


def test_a_spec_built_in_code_must_hold_canonical_keys():
    tree = tree_from(GOOD)
    node = dataclasses.replace(tree.node("uitkomst-b"), cites=("64B3b",))
    tree = dataclasses.replace(
        tree, nodes=tuple(node if n.key == node.key else n for n in tree.nodes)
    )
    assert validate(tree) == [
        "node 'uitkomst-b': citation '64B3b' is not canonical (write '64B3(b)')"
    ]


# The hashes the code before synonyms (and before finder words) gave these trees: a tree file
# that adds neither keeps its version, so nothing stored against it changes.
FINDER = 'finder: {nl: [proef, "een boom"], en: [test]}\n'
HASH_WITHOUT_FINDER = "bd3b2a7d4f011e9db6650f01409c63a39db978fd24aa983f2a26798c3dbdd338"
HASH_WITH_FINDER_WORDS = "89ee57acb1e87ce0053c2328e8da25c259675c11045c82fc34b5537b43299240"


def with_finder(block: str) -> str:
    return GOOD.replace("start: vraag-a\n", block + "start: vraag-a\n", 1)


def test_a_tree_without_synonyms_keeps_the_version_it_had():
    assert content_hash(tree_from(GOOD)) == HASH_WITHOUT_FINDER
    assert content_hash(tree_from(with_finder(FINDER))) == HASH_WITH_FINDER_WORDS
    empty = 'finder: {nl: [proef, "een boom"], en: [test], synonyms: {nl: [], en: []}}\n'
    assert content_hash(tree_from(with_finder(empty))) == HASH_WITH_FINDER_WORDS


def test_synonyms_count_in_the_version():
    synonyms = 'finder: {nl: [proef, "een boom"], en: [test], synonyms: {nl: [toets]}}\n'
    other = 'finder: {nl: [proef, "een boom"], en: [test], synonyms: {nl: [examen]}}\n'
    hashes = {content_hash(tree_from(with_finder(block))) for block in (synonyms, other)}
    assert HASH_WITH_FINDER_WORDS not in hashes
    assert len(hashes) == 2
    # Synonyms alone are a finder too.
    only = "finder: {synonyms: {en: [exam]}}\n"
    assert content_hash(tree_from(with_finder(only))) != HASH_WITHOUT_FINDER
