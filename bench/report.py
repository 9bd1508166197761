"""Figures, the table on stdout and ``BENCHMARKS.md``.

Every figure carries its absolute value, the reference measured in the same run, the ratio
between them and the goal. ``BENCHMARKS.md`` keeps one section per database: a SQLite run
replaces the SQLite section and leaves a PostgreSQL section alone, and the other way round.
"""

from __future__ import annotations

import json
import math
import os
import platform
import re
import statistics
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

OK, MISSED = "✓", "✗"


def log(message: str) -> None:
    print(f"[bench {time.strftime('%H:%M:%S')}] {message}", flush=True)


def loadavg() -> str:
    try:
        return " ".join(f"{value:.2f}" for value in os.getloadavg())
    except OSError:
        return "n/a"


def cpu_model() -> str:
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as cpuinfo:
            for line in cpuinfo:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def percentile(values: list[float], q: float) -> float:
    """The ``q`` percentile (0–100) by linear interpolation; NaN for no values."""
    if not values:
        return math.nan
    ordered = sorted(values)
    if len(ordered) == 1:
        return ordered[0]
    position = (len(ordered) - 1) * q / 100
    low = math.floor(position)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (position - low)


def p50(values: list[float]) -> float:
    return statistics.median(values) if values else math.nan


def p95(values: list[float]) -> float:
    return percentile(values, 95)


def ms(seconds: float) -> float:
    return seconds * 1000


@dataclass
class Figure:
    section: str
    name: str
    value: float
    unit: str
    reference: str = ""  # what the ratio is taken against, with its value
    ratio: float | None = None
    goal: str = ""
    ok: bool | None = None  # None: reported without a goal
    note: str = ""

    def value_text(self) -> str:
        return f"{fmt(self.value)} {self.unit}".strip()

    def ratio_text(self) -> str:
        return "" if self.ratio is None else f"{fmt(self.ratio)}×"

    def mark(self) -> str:
        return "" if self.ok is None else (OK if self.ok else MISSED)

    def row(self) -> str:
        """The figure's row in its section's table of ``BENCHMARKS.md``."""
        name = self.name + (f" — {self.note}" if self.note else "")
        return (
            f"| {name} | {self.value_text()} | {self.reference} | {self.ratio_text()} "
            f"| {self.goal} | {self.mark()} |"
        )

    def missed_line(self) -> str:
        """The figure's line under "Goals missed in this run"."""
        ratio = f", {self.ratio_text()} {self.reference}" if self.ratio is not None else ""
        return f"- {self.section[:2]} {self.name}: {self.value_text()}{ratio} (goal {self.goal})"


TABLE_HEAD = (
    "| measurement | value | reference (same run) | ratio | goal | |",
    "|---|---:|---|---:|---|:-:|",
)


def _section_number(section: str) -> tuple[int, str]:
    number = section.split(".", 1)[0]
    return (int(number), section) if number.isdigit() else (10**6, section)


def fmt(value: float | None) -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "n/a"
    if isinstance(value, int) or (float(value).is_integer() and abs(value) >= 100):
        return f"{int(value):,}".replace(",", " ")
    magnitude = abs(value)
    if magnitude >= 100:
        return f"{value:,.0f}".replace(",", " ")
    if magnitude >= 10:
        return f"{value:.1f}"
    if magnitude >= 1:
        return f"{value:.2f}"
    return f"{value:.3f}"


@dataclass
class QueryCount:
    page: str
    small: int
    large: int
    request: str

    @property
    def constant(self) -> bool:
        return self.small == self.large


