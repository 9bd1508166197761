"""Measurement 9, continued: a club's PBN file with every table's result, and the adjusted-score
form that compares with them (issue 31).

* the import of a 1,200-game file (40 boards, 30 tables each: one game per table, with players,
  auction and play, as BBO writes it) by ``manage.py import_pbn ... --json`` in a process of
  its own, so Django's start-up is included; the reference is the same command on a file of
  one board;
* the adjusted-score form of a seeded ruling whose board has 50 other results, server time
  against the bare view (interleaved).

The file is generated in the run's temporary folder; none is committed.
"""

# ruff: noqa: S603

from __future__ import annotations

import json
import os
import random
import resource
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from bench.measure import BenchError, page_times
from bench.report import log, ms, p50
from lib.bridge import SEATS, board_dealer, board_vulnerability
from rulings.models import Ruling, Status
from scores.deal import Deal, make_deal, north_south_score
from scores.importing import import_file, missing_boards
from scores.models import StoredDeal
from scores.pbn import parse_pbn

S9 = "9. Deals and scores (issue 16)"
GOAL_IMPORT_S = 3.0
GOAL_FORM_MS = 100.0
BOARDS, TABLES = 40, 30  # 1,200 games
OTHER_RESULTS = 50
_NAMES = ("Jansen", "de Vries", "Bakker", "Visser", "Smit", "Meijer", "de Boer", "Mulder")


def _contract(rng: random.Random) -> tuple[str, int]:
    """A contract as a table writes it and declarer's tricks."""
    level = rng.randint(1, 7)
    strain = rng.choice(("C", "D", "H", "S", "NT"))
    penalty = rng.choice(("", "", "", "X", "XX"))
    tricks = max(0, min(13, level + 6 + rng.randint(-3, 2)))
    return f"{level}{strain}{penalty}", tricks


def _game(deal: Deal, table: int, rng: random.Random) -> list[str]:
    contract, tricks = _contract(rng)
    declarer = rng.choice(SEATS)
    score = north_south_score(f"{contract} {tricks}", declarer, deal.vulnerability)
    players = [rng.choice(_NAMES) for _ in SEATS]
    calls = ["Pass"] * rng.randint(0, 3) + [contract[:2], "Pass", "Pass", "Pass"]
    play = [" ".join(rng.sample(["SA", "HK", "D7", "C2", "S9", "HT"], 4)) for _ in range(13)]
    return [
        '[Event "Bench drive"]',
        '[Site "Leidraad"]',
        '[Date "2026.12.04"]',
        f'[Board "{deal.board}"]',
        *(
            f'[{name} "{player}"]'
            for name, player in zip(("North", "East", "South", "West"), players, strict=True)
        ),
        f'[Dealer "{deal.dealer.value}"]',
        f'[Vulnerable "{deal.vulnerability.value}"]',
        f'[Deal "{deal.pbn}"]',
        '[Scoring "MP"]',
        f'[Table "{table}"]',
        f'[Declarer "{declarer.value}"]',
        f'[Contract "{contract}"]',
        f'[Result "{tricks}"]',
        f'[Score "NS {score}"]',
        f'[Auction "{deal.dealer.value}"]',
        " ".join(calls),
        f'[Play "{declarer.next.value}"]',
        *play,
    ]


def big_file(deals: list[Deal], tables: int, rng: random.Random) -> str:
    games = ["\n".join(_game(deal, table, rng)) for deal in deals for table in range(1, tables + 1)]
    return "% PBN 2.1\n% EXPORT\n" + "\n\n".join(games) + "\n"


def _renumbered(deals: list[Deal], count: int) -> list[Deal]:
    """``count`` boards with the cards of ``deals`` in turn, numbered from 1."""
    return [
        make_deal(
            number,
            board_dealer(number),
            board_vulnerability(number),
            {seat: deals[(number - 1) % len(deals)].hand(seat) for seat in SEATS},
        )
        for number in range(1, count + 1)
    ]


def _children_cpu() -> float:
    """User and system CPU seconds of the finished child processes so far."""
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def _command_seconds(root: Path, club: str, event: str, path: Path) -> tuple[float, dict[str, Any]]:
    started = time.perf_counter()
    completed = subprocess.run(
        [
            sys.executable,
            "manage.py",
            "import_pbn",
            club,
            event,
            str(path),
            "--json",
            "--remove-missing",
        ],
        cwd=root,
        env={**os.environ},
        capture_output=True,
        text=True,
        check=False,
    )
    seconds = time.perf_counter() - started
    if completed.returncode:
        raise BenchError(f"import_pbn failed:\n{completed.stderr}")
    return seconds, json.loads(completed.stdout)


