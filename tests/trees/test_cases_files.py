"""Every tree file carries its own proof: ``trees/files/<slug>.cases.yaml`` beside it.

Each case is a story as a director hears it at the table, the answers he gives (choice keys from
the start node), the outcome the tree must reach, that outcome's exact citations (in file order)
and optionally a phrase (``says``) the Dutch ruling text must contain. One parametrized test per
tree file found: a tree without a cases file fails, a case that walks elsewhere fails, and an
outcome that no case reaches fails, naming it. The format is described in docs/TREE_FORMAT.md.

No database: only the YAML files are read.
"""

from __future__ import annotations

import contextlib
import re
from pathlib import Path

import pytest
import yaml

from trees.parse import load_tree_file
from trees.spec import TreeError, TreeSpec
from trees.validate import walk

TREES_DIR = Path(__file__).resolve().parents[2] / "trees" / "files"
CASES_SUFFIX = ".cases.yaml"
CASE_FIELDS = {"name", "story", "answers", "outcome", "cites", "says"}
REQUIRED_CASE_FIELDS = CASE_FIELDS - {"says"}
NAME = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")


def tree_files() -> list[Path]:
    return sorted(p for p in TREES_DIR.glob("*.yaml") if not p.name.endswith(CASES_SUFFIX))


def cases_file_for(tree_file: Path) -> Path:
    return tree_file.with_name(tree_file.name.removesuffix(".yaml") + CASES_SUFFIX)


def normalise(text: str) -> str:
    return " ".join(text.split())


def format_problems(data: object, slug: str) -> list[str]:
    """What is wrong with the shape of a cases file (empty: nothing)."""
    if not isinstance(data, dict) or set(data) != {"tree", "cases"}:
        return ["a cases file is a mapping with exactly 'tree' and 'cases'"]
    problems = []
    if data["tree"] != slug:
        problems.append(f"tree: {data['tree']!r} is not the slug {slug!r}")
    cases = data["cases"]
    if not isinstance(cases, list) or not cases:
        return [*problems, "cases: a non-empty list is required"]
    names = []
    for index, case in enumerate(cases, start=1):
        where = f"case {index}"
        if not isinstance(case, dict):
            problems.append(f"{where}: not a mapping")
            continue
        where = f"case {case.get('name', index)!r}"
        names.append(case.get("name"))
        if missing := REQUIRED_CASE_FIELDS - set(case):
            problems.append(f"{where}: missing {sorted(missing)}")
        if unknown := set(case) - CASE_FIELDS:
            problems.append(f"{where}: unknown fields {sorted(unknown)}")
        if not (isinstance(case.get("name"), str) and NAME.match(case["name"])):
            problems.append(f"{where}: name must be a lowercase slug")
        story = case.get("story")
        if not (
            isinstance(story, dict)
            and set(story) == {"nl", "en"}
            and all(isinstance(v, str) and v.strip() for v in story.values())
        ):
            problems.append(f"{where}: story needs nl and en text")
        for field in ("answers", "cites"):
            value = case.get(field)
            if not (isinstance(value, list) and all(isinstance(v, str) for v in value)):
                problems.append(f"{where}: {field} must be a list of strings (quote them)")
        if not isinstance(case.get("outcome"), str):
            problems.append(f"{where}: outcome must be a node key")
        if "says" in case and not (isinstance(case["says"], str) and case["says"].strip()):
            problems.append(f"{where}: says must be a non-empty string")
    for name in sorted({n for n in names if isinstance(n, str) and names.count(n) > 1}):
        problems.append(f"case name {name!r} is used more than once")
    return problems


def case_problems(tree: TreeSpec, case: dict) -> list[str]:
    """Walk one case through the tree; what does not match (empty: the case holds)."""
    where = f"case {case['name']!r}"
    try:
        node = walk(tree, case["answers"])
    except TreeError as error:
        return [f"{where}: {error}"]
    if not node.is_outcome:
        return [f"{where}: the answers stop at question {node.key!r}, not at an outcome"]
    problems = []
    if node.key != case["outcome"]:
        problems.append(f"{where}: reaches {node.key!r}, expected {case['outcome']!r}")
    if list(node.cites) != case["cites"]:
        problems.append(f"{where}: {node.key!r} cites {list(node.cites)}, expected {case['cites']}")
    says = case.get("says")
    if says is not None and normalise(says) not in normalise(node.outcome.ruling.nl):
        problems.append(f"{where}: the Dutch ruling of {node.key!r} does not say {says!r}")
    return problems


def check_tree_file(tree_file: Path) -> list[str]:
    """Every problem with ``tree_file``'s cases: the whole proof for one tree."""
    cases_file = cases_file_for(tree_file)
    if not cases_file.exists():
        return [f"{tree_file.name}: no cases file {cases_file.name} beside it"]
    tree = load_tree_file(tree_file)
    data = yaml.safe_load(cases_file.read_text(encoding="utf-8"))
    problems = format_problems(data, tree.slug)
    if problems:
        return [f"{cases_file.name}: {p}" for p in problems]
    reached = set()
    for case in data["cases"]:
        problems.extend(f"{cases_file.name}: {p}" for p in case_problems(tree, case))
        with contextlib.suppress(TreeError):
            reached.add(walk(tree, case["answers"]).key)
    for node in tree.outcomes:
        if node.key not in reached:
            problems.append(f"{cases_file.name}: outcome {node.key!r} is reached by no case")
    return problems


