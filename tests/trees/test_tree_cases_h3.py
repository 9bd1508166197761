"""Hand-written table cases for the 2017 trees onvoldoende-bod, teruggenomen-kaart and
voor-de-beurt-uitkomen.

Each case says what happened at the table, the answers a director gives (choice keys), the
outcome the tree must reach, and a phrase the ruling must contain (in Dutch and in English).
Includes the worked cases of ../shared/LAWS_LOGIC.md for these laws. No database.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from trees.parse import load_tree_file
from trees.validate import walk

TREES_DIR = Path(__file__).resolve().parents[2] / "trees" / "files"


@dataclass(frozen=True)
class Case:
    tree: str
    situation: str
    answers: tuple[str, ...]
    outcome: str
    phrase_nl: str
    phrase_en: str
    # optional checks on the outcome's fields: chooser, see_tree, adjusted_score,
    # unauthorised_information, or a citation that must be among the outcome's cites
    expect: dict = field(default_factory=dict)


CASES = [
    # --- onvoldoende-bod (Law 27 with 23) ------------------------------------------------------
    Case(
        "onvoldoende-bod",
        "Over 1♠ West bids 1♥ (natural); North does not accept it and West, after the director's "
        "explanation, corrects to 2♥ (natural). [LAWS_LOGIC worked case]",
        ("nee", "nee", "nee", "nee", "laagste-zelfde"),
        "b1a",
        "zonder rectificatie",
        "without rectification",
        {"cites": "27B1(a)", "adjusted_score": True, "unauthorised_information": False},
    ),
    Case(
        "onvoldoende-bod",
        "1♠ by North, East bids 1♥; South, not noticing, bids 2♣ over it.",
        ("nee", "nee", "ja"),
        "geaccepteerd",
        "geldt als een legaal bod",
        "treated as a legal bid",
        {"chooser": "lho", "cites": "27A1"},
    ),
    Case(
        "onvoldoende-bod",
        "Over 1♦ East puts down the 1♣ card; away from the table he says he meant to take 1NT, "
        "the card next to it. His partner has not called.",
        ("ja", "nee"),
        "naar-25a",
        "artikel 25A",
        "Law 25A",
        {"see_tree": None, "cites": "25A1"},
    ),
    Case(
        "onvoldoende-bod",
        "West bids 1♥ over North's 1♠, but it was South's turn (North had just bid, East had not).",
        ("nee", "ja"),
        "naar-31",
        "artikel 31",
        "Law 31",
        {"cites": "27A2"},
    ),
    Case(
        "onvoldoende-bod",
        "Partner opens 1NT, RHO's 2♣ overcall goes unnoticed and the offender bids 2♣ as "
        "Stayman; LHO declines, and the offender substitutes 3♣, which in their system asks for "
        "a four-card major: the same purpose.",
        ("nee", "nee", "nee", "nee", "vergelijkbaar"),
        "b1b",
        "vergelijkbaar",
        "comparable",
        {"cites": "23A", "adjusted_score": True},
    ),
    Case(
        "onvoldoende-bod",
        "1♠ by North, East bids 1♥ (natural), South declines; East substitutes 3NT.",
        ("nee", "nee", "nee", "nee", "andere"),
        "b2",
        "bij elke beurt in deze bieding passen",
        "pass at every turn for the rest of this auction",
        {
            "chooser": "declarer",
            "cites": "26B",
            "unauthorised_information": True,
            "adjusted_score": True,
        },
    ),
    Case(
        "onvoldoende-bod",
        "1♠ by North, East bids 1♥, South declines; East then tries to double instead "
        "(a take-out double, not comparable to a natural 1♥).",
        ("nee", "nee", "nee", "nee", "doublet"),
        "b3",
        "vervalt",
        "is cancelled",
        {"cites": "27B3"},
    ),
    Case(
        "onvoldoende-bod",
        "Before anyone could call the director, East replaced his 1♥ (over 1♠) by 2♥; South does "
        "not accept the 1♥.",
        ("nee", "nee", "nee", "ja", "laagste-zelfde"),
        "b1a",
        "na afloop van het spel",
        "at the end of play",
        {"cites": "27D"},
    ),
    Case(
        "onvoldoende-bod",
        "Over 2♠ West bids 2♦, South declines, and West 'corrects' to 2♥, again insufficient; "
        "South accepts that one.",
        ("nee", "nee", "nee", "nee", "weer-onvoldoende", "ja"),
        "b4-geaccepteerd",
        "geldt als een legaal bod",
        "treated as a legal bid",
        {"chooser": "declarer", "unauthorised_information": True},
    ),
    Case(
        "onvoldoende-bod",
        "Over 2♠ West bids 2♦, South declines, West tries 2♥ and South declines again.",
        ("nee", "nee", "nee", "nee", "weer-onvoldoende", "nee"),
        "b4-niet",
        "bij elke beurt in deze bieding passen",
        "pass at every turn for the rest of this auction",
        {"cites": "27B3"},
    ),
    # --- teruggenomen-kaart (Law 47) ---------------------------------------------------------
    Case(
        "teruggenomen-kaart",
        "West asks about North's 2♦ and is told 'natural'; West plays a card to the trick, and "
        "before the next player plays, declarer corrects the explanation: it was a transfer. "
        "[LAWS_LOGIC worked case]",
        ("ja", "verkeerde-uitleg", "nee"),
        "verkeerde-uitleg-terug",
        "zonder rectificatie terugnemen",
        "take his card back without rectification",
        {"cites": "47E2(a)", "unauthorised_information": True},
    ),
    Case(
        "teruggenomen-kaart",
        "As above, but the correction of the explanation comes after dummy has played to the "
        "trick.",
        ("ja", "verkeerde-uitleg", "ja"),
        "verkeerde-uitleg-te-laat",
        "arbitrale score",
        "adjusted score",
        {"cites": "47E2(b)", "adjusted_score": True},
    ),
    Case(
        "teruggenomen-kaart",
        "Declarer puts the ♥3 face up on the table from his hand, then says he meant the ♥4 and "
        "wants to change it.",
        ("ja", "anders"),
        "blijft-gespeeld",
        "blijft gespeeld",
        "stays played",
        {"cites": "47F2"},
    ),
    Case(
        "teruggenomen-kaart",
        "Declarer calls 'small heart' from dummy, at once says 'no, small club, I misspoke'; "
        "RHO had already followed with a heart.",
        ("ja", "aanduiding", "ja"),
        "aanduiding",
        "mag zijn kaart terugnemen",
        "may take his card back",
        {"cites": "45C4(b)", "chooser": "nos"},
    ),
    Case(
        "teruggenomen-kaart",
        "Dummy tells West it is his lead; West leads the ♠A, but in fact declarer won the last "
        "trick.",
        ("ja", "verkeerd-beurt"),
        "verkeerd-beurt",
        "zonder rectificatie terug",
        "back without rectification",
        {"cites": "47E1", "unauthorised_information": True},
    ),
    Case(
        "teruggenomen-kaart",
        "East discarded a diamond on a club lead; before his side plays to the next trick he "
        "finds a club and wants to change.",
        ("ja", "verzaking"),
        "naar-verzaking",
        "62A",
        "62A",
        {"see_tree": "verzaking"},
    ),
    Case(
        "teruggenomen-kaart",
        "Declarer pulls a card from his hand but stops before holding it face up near the table, "
        "and puts it back.",
        ("nee-leider",),
        "niet-gespeeld-leider",
        "nooit strafkaarten",
        "never become penalty cards",
        {"cites": "48A", "unauthorised_information": False},
    ),
    Case(
        "teruggenomen-kaart",
        "While declarer thinks, West drops the ♣Q face up on the table; it was not his turn.",
        ("nee-tegenspeler",),
        "naar-strafkaart",
        "strafkaart",
        "penalty card",
        {"see_tree": "strafkaart", "cites": "49"},
    ),
    Case(
        "teruggenomen-kaart",
        "East plays two hearts stuck together, both visible, to a heart lead.",
        ("ja", "onreglementair", "tegenspeler"),
        "onreglementair-tegenspeler",
        "wordt een strafkaart",
        "becomes a penalty card",
        {"see_tree": "strafkaart", "cites": "58B2"},
    ),
    # --- voor-de-beurt-uitkomen (Laws 53-56) ---------------------------------------------------
    Case(
        "voor-de-beurt-uitkomen",
        "South is declarer; East faces the ♠K as opening lead while dummy has already put "
        "half of his cards down. [LAWS_LOGIC worked case]",
        ("uitkomst-tegenspeler", "ja", "nee", "ja"),
        "moet-accepteren",
        "moet hij de uitkomst accepteren",
        "he must accept the lead",
        {"cites": "54C"},
    ),
    Case(
        "voor-de-beurt-uitkomen",
        "South is declarer; East faces the ♠K as opening lead, dummy has not moved. South refuses "
        "the lead and requires a spade from West. [LAWS_LOGIC worked case: refuse → major PC → "
        "require]",
        ("uitkomst-tegenspeler", "ja", "nee", "nee", "weigeren", "eisen"),
        "uitkomst-eist-kleur",
        "grote strafkaart",
        "major penalty card",
        {"chooser": "declarer", "cites": "50D2(a)", "unauthorised_information": True},
    ),
    Case(
        "voor-de-beurt-uitkomen",
        "As above, but South forbids spades for as long as West keeps the lead. [worked case: "
        "forbid]",
        ("uitkomst-tegenspeler", "ja", "nee", "nee", "weigeren", "verbieden"),
        "uitkomst-verbiedt-kleur",
        "zolang hij aan slag blijft",
        "for as long as he keeps the lead",
        {"cites": "54D"},
    ),
    Case(
        "voor-de-beurt-uitkomen",
        "As above, but South leaves West free; the ♠K stays on the table. [worked case: leave]",
        ("uitkomst-tegenspeler", "ja", "nee", "nee", "weigeren", "vrij"),
        "uitkomst-vrij",
        "eerste gelegenheid",
        "first legal opportunity",
        {"cites": "50D1", "adjusted_score": True},
    ),
    Case(
        "voor-de-beurt-uitkomen",
        "East faces the opening lead out of turn and South, who likes the lead, puts his own hand "
        "down.",
        ("uitkomst-tegenspeler", "ja", "nee", "nee", "zelf-blinde"),
        "leider-wordt-blinde",
        "wordt blinde",
        "becomes dummy",
        {"cites": "54A", "chooser": "declarer"},
    ),
    Case(
        "voor-de-beurt-uitkomen",
        "East puts a card face down on the table as opening lead; it was West's lead.",
        ("uitkomst-tegenspeler", "nee"),
        "dicht-terug",
        "geen strafkaart",
        "not become a penalty card",
        {"cites": "41A", "unauthorised_information": False},
    ),
    Case(
        "voor-de-beurt-uitkomen",
        "After the final pass presumed dummy, North, faces the ♦2 as if to lead.",
        ("uitkomst-leidende-partij",),
        "leidende-partij",
        "artikel 24",
        "Law 24",
        {"cites": "54E"},
    ),
    Case(
        "voor-de-beurt-uitkomen",
        "Declarer wins trick 5 in hand and leads the ♣J from dummy; nobody has played yet and the "
        "defenders want it back.",
        ("later-leider", "nee", "niets", "terug-andere-hand"),
        "leider-terug-andere-hand",
        "uit de juiste hand",
        "from the correct hand",
        {"chooser": "defenders", "cites": "55B2", "adjusted_score": True},
    ),
    Case(
        "voor-de-beurt-uitkomen",
        "At trick 6 West leads out of turn when declarer won trick 5; declarer plays from dummy "
        "(next in rotation) to West's lead.",
        ("later-tegenspeler", "nee", "volgende-speelde"),
        "later-tegenspeler-geaccepteerd",
        "juist voorspelen",
        "correct lead",
        {"cites": "53A"},
    ),
    Case(
        "voor-de-beurt-uitkomen",
        "At trick 6 West leads out of turn; declarer, who won trick 5, does not accept.",
        ("later-tegenspeler", "nee", "niets", "nee", "leider"),
        "later-leider-aan-slag",
        "grote strafkaart",
        "major penalty card",
        {"cites": "56", "unauthorised_information": True},
    ),
    Case(
        "voor-de-beurt-uitkomen",
        "Dummy tells East 'your lead' after trick 3, East leads; declarer had won the trick.",
        ("later-tegenspeler", "ja"),
        "misinformatie",
        "zonder rectificatie terug",
        "back without rectification",
        {"cites": "47E1"},
    ),
]


def load(slug: str):
    return load_tree_file(TREES_DIR / f"{slug}.yaml")


@pytest.mark.parametrize("case", CASES, ids=[f"{c.tree}:{'/'.join(c.answers)}" for c in CASES])
def test_case(case: Case):
    tree = load(case.tree)
    node = walk(tree, case.answers)
    assert node.key == case.outcome, case.situation
    assert node.is_outcome and node.outcome is not None
    outcome = node.outcome
    assert case.phrase_nl.casefold() in outcome.ruling.nl.casefold(), (case.situation, "nl")
    assert case.phrase_en.casefold() in outcome.ruling.en.casefold(), (case.situation, "en")
    for name, expected in case.expect.items():
        if name == "cites":
            assert expected in node.cites, (case.situation, node.cites)
        else:
            assert getattr(outcome, name) == expected, (case.situation, name)


def test_at_least_six_cases_per_tree():
    counts = Counter(case.tree for case in CASES)
    for slug in ("onvoldoende-bod", "teruggenomen-kaart", "voor-de-beurt-uitkomen"):
        assert counts[slug] >= 6, slug


def test_the_worked_cases_are_covered():
    # every outcome is pinned by the path table; here: the worked cases of LAWS_LOGIC.md
    covered = {(case.tree, case.outcome) for case in CASES}
    for slug, outcome in [
        ("onvoldoende-bod", "b1a"),
        ("onvoldoende-bod", "b1b"),
        ("onvoldoende-bod", "b2"),
        ("teruggenomen-kaart", "verkeerde-uitleg-terug"),
        ("voor-de-beurt-uitkomen", "moet-accepteren"),
        ("voor-de-beurt-uitkomen", "uitkomst-eist-kleur"),
        ("voor-de-beurt-uitkomen", "uitkomst-verbiedt-kleur"),
        ("voor-de-beurt-uitkomen", "uitkomst-vrij"),
    ]:
        assert (slug, outcome) in covered


def test_every_outcome_states_who_chooses_when_there_are_options():
    for slug in ("onvoldoende-bod", "teruggenomen-kaart", "voor-de-beurt-uitkomen"):
        for node in load(slug).outcomes:
            if node.outcome.options is not None:
                assert node.outcome.chooser != "none", f"{slug}: {node.key}"
