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


# ---------------------------------------------------------------------------------------------
# Every message the reader gives an author, word for word (each after "<file>: "). Pinned on the
# hand-written reader before it moved onto lib.schema, so the move changed no text.

OUTCOME_A = "      adjusted_score: true\n"  # a line of uitkomst-a to put a field after
OPTION = "      option_list:\n        - label: {nl: A, en: A}\n"


def after_outcome_a(lines: str) -> str:
    return replace(OUTCOME_A, OUTCOME_A + lines)


TREE_FIELDS = "description, edition, finder, nodes, notes, phase, slug, start, title"
NODE_FIELDS = "choices, cites, help, outcome, poll, question"
OUTCOME_FIELDS = (
    "adjusted_score, announce, chooser, option_list, options, resume_at, ruling, see_tree,"
    " title, unauthorised_information"
)
NOT_SLUG = "is not a lowercase slug (a-z, 0-9, '-')"

MESSAGES = [
    # the file
    ("- a list", "the file must be a mapping"),
    ("3: x\n" + GOOD, "the file: field 3 must be a string (quote it)"),
    ("null: x\n" + GOOD, "the file: field None must be a string (quote it)"),
    (replace("  vraag-b:\n", "  true:\n"), "nodes: field True must be a string (quote it)"),
    (replace("  vraag-b:\n", "  2.5:\n"), "nodes: field 2.5 must be a string (quote it)"),
    (
        replace("notes: |", "notities: |"),
        f"the tree: unknown field 'notities' (allowed: {TREE_FIELDS})",
    ),
    (
        "b: 1\na: 2\n" + GOOD,
        f"the tree: unknown field 'a', 'b' (allowed: {TREE_FIELDS})",
    ),
    (replace("start: vraag-a\n", ""), "missing field 'start'"),
    ("slug: proef\n", "missing field 'edition', 'nodes', 'phase', 'start', 'title'"),
    (replace("slug: proef", "slug: 3"), "slug must be a string (quote it), not 3"),
    (replace("slug: proef", "slug: Proef"), f"slug 'Proef' {NOT_SLUG}"),
    (replace('edition: "2017"', "edition: 2017"), "edition must be a string (quote it), not 2017"),
    (replace('edition: "2017"', "edition: [x]"), "edition must be a string, not ['x']"),
    (replace('edition: "2017"', 'edition: " "'), "edition is empty"),
    (replace("phase: play", "phase: 1"), "phase must be a string (quote it), not 1"),
    (replace("phase: play", "phase: spel"), "phase 'spel' is not one of auction, play"),
    (
        replace("title: {nl", "title: x\nx: {nl"),
        f"the tree: unknown field 'x' (allowed: {TREE_FIELDS})",
    ),
    (replace('title: {nl: "Proefboom", en: "Test tree"}', "title: x"), "title must be a mapping"),
    (
        replace('title: {nl: "Proefboom"', 'title: {1: "Proefboom"'),
        "title: field 1 must be a string (quote it)",
    ),
    (
        replace('title: {nl: "Proefboom", en: "Test tree"}', "title: {nl: a, de: b}"),
        "title: unknown field 'de' (allowed: en, nl)",
    ),
    (
        replace('title: {nl: "Proefboom"', "title: {nl: 3"),
        "title (nl) must be a string (quote it), not 3",
    ),
    (
        replace('title: {nl: "Proefboom", en: "Test tree"}', "title: {en: [x]}"),
        "title (en) must be a string, not ['x']",
    ),
    (
        replace("description: {nl", "description: x\nx: {nl"),
        f"the tree: unknown field 'x' (allowed: {TREE_FIELDS})",
    ),
    (
        replace(
            'description: {nl: "Een boom om te testen.", en: "A tree to test with."}',
            "description: x",
        ),
        "description must be a mapping",
    ),
    (replace("notes: |\n  Only for tests.", "notes: [a]"), "notes must be a string, not ['a']"),
    (
        replace("notes: |\n  Only for tests.", "notes: 1.5"),
        "notes must be a string (quote it), not 1.5",
    ),
    (replace("start: vraag-a", "start: true"), "start must be a string (quote it), not True"),
    (replace("start: vraag-a", "start: Vraag-A"), f"start 'Vraag-A' {NOT_SLUG}"),
    (GOOD.split("nodes:")[0] + "nodes: []\n", "nodes must be a mapping"),
    (GOOD.split("nodes:")[0] + "nodes:\n", "nodes must be a mapping"),
    (GOOD.split("nodes:")[0] + "nodes: {}\n", "nodes is empty"),
    (GOOD.split("nodes:")[0] + "nodes: {1: x}\n", "nodes: field 1 must be a string (quote it)"),
    # a node
    (replace("  vraag-b:\n", "  Vraag_B:\n"), f"node 'Vraag_B': node key {NOT_SLUG}"),
    (
        GOOD.split("nodes:")[0] + "nodes:\n  vraag-a: x\n",
        "node 'vraag-a': the node must be a mapping",
    ),
    (
        replace("    help: {nl", "    1: x\n    help: {nl"),
        "node 'vraag-a': the node: field 1 must be a string (quote it)",
    ),
    (
        replace("    help: {nl", "    hulp: {nl"),
        f"node 'vraag-a': the node: unknown field 'hulp' (allowed: {NODE_FIELDS})",
    ),
    (
        replace('    question: {nl: "Tweede', '    outcome: {}\n    question: {nl: "Tweede'),
        "node 'vraag-b': a node has exactly one of 'question' and 'outcome'",
    ),
    (
        replace('    question: {nl: "Tweede vraag?", en: "Second question?"}\n', ""),
        "node 'vraag-b': a node has exactly one of 'question' and 'outcome'",
    ),
    (
        replace('    help: {nl: "Vraag het de spelers.", en: "Ask the players."}', "    help: x"),
        "node 'vraag-a': help must be a mapping",
    ),
    (
        replace('help: {nl: "Vraag', 'help: {de: 1, nl: "Vraag'),
        "node 'vraag-a': help: unknown field 'de' (allowed: en, nl)",
    ),
    (
        replace('question: {nl: "Eerste vraag?", en: "First question?"}', "question: [x]"),
        "node 'vraag-a': question must be a mapping",
    ),
    (
        replace('question: {nl: "Eerste vraag?"', "question: {nl: false"),
        "node 'vraag-a': question (nl) must be a string (quote it), not False",
    ),
    (
        replace('cites: ["64B3"]', "cites: 64B3"),
        "node 'uitkomst-b': cites must be a list of law references",
    ),
    (
        replace('cites: ["64B3"]', "cites: [64]"),
        "node 'uitkomst-b': citation must be a string (quote it), not 64",
    ),
    (
        replace('    cites: ["61A"]\n', '    cites: ["61A"]\n    poll: "ja"\n'),
        "node 'vraag-a': poll must be true or false, not 'ja'",
    ),
    (
        replace("  uitkomst-a:\n", "  uitkomst-a:\n    poll: true\n"),
        "node 'uitkomst-a': poll: only a question is answered by a poll",
    ),
    # its choices
    (
        GOOD.split("nodes:")[0]
        + "nodes:\n  vraag-a:\n    question: {nl: a, en: a}\n    choices: ja\n",
        "node 'vraag-a': choices must be a list",
    ),
    (
        GOOD.split("nodes:")[0]
        + "nodes:\n  vraag-a:\n    question: {nl: a, en: a}\n    choices: [ja]\n",
        "node 'vraag-a': choice 1 must be a mapping",
    ),
    (
        replace("      - key: ja\n", "      - 1: x\n        key: ja\n"),
        "node 'vraag-a': choice 1: field 1 must be a string (quote it)",
    ),
    (
        replace("      - key: ja\n", "      - volgende: x\n        key: ja\n"),
        "node 'vraag-a': choice 1: unknown field 'volgende'"
        " (allowed: cites, key, label, next, offender)",
    ),
    (
        replace("      - key: ja\n        label", "      - label"),
        "node 'vraag-a': choice 1: missing field 'key'",
    ),
    (
        replace(
            '        label: {nl: "Ja", en: "Yes"}\n        next: vraag-b\n',
            "        next: vraag-b\n",
        ),
        "node 'vraag-a': choice 1: missing field 'label'",
    ),
    (
        replace("        next: vraag-b\n      - key: nee", "      - key: nee"),
        "node 'vraag-a': choice 1: missing field 'next'",
    ),
    (
        replace("key: ja", "key: yes"),
        "node 'vraag-a': choice 1: key must be a string (quote it), not True",
    ),
    (
        replace("key: weet-niet", "key: Weet_niet"),
        f"node 'vraag-a': choice 3: key 'Weet_niet' {NOT_SLUG}",
    ),
    (
        replace('label: {nl: "Ja", en: "Yes"}', "label: Ja"),
        "node 'vraag-a': choice 'ja': label must be a mapping",
    ),
    (
        replace('label: {nl: "Ja", en: "Yes"}', 'label: {nl: "Ja", de: "Ja"}'),
        "node 'vraag-a': choice 'ja': label: unknown field 'de' (allowed: en, nl)",
    ),
    (
        replace('label: {nl: "Ja", en: "Yes"}', 'label: {nl: "Ja", en: 1}'),
        "node 'vraag-a': choice 'ja': label (en) must be a string (quote it), not 1",
    ),
    (
        replace("next: vraag-b", "next: Vraag_B"),
        f"node 'vraag-a': choice 'ja': next 'Vraag_B' {NOT_SLUG}",
    ),
    (
        replace("next: vraag-b", "next: 3"),
        "node 'vraag-a': choice 'ja': next must be a string (quote it), not 3",
    ),
    (
        replace("next: vraag-b", "next: vraag-b\n        cites: 61B"),
        "node 'vraag-a': choice 'ja': cites must be a list of law references",
    ),
    (
        replace("next: vraag-b", "next: vraag-b\n        cites: [61]"),
        "node 'vraag-a': choice 'ja': citation must be a string (quote it), not 61",
    ),
    (
        replace("next: vraag-b", "next: vraag-b\n        offender: partner"),
        "node 'vraag-a': choice 'ja': offender must be one of defender, declarer_side",
    ),
    (
        replace("next: vraag-b", "next: vraag-b\n        offender: 3"),
        "node 'vraag-a': choice 'ja': offender must be one of defender, declarer_side",
    ),
    # an outcome
    (
        GOOD.split("  uitkomst-a:")[0] + "  uitkomst-a:\n    outcome: x\n",
        "node 'uitkomst-a': outcome must be a mapping",
    ),
    (
        after_outcome_a("      1: x\n"),
        "node 'uitkomst-a': outcome: field 1 must be a string (quote it)",
    ),
    (
        after_outcome_a("      x: 1\n"),
        f"node 'uitkomst-a': outcome: unknown field 'x' (allowed: {OUTCOME_FIELDS})",
    ),
    (
        replace('      title: {nl: "Uitkomst A", en: "Outcome A"}\n', ""),
        "node 'uitkomst-a': outcome: missing field 'title'",
    ),
    (
        replace('      ruling: {nl: "Doe A.", en: "Do A."}\n', ""),
        "node 'uitkomst-a': outcome: missing field 'ruling'",
    ),
    (
        replace('      announce: {nl: "Zeg C.", en: "Say C."}\n', ""),
        "node 'uitkomst-c': outcome: missing field 'announce'",
    ),
    (
        replace("      chooser: declarer", "      chooser:"),
        "node 'uitkomst-a': chooser must be a string, not None",
    ),
    (
        replace("      chooser: declarer", "      chooser: partner"),
        "node 'uitkomst-a': chooser 'partner' is not one of none, declarer, defenders, nos, lho,"
        " offender, director",
    ),
    (
        replace('      ruling: {nl: "Doe A.", en: "Do A."}', "      ruling: x"),
        "node 'uitkomst-a': ruling must be a mapping",
    ),
    (
        replace('      announce: {nl: "Zeg A.", en: "Say A."}', "      announce: [x]"),
        "node 'uitkomst-a': announce must be a mapping",
    ),
    (
        replace(
            '      options: {nl: "Leider kiest.", en: "Declarer chooses."}', "      options: x"
        ),
        "node 'uitkomst-a': options must be a mapping",
    ),
    (
        replace('      title: {nl: "Uitkomst A", en: "Outcome A"}', "      title: x"),
        "node 'uitkomst-a': title must be a mapping",
    ),
    (
        replace("      adjusted_score: true", "      adjusted_score: misschien"),
        "node 'uitkomst-a': adjusted_score must be true or false, not 'misschien'",
    ),
    (
        replace("      unauthorised_information: true", "      unauthorised_information: 1"),
        "node 'uitkomst-b': unauthorised_information must be true or false, not 1",
    ),
    (after_outcome_a("      see_tree: Claim\n"), f"node 'uitkomst-a': see_tree 'Claim' {NOT_SLUG}"),
    (
        after_outcome_a("      see_tree: 1\n"),
        "node 'uitkomst-a': see_tree must be a string (quote it), not 1",
    ),
    (
        after_outcome_a("      resume_at: Vraag\n"),
        f"node 'uitkomst-a': resume_at 'Vraag' {NOT_SLUG}",
    ),
    (
        after_outcome_a("      resume_at: [a]\n"),
        "node 'uitkomst-a': resume_at must be a string, not ['a']",
    ),
    # its option list
    (
        after_outcome_a("      option_list: x\n"),
        "node 'uitkomst-a': option_list must be a list of options",
    ),
    (after_outcome_a("      option_list: [x]\n"), "node 'uitkomst-a': option 1 must be a mapping"),
    (
        after_outcome_a(OPTION + "          1: x\n"),
        "node 'uitkomst-a': option 1: field 1 must be a string (quote it)",
    ),
    (
        after_outcome_a(OPTION + "          x: 1\n"),
        "node 'uitkomst-a': option 1: unknown field 'x'"
        " (allowed: chosen_by, chosen_if, cites, label)",
    ),
    (
        after_outcome_a("      option_list:\n        - cites: [54A]\n"),
        "node 'uitkomst-a': option 1: missing field 'label'",
    ),
    (
        after_outcome_a("      option_list:\n        - label: x\n"),
        "node 'uitkomst-a': option 1: label must be a mapping",
    ),
    (
        after_outcome_a("      option_list:\n        - label: {nl: 1}\n"),
        "node 'uitkomst-a': option 1: label (nl) must be a string (quote it), not 1",
    ),
    (
        after_outcome_a(OPTION + "          cites: 54A\n"),
        "node 'uitkomst-a': option 1: cites must be a list of law references",
    ),
    (
        after_outcome_a(OPTION + "          cites: [54]\n"),
        "node 'uitkomst-a': option 1: citation must be a string (quote it), not 54",
    ),
    (
        after_outcome_a(OPTION + "          chosen_by:\n"),
        "node 'uitkomst-a': chosen_by must be a string, not None",
    ),
    (
        after_outcome_a(OPTION + "          chosen_if: 3\n"),
        "node 'uitkomst-a': chosen_if must be a string (quote it), not 3",
    ),
    # the finder block
    (with_finder("finder: [a]\n"), "finder must be a mapping"),
    (with_finder("finder: {1: [a]}\n"), "finder: field 1 must be a string (quote it)"),
    (
        with_finder("finder: {nl: [a], synoniemen: {nl: [b]}}\n"),
        "finder: unknown field 'synoniemen' (allowed: en, nl, synonyms)",
    ),
    (with_finder("finder: {nl: a}\n"), "finder (nl) must be a list of words"),
    (with_finder("finder: {en: [a, 3]}\n"), "finder (en) must be a string (quote it), not 3"),
    (with_finder('finder: {nl: [a, ""]}\n'), "finder (nl) has an empty word"),
    (with_finder('finder: {en: ["a\\nb"]}\n'), "finder (en) has a word with a line break"),
    (with_finder("finder: {synonyms: [pauze]}\n"), "finder synonyms must be a mapping"),
    (
        with_finder("finder: {synonyms: {nl: [a], 1: [b]}}\n"),
        "finder synonyms: field 1 must be a string (quote it)",
    ),
    (
        with_finder("finder: {synonyms: {de: [pause]}}\n"),
        "finder synonyms: unknown field 'de' (allowed: en, nl)",
    ),
    (
        with_finder("finder: {synonyms: {nl: pauze}}\n"),
        "finder synonyms (nl) must be a list of words",
    ),
    (
        with_finder("finder: {synonyms: {nl: [1.5]}}\n"),
        "finder synonyms (nl) must be a string (quote it), not 1.5",
    ),
    (with_finder('finder: {synonyms: {nl: ["  "]}}\n'), "finder synonyms (nl) has an empty word"),
    (
        with_finder('finder: {synonyms: {en: ["a\\nb"]}}\n'),
        "finder synonyms (en) has a word with a line break",
    ),
]


