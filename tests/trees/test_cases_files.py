"""Every tree file carries its own proof: ``trees/files/<slug>.cases.yaml`` beside it.

Each case is a story as a director hears it at the table, the answers he gives (choice keys from
the start node), the outcome the tree must reach, that outcome's exact citations (in file order)
and optionally a phrase (``says``) the Dutch ruling text must contain. One parametrized test per
tree file found: a tree without a cases file fails, a case that walks elsewhere fails, and an
outcome that no case reaches fails, naming it. The format is described in docs/TREE_FORMAT.md.

The players must sit where the story says (issue 27): every seat named by its relation to another
("West, de linkertegenstander van Zuid") is that seat, and a case's optional ``dealer`` and
``auction`` go clockwise from the dealer and are the calls its stories tell, in the same order
(tests/support/seats.py). Where a tree asks whose turn it was, the answer must fit the auction.

No database: only the YAML files are read.
"""

from __future__ import annotations

import contextlib
import re
from pathlib import Path

import pytest
import yaml

from tests.support import seats
from trees.parse import load_tree_file
from trees.spec import TreeError, TreeSpec
from trees.validate import walk

TREES_DIR = Path(__file__).resolve().parents[2] / "trees" / "files"
CASES_SUFFIX = ".cases.yaml"
CASE_FIELDS = {"name", "story", "answers", "outcome", "cites", "says", "dealer", "auction"}
REQUIRED_CASE_FIELDS = CASE_FIELDS - {"says", "dealer", "auction"}
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


def whose_turn(walked: seats.Auction) -> str | None:
    """bod-voor-de-beurt's first answer for the auction's first call out of rotation."""
    if not walked.out_of_rotation:
        return None
    call, turn, had_called = walked.out_of_rotation[0]
    if turn == seats.rho(call.seat):
        return "rechts"
    if turn == seats.partner(call.seat):
        return "partner"
    return "links-later" if had_called else "links-eerste"


def insufficient_out_of_rotation(walked: seats.Auction, calls: list[seats.Call]) -> str | None:
    """onvoldoende-bod's 'voor-de-beurt' for the auction's first insufficient bid."""
    first = next((c for c in calls if "insufficient" in c.flags), None)
    if first is None:
        return None
    return "ja" if "out-of-rotation" in first.flags else "nee"


def changed_after_lho(walked: seats.Auction) -> str | None:
    """bod-gewijzigd's 'lho-al-geboden-bedoeld': did LHO call before the changed call?"""
    if not walked.out_of_rotation:
        return None
    call, turn, _had_called = walked.out_of_rotation[0]
    return "nee" if turn == seats.lho(call.seat) else "ja"


# (tree, question) -> the answer the case's auction gives to it
TURN_ANSWERS = {
    ("bod-voor-de-beurt", "wiens-beurt"): lambda walked, calls: whose_turn(walked),
    ("onvoldoende-bod", "voor-de-beurt"): insufficient_out_of_rotation,
    ("bod-gewijzigd", "lho-al-geboden-bedoeld"): lambda walked, calls: changed_after_lho(walked),
}


def answered(tree: TreeSpec, answers: list[str]) -> list[tuple[str, str]]:
    """(question, choice) for every answer the case gives, as far as the walk goes."""
    steps = []
    node = tree.node(tree.start)
    for answer in answers:
        choice = node.choice(answer)
        if choice is None or not tree.has_node(choice.target):
            break
        steps.append((node.key, answer))
        node = tree.node(choice.target)
    return steps