def import_figure(bench: Any, deals: list[Deal]) -> None:
    log(f"PBN import: {BOARDS * TABLES} games with their results, Django start-up included")
    text = big_file(_renumbered(deals, BOARDS), TABLES, bench.rng)
    big, small = bench.tmp / "bench-1200.pbn", bench.tmp / "bench-1.pbn"
    big.write_text(text, encoding="utf-8")
    small.write_text(big_file(_renumbered(deals, 1), 1, bench.rng), encoding="utf-8")
    times, reference = [], []
    cpu_before = _children_cpu()
    for _ in range(3):  # a new event, then a re-import replacing it, twice
        seconds, summary = _command_seconds(bench.root, bench.club.slug, "Bench drive", big)
        if summary["results"] != BOARDS * TABLES or summary["boards"] != BOARDS:
            raise BenchError(
                f"import_pbn read {summary['boards']} boards, {summary['results']} results"
            )
        times.append(seconds)
        reference.append(_command_seconds(bench.root, bench.club.slug, "Bench one", small)[0])
    cpu = (_children_cpu() - cpu_before) / 3  # both commands of a round
    StoredDeal.objects.filter(club=bench.club, event__in=("Bench drive", "Bench one")).delete()
    value = p50(times)
    bench.add(
        S9,
        f"import_pbn --json of a {BOARDS * TABLES}-game file with every result "
        f"({len(text) / 2**20:.1f} MiB), Django start-up included: p50 of 3",
        value,
        "s",
        reference=f"the same command on a 1-game file {p50(reference):.2f} s",
        ratio=value / p50(reference),
        goal=f"< {GOAL_IMPORT_S:g} s",
        ok=value < GOAL_IMPORT_S,
        note=f"new event, then re-imports; max {max(times):.2f} s; CPU of both commands per "
        f"round {cpu:.2f} s (a busy machine shows as wall time above CPU time)",
    )


def _ruling_allowing_a_score(bench: Any) -> Ruling:
    """A final seeded ruling whose outcome allows an adjusted score, with a board number (at
    the tiny scale the seeded few may have none: one is given the flag, on the bench's data)."""
    finals = Ruling.objects.filter(club=bench.club, status=Status.FINAL)
    ruling = finals.filter(outcome__adjusted_score=True).exclude(board=None).first()
    if ruling is None:
        ruling = finals.first()
        if ruling is None:
            raise BenchError("no final seeded ruling for the adjusted-score form")
        ruling.outcome = {**ruling.outcome, "adjusted_score": True}
        ruling.board = ruling.board or 7
        Ruling.objects.filter(pk=ruling.pk).update(outcome=ruling.outcome, board=ruling.board)
    return ruling


def form_figure(bench: Any, deal: Deal) -> None:
    log(f"adjusted-score form with {OTHER_RESULTS} other results")
    ruling = _ruling_allowing_a_score(bench)
    url = f"/arbitrages/{ruling.uuid}/score/"
    without = page_times(bench.client, url, bench.scale.page_requests, "adjusted-score form")
    rows = "\n".join(f"{table} {10 * (table % 60) - 200}" for table in range(1, OTHER_RESULTS + 2))
    hands = " ".join(deal.hand(seat).pbn for seat in SEATS)
    text = (
        f'[Board "{ruling.board}"]\n[Deal "N:{hands}"]\n'
        f'[ScoreTable "Table\\2R;Score_NS\\6R"]\n{rows}\n'
    )
    pbn = parse_pbn(text)
    event = ruling.event or "Bench form"
    lacking = missing_boards(bench.club, event, pbn)
    import_file(bench.club, event, pbn, "bench-form.pbn", remove=lacking)
    if not ruling.event:
        Ruling.objects.filter(pk=ruling.pk).update(event="Bench form")
    times = page_times(bench.client, url, bench.scale.page_requests * 2, "adjusted-score form")
    content = bench.client.get(url).content
    if content.count(b"data-result=") != OTHER_RESULTS + 1:
        raise BenchError("the adjusted-score form does not list the board's results")
    value = ms(p50(times.times))
    bench.add(
        S9,
        f"adjusted-score form with {OTHER_RESULTS} other results from the file (deal analysed "
        "and cached): p50",
        value,
        "ms",
        reference=f"bare view p50 {ms(p50(times.bare)):.2f} ms",
        ratio=p50(times.times) / p50(times.bare),
        goal=f"< {GOAL_FORM_MS:g} ms",
        ok=value < GOAL_FORM_MS,
        note=f"{len(times.times)} requests, GET {url}; the same form before the board's deal "
        f"and results were imported p50 {ms(p50(without.times)):.0f} ms",
    )


def measure(bench: Any, deals: list[Deal]) -> None:
    """Add both figures to ``bench``'s report (a ``bench.suite.Benchmark``)."""
    import_figure(bench, deals)
    form_figure(bench, deals[0])
