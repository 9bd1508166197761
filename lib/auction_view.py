"""An auction as a page shows it: the bidding diagram (four columns by seat, West first as
bridge columns print it) with its marks, and the notes of the calls that carry an explanation,
an agreement or a remark, each with how the explanation compares with the agreement (issue 33:
a committee sees a mistaken explanation or a mistaken call at a glance, Law 75B against 75C).

Pure: the texts are in the language asked for; the template words the verdicts.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from lib.auction import Auction, AuctionCall
from lib.bridge import Seat, seat_rows

__all__ = ["Cell", "Diagram", "Note", "diagram"]

# How an explanation compares with the agreement on the system card:
# "differs": both written and not the same words (a mistaken explanation, 75B, unless the
#   card is wrong); "same": the explanation follows the agreement (if the hand did not, a
#   mistaken call, 75C: no infraction); "no_agreement" / "no_explanation": one side only.
Verdict = Literal["differs", "same", "no_agreement", "no_explanation", ""]


@dataclass(frozen=True)
class Cell:
    text: str
    alert: bool
    tempo: bool
    note: int | None  # the number of its note below the diagram


@dataclass(frozen=True)
class Note:
    number: int
    position: int  # the call's place in the auction, from 1
    call: str
    seat: Seat
    alert: bool
    tempo: bool
    explanation: str
    agreement: str
    verdict: Verdict


@dataclass(frozen=True)
class Diagram:
    dealer: Seat
    columns: list[Seat]
    rows: list[list[Cell | None]]
    notes: list[Note]
    complete: bool

    @property
    def compared(self) -> list[Note]:
        """The notes where an explanation or an agreement was written."""
        return [note for note in self.notes if note.explanation or note.agreement]

    @property
    def differences(self) -> int:
        return sum(note.verdict == "differs" for note in self.notes)


def _verdict(entry: AuctionCall) -> Verdict:
    if entry.explanation and entry.agreement:
        return "differs" if entry.differs else "same"
    if entry.explanation:
        return "no_agreement"
    if entry.agreement:
        return "no_explanation"
    return ""


def diagram(auction: Auction, lang: str = "nl", first: Seat = Seat.WEST) -> Diagram:
    notes: list[Note] = []
    numbers: dict[int, int] = {}
    for index, entry in enumerate(auction.calls):
        if entry.explanation or entry.agreement:
            numbers[index] = len(notes) + 1
            notes.append(
                Note(
                    number=len(notes) + 1,
                    position=index + 1,
                    call=entry.call.label(lang),
                    seat=auction.seat_of(index),
                    alert=entry.alert,
                    tempo=entry.tempo,
                    explanation=entry.explanation,
                    agreement=entry.agreement,
                    verdict=_verdict(entry),
                )
            )
    cells = [
        Cell(entry.call.short(lang), entry.alert, entry.tempo, numbers.get(index))
        for index, entry in enumerate(auction.calls)
    ]
    rows = seat_rows(cells, auction.dealer, first)
    return Diagram(auction.dealer, auction.columns(first), rows, notes, auction.is_complete)
