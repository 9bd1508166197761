"""The result of the board at the ruling's table: the tricks declarer made, and the tricks after
the rectification (a revoke's transferred tricks, a claim's tricks established), each with the
score it gives North-South. Pure: the contract and declarer come from the ruling's board form,
the vulnerability from the deal or the board number (``scores.deals.vulnerability_of``).

The record shows both lines; the adjusted-score form starts from the score after rectification.
"""

from __future__ import annotations

from dataclasses import dataclass

from lib.bridge import Seat, Vulnerability
from scores.deal import north_south_score

__all__ = ["Contract", "Line", "contract_of", "line", "notation"]

TRICKS = range(14)


@dataclass(frozen=True)
class Contract:
    """The contract as the board form holds it: ``4``, ``S``, ``X``, declared by ``S``."""

    level: int
    strain: str  # C D H S NT
    doubled: str  # "", X, XX
    declarer: Seat


@dataclass(frozen=True)
class Line:
    """One result: tricks made, the contract with its result (``4S-1``), the NS score (None
    while the vulnerability is unknown)."""

    tricks: int
    notation: str
    ns_score: int | None


def contract_of(level: int | None, strain: str, doubled: str, declarer: str) -> Contract | None:
    """The board form's contract, or None while level, strain or declarer is missing."""
    if not level or not strain or declarer not in Seat.values:
        return None
    return Contract(level, strain, doubled or "", Seat(declarer))


def notation(contract: Contract, tricks: int) -> str:
    """``4S`` with 9 tricks → ``4S-1``; with 10 → ``4S=``; with 11 → ``4S+1``."""
    if tricks not in TRICKS:
        raise ValueError(f"{tricks} tricks: a board has 0 to 13")
    result = tricks - 6 - contract.level
    outcome = "=" if result == 0 else f"{result:+d}"
    return f"{contract.level}{contract.strain}{contract.doubled}{outcome}"


def line(contract: Contract, tricks: int, vulnerability: Vulnerability | None) -> Line:
    written = notation(contract, tricks)
    score = (
        north_south_score(written, contract.declarer, vulnerability)
        if vulnerability is not None
        else None
    )
    return Line(tricks, written, score)
