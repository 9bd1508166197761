"""Measurement 9: the deal and the score calculator (issue 16).

* double-dummy time per deal: ``scores.double_dummy.analyse`` (endplay's DDS solver, all 20
  declarer/denomination pairs and par) over the boards of ``tests/data/deals.pbn`` and, at full
  scale, random deals; the reference is loading endplay itself (paid once per process);
* the ruling page showing a deal: the first view analyses the deal and caches the table, every
  later view reads it from the row (``scores.deals.analysis_of``);
* calculator throughput: ``duplicate_score`` on random contract strings (parsing included)
  against ``contract_score`` on the same contracts already parsed.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bench import pbn
from bench.report import log, ms, p50, p95
from lib.bridge import RANKS, SEATS, board_dealer, board_vulnerability
from rulings.models import Ruling
from scores.calculator import contract_score, duplicate_score, parse_contract
from scores.deal import SUITS, Deal, Hand, make_deal
from scores.double_dummy import analyse
from scores.importing import event_name, import_file, missing_boards
from scores.models import StoredDeal
from scores.pbn import Board, PbnFile, read_pbn

FIXTURE = Path(__file__).resolve().parent.parent / "tests" / "data" / "deals.pbn"

# Per scale: boards of the fixture, random deals on top, contracts scored.
SIZES = {"full": (5, 7, 200_000), "small": (5, 0, 50_000), "tiny": (2, 0, 5_000)}


@dataclass(frozen=True)
class Sizes:
    fixture_deals: int
    random_deals: int
    contracts: int


def sizes(scale: str) -> Sizes:
    return Sizes(*SIZES.get(scale, SIZES["full"]))


def random_deals(count: int, rng: random.Random, first_board: int = 101) -> list[Deal]:
    """Shuffled decks dealt 13 cards each, boards numbered from ``first_board``."""
    deck = [(suit, rank) for suit in SUITS for rank in RANKS]
    deals = []
    for number in range(first_board, first_board + count):
        rng.shuffle(deck)
        hands = {}
        for index, seat in enumerate(SEATS):
            cards = deck[index * 13 : (index + 1) * 13]
            ranks = [
                "".join(sorted((r for s, r in cards if s == suit), key=RANKS.index))
                for suit in SUITS
            ]
            hands[seat] = Hand(*ranks)
        deals.append(make_deal(number, board_dealer(number), board_vulnerability(number), hands))
    return deals


def bench_deals(scale: str, rng: random.Random) -> list[Deal]:
    wanted = sizes(scale)
    fixture = [board.deal for board in read_pbn(FIXTURE).boards]
    return fixture[: wanted.fixture_deals] + random_deals(wanted.random_deals, rng)


def endplay_import_seconds() -> float:
    started = time.perf_counter()
    from endplay import dds  # noqa: F401 - the import is what is timed

    return time.perf_counter() - started


def double_dummy_seconds(deals: list[Deal]) -> list[float]:

    times = []
    for deal in deals:
        started = time.perf_counter()
        analyse(deal)
        times.append(time.perf_counter() - started)
    return times


def random_contracts(count: int, rng: random.Random) -> list[tuple[str, bool]]:
    """Contract strings as directors type them, every level, strain, double and result."""
    items = []
    for _ in range(count):
        level = rng.randint(1, 7)
        strain = rng.choice(("C", "D", "H", "S", "NT"))
        penalty = rng.choice(("", "", "X", "XX"))
        tricks = rng.randint(max(0, level + 6 - 7), 13)
        diff = tricks - 6 - level
        outcome = "=" if diff == 0 else f"{diff:+d}"
        items.append((f"{level}{strain}{penalty}{outcome}", rng.random() < 0.5))
    return items


@dataclass(frozen=True)
class Throughput:
    contracts: int
    per_second: float  # duplicate_score: parse + score
    scored_per_second: float  # contract_score on parsed contracts
    total: int  # the sum of the scores, so the work cannot be skipped


def calculator_throughput(items: list[tuple[str, bool]]) -> Throughput:
    started = time.perf_counter()
    total = sum(duplicate_score(text, vulnerable) for text, vulnerable in items)
    parse_and_score = time.perf_counter() - started
    parsed = [(parse_contract(text), vulnerable) for text, vulnerable in items]
    started = time.perf_counter()
    again = sum(contract_score(contract, vulnerable) for contract, vulnerable in parsed)
    score_only = time.perf_counter() - started
    if again != total:
        raise AssertionError("the calculator scored the same contracts differently")
    return Throughput(len(items), len(items) / parse_and_score, len(items) / score_only, total)


S9 = "9. Deals and scores (issue 16)"
GOAL_DD_S = 1.0  # the ruling page waits for it once per deal
GOAL_CONTRACTS_PER_S = 10_000  # a board's whole field (a few dozen results) is instant


def measure(bench: Any) -> None:
    """Add the figures of measurement 9 to ``bench``'s report (a ``bench.suite.Benchmark``)."""
    log("deals: double-dummy analysis; calculator throughput")
    loading = max(endplay_import_seconds(), 1e-6)  # near 0 if endplay was loaded already
    deals = bench_deals(bench.scale.name, bench.rng)
    times = double_dummy_seconds(deals)
    for label, value in (("p50", p50(times)), ("p95", p95(times)), ("max", max(times))):
        bench.add(
            S9,
            f"double-dummy table + par per deal ({len(deals)} deals): {label}",
            ms(value),
            "ms",
            reference=f"loading endplay {ms(loading):.0f} ms",
            ratio=value / loading,
            goal=f"< {GOAL_DD_S:g} s" if label == "p50" else "",
            ok=value < GOAL_DD_S if label == "p50" else None,
        )
    _ruling_page(bench, deals[0])
    pbn.measure(bench, deals)

    items = random_contracts(sizes(bench.scale.name).contracts, bench.rng)
    result = calculator_throughput(items)
    bench.add(
        S9,
        f"calculator: {result.contracts} contracts scored (duplicate_score: parse + score)",
        result.per_second,
        "contracts/s",
        reference=f"contract_score on parsed contracts {result.scored_per_second:,.0f}/s".replace(
            ",", " "
        ),
        ratio=result.per_second / result.scored_per_second,
        goal=f"≥ {GOAL_CONTRACTS_PER_S:,}/s".replace(",", " "),
        ok=result.per_second >= GOAL_CONTRACTS_PER_S,
    )


