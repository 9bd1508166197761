#!/usr/bin/env python3
"""Re-run the attack surface and print the figures per area (docs/SECURITY.md).

Runs the security tests in one pytest process (``-n 0``) with a plugin that counts every
request the Django test client makes, per area, and every response of 500 or more; a failing
test counts as a leak (club isolation, CSRF, redirects, setup, stored payloads) or as data lost
or half-written (double submits, races, SIGKILL, audit chains) by the area it belongs to.

    .venv/bin/python scripts/attack_surface.py                  # print the table
    .venv/bin/python scripts/attack_surface.py --examples 60    # more Hypothesis examples
    .venv/bin/python scripts/attack_surface.py --write docs/SECURITY.md

``--write`` replaces the table between the ``attack-surface`` markers in that file. Exit
status 0 only when every test passed and no unexpected 5xx was seen.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
import time
from collections import Counter
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LEAK, LOST, INPUT = "leak", "lost", "input"


@dataclass(frozen=True)
class Area:
    label: str
    kind: str  # what a failing test in it counts as
    selectors: tuple[str, ...]  # node id prefixes or ``file::name-prefix``


AREAS = [
    Area(
        "Club isolation: every route × 6 personas, other club's ids",
        LEAK,
        ("tests/security/test_isolation_matrix.py",),
    ),
    Area(
        "CSRF: every POST route without the token",
        LEAK,
        ("tests/security/test_attack_surface.py::test_every_post_without",),
    ),
    Area(
        "Open redirects: next= on login, language, logout",
        LEAK,
        ("tests/security/test_attack_surface.py::test_next",),
    ),
    Area(
        "First-run page: outside address, forged X-Forwarded-For/Forwarded/X-Real-IP/Host",
        LEAK,
        (
            "tests/security/test_attack_surface.py::test_setup",
            "tests/clubs/test_setup.py",
            "tests/lib/test_client.py",
        ),
    ),
    Area(
        "Throttling: login lockout behind a proxy, password-reset mail; headers",
        LEAK,
        (
            "tests/security/test_headers_and_login.py",
            "tests/clubs/test_members.py::test_password_reset_mails_are_throttled",
            "tests/clubs/test_members.py::test_the_invite_form_does_not_reveal",
        ),
    ),
    Area(
        "Training session codes: members only, guests, throttled joining",
        LEAK,
        (
            "tests/training/test_views.py::test_guessing_join_codes",
            "tests/training/test_views.py::test_one_user_trying_many_clients",
            "tests/training/test_views.py::test_a_wrong_or_foreign_or_closed_code",
            "tests/training/test_views.py::test_a_session_opened_to_guests",
        ),
    ),
    Area(
        "Stored XSS payloads: record, print, appeal form, audit trail, CSV, English",
        LEAK,
        (
            "tests/security/test_attack_surface.py::test_stored_payloads",
            "tests/security/test_attack_surface.py::test_csv_cells",
            "tests/archive/test_csv_export.py::test_full_width",
        ),
    ),
    Area(
        "Hostile form input, wizard replays, bundles (Hypothesis)",
        INPUT,
        ("tests/security/test_hostile_input.py",),
    ),
    Area(
        "Out-of-range query values on every filter page, PBN uploads (Hypothesis)",
        INPUT,
        ("tests/security/test_hostile_values.py",),
    ),
    Area(
        "Transfer bundles: tampered, foreign, out-of-range, odd JSON, undo",
        LOST,
        (
            "tests/transfer/test_bundle_checks.py",
            "tests/transfer/test_bundles.py",
            "tests/transfer/test_shapes.py",
            "tests/transfer/test_undo.py",
            "tests/transfer/test_pinned_formats.py",
        ),
    ),
    Area(
        "DEBUG off: a server error shows no traceback (one 500 on purpose)",
        LEAK,
        ("tests/security/test_attack_surface.py::test_a_server_error",),
    ),
    Area(
        "Double submits and races: save twice, two browsers, appeal twice at once",
        LOST,
        (
            "tests/security/test_attack_surface.py::test_definitief",
            "tests/security/test_attack_surface.py::test_two_browsers",
            "tests/archive/test_appeal_race.py",
        ),
    ),
    Area(
        "Crash: SIGKILL of the server during saves (separate gunicorn)",
        LOST,
        ("tests/security/test_crash_safety.py",),
    ),
]
# The one 500 that is the point of its test.
DELIBERATE_500 = "tests/security/test_attack_surface.py::test_a_server_error"


def area_of(nodeid: str) -> Area | None:
    for area in AREAS:
        if any(nodeid.startswith(selector) for selector in area.selectors):
            return area
    return None


def targets() -> list[str]:
    """The test files to collect; the plugin keeps only the tests of an area."""
    return list(dict.fromkeys(s.partition("::")[0] for a in AREAS for s in a.selectors))


class Figures:
    """The pytest plugin: counts requests and 5xx per area, and failing tests."""

    def __init__(self) -> None:
        self.current: Area | None = None
        self.nodeid = ""
        self.requests: Counter[str] = Counter()
        self.errors: Counter[str] = Counter()
        self.deliberate = 0
        self.failed: dict[str, list[str]] = {}
        self.tests: Counter[str] = Counter()
        self.passed: Counter[str] = Counter()

    def pytest_configure(self, config) -> None:
        from django.core.handlers.base import BaseHandler

        original = BaseHandler.get_response
        figures = self

        def counted(handler, request):
            response = original(handler, request)
            area = figures.current
            if area is not None:
                figures.requests[area.label] += 1
                if response.status_code >= 500:
                    if figures.nodeid.startswith(DELIBERATE_500):
                        figures.deliberate += 1
                    else:
                        figures.errors[area.label] += 1
            return response

        BaseHandler.get_response = counted  # type: ignore[method-assign]

    def pytest_collection_modifyitems(self, config, items) -> None:
        items[:] = [item for item in items if area_of(item.nodeid) is not None]

    def pytest_runtest_setup(self, item) -> None:
        self.current = area_of(item.nodeid)
        self.nodeid = item.nodeid

    def pytest_runtest_logreport(self, report) -> None:
        area = area_of(report.nodeid)
        if area is None:
            return
        if report.when == "call" or (report.when == "setup" and not report.passed):
            self.tests[area.label] += 1
            if report.passed:
                self.passed[area.label] += 1
        if report.failed:
            self.failed.setdefault(area.label, []).append(report.nodeid)


def table(figures: Figures, examples: int, seconds: float) -> str:
    lines = [
        "| area | requests | 5xx | leaks | data lost or half-written | tests passed |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    totals: Counter[str] = Counter()
    for area in AREAS:
        failed = len(figures.failed.get(area.label, []))
        leaks = failed if area.kind == LEAK else 0
        lost = failed if area.kind == LOST else 0
        requests = figures.requests[area.label]
        shown = f"{requests:,}" if requests else "(own server)"
        row = (
            f"| {area.label} | {shown} | {figures.errors[area.label]} | {leaks} | {lost} | "
            f"{figures.passed[area.label]} of {figures.tests[area.label]} |"
        )
        lines.append(row)
        totals.update(
            requests=requests,
            errors=figures.errors[area.label],
            leaks=leaks,
            lost=lost,
            passed=figures.passed[area.label],
            tests=figures.tests[area.label],
        )
    lines.append(
        f"| **total** | **{totals['requests']:,}** | **{totals['errors']}** | "
        f"**{totals['leaks']}** | **{totals['lost']}** | "
        f"**{totals['passed']} of {totals['tests']}** |"
    )
    stamp = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    lines += [
        "",
        f"Measured {stamp} by `scripts/attack_surface.py` ({examples} Hypothesis examples per "
        f"hostile-input test, {seconds:.0f} s on 2 shared cores). Failing tests in input "
        f"areas: {sum(len(v) for k, v in figures.failed.items() if _kind(k) == INPUT)}. "
        f"The deliberate 500 of the DEBUG-off check: {figures.deliberate}.",
    ]
    return "\n".join(lines)


def _kind(label: str) -> str:
    return next(area.kind for area in AREAS if area.label == label)


START, END = "<!-- attack-surface:start -->", "<!-- attack-surface:end -->"


def write(path: Path, text: str) -> None:
    content = path.read_text()
    block = f"{START}\n{text}\n{END}"
    if START in content:
        content = re.sub(
            re.escape(START) + ".*?" + re.escape(END), lambda _: block, content, flags=re.S
        )
    else:
        content = content.rstrip("\n") + "\n\n" + block + "\n"
    path.write_text(content)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--examples", type=int, default=20, help="Hypothesis examples (20)")
    parser.add_argument("--write", type=Path, help="put the table into this Markdown file")
    args = parser.parse_args(argv)
    os.environ["HOSTILE_EXAMPLES"] = str(args.examples)
    os.chdir(ROOT)
    sys.path.insert(0, str(ROOT))
    import pytest

    figures = Figures()
    started = time.monotonic()
    code = pytest.main(
        ["-q", "-p", "no:cacheprovider", "-n", "0", "--no-header", *targets()],
        plugins=[figures],
    )
    text = table(figures, args.examples, time.monotonic() - started)
    print(text)
    for label, nodes in figures.failed.items():
        print(f"\nFailed in {label}:", *nodes, sep="\n  ")
    if args.write:
        write(args.write, text)
    unexpected = sum(figures.errors.values())
    return 0 if code == 0 and not unexpected else 1


if __name__ == "__main__":
    sys.exit(main())
