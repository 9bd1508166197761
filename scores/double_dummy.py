"""Double-dummy table and par for a deal, from ``endplay`` (the DDS solver).

This is the only module that imports endplay; the rest of the app uses :func:`analyse` and
the plain :class:`DoubleDummy` result (JSON-ready through :meth:`DoubleDummy.as_dict`, so it
can be cached per deal).

Par follows DDS: the score is from North-South's point of view, and the dealer matters (when
both sides can make the same contract, the side that gets to bid it first has it).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from lib.bridge import SEATS, Seat, Vulnerability
from scores.calculator import PENALTIES, Denomination, Penalty
from scores.deal import Deal

__all__ = ["DENOMINATIONS", "DoubleDummy", "ParContract", "analyse"]

# Column order of the table as shown to a director: clubs up to notrump.
DENOMINATIONS: tuple[Denomination, ...] = (
    Denomination.CLUBS,
    Denomination.DIAMONDS,
    Denomination.HEARTS,
    Denomination.SPADES,
    Denomination.NOTRUMP,
)


@dataclass(frozen=True)
class ParContract:
    """One par contract: e.g. 4♠ by North doubled, one down is level 4, SPADES, N, "X", -1."""

    level: int
    denomination: Denomination
    declarer: Seat
    penalty: Penalty
    result: int

    @property
    def notation(self) -> str:
        """Calculator notation plus declarer, e.g. ``4SX-1 N``; ``duplicate_score`` reads the
        part before the space."""
        outcome = "=" if self.result == 0 else f"{self.result:+d}"
        return f"{self.level}{self.denomination.value}{self.penalty}{outcome} {self.declarer.value}"


@dataclass(frozen=True)
class DoubleDummy:
    """Tricks per declarer and denomination, and par (score for NS, and the contracts)."""

    tricks: tuple[tuple[int, int, int, int, int], ...]  # rows N, E, S, W; columns DENOMINATIONS
    par_score: int
    par_contracts: tuple[ParContract, ...]

    def tricks_for(self, declarer: Seat, denomination: Denomination) -> int:
        return self.tricks[SEATS.index(declarer)][DENOMINATIONS.index(denomination)]

    def as_dict(self) -> dict[str, Any]:
        return {
            "tricks": {
                seat.value: {d.value: self.tricks_for(seat, d) for d in DENOMINATIONS}
                for seat in SEATS
            },
            "par_score": self.par_score,
            "par_contracts": [
                {
                    "level": c.level,
                    "denomination": c.denomination.value,
                    "declarer": c.declarer.value,
                    "penalty": c.penalty,
                    "result": c.result,
                }
                for c in self.par_contracts
            ],
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> DoubleDummy:
        rows = tuple(
            (
                int(data["tricks"][seat.value]["C"]),
                int(data["tricks"][seat.value]["D"]),
                int(data["tricks"][seat.value]["H"]),
                int(data["tricks"][seat.value]["S"]),
                int(data["tricks"][seat.value]["NT"]),
            )
            for seat in SEATS
        )
        contracts = tuple(
            ParContract(
                level=int(c["level"]),
                denomination=Denomination(c["denomination"]),
                declarer=Seat(c["declarer"]),
                penalty=PENALTIES[PENALTIES.index(c["penalty"])],
                result=int(c["result"]),
            )
            for c in data["par_contracts"]
        )
        return cls(tricks=rows, par_score=int(data["par_score"]), par_contracts=contracts)


def analyse(deal: Deal) -> DoubleDummy:
    """Solve the deal double dummy (all 20 declarer/denomination pairs) and compute par.

    Takes roughly a tenth of a second to a second per deal on one core; cache the result.
    """
    try:  # imported here: loading endplay costs about a second
        from endplay import dds, types
    except ImportError:  # pragma: no cover - endplay is in requirements.txt
        raise RuntimeError(
            "Dubbel-dummy-analyse niet beschikbaar: het pakket endplay is niet geïnstalleerd."
        ) from None

    solved = types.Deal(deal.pbn)
    table = dds.calc_dd_table(solved)
    players = {
        Seat.NORTH: types.Player.north,
        Seat.EAST: types.Player.east,
        Seat.SOUTH: types.Player.south,
        Seat.WEST: types.Player.west,
    }
    denoms = {
        Denomination.CLUBS: types.Denom.clubs,
        Denomination.DIAMONDS: types.Denom.diamonds,
        Denomination.HEARTS: types.Denom.hearts,
        Denomination.SPADES: types.Denom.spades,
        Denomination.NOTRUMP: types.Denom.nt,
    }
    rows: list[tuple[int, int, int, int, int]] = []
    for seat in SEATS:
        c, d, h, s, nt = (int(table[denoms[den], players[seat]]) for den in DENOMINATIONS)
        rows.append((c, d, h, s, nt))

    vul = {
        Vulnerability.NONE: types.Vul.none,
        Vulnerability.NS: types.Vul.ns,
        Vulnerability.EW: types.Vul.ew,
        Vulnerability.ALL: types.Vul.both,
    }[deal.vulnerability]
    par_list = dds.par(table, vul, players[deal.dealer])
    back_seat = {player: seat for seat, player in players.items()}
    back_denom = {denom: den for den, denom in denoms.items()}
    contracts: list[ParContract] = []
    # endplay's ParList yields views on one C struct that it rewrites between items ("N or S"
    # becomes N, then S): read each contract as it comes, and iterate exactly once.
    for contract in par_list:
        if contract.level == 0:
            continue  # passed out
        contracts.append(
            ParContract(
                level=int(contract.level),
                denomination=back_denom[contract.denom],
                declarer=back_seat[contract.declarer],
                penalty="X" if contract.penalty == types.Penalty.doubled else "",
                result=int(contract.result),
            )
        )
    return DoubleDummy(
        tricks=tuple(rows), par_score=int(par_list.score), par_contracts=tuple(contracts)
    )
