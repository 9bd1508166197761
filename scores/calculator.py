"""Duplicate bridge score calculator: contract scores, IMPs, matchpoints and weighted scores.

Pure Python, no Django, so it can be tested and benchmarked on its own.

Scoring follows the duplicate scoring table of Law 77 (2017 Laws); the IMP scale is that of
Law 78B. Checked against the published table, not written from memory:

* trick score per odd trick: 20 for clubs and diamonds, 30 for hearts and spades; notrump 40
  for the first trick and 30 for each further one; doubled ×2, redoubled ×4;
* trick score of 100 or more is a game: +300 not vulnerable, +500 vulnerable; less is a
  partscore: +50; small slam +500 / +750, grand slam +1000 / +1500;
* making a doubled contract +50, a redoubled contract +100 ("insult");
* overtricks: undoubled at trick value; doubled 100 / 200 each, redoubled 200 / 400 each;
* undertricks, not vulnerable: undoubled 50 each; doubled 100, 200, 200, then 300 each;
  redoubled twice the doubled figures. Vulnerable: undoubled 100 each; doubled 200, then 300
  each; redoubled 400, then 600 each.

Contract notation accepted by :func:`parse_contract` (case and spaces do not matter):

* ``pass`` (also ``pas``, ``passed``, ``gepast``): the board was passed out, score 0;
* level ``1``–``7``;
* denomination: English letters ``C D H S`` or Dutch ``K`` (klaveren) ``R`` (ruiten)
  ``H`` (harten) ``S`` (schoppen); symbols ``♣ ♦ ♥ ♠`` (also the white ``♧ ♢ ♡ ♤``); notrump
  ``NT``, ``N``, ``SA`` (sans atout) or ``ZT`` (zonder troef). The two alphabets do not clash:
  ``D`` only means diamonds, ``R`` and ``K`` only the Dutch suits, ``S`` and ``H`` are the same
  suit in both. ``SA`` is notrump, never spades followed by something;
* optionally ``X`` (doubled) or ``XX`` (redoubled); ``D``/``R`` are *not* accepted for
  double/redouble, because in Dutch they are suits;
* the result: ``=`` (made exactly), ``+n`` overtricks, ``-n`` undertricks, or the number of
  tricks taken by declarer (0–13) after a space, e.g. ``4S 10`` (= ``4S=``).

Anything else raises :class:`ContractError` (a ``ValueError``) with a one-line Dutch message
that says what is wrong, e.g. ``8S=`` or ``4S+8``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum
from fractions import Fraction
from typing import Literal

__all__ = [
    "IMP_SCALE",
    "PENALTIES",
    "Contract",
    "ContractError",
    "Denomination",
    "Penalty",
    "WeightError",
    "contract_score",
    "datum",
    "duplicate_score",
    "imps",
    "matchpoints",
    "parse_contract",
    "percentage",
    "weighted_imps",
    "weighted_matchpoints",
]


class ContractError(ValueError):
    """A contract the calculator cannot read; ``str()`` is a one-line message for a director."""


class WeightError(ValueError):
    """Weights for a weighted score (Law 12C1(c)) that are not usable; one-line message."""


class Denomination(Enum):
    """Trump suit or notrump, with the PBN/English letter as value."""

    CLUBS = "C"
    DIAMONDS = "D"
    HEARTS = "H"
    SPADES = "S"
    NOTRUMP = "NT"

    @property
    def symbol(self) -> str:
        return _SYMBOLS[self]


_SYMBOLS: dict[Denomination, str] = {
    Denomination.CLUBS: "♣",
    Denomination.DIAMONDS: "♦",
    Denomination.HEARTS: "♥",
    Denomination.SPADES: "♠",
    Denomination.NOTRUMP: "SA",
}

Penalty = Literal["", "X", "XX"]
PENALTIES: tuple[Penalty, ...] = ("", "X", "XX")

# Longest spellings first so that "SA" is notrump before "S" is read as spades.
_DENOMINATION_WORDS: tuple[tuple[str, Denomination], ...] = (
    ("NT", Denomination.NOTRUMP),
    ("SA", Denomination.NOTRUMP),
    ("ZT", Denomination.NOTRUMP),
    ("N", Denomination.NOTRUMP),
    ("C", Denomination.CLUBS),
    ("K", Denomination.CLUBS),
    ("♣", Denomination.CLUBS),
    ("♧", Denomination.CLUBS),
    ("D", Denomination.DIAMONDS),
    ("R", Denomination.DIAMONDS),
    ("♦", Denomination.DIAMONDS),
    ("♢", Denomination.DIAMONDS),
    ("H", Denomination.HEARTS),
    ("♥", Denomination.HEARTS),
    ("♡", Denomination.HEARTS),
    ("S", Denomination.SPADES),
    ("♠", Denomination.SPADES),
    ("♤", Denomination.SPADES),
)

_PASS_WORDS = frozenset({"PASS", "PAS", "PASSED", "GEPAST", "ALL PASS", "AP"})

# Minus signs people paste from word processors.
_DASHES = str.maketrans({"−": "-", "–": "-", "—": "-", "\u00a0": " ", "\ufe0f": None})

_RESULT = re.compile(r"(?:(?P<eq>=)|(?P<sign>[+-])\s*(?P<count>\d+)|(?P<tricks>\d+))")


@dataclass(frozen=True)
class Contract:
    """A played contract and its result: ``tricks`` is the number declarer took (0–13)."""

    level: int
    denomination: Denomination
    penalty: Penalty
    tricks: int

    def __post_init__(self) -> None:
        if not 1 <= self.level <= 7:
            raise ContractError(f"Niveau {self.level} bestaat niet: een contract is 1 t/m 7.")
        if not 0 <= self.tricks <= 13:
            raise ContractError(f"{self.tricks} slagen kan niet: er zijn 13 slagen.")

    @property
    def result(self) -> int:
        """Overtricks (positive), 0 for made exactly, undertricks (negative)."""
        return self.tricks - 6 - self.level

    @property
    def notation(self) -> str:
        """Canonical English notation, e.g. ``4SX-2``, ``3NT=``, ``1C+1``."""
        diff = self.result
        outcome = "=" if diff == 0 else f"{diff:+d}"
        return f"{self.level}{self.denomination.value}{self.penalty}{outcome}"


def _fail(text: str, problem: str) -> ContractError:
    return ContractError(f"Contract '{text}' niet te lezen: {problem}")


def _level(original: str, cleaned: str) -> tuple[int, str]:
    """The level at the start, and the text after it."""
    level_match = re.match(r"\d+", cleaned)
    if level_match is None:
        raise _fail(original, "het moet beginnen met een niveau 1 t/m 7 (bijvoorbeeld 4S=).")
    level = int(level_match.group())
    if not 1 <= level <= 7:
        raise _fail(
            original, f"niveau {level_match.group()} bestaat niet, een contract is 1 t/m 7."
        )
    return level, cleaned[level_match.end() :].lstrip()


def _denomination(original: str, rest: str) -> tuple[Denomination, str]:
    for word, candidate in _DENOMINATION_WORDS:
        if rest.startswith(word):
            return candidate, rest[len(word) :].lstrip()
    shown = rest[:1] or "niets"
    raise _fail(
        original,
        f"onbekende kleur '{shown}'; gebruik K/C (♣), R/D (♦), H (♥), S (♠) of SA/NT.",
    )


def _penalty(original: str, rest: str) -> tuple[Penalty, str]:
    penalty: Penalty = ""
    if rest.startswith("XX"):
        penalty, rest = "XX", rest[2:].lstrip()
    elif rest.startswith("X"):
        penalty, rest = "X", rest[1:].lstrip()
    if rest.startswith("X"):
        raise _fail(original, "meer dan XX (redoublet) kan niet.")
    return penalty, rest


def _result(original: str, rest: str) -> re.Match[str]:
    if rest[:1] in ("D", "R"):
        raise _fail(original, "schrijf X voor doublet en XX voor redoublet (D en R zijn kleuren).")
    if not rest:
        raise _fail(
            original, "de uitslag ontbreekt; schrijf = (precies), +1 of -2, of het aantal slagen."
        )
    found = _RESULT.fullmatch(rest)
    if found is None:
        raise _fail(
            original,
            f"uitslag '{rest}' onbekend; schrijf = (precies), +1 of -2, of het aantal slagen.",
        )
    return found


def _tricks(original: str, level: int, found: re.Match[str]) -> int:
    """The tricks taken by declarer, from ``=``, a number of tricks, or over- and undertricks."""
    needed = 6 + level
    if found.group("eq"):
        return needed
    if found.group("tricks") is not None:
        tricks = int(found.group("tricks"))
        if tricks > 13:
            raise _fail(original, f"{tricks} slagen kan niet, er zijn 13 slagen.")
        return tricks
    count = int(found.group("count"))
    if count == 0:
        raise _fail(original, "schrijf = voor precies gemaakt, niet +0 of -0.")
    if found.group("sign") == "+":
        tricks = needed + count
        if tricks > 13:
            most = 13 - needed
            raise _fail(
                original,
                f"{count} {'overslag' if count == 1 else 'overslagen'} kan niet; "
                f"op niveau {level} zijn er hoogstens {most}.",
            )
        return tricks
    tricks = needed - count
    if tricks < 0:
        raise _fail(
            original,
            f"{count} down kan niet; op niveau {level} hoogstens {needed} down.",
        )
    return tricks


def parse_contract(text: str) -> Contract | None:
    """Read a contract with its result; ``None`` for a passed-out board.

    Raises :class:`ContractError` with a one-line Dutch explanation for anything else.
    """
    original = text.strip()
    cleaned = " ".join(text.translate(_DASHES).upper().split())
    if not cleaned:
        raise ContractError("Geen contract ingevuld (bijvoorbeeld 4SX-2, 3SA= of pass).")
    if cleaned in _PASS_WORDS:
        return None
    level, rest = _level(original, cleaned)
    denomination, rest = _denomination(original, rest)
    penalty, rest = _penalty(original, rest)
    found = _result(original, rest)
    return Contract(level, denomination, penalty, _tricks(original, level, found))


def _trick_value(denomination: Denomination, odd_tricks: int) -> int:
    """Undoubled trick score for a number of odd tricks."""
    if odd_tricks <= 0:
        return 0
    if denomination is Denomination.NOTRUMP:
        return 40 + 30 * (odd_tricks - 1)
    if denomination in (Denomination.HEARTS, Denomination.SPADES):
        return 30 * odd_tricks
    return 20 * odd_tricks


_MULTIPLIER: dict[Penalty, int] = {"": 1, "X": 2, "XX": 4}


def _undertrick_penalty(down: int, penalty: Penalty, vulnerable: bool) -> int:
    if penalty == "":
        return down * (100 if vulnerable else 50)
    total = 0
    for number in range(1, down + 1):
        if vulnerable:
            doubled = 200 if number == 1 else 300
        else:
            doubled = 100 if number == 1 else 200 if number <= 3 else 300
        total += doubled
    return total * (2 if penalty == "XX" else 1)


def contract_score(contract: Contract | None, vulnerable: bool) -> int:
    """Score for the declaring side (negative when the contract went down; 0 if passed out)."""
    if contract is None:
        return 0
    multiplier = _MULTIPLIER[contract.penalty]
    result = contract.result
    if result < 0:
        return -_undertrick_penalty(-result, contract.penalty, vulnerable)

    trick_score = _trick_value(contract.denomination, contract.level) * multiplier
    score = trick_score
    if trick_score >= 100:
        score += 500 if vulnerable else 300
    else:
        score += 50
    if contract.level == 6:
        score += 750 if vulnerable else 500
    elif contract.level == 7:
        score += 1500 if vulnerable else 1000
    if contract.penalty == "X":
        score += 50
    elif contract.penalty == "XX":
        score += 100

    if contract.penalty == "":
        all_tricks = _trick_value(contract.denomination, contract.level + result)
        score += all_tricks - _trick_value(contract.denomination, contract.level)
    else:
        per_overtrick = (200 if vulnerable else 100) * (multiplier // 2)
        score += result * per_overtrick
    return score


def duplicate_score(contract: str, vulnerable: bool) -> int:
    """Duplicate score from the declaring side, e.g. ``duplicate_score("4SX-2", True) == -500``.

    Raises :class:`ContractError` (a ``ValueError``) for a contract it cannot read.
    """
    return contract_score(parse_contract(contract), vulnerable)


# Law 78B: the smallest score difference that earns each number of IMPs (1..24).
IMP_SCALE: tuple[int, ...] = (
    20, 50, 90, 130, 170, 220, 270, 320, 370, 430, 500, 600,
    750, 900, 1100, 1300, 1500, 1750, 2000, 2250, 2500, 3000, 3500, 4000,
)  # fmt: skip


def imps(difference: int) -> int:
    """IMPs for a score difference (Law 78B); negative differences give negative IMPs.

    Bridge scores are multiples of 10; a difference between two published bands counts by the
    lower one (15 is 0 IMPs, 45 is 1).
    """
    size = abs(difference)
    earned = sum(1 for threshold in IMP_SCALE if size >= threshold)
    return earned if difference >= 0 else -earned


def datum(scores: Sequence[int]) -> int:
    """The datum a Butler score is IMPed against: the mean of the scores (from one side's
    view) without the highest and the lowest when there are more than four (PBN's
    ``Butler-2``), rounded to the nearest 10 (a half away from zero).

    ``datum([420, 450, -50, 170, 420]) == 340`` (the mean of 420, 170 and 420 is 336.7).
    """
    if not scores:
        raise ValueError("Geen andere uitslagen op dit spel: een datum kan niet.")
    kept = sorted(scores)[1:-1] if len(scores) > 4 else list(scores)
    mean = Fraction(sum(kept), len(kept))
    tens = abs(mean) / 10
    rounded = int(tens) + (1 if tens - int(tens) >= Fraction(1, 2) else 0)
    return 10 * rounded if mean >= 0 else -10 * rounded


def matchpoints(score: int, field: Sequence[int]) -> float:
    """Matchpoints for ``score`` against the other results on the board.

    Two for every result beaten, one for every equal result; the top is ``2 * len(field)``.
    ``field`` holds the *other* results, all from the same side's point of view.
    """
    points = 0
    for other in field:
        if score > other:
            points += 2
        elif score == other:
            points += 1
    return float(points)


def percentage(points: float, comparisons: int) -> float:
    """Matchpoints as a percentage of the top (``2 * comparisons``), e.g. 5 of 8 is 62.5."""
    if comparisons < 1:
        raise ValueError("Geen andere uitslagen op dit spel: een percentage kan niet.")
    top = 2 * comparisons
    if not 0 <= points <= top:
        raise ValueError(f"{points} matchpunten ligt buiten 0 t/m {top} (top).")
    return 100.0 * points / top


Weight = float | Fraction


def _exact(weight: Weight) -> Fraction:
    if isinstance(weight, Fraction):
        return weight
    if isinstance(weight, bool) or not isinstance(weight, int | float):
        raise WeightError(f"Gewicht '{weight}' is geen getal.")
    # str() of a float is its shortest decimal: 0.6 becomes exactly 3/5, 33.33 exactly 3333/100.
    try:
        return Fraction(str(weight))
    except ValueError:
        raise WeightError(f"Gewicht '{weight}' is geen getal.") from None


def _normalised_weights(weighted: Sequence[tuple[int, Weight]]) -> list[tuple[int, Fraction]]:
    """Weights as fractions summing to exactly 1; accepts fractions of 1 or percentages."""
    if not weighted:
        raise WeightError("Geen uitslagen om te wegen: geef minstens één uitslag met gewicht.")
    rows = [(score, _exact(weight)) for score, weight in weighted]
    for score, weight in rows:
        if weight <= 0:
            raise WeightError(f"Gewicht van uitslag {score} moet groter dan 0 zijn.")
    total = sum((weight for _, weight in rows), Fraction(0))
    if total == 1:
        return rows
    if total == 100:
        return [(score, weight / 100) for score, weight in rows]
    shown = f"{float(total):g}"
    raise WeightError(f"De gewichten tellen op tot {shown}; ze moeten samen 100 % (of 1) zijn.")


def weighted_matchpoints(weighted: Sequence[tuple[int, Weight]], field: Sequence[int]) -> float:
    """Weighted matchpoints for a weighted adjusted score (Law 12C1(c)).

    Each result is matchpointed against ``field`` (the other results) and weighted:
    ``[(420, 0.6), (-50, 0.4)]`` against ``[420, 450, -50, 170]`` is 0.6 × 5 + 0.4 × 1 = 3.4.
    Weights are fractions summing to 1 or percentages summing to 100; else :class:`WeightError`.
    """
    rows = _normalised_weights(weighted)
    total = sum((weight * int(matchpoints(score, field)) for score, weight in rows), Fraction(0))
    return float(total)


def weighted_imps(weighted: Sequence[tuple[int, Weight]], comparison: int) -> float:
    """Weighted IMPs for a weighted adjusted score at teams (Law 12C1(c)).

    Each result is IMPed against ``comparison`` (the score at the other table, from the same
    side's point of view), then the IMPs are weighted. Weights as in :func:`weighted_matchpoints`.
    """
    rows = _normalised_weights(weighted)
    total = sum((weight * imps(score - comparison) for score, weight in rows), Fraction(0))
    return float(total)
