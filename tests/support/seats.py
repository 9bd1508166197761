"""Seats at the table in the stories of cases: are they where the story says they are?

Issue 27 found stories that put players in the wrong seats (a "left-hand opponent" sitting on
the right, calls listed counter-clockwise from the dealer). Two checks, used by
tests/trees/test_cases_files.py for the cases beside every tree and by
tests/training/test_files.py for the practice cases:

- ``relation_problems(text, lang)`` reads a story as written, in Dutch or English, and checks
  every seat it names by its relation to another seat: "West, de linkertegenstander van Zuid",
  "East, his right-hand opponent", "zijn partner West", "Zuid, links van Oost". "zijn"/"his"
  is the first other seat named in the same sentence (the sentence's subject).
- ``auction_problems(dealer, auction, stories)`` checks a case's structured auction (the
  optional ``dealer`` and ``auction`` fields of a cases file, docs/TREE_FORMAT.md): calls go
  clockwise N-E-S-W from the dealer, every bid is sufficient, every double doubles an opponent,
  except the calls the auction itself marks ``out-of-rotation`` or ``insufficient``; a call out
  of rotation is followed by the player whose turn it was (it is cancelled) or by the
  offender's left-hand opponent (who accepts it by calling). The stories must give the same
  calls by the same seats in the same order, name the same dealer, and name the declarer the
  completed auction makes.

The clockwise order is the only bridge knowledge here: N, E, S, W; a player's left-hand
opponent is the next seat, his right-hand opponent the one before, his partner the one opposite.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

SEATS = "NESW"
NAMES = {
    "nl": {"N": "Noord", "E": "Oost", "S": "Zuid", "W": "West"},
    "en": {"N": "North", "E": "East", "S": "South", "W": "West"},
}
SUITS = "♣♦♥♠"
FLAGS = ("out-of-rotation", "insufficient")


def lho(seat: str) -> str:
    return SEATS[(SEATS.index(seat) + 1) % 4]


def rho(seat: str) -> str:
    return SEATS[(SEATS.index(seat) + 3) % 4]


def partner(seat: str) -> str:
    return SEATS[(SEATS.index(seat) + 2) % 4]


def seat_pattern(lang: str) -> str:
    """A seat named alone: not the half of a pair's name ("Noord-Zuid", "East-West")."""
    names = "|".join(NAMES[lang].values())
    return rf"(?<![\w-])(?:{names})(?![\w-])"


def seat_of(name: str, lang: str) -> str:
    return next(seat for seat, word in NAMES[lang].items() if word == name)


# --- relations named in a story ---------------------------------------------------------------

LEFT_RIGHT = {"linker": lho, "rechter": rho, "left": lho, "right": rho, "links": lho, "rechts": rho}


def relation_patterns(lang: str) -> list[tuple[re.Pattern[str], str]]:
    """(pattern, kind): kind 'explicit' has groups seat, side, other; 'subject' has seat and side
    (the other seat is the sentence's subject); 'partner' has seat."""
    s = seat_pattern(lang)
    if lang == "nl":
        role = r"(?:de (?:leider|blinde|overtreder|gever) )?"
        return [
            (re.compile(rf"({s}), de (linker|rechter)tegenstander van {role}({s})"), "explicit"),
            (re.compile(rf"({s}), (links|rechts) van {role}({s})"), "explicit"),
            (re.compile(rf"({s}), (?:zijn|haar) (linker|rechter)tegenstander"), "subject"),
            (re.compile(rf"(?:zijn|haar) partner ({s})"), "partner"),
        ]
    role = r"(?:(?:declarer|dummy|the offender|dealer) )?"
    return [
        (re.compile(rf"({s}), the (left|right)-hand opponent of {role}({s})"), "explicit"),
        (re.compile(rf"({s}), ({s})'s (left|right)-hand opponent"), "possessive"),
        (re.compile(rf"({s}), (?:his|her) (left|right)-hand opponent"), "subject"),
        (re.compile(rf"(?:his|her) partner ({s})"), "partner"),
    ]


def sentences(text: str) -> list[str]:
    return [part for part in re.split(r"(?<=[.!?])\s+", text) if part.strip()]


