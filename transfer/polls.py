"""A ruling's player poll in a transfer bundle (issue 33): ``"poll": {<poll fields>,
"created_by": "anna", "answers": [{<answer fields>}, ...]}`` beside the ruling's children,
only when the ruling has a poll. A bundle of rulings without polls is what it always was
(version 3, pinned); a server from before refuses a ruling that has one, by name ("unknown
field(s) poll"), and never misreads it. The poll's events travel in the audit chain as every
event does; this carries the rows the poll pages and the record read.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from lib.auction import AuctionError, parse_auction, parse_call
from rulings.models import Poll, PollAnswer, Ruling
from rulings.poll_models import poll_of
from transfer.children import as_list, fields_of, parse, serialise

KEY = "poll"
POLL_FIELDS = fields_of(Poll, {"id", "ruling"})
ANSWER_FIELDS = fields_of(PollAnswer, {"id", "poll"})


def export(ruling: Ruling) -> dict[str, Any] | None:
    """The ruling's poll as bundle data, or None (read through ``with_children``'s joins)."""
    poll = poll_of(ruling)
    if poll is None:
        return None
    data = serialise(poll, POLL_FIELDS)
    data["answers"] = [serialise(answer, ANSWER_FIELDS) for answer in poll.answers.all()]
    return data


@dataclass
class Incoming:
    """A bundle's poll, parsed and checked: its fields (``created_by`` a username)."""

    fields: dict[str, Any]
    answers: list[dict[str, Any]] = field(default_factory=list)


def _calls(values: dict[str, Any], where: str) -> None:
    """The auction reads, and every call is one (legality was checked where it was typed)."""
    try:
        parse_auction(values.get("auction", ""), values.get("dealer", ""))
        for code in [values.get("call"), *(values.get("considered") or [])]:
            if code is not None:
                if not isinstance(code, str):
                    raise AuctionError(f"{code!r} is no call")
                parse_call(code)
    except AuctionError as error:
        raise ValueError(f"{where}: {error}") from None


def read(raw: dict[str, Any], where: str) -> Incoming | None:
    """The ``poll`` of a bundle's ruling, or None; ValueError names the place of a problem."""
    if KEY not in raw:
        return None
    data = raw[KEY]
    if not isinstance(data, dict):
        raise ValueError(f"{where}: poll must be an object")
    here = f"{where}, poll"
    body = {key: value for key, value in data.items() if key != "answers"}
    fields = parse(Poll, POLL_FIELDS, body, here)
    _calls(fields, here)
    answers = []
    for number, item in enumerate(as_list(data.get("answers", []), f"{here}: answers"), 1):
        values = parse(PollAnswer, ANSWER_FIELDS, item, f"{here}, answer {number}")
        considered = values.get("considered", [])
        if not isinstance(considered, list):
            raise ValueError(f"{here}, answer {number}: considered must be a list of calls")
        _calls({"auction": "", "dealer": "N", **values}, f"{here}, answer {number}")
        answers.append(values)
    return Incoming(fields, answers)


def usernames(incoming: Incoming | None) -> set[str]:
    name = incoming.fields.get("created_by") if incoming is not None else None
    return {name} if name else set()


def create(pairs: list[tuple[Ruling, Incoming | None]], users: Any) -> None:
    """The polls of newly created rulings with their answers (two bulk inserts)."""
    polls = [
        Poll(ruling=ruling, **{**item.fields, "created_by": users[item.fields.get("created_by")]})
        for ruling, item in pairs
        if item is not None
    ]
    if not polls:
        return
    created = Poll.objects.bulk_create(polls)
    items = [item for _ruling, item in pairs if item is not None]
    PollAnswer.objects.bulk_create(
        PollAnswer(poll=poll, **values)
        for poll, item in zip(created, items, strict=True)
        for values in item.answers
    )
