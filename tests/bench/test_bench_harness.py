"""The benchmark harness (``make bench``) at tiny scale, so it does not rot.

No timing is asserted (these machines are noisy; the figures belong in BENCHMARKS.md): only
that the whole run completes, that every measurement produced a number with its reference, and
that the report is written. It runs ``python -m bench`` in a subprocess with a database of its
own (SQLite in a temporary folder, or a new database on the PostgreSQL server of
``make test-postgres``), so it never touches the test database.
"""

import json
import math
import os
import subprocess
import sys
from pathlib import Path

import pytest

# Outside make test (about a minute of both cores): make test-slow and .ci/run run it.
pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = Path(os.environ.get("CHROMIUM", "/usr/lib/chromium/chromium"))
SECTIONS = {
    "0. Data",
    "1. Wizard step, server time (in-process test client)",
    "2. Queries per request",
    "3. Throughput, gunicorn 2 workers on 127.0.0.1",
    "4. Archive, detail, statistics, CSV",
    "5. Audit verification",
    "6. Law import (PDF-extracted text)",
    "7. Browser (headless Chromium)",
    "8. Cold start",
    "9. Deals and scores (issue 16)",
    "10. Finding a tree (issue 29)",
    "11. Player poll (issue 33)",
}
PAGES = ["start", "step", "outcome", "save", "archive", "detail", "statistics", "article", "search"]


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    out = tmp_path_factory.mktemp("bench")
    env = {key: value for key, value in os.environ.items() if key != "DJANGO_SETTINGS_MODULE"}
    env["BENCH_SCALE"] = "tiny"
    completed = subprocess.run(
        [
            sys.executable,
            "-m",
            "bench",
            "--output",
            str(out / "BENCHMARKS.md"),
            "--json",
            str(out / "bench.json"),
        ],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert completed.returncode == 0, completed.stdout[-3000:] + completed.stderr[-3000:]
    return completed.stdout, json.loads((out / "bench.json").read_text()), out / "BENCHMARKS.md"


def test_every_measurement_produces_numbers(run):
    _, data, _ = run
    figures = data["figures"]
    sections = {figure["section"] for figure in figures}
    expected = SECTIONS if CHROMIUM.exists() else SECTIONS - {"7. Browser (headless Chromium)"}
    if not CHROMIUM.exists():
        assert os.environ.get("CI") != "true", f"CI=true but Chromium is missing at {CHROMIUM}"
    assert expected <= sections
    for figure in figures:
        assert isinstance(figure["value"], int | float), figure
        assert math.isfinite(figure["value"]), figure
        if figure["ratio"] is not None:
            assert math.isfinite(figure["ratio"]), figure
            assert figure["ratio"] > 0, figure
            assert figure["reference"], figure
    names = " ".join(figure["name"] for figure in figures)
    for wanted in (
        "answer → next question",
        "answer → outcome",
        "flat in tree size",
        "flat in archive size",
        "CSV export",
        "peak RSS",
        "verify_all",
        "parse",
        "import",
        "make run",
        "double-dummy table + par per deal",
        "ruling page with a deal",
        "contracts scored",
        "finder server time per search",
        "phrases whose tree is among the first three",
    ):
        assert wanted in names, wanted


def test_queries_are_counted_for_every_main_page(run):
    _, data, _ = run
    counted = {row["page"]: row for row in data["queries"]}
    assert list(counted) == PAGES
    for row in counted.values():
        assert row["small"] > 0, row
        assert row["large"] > 0, row


def test_the_report_is_written(run):
    stdout, data, report = run
    text = report.read_text(encoding="utf-8")
    assert "<!-- bench:" in text
    assert "## " in text
    for key in ("machine", "Python", "Django", "database"):
        assert key in data["meta"], key
    assert data["meta"]["machine"].split()[0] in text
    assert "queries per request" in stdout


def test_search_alone_replaces_only_its_rows(run, tmp_path):
    """``BENCH_ONLY=search`` measures the free-text search on the same data and puts its rows
    in place of the full run's, keeping every other figure."""
    _, data, full_report = run
    report = tmp_path / "BENCHMARKS.md"
    report.write_text(full_report.read_text(encoding="utf-8"), encoding="utf-8")
    env = {key: value for key, value in os.environ.items() if key != "DJANGO_SETTINGS_MODULE"}
    env |= {"BENCH_SCALE": "tiny", "BENCH_ONLY": "search"}
    completed = subprocess.run(
        [sys.executable, "-m", "bench", "--output", str(report), "--json", str(tmp_path / "j")],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert completed.returncode == 0, completed.stdout[-3000:] + completed.stderr[-3000:]
    alone = json.loads((tmp_path / "j").read_text())["figures"]
    assert {figure["section"] for figure in alone} == {"4. Archive, detail, statistics, CSV"}
    assert all("free-text search" in figure["name"] for figure in alone)
    assert any("common word" in figure["name"] for figure in alone)
    before = full_report.read_text(encoding="utf-8").splitlines()
    after = report.read_text(encoding="utf-8").splitlines()

    def rows(lines: list[str]) -> list[str]:
        return [line for line in lines if line.startswith("| archive, first page, free-text")]

    def others(lines: list[str]) -> list[str]:
        # Everything but the search's rows, its missed goals and the note on the run alone.
        return [
            line
            for line in lines
            if "free-text search" not in line
            and line != "None."
            and not line.startswith("- BENCH_ONLY=")
        ]

    assert len(rows(after)) == len(rows(before)) == len(alone)  # replaced, not added
    assert rows(after) != rows(before)
    assert others(after) == others(before)
    assert sum(line.startswith("- BENCH_ONLY=search:") for line in after) == 1
    assert sum("free-text search" in f["name"] for f in data["figures"]) == len(alone)


def test_the_finder_alone_adds_its_section_to_an_older_report(run, tmp_path):
    """``BENCH_ONLY=finder`` (measurement 10, on the shipped trees only) writes its rows into a
    report whose full run came before that measurement existed: as a section of its own,
    after the deals and before the queries."""
    _, _, full_report = run
    text = full_report.read_text(encoding="utf-8")
    start = text.index("### 10. Finding a tree")
    older = text[:start] + text[text.index("### Queries per request", start) :]
    report = tmp_path / "BENCHMARKS.md"
    report.write_text(older, encoding="utf-8")
    env = {key: value for key, value in os.environ.items() if key != "DJANGO_SETTINGS_MODULE"}
    env |= {"BENCH_SCALE": "tiny", "BENCH_ONLY": "finder"}
    completed = subprocess.run(
        [sys.executable, "-m", "bench", "--output", str(report), "--json", str(tmp_path / "j")],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert completed.returncode == 0, completed.stdout[-3000:] + completed.stderr[-3000:]
    alone = json.loads((tmp_path / "j").read_text())["figures"]
    assert {figure["section"] for figure in alone} == {"10. Finding a tree (issue 29)"}
    after = report.read_text(encoding="utf-8")
    assert (
        after.index("### 9. Deals")
        < after.index("### 10. Finding")
        < after.index("### Queries per request")
    )
    rows = [line for line in after.splitlines() if line.startswith("| finder server time")]
    assert len(rows) == 2  # p50 and p95
    assert sum(line.startswith("- BENCH_ONLY=finder:") for line in after.splitlines()) == 1
