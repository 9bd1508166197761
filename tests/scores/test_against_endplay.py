"""Checked against an independent implementation (issue 31, item 5): endplay's scoring and its
PBN parser, on random contracts and on generated files."""

from __future__ import annotations

import io

from endplay.parsers import pbn as endplay_pbn
from endplay.types import Contract as EndplayContract
from endplay.types import Denom, Penalty, Player, Vul
from hypothesis import given
from hypothesis import strategies as st

from lib.bridge import RANKS, SEATS, Seat, Vulnerability, board_dealer
from scores.calculator import duplicate_score
from scores.deal import Deal, Hand, make_deal, north_south_score
from scores.pbn import parse_pbn

PLAYERS = {
    Seat.NORTH: Player.north,
    Seat.EAST: Player.east,
    Seat.SOUTH: Player.south,
    Seat.WEST: Player.west,
}
DENOMS = {
    "C": Denom.clubs,
    "D": Denom.diamonds,
    "H": Denom.hearts,
    "S": Denom.spades,
    "NT": Denom.nt,
}
PENALTIES = {"": Penalty.passed, "X": Penalty.doubled, "XX": Penalty.redoubled}
VULS = {
    Vulnerability.NONE: Vul.none,
    Vulnerability.NS: Vul.ns,
    Vulnerability.EW: Vul.ew,
    Vulnerability.ALL: Vul.both,
}


@st.composite
def played(draw):
    """A contract, its penalty, declarer and declarer's tricks (0–13)."""
    level = draw(st.integers(1, 7))
    return (
        level,
        draw(st.sampled_from(sorted(DENOMS))),
        draw(st.sampled_from(sorted(PENALTIES))),
        draw(st.sampled_from(SEATS)),
        draw(st.integers(0, 13)),
    )


@given(contract=played(), vulnerability=st.sampled_from(list(Vulnerability)))
def test_duplicate_score_agrees_with_endplay(contract, vulnerability):
    level, denom, penalty, declarer, tricks = contract
    theirs = EndplayContract(
        level=level,
        denom=DENOMS[denom],
        declarer=PLAYERS[declarer],
        penalty=PENALTIES[penalty],
        result=tricks - 6 - level,
    ).score(VULS[vulnerability])
    written = f"{level}{denom}{penalty} {tricks}"
    assert duplicate_score(written, vulnerability.is_vulnerable(declarer)) == theirs
    side = 1 if declarer in (Seat.NORTH, Seat.SOUTH) else -1
    assert north_south_score(written, declarer, vulnerability) == side * theirs


CARDS = [suit + rank for suit in "SHDC" for rank in RANKS]


@st.composite
def deals(draw, board: int):
    """A random deal: the 52 cards shuffled and dealt 13 to each seat."""
    order = draw(st.permutations(CARDS))
    hands = {}
    for index, seat in enumerate(SEATS):
        held = set(order[13 * index : 13 * index + 13])
        ranks = ("".join(c[1] for c in CARDS if c[0] == suit and c in held) for suit in "SHDC")
        hands[seat] = Hand(*ranks)
    # The dealer of the board number's rotation, as real files have it: endplay takes the
    # [Dealer] tag only for a board with a contract and the rotation otherwise.
    dealer = board_dealer(board)
    vulnerability = draw(st.sampled_from(list(Vulnerability)))
    return make_deal(board, dealer, vulnerability, hands, event="Gegenereerd")


def written(deal: Deal, first: Seat, table: tuple | None, crlf: bool) -> str:
    """One game as a program would export it, the hands starting at ``first``."""
    seats = [first]
    while len(seats) < 4:
        seats.append(seats[-1].next)
    lines = [
        '[Event "Gegenereerd"]',
        f'[Board "{deal.board}"]',
        f'[Dealer "{deal.dealer.value}"]',
        f'[Vulnerable "{deal.vulnerability.value}"]',
        f'[Deal "{first.value}:' + " ".join(deal.hand(s).pbn for s in seats) + '"]',
    ]
    if table is not None:
        level, denom, penalty, declarer, tricks = table
        lines += [
            f'[Declarer "{declarer.value}"]',
            f'[Contract "{level}{denom}{penalty}"]',
            f'[Result "{tricks}"]',
        ]
    return ("\r\n" if crlf else "\n").join(lines)


@given(data=st.data(), count=st.integers(1, 6), crlf=st.booleans())
def test_the_reader_agrees_with_endplays_parser_on_generated_files(data, count, crlf):
    games = []
    for board in range(1, count + 1):
        deal = data.draw(deals(board))
        first = data.draw(st.sampled_from(SEATS))
        table = data.draw(st.none() | played())
        games.append((deal, table, written(deal, first, table, crlf)))
    text = ("\r\n\r\n" if crlf else "\n\n").join(game for _, _, game in games) + "\n"

    ours = parse_pbn(text).boards
    theirs = endplay_pbn.load(io.StringIO(text.replace("\r\n", "\n")))
    assert [b.deal.board for b in ours] == [b.board_num for b in theirs]
    for board, their, (deal, table, _) in zip(ours, theirs, games, strict=True):
        assert board.deal == deal
        assert board.deal.pbn == their.deal.to_pbn()
        assert board.deal.dealer.value == their.dealer.abbr
        assert VULS[board.deal.vulnerability] == their.vul
        if table is None:
            assert board.results == ()
            continue
        declarer_score = their.contract.score(their.vul)
        side = 1 if their.contract.declarer in (Player.north, Player.south) else -1
        assert [r.score for r in board.results] == [side * declarer_score]