def test_the_tree_files_are_found():
    slugs = {p.stem for p in tree_files()}
    assert {"strafkaart", "verzaking", "onvoldoende-bod", "voor-de-beurt-uitkomen"} <= slugs
    assert len(slugs) >= 8


@pytest.mark.parametrize("tree_file", tree_files(), ids=lambda p: p.stem)
def test_every_case_of_the_tree_holds_and_reaches_every_outcome(tree_file):
    assert check_tree_file(tree_file) == []


# --- the checker itself fails where it must ---------------------------------------------------


@pytest.fixture
def small_tree(tmp_path):
    tree_file = tmp_path / "klein.yaml"
    tree_file.write_text(
        """\
slug: klein
edition: "2017"
phase: play
title: {nl: "Klein", en: "Small"}
description: {nl: "Een kleine boom.", en: "A small tree."}
start: vraag
nodes:
  vraag:
    question: {nl: "Gebeurd?", en: "Happened?"}
    choices:
      - {key: ja, label: {nl: "Ja", en: "Yes"}, next: straf}
      - {key: nee, label: {nl: "Nee", en: "No"}, next: vrij}
  straf:
    outcome:
      title: {nl: "Straf", en: "Penalty"}
      ruling: {nl: "De kaart wordt een grote strafkaart.", en: "A major penalty card."}
      announce: {nl: "Strafkaart.", en: "Penalty card."}
    cites: ["50A", "50D1"]
  vrij:
    outcome:
      title: {nl: "Vrij", en: "Free"}
      ruling: {nl: "Geen rectificatie.", en: "No rectification."}
      announce: {nl: "Doorspelen.", en: "Play on."}
    cites: ["49"]
""",
        encoding="utf-8",
    )
    return tree_file


def write_cases(tree_file: Path, cases: list[dict]) -> None:
    cases_file_for(tree_file).write_text(
        yaml.safe_dump({"tree": "klein", "cases": cases}, allow_unicode=True), encoding="utf-8"
    )


def case(name, answers, outcome, cites, says=None):
    data = {
        "name": name,
        "story": {"nl": "Verhaal.", "en": "Story."},
        "answers": answers,
        "outcome": outcome,
        "cites": cites,
    }
    if says is not None:
        data["says"] = says
    return data


GOOD = [
    case("gebeurd", ["ja"], "straf", ["50A", "50D1"], says="grote strafkaart"),
    case("niet", ["nee"], "vrij", ["49"]),
]


def test_checker_accepts_good_cases(small_tree):
    write_cases(small_tree, GOOD)
    assert check_tree_file(small_tree) == []


def test_checker_fails_a_tree_without_cases_file(small_tree):
    assert check_tree_file(small_tree) == ["klein.yaml: no cases file klein.cases.yaml beside it"]


def test_checker_names_an_unreached_outcome(small_tree):
    write_cases(small_tree, GOOD[:1])
    assert check_tree_file(small_tree) == ["klein.cases.yaml: outcome 'vrij' is reached by no case"]


@pytest.mark.parametrize(
    ("bad", "message"),
    [
        (case("x", ["nee"], "straf", ["49"]), "reaches 'vrij', expected 'straf'"),
        (case("x", ["ja"], "straf", ["50D1", "50A"]), "cites ['50A', '50D1'], expected"),
        (case("x", ["ja"], "straf", ["50A"]), "cites ['50A', '50D1'], expected ['50A']"),
        (case("x", ["ja"], "straf", ["50A", "50D1"], says="A major"), "does not say 'A major'"),
        (case("x", ["misschien"], "straf", ["50A"]), "'misschien' is not a choice"),
        (case("x", [], "straf", ["50A"]), "stop at question 'vraag'"),
    ],
)
def test_checker_fails_a_wrong_case(small_tree, bad, message):
    write_cases(small_tree, [*GOOD, bad])
    problems = check_tree_file(small_tree)
    assert len(problems) == 1, problems
    assert message in problems[0], problems


def test_checker_refuses_a_malformed_file(small_tree):
    write_cases(small_tree, [*GOOD, {**GOOD[0], "name": "gebeurd", "outcom": "straf"}])
    problems = check_tree_file(small_tree)
    assert any("unknown fields ['outcom']" in p for p in problems), problems
    assert any("'gebeurd' is used more than once" in p for p in problems), problems


@pytest.mark.parametrize("tree_file", tree_files(), ids=lambda p: p.stem)
def test_every_tree_has_at_least_six_cases(tree_file):
    data = yaml.safe_load(cases_file_for(tree_file).read_text(encoding="utf-8"))
    assert len(data["cases"]) >= 6
