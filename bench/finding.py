"""Measurement 10: finding a tree by what a director types (issue 29).

* the finder's server time per search: ``trees.lookup.find`` over every loaded tree, for each
  phrase of ``tests/data/finder_phrases.yaml`` (what the start page runs), p50 and p95; the
  reference is the first search of the process, which makes every tree's index;
* the start page's list for such a search (the htmx request), against the bare view;
* the share of the phrases whose tree is among the first three in edition 2017 (the same
  count as ``tests/trees/test_finder_phrases.py``).

``BENCH_ONLY=finder`` measures only these, on the shipped trees (no rulings are made).
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import yaml

from bench.measure import bare_get, check
from bench.report import log, ms, p50, p95
from trees import lookup
from trees.models import Tree

S10 = "10. Finding a tree (issue 29)"
PHRASES = Path(__file__).resolve().parent.parent / "tests" / "data" / "finder_phrases.yaml"
GOAL_FINDER_MS = 20.0
# What htmx sends when the start page's search field asks for the list.
HTMX_LIST = {
    "HTTP_HX_REQUEST": "true",
    "HTTP_HX_TARGET": "tree-list",
    "HTTP_HX_CURRENT_URL": "http://testserver/arbitrage/nieuw/",
}
GOAL_SHARE = 0.95
EDITION = "2017"


def phrases() -> list[dict[str, Any]]:
    return list(yaml.safe_load(PHRASES.read_text(encoding="utf-8")))


def measure(bench: Any) -> None:
    """Add the figures of measurement 10 to ``bench``'s report (a ``bench.suite.Benchmark``)."""
    log("finding a tree: the phrase set through the finder and the start page")
    said = phrases()
    trees = list(Tree.objects.select_related("edition"))
    lookup.clear_cache()
    begun = time.perf_counter()
    lookup.find(trees, said[0]["say"])
    first = time.perf_counter() - begun

    times, found = [], 0
    for phrase in said:
        rows = list(Tree.objects.select_related("edition"))  # as a request reads them
        begun = time.perf_counter()
        results = lookup.find(rows, phrase["say"])
        times.append(time.perf_counter() - begun)
        top = [item.tree.slug for item in results if item.tree.edition.code == EDITION][:3]
        found += all(slug in top for slug in phrase["trees"])
    where = f"{len(trees)} loaded trees, {len(said)} phrases"
    for label, value in (("p50", p50(times)), ("p95", p95(times))):
        bench.add(
            S10,
            f"finder server time per search ({where}): {label}",
            ms(value),
            "ms",
            reference=f"first search (every index made) {ms(first):.0f} ms",
            ratio=value / first,
            goal=f"≤ {GOAL_FINDER_MS:g} ms",
            ok=ms(value) <= GOAL_FINDER_MS,
        )
    share = found / len(said)
    bench.add(
        S10,
        f"phrases whose tree is among the first three (edition {EDITION})",
        share * 100,
        "%",
        reference=f"{found} of {len(said)}",
        goal=f"≥ {GOAL_SHARE:.0%}",
        ok=share >= GOAL_SHARE,
    )
    _start_page(bench, said)


def _start_page(bench: Any, said: list[dict[str, Any]]) -> None:
    """The start page's list for each phrase (htmx), each followed by a bare-view GET."""
    client = bench.client
    times, bare = [], []
    for phrase in said:
        url = f"/arbitrage/nieuw/?{urlencode({'q': phrase['say']})}"
        begun = time.perf_counter()
        response = client.get(url, **HTMX_LIST)
        times.append(time.perf_counter() - begun)
        check(response, url)
        bare.append(bare_get(client))
    bench.add(
        S10,
        f"start page list for a search (htmx, {len(said)} phrases): p50",
        ms(p50(times)),
        "ms",
        reference=f"bare view p50 {ms(p50(bare)):.2f} ms",
        ratio=p50(times) / p50(bare),
        note=f"p95 {ms(p95(times)):.1f} ms",
    )