@dataclass
class Report:
    vendor: str
    meta: dict[str, str] = field(default_factory=dict)
    figures: list[Figure] = field(default_factory=list)
    queries: list[QueryCount] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    load: list[tuple[str, str]] = field(default_factory=list)  # (moment, load average)
    # Only some measurements ran (BENCH_ONLY): their rows replace those of the last full run.
    only: str = ""

    def add(self, figure: Figure) -> Figure:
        self.figures.append(figure)
        print(
            f"  {figure.section} | {figure.name}: {figure.value_text()}"
            f"{'  ratio ' + figure.ratio_text() if figure.ratio is not None else ''}"
            f"{'  goal ' + figure.goal + ' ' + figure.mark() if figure.goal else ''}",
            flush=True,
        )
        return figure

    def ordered(self) -> list[Figure]:
        """By section (they are numbered: 10 after 9), in the order measured within a
        section."""
        return sorted(self.figures, key=lambda figure: _section_number(figure.section))

    @property
    def growing_queries(self) -> list[QueryCount]:
        return [q for q in self.queries if not q.constant]

    @property
    def missed(self) -> list[Figure]:
        return [f for f in self.figures if f.ok is False]

    # -- output ------------------------------------------------------------------------------

    def table(self) -> str:
        header = ("measurement", "value", "reference", "ratio", "goal", "")
        rows = [header]
        section = None
        for f in self.ordered():
            name = f.name if f.section == section else f"[{f.section}] {f.name}"
            section = f.section
            rows.append((name, f.value_text(), f.reference, f.ratio_text(), f.goal, f.mark()))
        widths = [max(len(str(row[i])) for row in rows) for i in range(len(header))]
        lines = []
        for index, row in enumerate(rows):
            lines.append("  ".join(str(cell).ljust(widths[i]) for i, cell in enumerate(row)))
            if index == 0:
                lines.append("  ".join("-" * w for w in widths))
        lines.append("")
        lines.append("queries per request (small data → large data)")
        for q in self.queries:
            mark = OK if q.constant else f"{MISSED} GROWS"
            lines.append(f"  {q.page:<12} {q.small:>3} → {q.large:<3} {mark}  {q.request}")
        return "\n".join(lines)

    def markdown(self) -> str:
        out = [f"## {self.meta.get('database', self.vendor)}", ""]
        out.append("| | |")
        out.append("|---|---|")
        for key, value in self.meta.items():
            out.append(f"| {key} | {value} |")
        if self.load:
            loads = "; ".join(f"{moment}: {value}" for moment, value in self.load)
            out.append(f"| load average (1, 5, 15 min) | {loads} |")
        out.append("")
        section = None
        for f in self.ordered():
            if f.section != section:
                section = f.section
                out += ["", f"### {section}", "", *TABLE_HEAD]
            out.append(f.row())
        out += ["", "### Queries per request", ""]
        out.append("| page | request | small data | large data | constant |")
        out.append("|---|---|---:|---:|:-:|")
        for q in self.queries:
            out.append(
                f"| {q.page} | `{q.request}` | {q.small} | {q.large} "
                f"| {OK if q.constant else MISSED + ' grows'} |"
            )
        out += ["", "### Goals missed in this run", ""]
        if not self.missed and not self.growing_queries:
            out.append("None.")
        out += [f.missed_line() for f in self.missed]
        for q in self.growing_queries:
            out.append(f"- queries of {q.page} grow: {q.small} → {q.large}")
        if self.notes:
            out += ["", "### Notes on this run", ""]
            out += [f"- {note}" for note in self.notes]
        return "\n".join(out) + "\n"

    def as_json(self) -> dict:
        return {
            "vendor": self.vendor,
            "meta": self.meta,
            "figures": [asdict(f) for f in self.figures],
            "queries": [asdict(q) | {"constant": q.constant} for q in self.queries],
            "notes": self.notes,
            "load": self.load,
        }


INTRO = """# Benchmarks

Written by `make bench` (SQLite) and `make bench-postgres` (PostgreSQL); each run replaces its
own section below and keeps the other. How the figures are made, and what the goals are: see
[bench/README.md](bench/README.md). Every figure is shown with a reference measured in the same
run, because these machines are shared and noisy: compare ratios between runs, not absolute
times.
"""

CLOSING_START = "<!-- closing-note:start -->"
CLOSING_END = "<!-- closing-note:end -->"


