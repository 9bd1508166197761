"""A small valid tree file (text) and helpers to break it, for the tests of the tree engine
(tests/trees/test_parse.py, test_validate.py, test_spec.py)."""

from __future__ import annotations

from trees.parse import parse_tree
from trees.spec import CitedLaw, Snapshot
from trees.validate import validate

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


def frozen(text: str) -> Snapshot:
    """The tree of ``text`` frozen as a snapshot, each citation with placeholder law text."""
    tree = tree_from(text)
    keys = {key for node in tree.nodes for key in node.cites}
    return Snapshot.of(
        tree, "v", {key: CitedLaw(key=key, edition="2017", article=key[:2]) for key in keys}
    )


def replace(old: str, new: str, text: str = GOOD) -> str:
    assert old in text, f"test setup: {old!r} not in the YAML"
    return text.replace(old, new, 1)


# ---------------------------------------------------------------------------------------------
# The good tree