def subject(sentence: str, at: int, named: str, lang: str) -> str | None:
    """Whom "his"/"zijn" at position ``at`` refers to: the first seat other than ``named`` in
    its clause (clauses split at ';' and at ', and', ', but', ', en', ', maar'), else in the
    sentence."""
    bounds = [0]
    bounds += [m.end() for m in re.finditer(r";\s*|,\s+(?:en|maar|and|but)\s+", sentence)]
    start = max(b for b in bounds if b <= at)
    ends = [b for b in bounds if b > at]
    clause = sentence[start : ends[0] if ends else len(sentence)]
    for text in (clause, sentence):
        for match in re.finditer(seat_pattern(lang), text):
            if match.group(0) != named:
                return match.group(0)
    return None


def relation_problems(text: str, lang: str) -> list[str]:
    """Every seat named in ``text`` by its relation to another that is not that relation."""
    problems = []
    for sentence in sentences(text):
        for pattern, kind in relation_patterns(lang):
            for match in pattern.finditer(sentence):
                named = match.group(1)
                if kind == "explicit":
                    relation, other = LEFT_RIGHT[match.group(2)], match.group(3)
                elif kind == "possessive":
                    relation, other = LEFT_RIGHT[match.group(3)], match.group(2)
                else:
                    other = subject(sentence, match.start(), named, lang)
                    relation = partner if kind == "partner" else LEFT_RIGHT[match.group(2)]
                    if other is None:
                        continue  # "after a remark from his partner East bid": nothing to check
                seat = seat_of(named, lang)
                expected = relation(seat_of(other, lang))
                if seat != expected:
                    word = NAMES[lang][expected]
                    problems.append(f"{match.group(0)!r}: that is {word}, seen from {other}")
    return problems


# --- a structured auction ---------------------------------------------------------------------

BID = re.compile(rf"^([1-7])([{SUITS}]|NT)$")


@dataclass(frozen=True)
class Call:
    seat: str
    call: str  # "pass", "X", "XX" or a bid such as "1♠", "3NT"
    flags: frozenset[str]
    text: str

    @property
    def rank(self) -> int | None:
        """Bids in order of rank (1♣ lowest); None for pass, double and redouble."""
        match = BID.match(self.call)
        if match is None:
            return None
        return int(match.group(1)) * 5 + [*SUITS, "NT"].index(match.group(2))


def parse_call(text: object) -> Call | str:
    """One entry of ``auction`` ("S 1♥", "W pass", "N X out-of-rotation"), or what is wrong."""
    words = text.split() if isinstance(text, str) else []
    if len(words) < 2 or words[0] not in SEATS:
        return f"{text!r}: write a seat (N, E, S, W) and a call"
    seat, call, flags = words[0], words[1], words[2:]
    if not (call in ("pass", "X", "XX") or BID.match(call)):
        return f"{text!r}: {call!r} is no call (pass, X, XX, or a bid like 1♠, 3NT)"
    if unknown := [f for f in flags if f not in FLAGS]:
        return f"{text!r}: unknown marks {unknown} (known: {', '.join(FLAGS)})"
    if "insufficient" in flags and BID.match(call) is None:
        return f"{text!r}: only a bid can be insufficient"
    return Call(seat, call, frozenset(flags), text)


@dataclass
class Auction:
    """The calls that stand, walked in order; what is wrong with the walk."""

    turn: str
    standing: list[Call]
    problems: list[str]
    # every call out of rotation: (the call, whose turn it was, whether its caller had called)
    out_of_rotation: list[tuple[Call, str, bool]]

    def last_bid(self) -> Call | None:
        return next((c for c in reversed(self.standing) if c.rank is not None), None)

    def ended(self) -> bool:
        """Three passes after a bid, or four passes."""
        calls = [c.call for c in self.standing]
        if calls == ["pass"] * 4:
            return True
        return self.last_bid() is not None and len(calls) >= 4 and calls[-3:] == ["pass"] * 3

    def stand(self, call: Call) -> None:
        """``call`` counts as made in rotation: the next player is its caller's left."""
        self.standing.append(call)
        self.turn = lho(call.seat)

    def declarer(self) -> str | None:
        bid = self.last_bid()
        if not self.ended() or bid is None:
            return None
        side = {bid.seat, partner(bid.seat)}
        denomination = bid.call[1:]
        return next(
            c.seat
            for c in self.standing
            if c.rank is not None and c.seat in side and c.call[1:] == denomination
        )