def seat_problems(tree: TreeSpec, case: dict) -> list[str]:
    """Players out of their seats in one case's stories or auction (empty: all in place)."""
    where = f"case {case['name']!r}"
    story = case["story"]
    problems = [p for lang in ("nl", "en") for p in seats.relation_problems(story[lang], lang)]
    if "auction" not in case:
        if any(seats.names_dealer(story[lang], lang) for lang in ("nl", "en")):
            problems.append("the story names the dealer: give the auction too")
        return [f"{where}: {p}" for p in problems]
    problems += seats.auction_problems(case.get("dealer"), case["auction"], story)
    calls = [c for c in map(seats.parse_call, case["auction"]) if isinstance(c, seats.Call)]
    if not problems and calls:
        walked = seats.walk_auction(case.get("dealer"), calls)
        for question, choice in answered(tree, case["answers"]):
            rule = TURN_ANSWERS.get((tree.slug, question))
            expected = rule(walked, calls) if rule else None
            if expected is not None and choice != expected:
                problems.append(
                    f"answers {question}: {choice!r}, but the auction says {expected!r}"
                )
    return [f"{where}: {p}" for p in problems]


def seat_problems_of_file(tree_file: Path) -> list[str]:
    tree = load_tree_file(tree_file)
    data = yaml.safe_load(cases_file_for(tree_file).read_text(encoding="utf-8"))
    return [
        f"{cases_file_for(tree_file).name}: {p}"
        for c in data["cases"]
        for p in seat_problems(tree, c)
    ]


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


@pytest.mark.parametrize("tree_file", tree_files(), ids=lambda p: p.stem)
def test_every_case_puts_the_players_in_their_seats(tree_file):
    assert seat_problems_of_file(tree_file) == []


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


# --- the seat checker fails where it must ------------------------------------------------------


def story_case(nl, en, auction=None, dealer=None, answers=("ja",)):
    data = {
        **case("zitplaatsen", list(answers), "straf", ["50A", "50D1"]),
        "story": {"nl": nl, "en": en},
    }
    if auction is not None:
        data["auction"] = auction
    if dealer is not None:
        data["dealer"] = dealer
    return data


CLOCKWISE = story_case(
    "Noord is gever en opent 1♥, Oost past, Zuid biedt 2♥ en West past.",
    "North is dealer and opens 1♥, East passes, South bids 2♥ and West passes.",
    auction=["N 1♥", "E pass", "S 2♥", "W pass"],
    dealer="N",
)


def test_seat_checker_accepts_seats_as_they_are(small_tree):
    assert seat_problems(load_tree_file(small_tree), CLOCKWISE) == []


@pytest.mark.parametrize(
    ("nl", "en", "auction", "message"),
    [
        # calls listed counter-clockwise from the dealer, in the story and in the auction
        (
            "Noord is gever en opent 1♥, West past, Zuid biedt 2♥ en Oost past.",
            "North is dealer and opens 1♥, West passes, South bids 2♥ and East passes.",
            ["N 1♥", "W pass", "S 2♥", "E pass"],
            "'W pass': it is E's turn",
        ),
        # the auction is right, the story tells it in another order
        (
            "Noord is gever en opent 1♥, Zuid biedt 2♥, Oost past en West past.",
            "North is dealer and opens 1♥, South bids 2♥, East passes and West passes.",
            ["N 1♥", "E pass", "S 2♥", "W pass"],
            "story (nl) does not tell 'S 2♥' after what it told before",
        ),
        # the story names another dealer than the auction
        (
            "Oost is gever. Noord opent 1♥, Oost past, Zuid biedt 2♥ en West past.",
            "East is dealer. North opens 1♥, East passes, South bids 2♥ and West passes.",
            ["N 1♥", "E pass", "S 2♥", "W pass"],
            "the auction's dealer is N",
        ),
    ],
)
def test_seat_checker_fails_calls_in_the_wrong_order(small_tree, nl, en, auction, message):
    problems = seat_problems(load_tree_file(small_tree), story_case(nl, en, auction, dealer="N"))
    assert any(message in p for p in problems), problems


