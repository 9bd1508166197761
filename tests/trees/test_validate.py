"""Checking a parsed tree (trees/validate.py): every validation rule has a broken file, and
the paths and walks through a tree. No database."""

from __future__ import annotations

import pytest

from laws.index import ArticleEntry, ProvisionEntry, ProvisionIndex
from tests.support.tree_texts import GOOD, problems_of, replace, tree_from
from trees.loading import citation_problem
from trees.spec import Path as TreePath
from trees.spec import TreeError
from trees.validate import ensure_valid, paths, walk

RULE_CASES = {
    "start node exists": (
        replace("start: vraag-a", "start: vraag-z"),
        ["start node 'vraag-z' does not exist"],
    ),
    "every node reachable": (
        replace(
            "  uitkomst-c:\n",
            "  wees:\n"
            "    outcome:\n"
            "      title: {nl: W, en: W}\n"
            "      ruling: {nl: w, en: w}\n"
            "      announce: {nl: w, en: w}\n"
            "    cites: ['64']\n"
            "  uitkomst-c:\n",
        ),
        ["node 'wees': not reachable from the start node 'vraag-a'"],
    ),
    "no cycles": (
        replace("next: uitkomst-b", "next: vraag-a"),
        # uitkomst-b is then unreachable as well; both are reported.
        [
            "node 'uitkomst-b': not reachable from the start node 'vraag-a'",
            "node 'vraag-a': part of a cycle (vraag-a → vraag-b → vraag-a)",
        ],
    ),
    "at least two choices": (
        replace(
            '      - key: nee\n        label: {nl: "Nee", en: "No"}\n        next: uitkomst-b\n',
            "",
        ),
        # uitkomst-b is then unreachable as well; both are reported.
        [
            "node 'uitkomst-b': not reachable from the start node 'vraag-a'",
            "node 'vraag-b': a question needs at least two choices (has 1)",
        ],
    ),
    "distinct labels": (
        replace(
            'label: {nl: "Nee", en: "No"}\n        next: vraag-b',
            'label: {nl: "ja", en: "No"}\n        next: vraag-b',
        ),
        ["node 'vraag-a': choice label 'ja' (nl) is not distinct"],
    ),
    "distinct keys": (
        replace("key: weet-niet", "key: nee"),
        ["node 'vraag-a': choice key 'nee' is used more than once"],
    ),
    "outcomes have no choices": (
        replace(
            '    cites: ["64C"]\n',
            '    cites: ["64C"]\n'
            "    choices:\n"
            "      - {key: verder, label: {nl: Verder, en: 'On'}, next: uitkomst-a}\n",
        ),
        ["node 'uitkomst-c': an outcome has no choices (found 1)"],
    ),
    "every path ends in an outcome": (
        replace(
            "        next: uitkomst-c\n",
            "        next: uitkomst-c\n"
            "      - {key: anders, label: {nl: Anders, en: Other}, next: nergens}\n",
        ),
        ["node 'vraag-a': choice 'anders' points to unknown node 'nergens'"],
    ),
    "citation is a law reference": (
        replace('cites: ["64B3"]', 'cites: ["zie boven"]'),
        # laws.keys now says why, after the same words the old grammar used
        [
            "node 'uitkomst-b': citation 'zie boven' is not a law reference: it must start"
            " with an article number, such as 62 in 62D2"
        ],
    ),
    "every outcome cites": (
        replace('    cites: ["64C"]\n', ""),
        # ... and the path check (issue 27A4) names the path whose legal basis is empty.
        [
            "node 'uitkomst-c' (via weet-niet): the legal basis is empty",
            "node 'uitkomst-c': an outcome must cite at least one provision",
        ],
    ),
    "nl text present": (
        replace(
            'question: {nl: "Tweede vraag?", en: "Second question?"}',
            'question: {nl: "", en: "Second question?"}',
        ),
        ["node 'vraag-b': question has no nl text"],
    ),
    "en text present": (
        replace('ruling: {nl: "Doe B.", en: "Do B."}', 'ruling: {nl: "Doe B."}'),
        ["node 'uitkomst-b': ruling has no en text"],
    ),
    "en label present": (
        replace('label: {nl: "Weet niet", en: "Not known"}', 'label: {nl: "Weet niet"}'),
        ["node 'vraag-a': choice 'weet-niet': label has no en text"],
    ),
    "tree title bilingual": (
        replace('title: {nl: "Proefboom", en: "Test tree"}', 'title: {nl: "Proefboom"}'),
        ["title has no en text"],
    ),
}