def legal_problems(call: Call, auction: Auction) -> list[str]:
    """Sufficiency of a bid and admissibility of a double, against the calls that stand."""
    last = auction.last_bid()
    if call.rank is not None:
        low = last is not None and call.rank <= (last.rank or 0)
        if low and "insufficient" not in call.flags:
            return [f"{call.text!r} is not sufficient over {last.call} (mark it insufficient)"]
        if not low and "insufficient" in call.flags:
            return [f"{call.text!r} is marked insufficient but it is sufficient"]
        return []
    if call.call in ("X", "XX"):
        wanted = "bid" if call.call == "X" else "X"
        previous = next((c for c in reversed(auction.standing) if c.call != "pass"), None)
        kind = None if previous is None else ("bid" if previous.rank is not None else previous.call)
        if kind != wanted or previous.seat not in (lho(call.seat), rho(call.seat)):
            return [f"{call.text!r}: there is no opponent's {wanted} to {call.call}"]
    return []


def walk_auction(dealer: str | None, calls: list[Call]) -> Auction:
    """Walk ``calls`` from ``dealer`` (the first caller when not given)."""
    auction = Auction(turn=dealer or calls[0].seat, standing=[], problems=[], out_of_rotation=[])
    if dealer is None and "out-of-rotation" in calls[0].flags:
        auction.problems.append("the first call is out of rotation: give the dealer")
    pending: Call | None = None  # a call out of rotation or an insufficient bid, not settled
    pending_turn = ""  # who calls next if ``pending`` is not accepted
    for call in calls:
        if auction.ended():
            auction.problems.append(f"{call.text!r} comes after the auction has ended")
            break
        if pending is not None:
            if call.seat == lho(pending.seat) and call.seat != pending_turn:
                auction.stand(pending)  # accepted: its left-hand opponent called over it
            elif call.seat == pending_turn:
                auction.turn = pending_turn  # cancelled, or replaced by its own caller
            else:
                auction.problems.append(
                    f"{call.text!r} after {pending.text!r}: the next call is by "
                    f"{pending_turn} or by {lho(pending.seat)} (accepting it)"
                )
                auction.turn = call.seat
            pending = None
        auction.problems.extend(legal_problems(call, auction))
        if "out-of-rotation" in call.flags:
            if call.seat == auction.turn:
                auction.problems.append(f"{call.text!r} is in rotation: it is {call.seat}'s turn")
            had_called = any(c.seat == call.seat for c in auction.standing)
            auction.out_of_rotation.append((call, auction.turn, had_called))
            pending, pending_turn = call, auction.turn
            continue
        if call.seat != auction.turn:
            auction.problems.append(
                f"{call.text!r}: it is {auction.turn}'s turn (clockwise N-E-S-W from the dealer)"
            )
            auction.turn = call.seat
        if "insufficient" in call.flags:
            pending, pending_turn = call, call.seat  # accepted by LHO, or replaced by him
            continue
        auction.stand(call)
    return auction


# --- the auction told in a story --------------------------------------------------------------

CALL_WORDS = {
    "nl": {
        "pass": r"(?<!\w)(?:ge)?pas(?:t|te|ten|sen)?(?!\w)",
        "X": r"(?<!\w)(?:doubleert|doubleerde|doublet|doubleren|gedoubleerd)(?!\w)",
        "XX": r"(?<!\w)(?:redoubleert|redoubleerde|redoublet|redoubleren)(?!\w)",
    },
    "en": {
        "pass": r"(?<!\w)pass(?:es|ed)?(?!\w)",
        "X": r"(?<!\w)doubl(?:e|es|ed)(?!\w)",
        "XX": r"(?<!\w)redoubl(?:e|es|ed)(?!\w)",
    },
}
DEALER = {"nl": r"({s}) is (?:de )?gever", "en": r"({s}) is (?:the )?dealer"}
DECLARER = {
    "nl": [r"(?:de )?leider,? ({s})", r"({s}) wordt leider"],
    "en": [r"declarer,? ({s})", r"({s}) (?:becomes|is) declarer"],
}


