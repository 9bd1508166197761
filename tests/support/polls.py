"""A ruling's player poll with answers, written by the poll's own planners
(rulings/polling.py), for the record, print and bench tests."""

from __future__ import annotations

from clubs.models import User
from rulings import polling
from rulings.models import Poll, Ruling

VALUES = {
    "dealer": "N",
    "vulnerability": "None",
    "hand": "AK32.QJ5.T98.765",
    "auction": "1H P 2H P",
    "question": "Wat bied je?",
    "table_call": "4H",
}
# Six peers: pass chosen by two and considered by three more, 4H by four.
ANSWERS = [
    ("P", ["4H"]),
    ("4H", ["P"]),
    ("4H", ["P", "3H"]),
    ("P", []),
    ("4H", ["P"]),
    ("4H", []),
]
LEVELS = ["club", "club", "top", "beginner", "club", "top"]


def poll_with_answers(ruling: Ruling, user: User, count: int = len(ANSWERS)) -> Poll:
    poll = polling.prepare(ruling, user, VALUES, ruling.audit_sequence)
    for number, (call, considered) in enumerate(ANSWERS[:count]):
        values = {
            "player": f"Speler {number + 1}",
            "level": LEVELS[number],
            "call": call,
            "considered": considered,
        }
        polling.record_answer(poll, user, values, number)
    return poll
