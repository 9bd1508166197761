"""Reading a tree file into the tree type (trees/parse.py): every field, structural errors
naming the file and node, canonical law keys. No database."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.tree_texts import GOOD, SOURCE, problems_of, replace, tree_from
from trees.parse import load_tree_file, parse_tree
from trees.spec import TreeError
from trees.validate import ensure_valid, validate


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
    assert validate(tree, unknown=lambda key: None) == []
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


def test_cites_are_written_canonically_and_checked_against_the_key_grammar():
    text = replace('cites: ["64B3"]', 'cites: ["64 b 3", "64A1(aa)"]')
    # "64 b 3": a small section letter followed by an item number is the section (laws.keys)
    assert tree_from(text).node("uitkomst-b").cites == ("64B3", "64A1(aa)")
    assert problems_of(text) == [
        "node 'uitkomst-b': citation '64A1(aa)' is not a law reference: a sub-item is a single"
        " letter such as (a), not (aa); a deeper level follows in its own parentheses, as in"
        " 12C1(e)(i)"
    ]


def with_finder(block: str) -> str:
    return GOOD.replace("start: vraag-a\n", block + "start: vraag-a\n", 1)


def test_the_finder_block_with_synonyms_is_parsed():
    tree = tree_from(
        with_finder(
            "finder:\n  nl: [denkpauze]\n  en: [hesitation]\n"
            '  synonyms:\n    nl: [pauze, " lang nadenken "]\n    en: [slow]\n'
        )
    )
    assert tree.finder.nl == ("denkpauze",)
    assert tree.finder.en == ("hesitation",)
    assert tree.finder.synonyms_nl == ("pauze", "lang nadenken")
    assert tree.finder.synonyms_en == ("slow",)


@pytest.mark.parametrize(
    ("block", "message"),
    [
        ("finder: {nl: [a], synoniemen: {nl: [b]}}\n", "finder: unknown field 'synoniemen'"),
        ("finder: {synonyms: [pauze]}\n", "finder synonyms must be a mapping"),
        ("finder: {synonyms: {de: [pause]}}\n", "finder synonyms: unknown field 'de'"),
        ("finder: {synonyms: {nl: pauze}}\n", "finder synonyms (nl) must be a list of words"),
        ('finder: {synonyms: {nl: ["  "]}}\n', "finder synonyms (nl) has an empty word"),
        ('finder: {synonyms: {en: ["a\\nb"]}}\n', "finder synonyms (en) has a word with a line"),
        ("finder: {nl: [yes]}\n", "finder (nl) must be a string (quote it)"),
    ],
)
def test_a_wrong_finder_block_is_named(block, message):
    with pytest.raises(TreeError) as error:
        tree_from(with_finder(block))
    assert message in str(error.value)
