"""Measurement 11: the polling screen a director hands to a polled player (issue 33), server
time against the bare view (interleaved), on a seeded final ruling with a poll of eight
answers (the screen never shows them, but it counts them for its stale-form check). Goal: under
100 ms at p50, the issue's "the poll screen loads in under 100 ms server time"."""

from __future__ import annotations

from typing import Any

from bench.measure import BenchError, page_times
from bench.report import log, ms, p50, p95
from rulings import polling
from rulings.models import Ruling, Status

S11 = "11. Player poll (issue 33)"
GOAL_SCREEN_MS = 100.0
ANSWERS = 8
VALUES = {
    "dealer": "N",
    "vulnerability": "None",
    "hand": "AK32.QJ5.T98.765",
    "auction": "1H P 2H P",
    "question": "Wat bied je?",
    "table_call": "4H",
}


def measure(bench: Any) -> None:
    """Add the poll screen's figure to ``bench``'s report (a ``bench.suite.Benchmark``)."""
    log(f"poll screen of a ruling with a poll of {ANSWERS} answers")
    ruling = Ruling.objects.filter(club=bench.club, status=Status.FINAL).first()
    if ruling is None:
        raise BenchError("no final seeded ruling for the poll")
    poll = polling.prepare(ruling, bench.user, VALUES, ruling.audit_sequence)
    for number in range(ANSWERS):
        answer = {"player": f"P{number}", "level": "club", "call": "4H", "considered": ["P"]}
        polling.record_answer(poll, bench.user, answer, number)
    url = f"/arbitrages/{ruling.uuid}/peiling/afnemen/"
    content = bench.client.get(url).content
    if content.count(b'name="call"') < 20:
        raise BenchError("the poll screen does not show its bidding box")
    times = page_times(bench.client, url, bench.scale.page_requests * 2, "poll screen")
    value = ms(p50(times.times))
    bench.add(
        S11,
        "polling screen (hand, auction, bidding box of the legal calls): p50",
        value,
        "ms",
        reference=f"bare view p50 {ms(p50(times.bare)):.2f} ms",
        ratio=p50(times.times) / p50(times.bare),
        goal=f"< {GOAL_SCREEN_MS:g} ms",
        ok=value < GOAL_SCREEN_MS,
        note=f"p95 {ms(p95(times.times)):.0f} ms over {len(times.times)} requests, GET {url}",
    )