def write_markdown(path: Path, report: Report) -> None:
    """Replace this database's section of ``path``, keeping the other one and the closing
    note (written by hand, between its markers)."""
    start, end = f"<!-- bench:{report.vendor}:start -->", f"<!-- bench:{report.vendor}:end -->"
    section = f"{start}\n{report.markdown()}{end}"
    text = path.read_text(encoding="utf-8") if path.exists() else ""
    sections = {}
    for vendor in ("sqlite", "postgresql"):
        match = re.search(
            rf"<!-- bench:{vendor}:start -->.*?<!-- bench:{vendor}:end -->", text, re.S
        )
        if match:
            sections[vendor] = match.group(0)
    if report.only and report.vendor in sections:
        section = merge_figures(sections[report.vendor], report)
    sections[report.vendor] = section
    closing = re.search(rf"{re.escape(CLOSING_START)}.*?{re.escape(CLOSING_END)}", text, re.S)
    parts = [INTRO]
    parts += [sections[v] for v in ("sqlite", "postgresql") if v in sections]
    if closing:
        parts.append(closing.group(0))
    path.write_text("\n\n".join(parts) + "\n", encoding="utf-8")


def merge_figures(section: str, report: Report) -> str:
    """``section`` (a database's part of ``BENCHMARKS.md``, from a full run) with the rows of
    the figures ``report`` measured replaced or added, its list of missed goals brought up to
    date, and a note saying which figures were measured apart and when."""
    lines = section.split("\n")

    def index_of(prefix: str) -> int | None:
        return next((i for i, line in enumerate(lines) if line.startswith(prefix)), None)

    previous = None  # where the row of the figure measured before this one is
    for figure in report.figures:
        at = index_of(f"| {figure.name} — ")
        at = index_of(f"| {figure.name} |") if at is None else at
        if at is not None:
            lines[at] = figure.row()
            previous = at
            continue
        heading = index_of(f"### {figure.section}")
        if heading is None:
            # A measurement the full run above did not have yet: its section goes before the
            # queries, with the row as its first.
            before = index_of("### Queries per request")
            if before is None:
                continue
            lines[before:before] = [f"### {figure.section}", "", *TABLE_HEAD, figure.row(), ""]
            previous = before + 4
            continue
        if previous is not None and previous > heading:
            previous += 1
            lines.insert(previous, figure.row())
            continue
        end = last = heading + 1
        while end < len(lines) and (lines[end].startswith("|") or not lines[end].strip()):
            if lines[end].startswith("|"):
                last = end
            end += 1
        previous = last + 1
        lines.insert(previous, figure.row())
    missed_at = index_of("### Goals missed in this run")
    if missed_at is not None:
        end = missed_at + 2
        while end < len(lines) and not lines[end].startswith("#") and lines[end].strip():
            end += 1
        measured = {f"- {f.section[:2]} {f.name}:" for f in report.figures}
        kept = [
            line
            for line in lines[missed_at + 2 : end]
            if line != "None." and not any(line.startswith(m) for m in measured)
        ]
        kept += [f.missed_line() for f in report.missed]
        lines[missed_at + 2 : end] = kept or ["None."]
    note = (
        f"- BENCH_ONLY={report.only}: {', '.join(dict.fromkeys(f.name for f in report.figures))} "
        f"measured again alone ({report.meta.get('run', '')}, "
        f"{report.meta.get('stored rulings (large)', '')} rulings, load average "
        f"{'; '.join(f'{m}: {v}' for m, v in report.load)}); the rest is from the run above."
    )
    notes_at = index_of("### Notes on this run")
    if notes_at is None:
        end_marker = next(i for i, line in enumerate(lines) if line.endswith(":end -->"))
        lines[end_marker:end_marker] = ["", "### Notes on this run", "", note]
    else:
        lines = [line for line in lines if not line.startswith(f"- BENCH_ONLY={report.only}:")]
        notes_at = index_of("### Notes on this run")
        end = notes_at + 2
        while end < len(lines) and lines[end].startswith("- "):
            end += 1
        lines.insert(end, note)
    return "\n".join(lines)


def write_json(path: Path, report: Report) -> None:
    path.write_text(json.dumps(report.as_json(), indent=2, ensure_ascii=False), encoding="utf-8")