@pytest.mark.parametrize("rule", sorted(RULE_CASES))
def test_each_rule_has_a_broken_file(rule):
    text, expected = RULE_CASES[rule]
    assert sorted(problems_of(text)) == expected


def test_question_without_choices_is_reported_once():
    text = replace(
        "    choices:\n"
        "      - key: ja\n"
        '        label: {nl: "Ja", en: "Yes"}\n'
        "        next: uitkomst-a\n"
        "      - key: nee\n"
        '        label: {nl: "Nee", en: "No"}\n'
        "        next: uitkomst-b\n",
        "",
    )
    problems = problems_of(text)
    assert "node 'vraag-b': a question needs at least two choices (has 0)" in problems
    assert len([p for p in problems if p.startswith("node 'vraag-b'")]) == 1


def test_citations_are_checked_only_when_a_checker_is_given():
    # 64C is missing from this "edition": the one key checker names what is nearest.
    index = ProvisionIndex.build(
        "2017",
        [ArticleEntry("61"), ArticleEntry("62"), ArticleEntry("64")],
        [ProvisionEntry(key) for key in ("61A", "62A", "64A", "64A1", "64B", "64B3")],
    )
    problems = problems_of(GOOD, unknown=citation_problem(index))
    assert problems == [
        "node 'uitkomst-c': citation '64C': 64C does not exist in 2017; did you mean 64A, 64B?",
        # The legal basis on the path to it, once per outcome.
        "node 'uitkomst-c' (via weet-niet): legal basis cites 64C, not in the edition",
    ]
    assert problems_of(GOOD) == []


def test_see_tree_must_name_a_known_tree_when_the_set_is_given():
    text = replace(
        'announce: {nl: "Zeg C.", en: "Say C."}',
        'announce: {nl: "Zeg C.", en: "Say C."}\n      see_tree: strafkaart',
    )
    assert problems_of(text) == []
    assert problems_of(text, trees={"strafkaart"}) == []
    assert problems_of(text, trees={"verzaking"}) == [
        "node 'uitkomst-c': see_tree 'strafkaart' is not a tree"
    ]


def test_duplicate_citation_is_reported():
    text = replace('cites: ["64B3"]', 'cites: ["64B3", "64 B 3"]')
    assert problems_of(text) == ["node 'uitkomst-b': citation '64B3' is listed more than once"]


def test_ensure_valid_raises_with_file_and_node():
    tree = tree_from(replace("next: uitkomst-c", "next: nergens"))
    with pytest.raises(TreeError) as info:
        ensure_valid(tree)
    assert (
        "trees/files/proef.yaml: node 'vraag-a': choice 'weet-niet' points to unknown node"
        " 'nergens'" in str(info.value)
    )
    assert len(info.value.problems) == 2


# ---------------------------------------------------------------------------------------------
# Structural errors: parse_tree raises, naming the file and the node.


def test_paths_lists_every_route_to_an_outcome():
    assert paths(tree_from(GOOD)) == [
        TreePath((("vraag-a", "ja"), ("vraag-b", "ja")), "uitkomst-a"),
        TreePath((("vraag-a", "ja"), ("vraag-b", "nee")), "uitkomst-b"),
        TreePath((("vraag-a", "nee"), ("vraag-b", "ja")), "uitkomst-a"),
        TreePath((("vraag-a", "nee"), ("vraag-b", "nee")), "uitkomst-b"),
        TreePath((("vraag-a", "weet-niet"),), "uitkomst-c"),
    ]
    assert paths(tree_from(GOOD))[1].answers == ("ja", "nee")


def test_paths_refuses_a_cycle():
    with pytest.raises(TreeError, match="cycle"):
        paths(tree_from(replace("next: uitkomst-b", "next: vraag-a")))


def test_walk_follows_answers():
    tree = tree_from(GOOD)
    assert walk(tree, []).key == "vraag-a"
    assert walk(tree, ["nee"]).key == "vraag-b"
    assert walk(tree, ["nee", "nee"]).key == "uitkomst-b"
    assert walk(tree, ("weet-niet",)).kind == "outcome"


def test_walk_rejects_invalid_answers():
    tree = tree_from(GOOD)
    with pytest.raises(TreeError, match="'misschien' is not a choice"):
        walk(tree, ["ja", "misschien"])
    with pytest.raises(TreeError, match="after outcome 'uitkomst-c'"):
        walk(tree, ["weet-niet", "ja"])