@pytest.mark.parametrize(
    ("nl", "en", "message"),
    [
        (
            "West, de linkertegenstander van Noord, accepteert niet.",
            "West, North's left-hand opponent, does not accept.",
            "that is Oost, seen from Noord",
        ),
        (
            "Zuid biedt 2♠ terwijl Oost, zijn linkertegenstander, nog aan de beurt was.",
            "South bids 2♠ while East, his left-hand opponent, was still to call.",
            "that is West, seen from Zuid",
        ),
        (
            "Oost moet passen na een onvoldoende bod van zijn partner Noord.",
            "East must pass after an insufficient bid by his partner North.",
            "that is West, seen from Oost",
        ),
        (
            "Zuid, links van Noord, speelt meteen bij.",
            "South, the left-hand opponent of declarer North, plays at once.",
            "that is Oost, seen from Noord",
        ),
    ],
)
def test_seat_checker_fails_a_seat_named_by_a_wrong_relation(small_tree, nl, en, message):
    problems = seat_problems(load_tree_file(small_tree), story_case(nl, en))
    assert any(message in p for p in problems), problems
    assert len(problems) == 2, problems  # the Dutch and the English story both


def test_seat_checker_wants_the_auction_of_a_story_that_names_the_dealer(small_tree):
    bare = story_case("Noord is gever, maar Zuid past.", "North is dealer, but South passes.")
    problems = seat_problems(load_tree_file(small_tree), bare)
    assert problems == ["case 'zitplaatsen': the story names the dealer: give the auction too"]


@pytest.mark.parametrize(
    ("nl", "en", "auction", "dealer", "message"),
    [
        # a bid below the one before it that the auction does not mark insufficient
        (
            "Zuid opent 3♣, West biedt 3♥, Noord past, Oost past en Zuid biedt 3♦.",
            "South opens 3♣, West bids 3♥, North passes, East passes and South bids 3♦.",
            ["S 3♣", "W 3♥", "N pass", "E pass", "S 3♦"],
            None,
            "'S 3♦' is not sufficient over 3♥",
        ),
        # a call marked out of rotation that was made in turn
        (
            "Noord opent 1♠ en Oost past.",
            "North opens 1♠ and East passes.",
            ["N 1♠", "E pass out-of-rotation"],
            None,
            "'E pass out-of-rotation' is in rotation",
        ),
        # the partner of the player who passed out of turn cannot accept it (29A: only LHO)
        (
            "Noord is gever, maar Zuid past. Oost accepteert niet. Noord opent 1♥.",
            "North is dealer, but South passes. East does not accept. North opens 1♥.",
            ["S pass out-of-rotation", "N 1♥"],
            "N",
            "only the left-hand opponent",
        ),
        # the auction makes West declarer; the story calls East declarer
        (
            "West opent 1♠, Noord past, Oost past en Zuid past; de leider Oost speelt.",
            "West opens 1♠, North passes, East passes and South passes; declarer East plays.",
            ["W 1♠", "N pass", "E pass", "S pass"],
            None,
            "the auction makes West declarer",
        ),
        # a double of partner's bid
        (
            "Noord opent 1♠, Oost past en Zuid doubleert.",
            "North opens 1♠, East passes and South doubles.",
            ["N 1♠", "E pass", "S X"],
            None,
            "no opponent's bid to X",
        ),
    ],
)
def test_seat_checker_fails_an_auction_the_table_cannot_have(
    small_tree, nl, en, auction, dealer, message
):
    problems = seat_problems(load_tree_file(small_tree), story_case(nl, en, auction, dealer))
    assert any(message in p for p in problems), problems


def test_seat_checker_fails_an_answer_the_auction_contradicts():
    """East opens at North's turn: his right-hand opponent's, not his partner's (issue 27 found
    seven bod-voor-de-beurt cases like this one)."""
    tree = load_tree_file(TREES_DIR / "bod-voor-de-beurt.yaml")
    wrong = story_case(
        "Noord is gever, maar Oost opent 1♥. Zuid wil de bieding accepteren en biedt 1♠.",
        "North is dealer, but East opens 1♥. South wants to accept the call and bids 1♠.",
        ["E 1♥ out-of-rotation", "S 1♠"],
        dealer="N",
        answers=["partner", "ja"],
    )
    problems = seat_problems(tree, wrong)
    assert problems == [
        "case 'zitplaatsen': answers wiens-beurt: 'partner', but the auction says 'rechts'"
    ]
    assert seat_problems(tree, {**wrong, "answers": ["rechts", "nee", "ja"]}) == []
