"""Measurements that need a process of their own, so that peak memory means something.

``python -m bench.worker csv QUERY`` exports the archive's CSV through the real view (test
client, streamed) and ``python -m bench.worker verify [N]`` verifies the audit chains of every
ruling (or of the first N rulings). Each prints one line of JSON: rows or events, seconds, and
the resident set size before the work and at its peak (``VmHWM`` from ``/proc/self/status``,
``ru_maxrss`` where there is no ``/proc``).
"""

from __future__ import annotations

import json
import os
import resource
import sys
import time


def rss_kib() -> tuple[int, int]:
    """(current, peak) resident set size in KiB."""
    try:
        values = {}
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                key, _, rest = line.partition(":")
                if key in ("VmRSS", "VmHWM"):
                    values[key] = int(rest.split()[0])
        return values["VmRSS"], values["VmHWM"]
    except (OSError, KeyError):
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        return peak, peak


def _csv(query: str) -> dict:
    from django.test import Client

    from bench.data import USERNAME
    from clubs.models import User

    client = Client()
    client.force_login(User.objects.get(username=USERNAME))
    client.get("/bench/bare/")  # everything imported and connected before the baseline
    before, _ = rss_kib()
    started = time.perf_counter()
    response = client.get(f"/arbitrages/export.csv?{query}")
    if response.status_code != 200 or not response.streaming:
        raise SystemExit(f"CSV export: HTTP {response.status_code}, streaming={response.streaming}")
    lines = size = 0
    for chunk in response.streaming_content:
        size += len(chunk)
        lines += chunk.count(b"\n")
    seconds = time.perf_counter() - started
    _, peak = rss_kib()
    # Lines minus the header; notes never contain a line break in the benchmark's data.
    return {
        "rows": lines - 1,
        "bytes": size,
        "seconds": seconds,
        "rss_before_kib": before,
        "peak_kib": peak,
    }


def _verify(limit: int | None) -> dict:
    from rulings.audit import verify_all
    from rulings.models import Ruling

    pks = None
    if limit:
        pks = list(Ruling.objects.order_by("pk").values_list("pk", flat=True)[:limit])
    before, _ = rss_kib()
    started = time.perf_counter()
    rulings = events = broken = 0
    for check in verify_all(pks):
        rulings += 1
        events += check.events
        broken += bool(check.problems)
    seconds = time.perf_counter() - started
    _, peak = rss_kib()
    return {
        "rulings": rulings,
        "events": events,
        "broken": broken,
        "seconds": seconds,
        "rss_before_kib": before,
        "peak_kib": peak,
    }


def main(argv: list[str]) -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "bench.settings")
    import django

    django.setup()
    if argv[0] == "csv":
        result = _csv(argv[1] if len(argv) > 1 else "")
    elif argv[0] == "verify":
        result = _verify(int(argv[1]) if len(argv) > 1 else None)
    else:
        raise SystemExit(f"unknown worker task {argv[0]!r}")
    print(json.dumps(result))


if __name__ == "__main__":
    main(sys.argv[1:])