def _ruling_page(bench: Any, deal: Deal) -> None:
    """The detail page of a ruling on a stored board: first view (analyses) vs cached."""

    ruling = Ruling.objects.get(uuid=bench.detail_uuid)
    board = ruling.board or 1
    if ruling.board is None:
        Ruling.objects.filter(pk=ruling.pk).update(board=board)
    moved = make_deal(board, deal.dealer, deal.vulnerability, {s: deal.hand(s) for s in SEATS})
    file = PbnFile((Board(moved),))
    lacking = missing_boards(ruling.club, ruling.event, file)
    import_file(ruling.club, ruling.event, file, "bench.pbn", remove=lacking)
    url = f"/arbitrages/{ruling.uuid}/"
    started = time.perf_counter()
    first = bench.client.get(url)
    first_seconds = time.perf_counter() - started
    if first.status_code != 200 or b"data-dd-table" not in first.content:
        raise AssertionError(f"the ruling page shows no double-dummy table ({first.status_code})")
    cached = []
    for _ in range(5):
        started = time.perf_counter()
        bench.client.get(url)
        cached.append(time.perf_counter() - started)
    StoredDeal.objects.filter(club=ruling.club, event__iexact=event_name(ruling.event)).delete()
    bench.add(
        S9,
        "ruling page with a deal, first view (analyses and caches the deal)",
        ms(first_seconds),
        "ms",
        reference=f"later views (cached) p50 {ms(p50(cached)):.1f} ms",
        ratio=first_seconds / p50(cached),
        note="later views read the table from the row",
    )
