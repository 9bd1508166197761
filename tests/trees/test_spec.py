"""The pure tree engine (trees/spec.py, parse.py, validate.py): parsing, every validation rule,
paths, walk, hashing.

No database: these tests only use the YAML text and the parsed specs.
"""

from __future__ import annotations

import dataclasses
import textwrap
from pathlib import Path

import pytest

from trees.parse import load_tree_file, parse_tree
from trees.spec import Path as TreePath
from trees.spec import TreeError, content_hash
from trees.validate import ensure_valid, paths, validate, walk

SOURCE = "trees/files/proef.yaml"

# A small, valid tree: a diamond (two routes into one question) and three outcomes.
GOOD = """\
slug: proef
edition: "2017"
phase: play
title: {nl: "Proefboom", en: "Test tree"}
description: {nl: "Een boom om te testen.", en: "A tree to test with."}
notes: |
  Only for tests.
start: vraag-a
nodes:
  vraag-a:
    question: {nl: "Eerste vraag?", en: "First question?"}
    help: {nl: "Vraag het de spelers.", en: "Ask the players."}
    cites: ["61A"]
    choices:
      - key: ja
        label: {nl: "Ja", en: "Yes"}
        next: vraag-b
      - key: nee
        label: {nl: "Nee", en: "No"}
        next: vraag-b
      - key: weet-niet
        label: {nl: "Weet niet", en: "Not known"}
        next: uitkomst-c
  vraag-b:
    question: {nl: "Tweede vraag?", en: "Second question?"}
    choices:
      - key: ja
        label: {nl: "Ja", en: "Yes"}
        next: uitkomst-a
      - key: nee
        label: {nl: "Nee", en: "No"}
        next: uitkomst-b
  uitkomst-a:
    outcome:
      title: {nl: "Uitkomst A", en: "Outcome A"}
      ruling: {nl: "Doe A.", en: "Do A."}
      announce: {nl: "Zeg A.", en: "Say A."}
      chooser: declarer
      options: {nl: "Leider kiest.", en: "Declarer chooses."}
      adjusted_score: true
    cites: ["62A", "64A1"]
  uitkomst-b:
    outcome:
      title: {nl: "Uitkomst B", en: "Outcome B"}
      ruling: {nl: "Doe B.", en: "Do B."}
      announce: {nl: "Zeg B.", en: "Say B."}
      unauthorised_information: true
    cites: ["64B3"]
  uitkomst-c:
    outcome:
      title: {nl: "Uitkomst C", en: "Outcome C"}
      ruling: {nl: "Doe C.", en: "Do C."}
      announce: {nl: "Zeg C.", en: "Say C."}
    cites: ["64C"]
"""


def tree_from(text: str):
    return parse_tree(text, SOURCE)


def problems_of(text: str, **kwargs) -> list[str]:
    return validate(tree_from(text), **kwargs)


def replace(old: str, new: str, text: str = GOOD) -> str:
    assert old in text, f"test setup: {old!r} not in the YAML"
    return text.replace(old, new, 1)


# ---------------------------------------------------------------------------------------------
# The good tree


def test_good_tree_parses_and_is_valid():
    tree = tree_from(GOOD)
    assert tree.slug == "proef"
    assert tree.edition == "2017"
    assert tree.phase == "play"
    assert tree.title.nl == "Proefboom"
    assert tree.notes == "Only for tests."
    assert [n.key for n in tree.nodes] == [
        "vraag-a",
        "vraag-b",
        "uitkomst-a",
        "uitkomst-b",
        "uitkomst-c",
    ]
    assert validate(tree) == []
    assert validate(tree, resolves=lambda key: True) == []
    assert ensure_valid(tree) is tree


def test_outcome_fields_are_parsed():
    tree = tree_from(GOOD)
    a = tree.node("uitkomst-a")
    assert a.kind == "outcome"
    assert a.text.en == "Outcome A"
    assert a.outcome.ruling.nl == "Doe A."
    assert a.outcome.chooser == "declarer"
    assert a.outcome.adjusted_score is True
    assert a.outcome.unauthorised_information is False
    assert a.cites == ("62A", "64A1")
    b = tree.node("uitkomst-b")
    assert b.outcome.chooser == "none"
    assert b.outcome.options is None
    assert b.outcome.unauthorised_information is True


# ---------------------------------------------------------------------------------------------
# One broken file per validation rule: each triggers exactly its own problem.

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
        ["node 'uitkomst-c': an outcome must cite at least one provision"],
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


