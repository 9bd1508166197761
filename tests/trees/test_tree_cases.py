"""Hand-written cases: what happened at the table, how the director answers, what he rules.

Includes every worked case of ../shared/LAWS_LOGIC.md that falls under these five trees. The
answers are choice keys from the start node; the phrase must appear in the ruling (nl or en) or
in the options, so a case fails when the ruling stops saying what it must say.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path

import pytest

from trees.parse import load_tree_file
from trees.spec import TreeSpec
from trees.validate import walk

TREES_DIR = Path(__file__).resolve().parents[2] / "trees" / "files"


@dataclass(frozen=True)
class Case:
    tree: str
    situation: str
    answers: str  # space-separated choice keys from the start
    outcome: str
    phrase: str

    def __str__(self) -> str:
        return f"{self.tree}: {self.situation}"


CASES = [
    # --- strafkaart (2017) --------------------------------------------------------------------
    Case(
        "strafkaart",
        "LAWS_LOGIC: a defender drops the ♥K accidentally during play; partner could see it.",
        "kaart-getoond spel tegenspeler anders ja nee ja",
        "grote-strafkaart",
        "Een honneur, of een kaart die bewust werd gespeeld, is een grote strafkaart",
    ),
    Case(
        "strafkaart",
        "LAWS_LOGIC: a defender drops the ♣3; it is his only penalty card.",
        "kaart-getoond spel tegenspeler anders ja nee nee per-ongeluk",
        "kleine-strafkaart",
        "maar hij mag wel een honneur",
    ),
    Case(
        "strafkaart",
        "LAWS_LOGIC: one defender exposes two small cards (♠4 and ♦7) as they slip from his hand.",
        "kaart-getoond spel tegenspeler anders ja ja",
        "grote-meerdere",
        "dan zijn ze allemaal grote strafkaarten",
    ),
    Case(
        "strafkaart",
        "LAWS_LOGIC: declarer refused West's opening lead out of turn (♠5, now a major penalty "
        "card); East, the correct leader, is to lead.",
        "partner-uitkomen een-grote eisen",
        "een-eisen",
        "De leider eist de kleur van de strafkaart",
    ),
    Case(
        "strafkaart",
        "Declarer drops the ♦Q on the table while playing a card from dummy.",
        "kaart-getoond spel leider-blinde",
        "leider-kaart",
        "wordt nooit een strafkaart",
    ),
    Case(
        "strafkaart",
        "East has the ♦J as a major penalty card; diamonds are led and he plays the ♦3 instead; "
        "declarer has not played since.",
        "andere-kaart ja nee strafkaart",
        "strafkaart-geeist",
        "wordt een grote strafkaart (52B2)",
    ),
    Case(
        "strafkaart",
        "As before, but the director is only called after declarer has played from dummy.",
        "andere-kaart ja ja",
        "moet-aanvaarden",
        "moet de leider de gespeelde kaart aanvaarden",
    ),
    Case(
        "strafkaart",
        "During the auction South shows the ♠A to the table; the auction is still going on.",
        "kaart-getoond bieding ja loopt-nog nee",
        "bieding-pas",
        "moet de partner van de overtreder passen",
    ),
    Case(
        "strafkaart",
        "South (a defender) has penalty cards ♥5 and ♣9; North wins a trick and is to lead.",
        "partner-uitkomen meer-kleuren verbieden",
        "kleuren-verbieden",
        "één of meer van de kleuren waarin de partner strafkaarten heeft",
    ),
    Case(
        "strafkaart",
        "West, third to play, leads to the next trick before his partner has played to this one.",
        "kaart-getoond spel tegenspeler voortijdig nee hoogste",
        "voortijdig-hoogste",
        "de hoogste kaart spelen",
    ),
    Case(
        "strafkaart",
        "West has the ♠Q and ♠8 as penalty cards; spades are led.",
        "eigenaar-speelt groot ja ja",
        "leider-wijst-aan",
        "dan wijst de leider aan",
    ),
    Case(
        "strafkaart",
        "West has a major ♦K penalty card; hearts are led and he still holds hearts.",
        "eigenaar-speelt groot nee",
        "voorrang",
        "De plicht om kleur te bekennen",
    ),
    # --- verzaking (2017) ---------------------------------------------------------------------
    Case(
        "verzaking",
        "LAWS_LOGIC: a defender revoked by ruffing and won the trick; his side won a later trick.",
        "ja ja na-spel geen ja ja",
        "twee-slagen",
        "samen twee slagen (64A1)",
    ),
    Case(
        "verzaking",
        "LAWS_LOGIC: the revoke is noticed after the offender's partner has played to the next "
        "trick, though the offender has not: established. His partner won the revoke trick.",
        "ja ja na-spel geen nee ja",
        "een-slag",
        "gaat één slag over",
    ),
    Case(
        "verzaking",
        "LAWS_LOGIC: a revoke on trick twelve is noticed before the hands go back into the board.",
        "ja ja twaalfde",
        "twaalfde-herstel",
        "Er is geen slagoverdracht (64B6)",
    ),
    Case(
        "verzaking",
        "LAWS_LOGIC: declarer failed to play dummy's heart; found at the end of play.",
        "ja ja na-spel open-kaart",
        "open-kaart-verzaking",
        "geen slagen automatisch overgedragen (64B3)",
    ),
    Case(
        "verzaking",
        "A defender discards, then notices he has a heart before anyone else plays.",
        "ja nee tegenspeler nee",
        "herstel-strafkaart",
        "De teruggenomen kaart wordt een grote strafkaart (62B1, 50)",
    ),
    Case(
        "verzaking",
        "Declarer revokes from his hand; West has played after him; no one has played to the next "
        "trick.",
        "ja nee open ja",
        "herstel-vrij-later",
        "(62C1)",
    ),
    Case(
        "verzaking",
        "The revoke is pointed out only after the non-offending side have bid on the next board.",
        "ja ja te-laat",
        "te-laat",
        "(64B4)",
    ),
    Case(
        "verzaking",
        "Both sides revoked on trick 5; only declarer's side has played to trick 6.",
        "ja beide nee",
        "beide-herstellen",
        "beide verzakingen moeten worden hersteld (62C3)",
    ),
    Case(
        "verzaking",
        "West revoked on trick 9; declarer won the revoke trick and every later trick.",
        "ja ja na-spel geen nee nee",
        "geen-slag",
        "(64B1)",
    ),
    Case(
        "verzaking",
        "A defender with a penalty card played another card of the suit led instead of it.",
        "strafkaart",
        "zie-strafkaart",
        "eerst beslist wet 52",
    ),
    # --- strafkaart-1963 ----------------------------------------------------------------------
    Case(
        "strafkaart-1963",
        "A defender drops the ♣3 face up during play; the director designates it.",
        "getoond tegenspeler ja",
        "strafkaart",
        "geen onderscheid tussen grote en kleine strafkaarten",
    ),
    Case(
        "strafkaart-1963",
        "A defender has one penalty card; his partner wins a trick and is on lead.",
        "partner-aan-slag een",
        "keuze-een",
        "Gebruikt de leider dit recht, dan mag de strafkaart worden opgenomen",
    ),
    Case(
        "strafkaart-1963",
        "A defender has the ♠K and ♠7 as penalty cards; declarer requires his partner to lead "
        "spades.",
        "partner-aan-slag een-kleur",
        "keuze-een-kleur",
        "elke strafkaart van die kleur opnemen",
    ),
    Case(
        "strafkaart-1963",
        "Penalty cards in spades and hearts; partner is on lead.",
        "partner-aan-slag meer-kleuren",
        "keuze-meer-kleuren",
        "verboden kleur of kleuren",
    ),
    Case(
        "strafkaart-1963",
        "The defender plays another card instead of his penalty card; declarer has already played "
        "from dummy.",
        "andere-kaart ja ja",
        "moet-aanvaarden",
        "(art. 52(a))",
    ),
    Case(
        "strafkaart-1963",
        "The defender plays another card instead of his penalty card; declarer has not played yet.",
        "andere-kaart ja nee",
        "leider-kiest",
        "onjuist voor- of bijspeelde, wordt een strafkaart (art. 52(b))",
    ),
    Case(
        "strafkaart-1963",
        "The defender has two penalty cards of the suit led.",
        "eigenaar-speelt ja ja",
        "leider-wijst-aan",
        "mag de leider aanwijzen welke daarvan gespeeld moet worden",
    ),
    Case(
        "strafkaart-1963",
        "The defender has a penalty card in clubs; hearts are led and he has hearts.",
        "eigenaar-speelt nee",
        "voorrang",
        "heeft voorrang boven de verplichting om een strafkaart te spelen",
    ),
    # --- teruggenomen-kaart-1987 ----------------------------------------------------------------
    Case(
        "teruggenomen-kaart-1987",
        "LAWS_LOGIC: a defender, misinformed about an opponent's conventional call, plays a card; "
        "the explanation is corrected before anyone else plays.",
        "verkeerde-informatie uitleg nee",
        "uitleg-terugnemen",
        "(art. 47E2(a))",
    ),
    Case(
        "teruggenomen-kaart-1987",
        "As before, but the next player had already played when the explanation was corrected.",
        "verkeerde-informatie uitleg ja",
        "uitleg-te-laat",
        "Art. 40 C is van toepassing",
    ),
    Case(
        "teruggenomen-kaart-1987",
        "Declarer told East it was his lead; East led, but West was on lead.",
        "verkeerde-informatie beurt",
        "voor-de-beurt",
        "mag de kaart straffeloos terugnemen",
    ),
    Case(
        "teruggenomen-kaart-1987",
        "Declarer wants to take back a card from his hand because he changed his mind.",
        "anders",
        "niet-terugnemen",
        "(art. 47G)",
    ),
    Case(
        "teruggenomen-kaart-1987",
        "Declarer requires a defender to play his penalty card instead of the card he played.",
        "straf",
        "straf",
        "om te voldoen aan een straf (art. 47A)",
    ),
    Case(
        "teruggenomen-kaart-1987",
        "Two cards were played simultaneously by a defender.",
        "onreglementair",
        "onreglementair",
        "geldt art. 58",
    ),
    Case(
        "teruggenomen-kaart-1987",
        "Declarer named the wrong card from dummy, corrected it at once; RHO had already played.",
        "aanduiding",
        "aanduiding",
        "(art. 47C)",
    ),
    Case(
        "teruggenomen-kaart-1987",
        "An opponent changed his card as allowed; the next player wants to change his too.",
        "tegenstander",
        "tegenstander",
        "straffeloos worden teruggenomen en door een andere worden vervangen (art. 47D)",
    ),
    # --- verzaking-2007 -------------------------------------------------------------------------
    Case(
        "verzaking-2007",
        "Declarer revokes from his hand and notices before anyone else plays.",
        "ja nee open nee",
        "herstel-vrij",
        "(art. 62B2)",
    ),
    Case(
        "verzaking-2007",
        "A defender revokes; declarer has played after him; the revoke is not yet established.",
        "ja nee tegenspeler ja",
        "herstel-strafkaart-later",
        "wordt die kaart een strafkaart (art. 62C2)",
    ),
    Case(
        "verzaking-2007",
        "Trick twelve: West revokes before East's turn; East, void in the suit led, holds a spade "
        "and a heart.",
        "ja ja twaalfde ja",
        "twaalfde-herstel-beperking",
        "(art. 62D2)",
    ),
    Case(
        "verzaking-2007",
        "A defender ruffed and won the revoke trick; his side won a later trick.",
        "ja ja na-spel geen ja ja",
        "twee-slagen",
        "art. 64A1 (2007)",
    ),
    Case(
        "verzaking-2007",
        "Declarer revoked; dummy won the revoke trick; declarer's side won later tricks.",
        "ja ja na-spel geen nee ja",
        "een-slag",
        "art. 64A2 (2007)",
    ),
    Case(
        "verzaking-2007",
        "Declarer failed to play a card of dummy's in the suit led.",
        "ja ja na-spel open-kaart",
        "open-kaart-verzaking",
        "(64B3)",
    ),
    Case(
        "verzaking-2007",
        "The revoke is discovered after the round has ended.",
        "ja ja te-laat",
        "te-laat",
        "(64B4, 64B5)",
    ),
    Case(
        "verzaking-2007",
        "A revoke on trick twelve is found when the hands are already back in the board.",
        "ja ja na-spel twaalfde",
        "twaalfde-te-laat",
        "kan niet meer worden hersteld (art. 62D1)",
    ),
]


@cache
def tree(slug: str) -> TreeSpec:
    return load_tree_file(TREES_DIR / f"{slug}.yaml")


def normalise(text: str) -> str:
    return " ".join(text.split())


@pytest.mark.parametrize("case", CASES, ids=str)
def test_case(case: Case):
    node = walk(tree(case.tree), case.answers.split())
    assert node.key == case.outcome
    outcome = node.outcome
    assert outcome is not None
    texts = [outcome.ruling.nl, outcome.ruling.en]
    if outcome.options:
        texts += [outcome.options.nl, outcome.options.en]
    assert normalise(case.phrase) in normalise(" ".join(texts))


def test_at_least_six_cases_per_tree():
    counts: dict[str, int] = {}
    for case in CASES:
        counts[case.tree] = counts.get(case.tree, 0) + 1
    assert set(counts) == {
        "strafkaart",
        "verzaking",
        "strafkaart-1963",
        "teruggenomen-kaart-1987",
        "verzaking-2007",
    }
    assert min(counts.values()) >= 6