def call_pattern(call: str, lang: str) -> str:
    if call in CALL_WORDS[lang]:
        return CALL_WORDS[lang][call]
    words = call.replace("NT", "SA") if lang == "nl" else call
    return rf"(?<![\w]){re.escape(words)}(?![0-9])"


def story_problems(dealer: str, calls: list[Call], story: str, lang: str) -> list[str]:
    """The story gives each call by its seat in the auction's order, and the same dealer. A
    call by the player who made the one before may leave out his name ("South passes, thinks
    again and wants to open 1♥")."""
    problems = []
    position = 0
    previous = None
    for call in calls:
        if call.seat != previous:
            seat = re.compile(rf"(?<![\w-]){NAMES[lang][call.seat]}(?![\w-])")
            named = seat.search(story, position)
            position = named.end() if named else len(story) + 1
        made = re.compile(call_pattern(call.call, lang)).search(story, position)
        if not made:
            problems.append(
                f"story ({lang}) does not tell {call.text!r} after what it told before; "
                "give the calls by their seats in the order they were made"
            )
            break
        position, previous = made.end(), call.seat
    s = seat_pattern(lang)
    for match in re.finditer(DEALER[lang].format(s=s), story):
        if seat_of(match.group(1), lang) != dealer:
            problems.append(
                f"story ({lang}) says {match.group(0)!r}; the auction's dealer is {dealer}"
            )
    return problems


ACCEPTS = {
    "nl": r"({s})(?:, [^,.]+,)? (?:accepteert|wil\b[^.]*?\baccepteren)",
    "en": r"({s})(?:, [^,.]+,)? (?:accepts|does not accept|(?:does not )?wants? to accept)",
}


def acceptor_problems(calls: list[Call], story: str, lang: str) -> list[str]:
    """Only the left-hand opponent of a player who called out of rotation or insufficiently
    may accept (Laws 29A, 27A1, 25B1): a story that has another seat accept is wrong."""
    may = {lho(call.seat) for call in calls if call.flags}
    problems = []
    for match in re.finditer(ACCEPTS[lang].format(s=seat_pattern(lang)), story):
        if seat_of(match.group(1), lang) not in may:
            problems.append(
                f"story ({lang}): {match.group(0)!r}, but only the left-hand opponent of the "
                "player who called out of rotation or insufficiently may accept"
            )
    return problems


def declarer_problems(declarer: str, story: str, lang: str) -> list[str]:
    s = seat_pattern(lang)
    problems = []
    for pattern in DECLARER[lang]:
        for match in re.finditer(pattern.format(s=s), story):
            if seat_of(match.group(1), lang) != declarer:
                word = NAMES[lang][declarer]
                problems.append(
                    f"story ({lang}) says {match.group(0)!r}; the auction makes {word} declarer"
                )
    return problems


def auction_problems(dealer: object, auction: object, stories: dict[str, str]) -> list[str]:
    """What is wrong with a case's ``dealer`` and ``auction`` and how its stories tell them."""
    if not (isinstance(auction, list) and auction):
        return ["auction: a non-empty list of calls such as 'N 1♠', 'E pass'"]
    if dealer is not None and dealer not in tuple(SEATS):
        return [f"dealer: {dealer!r} is not N, E, S or W"]
    parsed = [parse_call(entry) for entry in auction]
    if errors := [p for p in parsed if isinstance(p, str)]:
        return errors
    calls = [p for p in parsed if isinstance(p, Call)]
    if dealer is not None and "out-of-rotation" not in calls[0].flags and calls[0].seat != dealer:
        return [f"dealer {dealer} calls first, not {calls[0].seat} (or mark it out-of-rotation)"]
    walked = walk_auction(dealer if isinstance(dealer, str) else None, calls)
    problems = list(walked.problems)
    first = dealer if isinstance(dealer, str) else calls[0].seat
    for lang, story in stories.items():
        problems.extend(story_problems(first, calls, story, lang))
        problems.extend(acceptor_problems(calls, story, lang))
        if (declarer := walked.declarer()) is not None:
            problems.extend(declarer_problems(declarer, story, lang))
    return problems


def names_dealer(story: str, lang: str) -> bool:
    return re.search(DEALER[lang].format(s=seat_pattern(lang)), story) is not None