@pytest.mark.parametrize(("text", "message"), MESSAGES)
def test_each_message_an_author_can_see_is_worded_as_always(text, message):
    with pytest.raises(TreeError) as info:
        parse_tree(text, SOURCE)
    assert str(info.value) == f"{SOURCE}: {message}"


def test_values_are_stripped_and_empty_optional_parts_take_their_defaults():
    text = (
        GOOD.replace("slug: proef", 'slug: " proef "')
        .replace(
            'description: {nl: "Een boom om te testen.", en: "A tree to test with."}',
            "description: ''",
        )
        .replace('    help: {nl: "Vraag het de spelers.", en: "Ask the players."}', "    help: {}")
        .replace(
            'title: {nl: "Proefboom", en: "Test tree"}', 'title: {nl: " Proefboom ", en: null}'
        )
        .replace("next: uitkomst-c", "next: ' uitkomst-c '\n        offender: defender")
        .replace('cites: ["64C"]', 'cites: [" 64C ", "64A1(aa)"]')
        .replace(
            '      options: {nl: "Leider kiest.", en: "Declarer chooses."}', "      options: ''"
        )
        .replace(
            OUTCOME_A, OUTCOME_A + OPTION + "          chosen_if: null\n      see_tree: null\n"
        )
    )
    tree = tree_from(text)
    assert tree.slug == "proef"
    assert (tree.title.nl, tree.title.en) == ("Proefboom", "")
    assert (tree.description.nl, tree.description.en) == ("", "")
    assert tree.notes == "Only for tests."
    assert tree.finder.nl == ()
    vraag = tree.node("vraag-a")
    assert vraag.help is None
    assert [(c.key, c.target, c.offender, c.cites) for c in vraag.choices][2] == (
        "weet-niet",
        "uitkomst-c",
        "defender",
        (),
    )
    assert vraag.choices[0].offender == ""
    assert vraag.poll is False
    assert tree.node("uitkomst-c").cites == ("64C", "64A1(aa)")  # unknown keys stay for validate()
    a = tree.node("uitkomst-a").outcome
    assert a.options is None
    assert a.see_tree is None
    assert a.resume_at is None
    assert [(o.chosen_by, o.chosen_if, o.cites) for o in a.option_list] == [("none", "", ())]
    assert tree.node("uitkomst-b").outcome.chooser == "none"
    assert tree.node("uitkomst-b").outcome.option_list == ()


def test_an_unreadable_file_is_named(tmp_path: Path):
    with pytest.raises(TreeError, match=r"^nergens.yaml: cannot read the file: "):
        load_tree_file(tmp_path / "nergens.yaml", "nergens.yaml")
    latin = tmp_path / "proef.yaml"
    latin.write_bytes("notes: café\n".encode("latin-1"))
    with pytest.raises(TreeError, match=r"proef.yaml: cannot read the file: .*codec"):
        load_tree_file(latin)
