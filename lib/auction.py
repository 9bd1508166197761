"""The auction (bidding) as typed at the table: calls, their notes, and the rules of legality.

One line of text holds a whole auction, typed with the keyboard in seconds::

    1h p 2nt! "sterke raise" [invitatie] x? p

Calls are separated by spaces (commas, or a dash between calls: ``1h-p-2h``). A call may be
written the English or the Dutch way, in any case:

- pass: ``p``, ``pas``, ``pass`` (a dash standing alone too);
- double: ``x``, ``d``, ``dbl``, ``dbl.``, ``doublet``; redouble: ``xx``, ``rd``, ``r``,
  ``redbl``, ``redoublet``;
- a bid: a level 1–7 and a strain: clubs ``c``/``k`` (klaveren)/``♣``, diamonds
  ``d``/``r`` (ruiten)/``♦``, hearts ``h``/``♥``, spades ``s``/``♠``, notrump ``nt``/``n``/
  ``sa``. ``h`` and ``s`` mean the same in both languages; the bare ``d`` is a double
  (doublet), ``1d`` one diamond; the bare ``r`` a redouble, ``1r`` one diamond.
- ``ap`` (all pass; ``rondpas`` too) ends the auction with passes.

Notes follow their call, without a space for the marks:

- ``!`` an alert; ``?`` a tempo remark (a hesitation or another break in tempo) on that call
  (marks may also stand after the call's notes);
- ``"…"`` the explanation given at the table (typographic quotes “…” „…” too);
- ``[…]`` the agreement according to the system card.

:meth:`Auction.to_text` writes the canonical form (``1H P 2NT! "…" […] X? P``), which
:func:`parse_auction` reads back to the same auction; :meth:`Auction.stored` adds the dealer
(``N: 1H P``) for a single text column, read by :func:`load_auction`.

Pure: nothing is read from the database; messages are Dutch with English from the catalogue.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Literal

from django.core.exceptions import ValidationError
from django.utils.translation import gettext

from lib.bridge import SEATS, SUIT_SYMBOL, BridgeError, Seat, seat_rows
from lib.i18n import active_language

__all__ = [
    "STRAINS",
    "Auction",
    "AuctionCall",
    "AuctionError",
    "Call",
    "load_auction",
    "parse_auction",
    "parse_call",
    "read_auction",
    "validate_stored",
]

CallKind = Literal["pass", "double", "redouble", "bid"]
STRAINS: tuple[str, ...] = ("C", "D", "H", "S", "NT")
MAX_LEVEL = 7
# The explanation and the agreement of one call: a line or two, as written on a form.
NOTE_MAX = 500


class AuctionError(ValueError):
    """A call that cannot be read, or that is not legal where it stands; the message (in the
    active language) names the call and, in an auction, its position."""

    def __init__(self, message: str, token: str = "", position: int | None = None) -> None:
        super().__init__(message)
        self.token = token
        self.position = position


@dataclass(frozen=True, slots=True)
class Call:
    kind: CallKind
    level: int | None = None
    strain: str | None = None

    @property
    def code(self) -> str:
        """The canonical text: ``P``, ``X``, ``XX``, ``1H``, ``3NT``."""
        if self.kind == "bid":
            return f"{self.level}{self.strain}"
        return {"pass": "P", "double": "X", "redouble": "XX"}[self.kind]

    @property
    def rank(self) -> int:
        """Bids in order: 1♣ is 0, 7NT is 34; other calls -1."""
        if self.kind != "bid" or self.level is None or self.strain is None:
            return -1
        return (self.level - 1) * 5 + STRAINS.index(self.strain)

    @property
    def is_bid(self) -> bool:
        return self.kind == "bid"

    def label(self, lang: str = "nl") -> str:
        """The call for the reader: ``pas``/``pass``, ``doublet``/``double``, ``1♥``, ``3SA``/
        ``3NT``."""
        english = lang.lower().startswith("en")
        if self.kind == "bid":
            strain = self.strain or ""
            shown = SUIT_SYMBOL.get(strain) or ("NT" if english else "SA")
            return f"{self.level}{shown}"
        words = {
            "pass": ("pas", "pass"),
            "double": ("doublet", "double"),
            "redouble": ("redoublet", "redouble"),
        }[self.kind]
        return words[1] if english else words[0]

    def short(self, lang: str = "nl") -> str:
        """The call in a bidding diagram: ``X``/``XX`` for the doubles, else :meth:`label`."""
        if self.kind == "double":
            return "X"
        if self.kind == "redouble":
            return "XX"
        return self.label(lang)

    def __str__(self) -> str:
        return self.code


PASS = Call("pass")
DOUBLE = Call("double")
REDOUBLE = Call("redouble")

_WORDS: dict[str, Call] = {
    **dict.fromkeys(("p", "pas", "pass", "-"), PASS),
    **dict.fromkeys(("x", "d", "dbl", "dbl.", "doublet", "double"), DOUBLE),
    **dict.fromkeys(
        ("xx", "rd", "r", "redbl", "redbl.", "rdbl", "redoublet", "redouble"), REDOUBLE
    ),
}
_STRAIN_WORDS: dict[str, str] = {
    "c": "C", "k": "C", "♣": "C", "♧": "C",
    "d": "D", "r": "D", "♦": "D", "♢": "D",
    "h": "H", "♥": "H", "♡": "H",
    "s": "S", "♠": "S", "♤": "S",
    "nt": "NT", "n": "NT", "sa": "NT", "notrump": "NT", "s.a.": "NT", "sa.": "NT",
}  # fmt: skip


def parse_call(token: str) -> Call:
    """One call in English or Dutch notation, any case (see the module's notes)."""
    text = token.strip().lower().replace("\ufe0f", "")
    if text in _WORDS:
        return _WORDS[text]
    if len(text) >= 2 and text[0] in "0123456789":  # not isdigit(): "²" is no level
        level = int(text[0])
        strain = _STRAIN_WORDS.get(text[1:])
        if strain is not None:
            if not 1 <= level <= MAX_LEVEL:
                raise AuctionError(
                    gettext("Bod %(call)s kan niet: een bod gaat van 1 tot 7.") % {"call": token},
                    token,
                )
            return Call("bid", level, strain)
    raise AuctionError(
        gettext("Onbekende bieding ‘%(call)s’: schrijf bijvoorbeeld p, x, xx, 1h, 2sa of 3nt.")
        % {"call": token},
        token,
    )


@dataclass(frozen=True, slots=True)
class AuctionCall:
    """A call with what was said about it at the table."""

    call: Call
    alert: bool = False
    explanation: str = ""
    agreement: str = ""
    tempo: bool = False

    @property
    def annotated(self) -> bool:
        return self.alert or self.tempo or bool(self.explanation or self.agreement)

    @property
    def differs(self) -> bool:
        """An explanation given and an agreement written, and they are not the same words."""
        return bool(self.explanation and self.agreement) and _same(self.explanation) != _same(
            self.agreement
        )

    def to_text(self) -> str:
        text = self.call.code + ("!" if self.alert else "") + ("?" if self.tempo else "")
        if self.explanation:
            text += f' "{self.explanation}"'
        if self.agreement:
            text += f" [{self.agreement}]"
        return text


def _same(text: str) -> str:
    return " ".join(text.lower().split())


@dataclass(frozen=True, slots=True)
class Auction:
    dealer: Seat
    calls: tuple[AuctionCall, ...] = ()

    def seat_of(self, index: int) -> Seat:
        """The seat making the call at ``index`` (0 is the dealer)."""
        return SEATS[(SEATS.index(self.dealer) + index) % 4]

    @property
    def is_complete(self) -> bool:
        """Four passes at the start, or three passes after a bid (or a double)."""
        n = len(self.calls)
        if n == 4 and all(c.call.kind == "pass" for c in self.calls):
            return True
        return (
            n >= 4
            and any(c.call.kind != "pass" for c in self.calls)
            and all(c.call.kind == "pass" for c in self.calls[-3:])
        )

    @property
    def is_passed_out(self) -> bool:
        return self.is_complete and all(c.call.kind == "pass" for c in self.calls)

    @property
    def next_seat(self) -> Seat:
        return self.seat_of(len(self.calls))

    def last_bid(self) -> tuple[int, Call] | None:
        """The index and the call of the last bid, if any."""
        for index in range(len(self.calls) - 1, -1, -1):
            if self.calls[index].call.is_bid:
                return index, self.calls[index].call
        return None

    def _last_other_than_pass(self) -> int | None:
        for index in range(len(self.calls) - 1, -1, -1):
            if self.calls[index].call.kind != "pass":
                return index
        return None

    def _by_opponent(self, index: int) -> bool:
        return self.seat_of(index).side != self.next_seat.side

    def problem(self, call: Call) -> str | None:
        """Why ``call`` may not come next, in the active language; None when it may."""
        named = {"call": call.label(_lang())}
        if self.is_complete:
            return gettext("%(call)s kan niet: de bieding is al afgelopen.") % named
        if call.is_bid:
            if call.level is None or not 1 <= call.level <= MAX_LEVEL:
                return gettext("Bod %(call)s kan niet: een bod gaat van 1 tot 7.") % named
            last = self.last_bid()
            if last is not None and call.rank <= last[1].rank:
                return gettext("%(call)s is niet hoger dan het laatste bod, %(last)s.") % {
                    **named,
                    "last": last[1].label(_lang()),
                }
            return None
        if call.kind == "pass":
            return None
        index = self._last_other_than_pass()
        if call.kind == "double":
            if index is None:
                return gettext("Doublet kan niet: er is nog geen bod.")
            if not self.calls[index].call.is_bid:
                return gettext("Doublet kan niet: het laatste bod is al gedoubleerd.")
            if not self._by_opponent(index):
                return gettext("Doublet kan niet: het laatste bod is van de partner.")
            return None
        if index is None or self.calls[index].call.kind != "double":
            return gettext("Redoublet kan niet: alleen na een doublet van de tegenpartij.")
        if not self._by_opponent(index):
            return gettext("Redoublet kan niet: het doublet is van de partner.")
        return None

    def check_next(self, call: Call) -> None:
        """Raise :class:`AuctionError` (naming the call and its position) unless legal."""
        problem = self.problem(call)
        if problem is not None:
            position = len(self.calls) + 1
            raise AuctionError(
                gettext("Bieding %(position)s (%(seat)s): %(problem)s")
                % {"position": position, "seat": self.next_seat.label, "problem": problem},
                call.code,
                position,
            )

    def legal_next(self) -> list[Call]:
        """Every call that may come next, pass first, then double, redouble and the bids."""
        if self.is_complete:
            return []
        candidates = [PASS, DOUBLE, REDOUBLE] + [
            Call("bid", level, strain) for level in range(1, 8) for strain in STRAINS
        ]
        return [call for call in candidates if self.problem(call) is None]

    def plus(self, call: Call | AuctionCall) -> Auction:
        """This auction with one more call, checked."""
        entry = call if isinstance(call, AuctionCall) else AuctionCall(call)
        self.check_next(entry.call)
        return replace(self, calls=(*self.calls, entry))

    def upto(self, count: int) -> Auction:
        """The first ``count`` calls (the auction as it stood before a decision)."""
        return replace(self, calls=self.calls[:count])

    def rows(self, first: Seat = Seat.WEST) -> list[list[AuctionCall | None]]:
        """The diagram: rows of four cells, columns from ``first`` clockwise; empty cells
        (None) before the dealer's first call."""
        return seat_rows(self.calls, self.dealer, first)

    def columns(self, first: Seat = Seat.WEST) -> list[Seat]:
        start = SEATS.index(first)
        return [SEATS[(start + i) % 4] for i in range(4)]

    def to_text(self) -> str:
        """The canonical text of the calls, read back by :func:`parse_auction`."""
        return " ".join(entry.to_text() for entry in self.calls)

    def stored(self) -> str:
        """Dealer and calls in one text (``N: 1H P 2NT``), read back by :func:`load_auction`;
        the empty string for an auction without calls."""
        return f"{self.dealer.value}: {self.to_text()}" if self.calls else ""

    def __len__(self) -> int:
        return len(self.calls)


def _lang() -> str:
    return active_language()


_SEPARATORS = " \t\r\n,;"
_OPEN_QUOTES = {'"': '"', "“": "”", "„": "”", "”": "”"}


def _read_note(text: str, start: int, close: str) -> tuple[str, int]:
    end = text.find(close, start + 1)
    if close == "”" and end < 0:
        end = text.find('"', start + 1)
    if end < 0:
        raise AuctionError(
            gettext("Een toelichting mist het afsluitende teken %(mark)s.") % {"mark": close},
            text[start:],
        )
    # A straight quote inside typographic ones would end the note when read back.
    note = " ".join(text[start + 1 : end].replace('"', "'").split())
    if len(note) > NOTE_MAX:
        raise AuctionError(
            gettext("Een toelichting is langer dan %(max)s tekens.") % {"max": NOTE_MAX},
            note[:20],
        )
    return note, end + 1


def _tokens(text: str) -> list[tuple[str, str]]:
    """(kind, text) pairs: ``call`` tokens with their marks, ``explanation``, ``agreement``."""
    found: list[tuple[str, str]] = []
    i = 0
    while i < len(text):
        char = text[i]
        if char in _SEPARATORS:
            i += 1
        elif char in _OPEN_QUOTES:
            note, i = _read_note(text, i, _OPEN_QUOTES[char])
            found.append(("explanation", note))
        elif char == "[":
            note, i = _read_note(text, i, "]")
            found.append(("agreement", note))
        else:
            j = i
            while j < len(text) and text[j] not in _SEPARATORS and text[j] not in '"“„[':
                j += 1
            word = text[i:j]
            parts = [word] if word == "-" else [part for part in word.split("-") if part]
            found.extend(("call", part) for part in parts)
            i = j
    return found


def _marked(word: str) -> tuple[str, bool, bool]:
    """The call without its trailing marks, and whether it carries ``!`` and ``?``."""
    alert = tempo = False
    while word and word[-1] in "!?":
        alert = alert or word[-1] == "!"
        tempo = tempo or word[-1] == "?"
        word = word[:-1]
    return word, alert, tempo


def parse_auction(text: str, dealer: str | Seat) -> Auction:
    """An auction from one line of text (see the module's notes), checked call by call:
    the first call that cannot be read or is not legal raises :class:`AuctionError`."""
    try:
        seat = dealer if isinstance(dealer, Seat) else Seat.read(dealer)
    except BridgeError as error:
        raise AuctionError(str(error), str(dealer)) from None
    auction = Auction(seat)
    for kind, value in _tokens(text):
        if kind != "call":
            if not auction.calls:
                raise AuctionError(
                    gettext("Toelichting ‘%(note)s’ staat voor de eerste bieding.")
                    % {"note": value},
                    value,
                )
            last = auction.calls[-1]
            if kind == "explanation":
                last = replace(last, explanation=value)
            else:
                last = replace(last, agreement=value)
            auction = replace(auction, calls=(*auction.calls[:-1], last))
            continue
        if value.lower() in ("ap", "a.p.", "allpass", "rondpas"):
            if auction.is_complete:
                auction.check_next(PASS)
            while not auction.is_complete:
                auction = auction.plus(PASS)
            continue
        word, alert, tempo = _marked(value)
        if not word and auction.calls:
            # Marks typed after a note (``2d "transfer" !``) still belong to the call.
            last = auction.calls[-1]
            marked = replace(last, alert=last.alert or alert, tempo=last.tempo or tempo)
            auction = replace(auction, calls=(*auction.calls[:-1], marked))
            continue
        try:
            call = parse_call(word)
        except AuctionError as error:
            position = len(auction.calls) + 1
            raise AuctionError(
                gettext("Bieding %(position)s: %(problem)s")
                % {"position": position, "problem": error},
                value,
                position,
            ) from None
        auction = auction.plus(AuctionCall(call, alert=alert, tempo=tempo))
    return auction


def load_auction(stored: str) -> Auction | None:
    """An auction from :meth:`Auction.stored` (``N: 1H P``); None for the empty text."""
    text = stored.strip()
    if not text:
        return None
    dealer, colon, calls = text.partition(":")
    if not colon:
        raise AuctionError(
            gettext("Een opgeslagen bieding begint met de gever: ‘N: 1h p’."), text[:20]
        )
    return parse_auction(calls, dealer)


def read_auction(text: str, dealer: Seat | None) -> Auction | None:
    """What a director typed in an auction field: the calls, optionally after the dealer
    (``O: p 1h``), which overrides ``dealer`` (the deal's or the board number's; None when
    neither is known, and then the dealer must be typed); None when nothing was typed."""
    if not text.strip():
        return None
    before, colon, after = text.partition(":")
    if colon:
        try:
            typed = Seat.read(before)
        except BridgeError:
            pass  # a colon inside a note (``1nt "12-14: zwak"``): no dealer given
        else:
            return parse_auction(after, typed)
    if dealer is None:
        raise AuctionError(
            gettext("Geef het spelnummer, of de gever vooraan: ‘N: 1h p’."), text[:20]
        )
    return parse_auction(text, dealer)


def validate_stored(stored: str) -> None:
    """The model's validator: an auction as :meth:`Auction.stored` writes it, legal, and
    written canonically (what the record shows is exactly what was stored)."""
    try:
        auction = load_auction(stored)
    except AuctionError as error:
        raise ValidationError(str(error), code="auction") from None
    if auction is not None and auction.stored() != stored:
        raise ValidationError(
            gettext("De bieding is niet in de vaste schrijfwijze: ‘%(text)s’.")
            % {"text": auction.stored()},
            code="auction",
        )