def test_citations_resolve_only_when_a_resolver_is_given():
    known = {"61A", "62A", "64A1", "64B3"}  # 64C is missing from this "edition"
    problems = problems_of(GOOD, resolves=lambda key: key in known)
    assert problems == ["node 'uitkomst-c': citation '64C' does not resolve in edition 2017"]
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

PARSE_CASES = [
    ("slug: [unclosed", "invalid YAML"),
    ("- a list", "the file must be a mapping"),
    (replace("phase: play", "phase: spel"), "phase 'spel' is not one of auction, play"),
    (replace('edition: "2017"', "edition: 2017"), "edition must be a string (quote it)"),
    (replace("start: vraag-a\n", ""), "missing field 'start'"),
    (replace("notes: |", "notities: |"), "unknown field 'notities'"),
    (replace("    help: {nl", "    hulp: {nl"), "node 'vraag-a': the node: unknown field 'hulp'"),
    (replace("key: ja", "key: yes"), "node 'vraag-a': choice 1: key must be a string (quote it)"),
    (replace("key: weet-niet", "key: Weet_niet"), "node 'vraag-a': choice 3: key 'Weet_niet'"),
    (
        replace("      chooser: declarer", "      chooser: partner"),
        "node 'uitkomst-a': chooser 'partner' is not one of",
    ),
    (
        replace("      adjusted_score: true", "      adjusted_score: misschien"),
        "node 'uitkomst-a': adjusted_score must be true or false",
    ),
    (
        replace('      announce: {nl: "Zeg C.", en: "Say C."}\n', ""),
        "node 'uitkomst-c': outcome: missing field 'announce'",
    ),
    (
        replace(
            '    outcome:\n      title: {nl: "Uitkomst C"',
            '    question: {nl: x, en: x}\n    outcome:\n      title: {nl: "Uitkomst C"',
        ),
        "node 'uitkomst-c': a node has exactly one of 'question' and 'outcome'",
    ),
    (replace("  vraag-b:\n", "  vraag-a:\n"), "duplicate key 'vraag-a'"),
    (replace("  vraag-b:\n", "  Vraag_B:\n"), "node 'Vraag_B': node key is not a lowercase slug"),
    (replace('cites: ["64B3"]', "cites: 64B3"), "node 'uitkomst-b': cites must be a list"),
    (
        replace('label: {nl: "Ja", en: "Yes"}', 'label: {nl: "Ja", de: "Ja"}'),
        "node 'vraag-a': choice 'ja': label: unknown field 'de'",
    ),
]


@pytest.mark.parametrize(("text", "message"), PARSE_CASES)
def test_structural_errors_raise_naming_file_and_node(text, message):
    with pytest.raises(TreeError) as info:
        parse_tree(text, SOURCE)
    assert str(info.value).startswith(f"{SOURCE}: ")
    assert message in str(info.value)


def test_load_tree_file_requires_slug_to_match_file_name(tmp_path: Path):
    good = tmp_path / "proef.yaml"
    good.write_text(GOOD, encoding="utf-8")
    assert load_tree_file(good).slug == "proef"
    wrong = tmp_path / "anders.yaml"
    wrong.write_text(GOOD, encoding="utf-8")
    with pytest.raises(TreeError, match="slug 'proef' must equal the file name 'anders'"):
        load_tree_file(wrong)


# ---------------------------------------------------------------------------------------------
# Hash


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


def test_cites_are_written_canonically_and_checked_against_the_key_grammar():
    text = replace('cites: ["64B3"]', 'cites: ["64 b 3", "64A1(aa)"]')
    # "64 b 3": a small section letter followed by an item number is the section (laws.keys)
    assert tree_from(text).node("uitkomst-b").cites == ("64B3", "64A1(aa)")
    assert problems_of(text) == [
        "node 'uitkomst-b': citation '64A1(aa)' is not a law reference: a sub-item is a single"
        " letter such as (a), not (aa); a deeper level follows in its own parentheses, as in"
        " 12C1(e)(i)"
    ]


def test_a_spec_built_in_code_must_hold_canonical_keys():
    tree = tree_from(GOOD)
    node = dataclasses.replace(tree.node("uitkomst-b"), cites=("64B3b",))
    tree = dataclasses.replace(
        tree, nodes=tuple(node if n.key == node.key else n for n in tree.nodes)
    )
    assert validate(tree) == [
        "node 'uitkomst-b': citation '64B3b' is not canonical (write '64B3(b)')"
    ]
