"""The benchmark itself: data, then the eight measurements of issue 9, in an order that lets
small-data and large-data figures come from the same database.

1. schema + shipped laws and trees; the club and the benchmark's director
2. queries of the law pages on the shipped law text (small)
3. law import: synthetic editions of 10 and 100 articles (measurement 6), and a dry run of
   an import over the 2017 provision index (all 93 articles)
4. synthetic trees of 10 and 1,000 nodes citing the 100-article edition, loaded from YAML
5. wizard steps with no stored rulings (measurement 1)
6. seed_demo base set; queries of the ruling pages (small)
7. clones up to 200,000 rulings
8. wizard steps again (measurement 1); queries of every page (large, measurement 2)
9. archive, detail, statistics; CSV 20,000 vs 200,000 (measurement 4)
10. audit verification (measurement 5)
11. gunicorn throughput (3), the browser (7), fragment sizes (7)
12. cold start (8)

``BENCH_ONLY=search`` builds the same data (1, 3, 4, 6, 7) and measures only the archive's
free-text search (9); ``BENCH_ONLY=step`` measures only the wizard steps (5, 8);
``BENCH_ONLY=finder`` only finding a tree by what a director types (measurement 10, after the
deals; on the shipped trees, 1); ``BENCH_ONLY=pbn`` builds 1, 3, 4 and 6 and measures only the
PBN import and the adjusted-score form (``bench/pbn.py``); ``BENCH_ONLY=poll`` builds the same
and measures only the polling screen (measurement 11, ``bench/polls.py``). Their rows replace
those of the last full run in ``BENCHMARKS.md``.
"""

# ruff: noqa: S311, S603

from __future__ import annotations

import io
import json
import os
import platform
import random
import subprocess
import sys
import time
from datetime import timedelta
from pathlib import Path

import django
from django.db import connection, transaction
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from bench import browser, coldstart, data, finding, pbn, polls, scoring, synthetic
from bench.load import Gunicorn, Session, alternating, bare_load, wizard_load
from bench.measure import (
    BenchError,
    StepTimes,
    WizardRun,
    count_queries,
    form_post,
    htmx_headers,
    page_times,
    post_answer,
    step_times,
)
from bench.report import Figure, QueryCount, Report, cpu_model, loadavg, log, ms, p50, p95
from bench.run import (
    GOAL_CLICK_MS,
    GOAL_COLD_S,
    GOAL_FIRST_START_S,
    GOAL_FLAT,
    GOAL_INDEX_DRY_RUN_S,
    GOAL_MEMORY_FLAT,
    GOAL_NEW_OUTCOME_RATIO,
    GOAL_PAGE_MS,
    GOAL_RATE_LINEAR,
    GOAL_STEP_P95_MS,
    GOAL_STEP_QUERIES,
    GOAL_STEP_RATIO,
    GOAL_THROUGHPUT_SHARE,
    REFERENCE_EDITION,
    SHIPPED_TREE,
    SYNTHETIC_EDITION,
    Scale,
)
from laws.current_edition import CURRENT_EDITION, read_index
from laws.importer import parse_bytes
from laws.loading import content_hash, get_or_create_edition, store_edition
from laws.models import Edition
from laws.official import plan_import
from rulings import wizard
from rulings.models import AuditEvent, Ruling, Status, Step
from trees.loading import load_trees

S1 = "1. Wizard step, server time (in-process test client)"
S2 = "2. Queries per request"
S3 = "3. Throughput, gunicorn 2 workers on 127.0.0.1"
S4 = "4. Archive, detail, statistics, CSV"
S5 = "5. Audit verification"
S6 = "6. Law import (PDF-extracted text)"
S7 = "7. Browser (headless Chromium)"
S8 = "8. Cold start"
S0 = "0. Data"
# The selections of BENCH_ONLY ("" runs everything).
ONLY = ("", "search", "step", "finder", "pbn", "poll")
# A word in most rulings' texts: the search whose matches are too many to count.
COMMON_WORD = "de"


def _thousands(value: int) -> str:
    return f"{value:,}".replace(",", " ")


class Benchmark:
    def __init__(self, scale: Scale, tmp: Path, root: Path) -> None:
        self.scale = scale
        self.tmp = tmp
        self.root = root
        self.rng = random.Random(42)
        self.report = Report(vendor=connection.vendor)
        self.small_queries: dict[str, tuple[int, str]] = {}
        self.only = os.environ.get("BENCH_ONLY", "")
        if self.only not in ONLY:
            raise BenchError(f"BENCH_ONLY must be one of {', '.join(ONLY)}, not {self.only!r}")
        self.report.only = self.only
        self.large_queries: dict[str, tuple[int, str]] = {}

    # -- helpers -----------------------------------------------------------------------------

    def add(self, section: str, name: str, value: float, unit: str, **kwargs) -> Figure:
        return self.report.add(Figure(section, name, value, unit, **kwargs))

    def moment(self, label: str) -> None:
        self.report.load.append((label, loadavg()))

    def _database_version(self) -> str:
        if connection.vendor == "sqlite":
            return f"SQLite {connection.Database.sqlite_version}"
        with connection.cursor() as cursor:
            cursor.execute("SHOW server_version")
            return f"PostgreSQL {cursor.fetchone()[0]}"

    # -- the run -----------------------------------------------------------------------------

    def run(self) -> Report:
        started = time.perf_counter()
        self.moment("start")
        log(f"scale {self.scale.name}: {self.scale.rulings} rulings, database {connection.vendor}")
        seconds = data.prepare_database()
        self.club, self.user = data.create_people()
        self.client = Client()
        self.client.force_login(self.user)
        self.add(S0, "migrate + bootstrap (shipped laws, trees, cases)", seconds, "s")

        if self.only == "finder":
            finding.measure(self)  # the shipped trees only: no rulings needed
            self.total_rulings = self.total_events = 0
            self.moment("end")
            self.report.figures = [f for f in self.report.figures if f.section == finding.S10]
            self.report.meta = self.meta(time.perf_counter() - started)
            return self.report

        full = not self.only
        if full:
            self.law_queries(self.small_queries)
        self.law_import()
        self.load_trees()

        self.steps_at = {}
        if full or self.only == "step":
            log("wizard steps with no stored rulings")
            self.steps_at[0] = {n: self.wizard_steps(tree) for n, tree in self.trees.items()}

        log(f"seed_demo: {self.scale.base} rulings")
        seeded = data.seed(self.scale.base, self.club)
        self.seeded = seeded
        self.add(
            S0,
            f"seed_demo --rulings {_thousands(seeded.count)} (through the wizard's functions)",
            seeded.count / seeded.seconds,
            "rulings/s",
            note=f"{seeded.seconds:.1f} s",
        )
        self.detail_uuid = self._detail_ruling()
        if full:
            self.ruling_queries(self.small_queries)
        self.moment("after seeding")
        if self.only == "pbn":
            return self._pbn_only(started)
        if self.only == "poll":
            return self._poll_only(started)

        log(f"cloning up to {self.scale.rulings} rulings")
        cloned = data.multiply(self.scale.rulings, seeded.first_pk, seeded.last_pk)
        if cloned.rulings:
            self.add(
                S0,
                f"bulk clone to {_thousands(self.scale.rulings)} rulings (audit chains rehashed)",
                cloned.rulings / cloned.seconds,
                "rulings/s",
                note=f"{_thousands(cloned.rulings)} rulings, {_thousands(cloned.steps)} steps, "
                f"{_thousands(cloned.events)} events in {cloned.seconds:.1f} s",
            )
        self.total_rulings = Ruling.objects.count()
        self.total_events = AuditEvent.objects.count()
        self.moment("after cloning")

        if self.only == "search":
            self.archive_pages(search_only=True)
            self.moment("end")
            # Only the search rows go into BENCHMARKS.md (the data figures are printed above).
            self.report.figures = [f for f in self.report.figures if f.section == S4]
            self.report.meta = self.meta(time.perf_counter() - started)
            return self.report

        log(f"wizard steps with {self.total_rulings} stored rulings")
        self.steps_at[self.scale.rulings] = {
            n: self.wizard_steps(tree) for n, tree in self.trees.items()
        }
        self.step_figures()
        if self.only == "step":
            self.moment("end")
            self.report.figures = [f for f in self.report.figures if f.section == S1]
            self.report.meta = self.meta(time.perf_counter() - started)
            return self.report

        self.law_queries(self.large_queries)
        self.ruling_queries(self.large_queries)
        self.query_figures()

        self.archive_pages()
        self.csv_export()
        self.audit_verification()
        scoring.measure(self)
        finding.measure(self)
        polls.measure(self)
        self.moment("before gunicorn")
        self.server_and_browser()
        self.fragment_sizes()
        self.cold_start()
        self.moment("end")

        self.report.meta = self.meta(time.perf_counter() - started)
        self.notes()
        return self.report

    def _pbn_only(self, started: float) -> Report:
        """``BENCH_ONLY=pbn``: the two figures of bench/pbn.py on the seeded data alone."""
        self.total_rulings = Ruling.objects.count()
        self.total_events = AuditEvent.objects.count()
        measured = len(self.report.figures)
        pbn.measure(self, scoring.bench_deals(self.scale.name, self.rng))
        self.moment("end")
        self.report.figures = self.report.figures[measured:]
        self.report.meta = self.meta(time.perf_counter() - started)
        return self.report

    def _poll_only(self, started: float) -> Report:
        """``BENCH_ONLY=poll``: the poll screen of bench/polls.py on the seeded data alone."""
        self.total_rulings = Ruling.objects.count()
        self.total_events = AuditEvent.objects.count()
        measured = len(self.report.figures)
        polls.measure(self)
        self.moment("end")
        self.report.figures = self.report.figures[measured:]
        self.report.meta = self.meta(time.perf_counter() - started)
        return self.report

    def meta(self, seconds: float) -> dict[str, str]:
        return {
            "database": self._database_version(),
            "machine": f"{os.cpu_count()} CPUs ({cpu_model()}), {platform.system()} "
            f"{platform.release()}",
            "Python": platform.python_version(),
            "Django": django.get_version(),
            "scale": f"{self.scale.name} (BENCH_SCALE)",
            "stored rulings (large)": _thousands(self.total_rulings),
            "audit events (large)": _thousands(self.total_events),
            "steps (large)": _thousands(Step.objects.count()),
            "run": f"{time.strftime('%Y-%m-%d %H:%M')}, {seconds / 60:.1f} minutes",
        }

    # -- laws --------------------------------------------------------------------------------

    def law_queries(self, into: dict) -> None:
        pages = {
            "article": "/wetten/2007/artikel/62/",
            "search": "/wetten/zoeken/?q=verzaking+kaart",
        }
        for page, url in pages.items():
            self.client.get(url)
            into[page] = (count_queries(lambda u=url: self.client.get(u), page), f"GET {url}")

    def law_import(self) -> None:
        log("law import")
        small_n, large_n = self.scale.law_articles
        results = {}
        for code, articles in ((REFERENCE_EDITION, small_n), (SYNTHETIC_EDITION, large_n)):
            text, expected = synthetic.law_text(articles, seed=articles)
            raw = text.encode("utf-8")
            (self.tmp / f"edition-{code}.txt").write_bytes(raw)
            parse_times = []
            for _ in range(5):
                begun = time.perf_counter()
                parsed = parse_bytes(raw, code)
                parse_times.append(time.perf_counter() - begun)
            found = {
                "articles": len(parsed.articles),
                "provisions": parsed.provision_count,
                "footnotes": parsed.footnote_count,
            }
            if found != expected:
                raise BenchError(f"synthetic edition {code}: parsed {found}, expected {expected}")
            # Three imports (the second and third replace the first, like --replace): median.
            import_times = []
            for attempt in range(3):
                begun = time.perf_counter()
                with transaction.atomic():
                    edition = get_or_create_edition(code, "nl")
                    summary = store_edition(
                        parsed, edition, replace=attempt > 0, source_hash=content_hash(raw)
                    )
                import_times.append(time.perf_counter() - begun)
            results[articles] = (p50(parse_times), p50(import_times), summary, len(raw))
        (ps, is_, _, _), (pl, il, summary, size) = results[small_n], results[large_n]
        per = large_n / small_n
        self.add(
            S6,
            f"parse {large_n} articles ({size // 1024} KiB, {summary.provisions} provisions)",
            ms(pl),
            "ms",
            reference=f"{small_n} articles: {ms(ps):.1f} ms",
            ratio=(pl / per) / ps,
            goal=f"per article ≤ {GOAL_FLAT}× (linear)",
            ok=(pl / per) / ps <= GOAL_FLAT,
            note="ratio of the time per article",
        )
        self.add(
            S6,
            f"import {large_n} articles ({summary.references} references, "
            f"{summary.resolved} resolved)",
            ms(il),
            "ms",
            reference=f"{small_n} articles: {ms(is_):.1f} ms",
            ratio=(il / per) / is_,
            goal=f"per article ≤ {GOAL_FLAT}× (linear)",
            ok=(il / per) / is_ <= GOAL_FLAT,
            note="ratio of the time per article",
        )

        self.index_import_dry_run()

    def index_import_dry_run(self) -> None:
        """``import_laws FILE --edition 2017 --dry-run`` for a file holding all 93 articles of
        the shipped provision index (invented text): read, parse and plan, write nothing."""
        laws = read_index()
        text, found = synthetic.index_text(laws)
        raw = text.encode("utf-8")
        edition = Edition.objects.get(code=CURRENT_EDITION)
        times = []
        for _ in range(5):
            begun = time.perf_counter()
            parsed = parse_bytes(raw, CURRENT_EDITION)
            plan = plan_import(edition, parsed, file_name="index.txt", sha256=content_hash(raw))
            times.append(time.perf_counter() - begun)
        if plan.refused or len(plan.new) != len(found):
            raise BenchError(f"dry run over the index: {len(plan.new)} new, refused {plan.refused}")
        seconds = p50(times)
        self.add(
            S6,
            f"dry run of an import over the {CURRENT_EDITION} provision index "
            f"({len(laws)} articles, {len(found)} provisions, {len(raw) // 1024} KiB)",
            seconds,
            "s",
            goal=f"≤ {GOAL_INDEX_DRY_RUN_S:g} s",
            ok=seconds <= GOAL_INDEX_DRY_RUN_S,
            note="parse + plan, nothing written",
        )

    def load_trees(self) -> None:
        log("synthetic trees")
        directory = self.tmp / "trees"
        directory.mkdir()
        keys = synthetic.provision_keys(self.scale.law_articles[1])
        slugs = {}
        for nodes in self.scale.trees:
            spec = synthetic.tree_data(f"bench-{nodes}", nodes, SYNTHETIC_EDITION, keys, seed=nodes)
            synthetic.write_tree(directory, spec)
            slugs[nodes] = spec["slug"]
        begun = time.perf_counter()
        report = load_trees(directory, io.StringIO())
        seconds = time.perf_counter() - begun
        if sorted(report.loaded) != sorted(slugs.values()):
            raise BenchError(f"synthetic trees not loaded: {report.loaded}")
        self.add(
            S0,
            f"load_trees: {' + '.join(str(n) for n in self.scale.trees)}-node trees from YAML",
            seconds,
            "s",
        )
        self.trees = {nodes: wizard.start(slug) for nodes, slug in slugs.items()}
        self.big_tree = self.trees[self.scale.trees[1]]

    # -- the wizard --------------------------------------------------------------------------

    def wizard_steps(self, tree):
        return step_times(self.client, tree, self.club.slug, self.scale.step_requests, self.rng)

    def _first_and_later(self, times: StepTimes, where: str, bare50: float) -> None:
        """The answers → next question above, split: a first answer creates the ruling, a
        later one updates it (for reading the goal, which covers both)."""
        split = (("first answers", times.first_questions), ("later answers", times.later_questions))
        for name, values in split:
            if values:
                self.add(
                    S1,
                    f"of which {name} → next question, {where}: p50",
                    ms(p50(values)),
                    "ms",
                    reference=f"bare view p50 {ms(bare50):.2f} ms",
                    ratio=p50(values) / bare50,
                    note=f"{len(values)} answers",
                )

    def step_figures(self) -> None:
        small_n, large_n = self.scale.trees
        # (times, title, p50 goal as a multiple of the bare view)
        kinds = (
            ("questions", "answer → next question", GOAL_STEP_RATIO),
            ("outcomes", "answer → outcome shown before", GOAL_STEP_RATIO),
            ("new_outcomes", "answer → outcome shown for the first time", GOAL_NEW_OUTCOME_RATIO),
        )
        for rulings, by_tree in self.steps_at.items():
            label = _thousands(self.total_rulings if rulings else 0)
            for nodes, times in by_tree.items():
                bare50, bare95 = p50(times.bare), p95(times.bare)
                for kind, title, goal in kinds:
                    values = getattr(times, kind)
                    if not values:  # a small tree's outcomes are all shown while warming up
                        continue
                    s50, s95 = p50(values), p95(values)
                    where = f"{nodes}-node tree, {label} rulings"
                    self.add(
                        S1,
                        f"{title}, {where}: p50",
                        ms(s50),
                        "ms",
                        reference=f"bare view p50 {ms(bare50):.2f} ms",
                        ratio=s50 / bare50,
                        goal=f"≤ {goal:g}× bare",
                        ok=s50 / bare50 <= goal,
                        note=f"{len(values)} answers"
                        + ("" if kind == "questions" else " (the context form follows apart)"),
                    )
                    self.add(
                        S1,
                        f"{title}, {where}: p95",
                        ms(s95),
                        "ms",
                        reference=f"bare view p95 {ms(bare95):.2f} ms",
                        ratio=s95 / bare95,
                        goal=f"≤ {GOAL_STEP_P95_MS:g} ms",
                        ok=ms(s95) <= GOAL_STEP_P95_MS,
                    )
                    if kind == "questions" and times.first_questions:
                        self._first_and_later(times, where, bare50)

        def normalised(rulings: int, nodes: int, kind: str = "questions") -> float:
            times = self.steps_at[rulings][nodes]
            return p50(getattr(times, kind)) / p50(times.bare)

        large = self.scale.rulings
        for kind, title, _ in kinds[:2]:  # the same work on both sides: steps shown before
            value = normalised(large, large_n, kind)
            # (what grows, the same step with less of it, how that reference is named)
            for name, reference, label in (
                (
                    f"flat in tree size ({title}): {large_n}-node vs {small_n}-node tree, "
                    f"{_thousands(self.total_rulings)} rulings",
                    normalised(large, small_n, kind),
                    f"{small_n}-node",
                ),
                (
                    f"flat in archive size ({title}): {_thousands(self.total_rulings)} vs 0 "
                    f"rulings, {large_n}-node tree",
                    normalised(0, large_n, kind),
                    "0 rulings",
                ),
            ):
                self.add(
                    S1,
                    name,
                    value,
                    "× bare",
                    reference=f"{label}: {reference:.2f}× bare",
                    ratio=value / reference,
                    goal=f"≤ {GOAL_FLAT}×",
                    ok=value / reference <= GOAL_FLAT,
                    note="p50 step / p50 bare view, so machine load cancels out",
                )

    # -- queries -----------------------------------------------------------------------------

    def _detail_ruling(self):
        changed = AuditEvent.objects.filter(
            action="answer_changed",
            ruling__pk__gte=self.seeded.first_pk,
            ruling__pk__lte=self.seeded.last_pk,
            ruling__status=Status.FINAL,
        ).values_list("ruling__uuid", flat=True)
        found = changed.first() or (
            Ruling.objects.filter(pk__gte=self.seeded.first_pk, status=Status.FINAL)
            .values_list("uuid", flat=True)
            .first()
        )
        if found is None:
            raise BenchError("no final seeded ruling for the detail page")
        return found

    def archive_url(self, **extra: str) -> str:
        # A year back, or further when the seeded rulings of the tree fell outside that year:
        # an empty small page would count fewer queries than a full large one.
        since = timezone.localdate() - timedelta(days=365)
        latest = (
            Ruling.objects.filter(club=self.club, tree_slug=SHIPPED_TREE, status=Status.FINAL)
            .exclude(played_on=None)
            .order_by("-played_on")
            .values_list("played_on", flat=True)
            .first()
        )
        if latest is not None and latest < since:
            since = latest
        query = {"tree": SHIPPED_TREE, "date_from": since.isoformat(), "status": "final"} | extra
        return "/arbitrages/?" + "&".join(f"{k}={v}" for k, v in query.items())

    def ruling_queries(self, into: dict) -> None:
        client = self.client
        tree = self.big_tree
        pages = {
            "start": "/arbitrage/nieuw/",
            "archive": self.archive_url(),
            "detail": reverse("archive:detail", args=[self.detail_uuid]),
            "statistics": "/arbitrages/statistiek/",
        }
        for page, url in pages.items():
            client.get(url)  # warm: snapshots in memory, templates compiled
            into[page] = (count_queries(lambda u=url: client.get(u), page), f"GET {url}")

        run = WizardRun(tree, self.club.slug, self.rng)
        post_answer(client, run, run.next_answer(0))  # creates the ruling
        answer = run.next_answer(0)
        if answer.outcome:
            raise BenchError("the synthetic tree is too shallow for a question-to-question step")
        into["step"] = (
            count_queries(lambda: _post(client, run, answer), "step"),
            "POST …/antwoord/ (htmx, question → question)",
        )
        while not (answer := run.next_answer(0)).outcome:
            post_answer(client, run, answer)
        into["outcome"] = (
            count_queries(lambda: _post(client, run, answer), "outcome"),
            "POST …/antwoord/ (htmx, question → outcome)",
        )
        save_url = reverse("wizard:save", args=[run.uuid])
        context = {
            "played_on": timezone.localdate().isoformat(),
            "event": "Benchmark",
            "round": "1",
            "table": "3",
            "board": "12",
            "offender_seat": "N",
            "declarer_seat": "E",
            "notes": "",
        }

        def save():
            response = form_post(client, save_url, context, **htmx_headers(save_url))
            if "HX-Redirect" not in response.headers:
                raise BenchError("save did not redirect to the saved ruling")
            return response

        into["save"] = (count_queries(save, "save"), "POST …/opslaan/ (htmx, context + save)")

    def query_figures(self) -> None:
        order = [
            "start",
            "step",
            "outcome",
            "save",
            "archive",
            "detail",
            "statistics",
            "article",
            "search",
        ]
        for page in order:
            small, request = self.small_queries[page]
            large, _ = self.large_queries[page]
            self.report.queries.append(QueryCount(page, small, large, request))
        step = self.large_queries["step"][0]
        self.add(
            S2,
            "wizard step (answer → next question)",
            step,
            "queries",
            reference=f"small data: {self.small_queries['step'][0]}",
            ratio=step / self.small_queries["step"][0],
            goal=f"≤ {GOAL_STEP_QUERIES}, constant",
            ok=step <= GOAL_STEP_QUERIES and step == self.small_queries["step"][0],
        )
        growing = [q.page for q in self.report.queries if not q.constant]
        self.add(
            S2,
            "pages whose query count grows with the data",
            len(growing),
            f"of {len(order)}",
            goal="0 (every page constant)",
            ok=not growing,
            note=", ".join(growing) if growing else "all constant; see the table below",
        )

    # -- archive pages and CSV ---------------------------------------------------------------

    def archive_pages(self, search_only: bool = False) -> None:
        log("archive free-text search" if search_only else "archive, detail and statistics")
        count = _thousands(self.total_rulings)
        pages = [
            ("wizard start page (recently used trees first)", "/arbitrage/nieuw/"),
            ("home page (the director's unfinished and deferred rulings)", "/"),
            ("archive, first page, no filter", "/arbitrages/"),
            ("archive, first page, filters: tree + date from + status", self.archive_url()),
            ("archive, first page, filter: cited article 62", "/arbitrages/?article=62"),
            ("archive, first page, free-text search", "/arbitrages/?q=uitgelegd"),
            (
                "archive, first page, free-text search for a common word",
                f"/arbitrages/?q={COMMON_WORD}",
            ),
            (
                "detail of a ruling (changed answer, audit trail)",
                reverse("archive:detail", args=[self.detail_uuid]),
            ),
            ("statistics, all rulings", "/arbitrages/statistiek/"),
            ("statistics, filter: tree", f"/arbitrages/statistiek/?tree={SHIPPED_TREE}"),
        ]
        if search_only:
            pages = [(name, url) for name, url in pages if "?q=" in url]
        for name, url in pages:
            times = page_times(self.client, url, self.scale.page_requests, name)
            value = ms(p50(times.times))
            self.add(
                S4,
                f"{name} ({count} rulings): p50",
                value,
                "ms",
                reference=f"bare view p50 {ms(p50(times.bare)):.2f} ms",
                ratio=p50(times.times) / p50(times.bare),
                goal=f"< {GOAL_PAGE_MS:g} ms",
                ok=value < GOAL_PAGE_MS,
                note=f"p95 {ms(p95(times.times)):.0f} ms over {len(times.times)} requests, "
                f"GET {url}",
            )

    def _worker(self, *args: str) -> dict:
        completed = subprocess.run(
            [sys.executable, "-m", "bench.worker", *args],
            cwd=self.root,
            env={**os.environ},
            capture_output=True,
            text=True,
            check=False,
        )
        if completed.returncode:
            raise BenchError(f"bench.worker {' '.join(args)} failed:\n{completed.stderr}")
        return json.loads(completed.stdout.strip().splitlines()[-1])

    def csv_export(self) -> None:
        log("CSV export")
        # The reference: the newest tenth of the archive, by date of play.
        dates = Ruling.objects.filter(club=self.club, played_on__isnull=False).order_by(
            "-played_on"
        )
        cut = dates.values_list("played_on", flat=True)[self.scale.csv_reference - 1]
        small = self._worker("csv", f"mode=all&date_from={cut.isoformat()}")
        large = self._worker("csv", "mode=all")
        if large["rows"] < self.total_rulings:
            raise BenchError(f"CSV exported {large['rows']} of {self.total_rulings} rulings")
        rate_small = small["rows"] / small["seconds"]
        rate_large = large["rows"] / large["seconds"]
        self.add(
            S4,
            f"CSV export of {_thousands(large['rows'])} rulings: rows per second",
            rate_large,
            "rows/s",
            reference=f"{_thousands(small['rows'])} rulings: {rate_small:,.0f} rows/s".replace(
                ",", " "
            ),
            ratio=rate_large / rate_small,
            goal=f"≥ {GOAL_RATE_LINEAR}× (linear)",
            ok=rate_large / rate_small >= GOAL_RATE_LINEAR,
            note=f"{large['seconds']:.1f} s, {large['bytes'] / 2**20:.0f} MiB",
        )
        peak_small, peak_large = small["peak_kib"] / 1024, large["peak_kib"] / 1024
        grew_small = (small["peak_kib"] - small["rss_before_kib"]) / 1024
        grew_large = (large["peak_kib"] - large["rss_before_kib"]) / 1024
        self.add(
            S4,
            f"CSV export of {_thousands(large['rows'])} rulings: peak RSS",
            peak_large,
            "MiB",
            reference=f"{_thousands(small['rows'])} rulings: {peak_small:.1f} MiB",
            ratio=peak_large / peak_small,
            goal=f"≤ {GOAL_MEMORY_FLAT}× (flat)",
            ok=peak_large / peak_small <= GOAL_MEMORY_FLAT,
            note=f"growth during the export {grew_large:.1f} MiB vs {grew_small:.1f} MiB",
        )

    # -- audit -------------------------------------------------------------------------------

    def audit_verification(self) -> None:
        log(f"audit verification of {self.total_events} events")
        small = self._worker("verify", str(self.scale.audit_reference))
        large = self._worker("verify")
        for result in (small, large):
            if result["broken"]:
                raise BenchError(f"audit verification: {result['broken']} broken chains")
        rate_small = small["events"] / small["seconds"]
        rate_large = large["events"] / large["seconds"]
        self.add(
            S5,
            f"verify_all over {_thousands(large['events'])} events "
            f"({_thousands(large['rulings'])} rulings): events per second",
            rate_large,
            "events/s",
            reference=f"{_thousands(small['events'])} events: {rate_small:,.0f}/s".replace(
                ",", " "
            ),
            ratio=rate_large / rate_small,
            goal=f"≥ {GOAL_RATE_LINEAR}× (linear)",
            ok=rate_large / rate_small >= GOAL_RATE_LINEAR,
            note=f"{large['seconds']:.1f} s, every chain intact",
        )
        self.add(
            S5,
            "verify_all: peak RSS",
            large["peak_kib"] / 1024,
            "MiB",
            reference=f"{_thousands(small['events'])} events: {small['peak_kib'] / 1024:.1f} MiB",
            ratio=large["peak_kib"] / small["peak_kib"],
            goal=f"≤ {GOAL_MEMORY_FLAT}× (flat)",
            ok=large["peak_kib"] / small["peak_kib"] <= GOAL_MEMORY_FLAT,
        )

    # -- gunicorn and the browser ------------------------------------------------------------

    def server_and_browser(self) -> None:
        log("gunicorn throughput")
        session = Session(self.client.cookies["sessionid"].value)
        server = Gunicorn(self.root, self.tmp / "gunicorn.log")
        try:
            server.wait_ready(session)
            threads, seconds = self.scale.load_threads, self.scale.load_seconds
            # Warm both workers (templates, snapshot cache) before timing; at most as long as
            # the timing itself (the harness test's tiny scale).
            bare_load(server.port, session, 2, min(0.5, seconds / 2))
            wizard_load(server.port, session, self.big_tree, self.club.slug, 2, min(1.0, seconds))
            results = alternating(
                {
                    "bare": lambda s: bare_load(server.port, session, threads, s),
                    "wizard": lambda s: wizard_load(
                        server.port, session, self.big_tree, self.club.slug, threads, s
                    ),
                },
                seconds,
                rounds=5,
            )
            bare, wiz = results["bare"], results["wizard"]
            for result, what in ((bare, "bare view"), (wiz, "wizard")):
                if result.errors:
                    raise BenchError(f"load on the {what}: {result.errors[0]}")
            ratio = wiz.per_second / bare.per_second
            self.add(
                S3,
                f"wizard answers (htmx POST, {self.scale.trees[1]}-node tree), "
                f"{threads} clients, {seconds:g} s in 5 rounds alternating with the bare view",
                wiz.per_second,
                "req/s",
                reference=f"bare view {bare.per_second:.0f} req/s",
                ratio=ratio,
                goal=f"≥ {GOAL_THROUGHPUT_SHARE:.2f}× bare",
                ok=ratio >= GOAL_THROUGHPUT_SHARE,
                note=f"latency p50 {ms(wiz.p50):.1f} ms / p95 {ms(wiz.p95):.1f} ms vs bare "
                f"{ms(bare.p50):.1f} / {ms(bare.p95):.1f} ms; {wiz.requests} requests",
            )
            self.browser(server.port, session)
        finally:
            server.stop()

    def browser(self, port: int, session: Session) -> None:
        if not browser.available():
            message = f"Chromium not found at {browser.CHROMIUM}: browser figures SKIPPED"
            print("!" * 78 + f"\n!! {message}\n" + "!" * 78, flush=True)
            self.report.notes.append(message)
            return
        log("headless Chromium")
        times, ready, requests = browser.click_times(
            port, session, self.big_tree, self.scale.browser_steps
        )
        server = self.steps_at[self.scale.rulings][self.scale.trees[1]].questions
        for label, value, server_value, goal in (
            ("p50", p50(times), p50(server), False),
            ("p95", p95(times), p95(server), True),
        ):
            self.add(
                S7,
                f"click → next question painted, {len(times)} steps: {label}",
                ms(value),
                "ms",
                reference=f"server time {label} {ms(server_value):.1f} ms",
                ratio=value / server_value,
                # The goal is on p95 (no visible wait, nearly every time); p50 shows the usual.
                goal=f"≤ {GOAL_CLICK_MS:g} ms (no visible wait)" if goal else "",
                ok=ms(value) <= GOAL_CLICK_MS if goal else None,
                note=f"of which the htmx request (network + gunicorn) {label} "
                f"{ms(p50(requests) if label == 'p50' else p95(requests)):.1f} ms",
            )
        self.add(
            S7,
            "click → next question ready for a click (htmx settled): p50",
            ms(p50(ready)),
            "ms",
            reference=f"painted p50 {ms(p50(times)):.1f} ms",
            ratio=p50(ready) / p50(times),
            note="htmx wires the new buttons after its settle delay (20 ms by default)",
        )

    def fragment_sizes(self) -> None:
        client = self.client
        run = WizardRun(self.big_tree, self.club.slug, self.rng)
        post_answer(client, run, run.next_answer(0))
        answer = run.next_answer(0)
        _, fragment = post_answer(client, run, answer)
        step_url = reverse("wizard:step", args=[run.uuid, run.step])
        full = client.get(step_url)
        if full.status_code != 200:
            raise BenchError(f"full step page: HTTP {full.status_code}")
        ratio = len(fragment) / len(full.content)
        self.add(
            S7,
            "htmx step fragment",
            len(fragment),
            "bytes",
            reference=f"full page {_thousands(len(full.content))} bytes",
            ratio=ratio,
            goal="< 1× (smaller than the full page)",
            ok=ratio < 1,
            note="HTML only (CSS and JS are cached by the browser)",
        )

    # -- cold start --------------------------------------------------------------------------

    def cold_start(self) -> None:
        log("cold start (make run)")
        data_dir = self.tmp / "coldstart"
        output = self.tmp / "coldstart.log"
        first = coldstart.make_run(self.root, data_dir, output)
        again = coldstart.make_run(self.root, data_dir, output)
        floor = coldstart.django_setup_floor(self.root, data_dir)
        self.add(
            S8,
            "make run → first page, existing data folder",
            again,
            "s",
            reference=f"python + django.setup() {floor:.2f} s",
            ratio=again / floor,
            goal=f"< {GOAL_COLD_S:g} s",
            ok=again < GOAL_COLD_S,
            note="migrate (nothing to do), bootstrap (all up to date), runserver",
        )
        self.add(
            S8,
            "make run → first page, empty data folder (first start)",
            first,
            "s",
            reference=f"python + django.setup() {floor:.2f} s",
            ratio=first / floor,
            goal=f"< {GOAL_FIRST_START_S:g} s",
            ok=first < GOAL_FIRST_START_S,
            note="creates the SQLite database, migrates, loads laws, trees and cases",
        )

    # -- notes -------------------------------------------------------------------------------

    def notes(self) -> None:
        notes = self.report.notes
        seeded = self.seeded
        notes.append(
            f"{_thousands(seeded.count)} rulings were made by `seed_demo` through the wizard's "
            f"functions; the other {_thousands(self.total_rulings - seeded.count)} are clones of "
            "them (steps and audit events copied, new uuid, moved in time, every audit chain "
            "rehashed with `rulings.audit.compute_hash`; `verify_all` found every chain intact). "
            "Plus the rulings the benchmark itself makes through the wizard."
        )
        if self.scale.name == "full" and self.total_events < 1_000_000:
            notes.append(
                f"Only {_thousands(self.total_events)} audit events (fewer than one million)."
            )
        if connection.vendor == "sqlite":
            notes.append("SQLite as a laptop has it: WAL mode, never ANALYZEd.")
        else:
            notes.append("PostgreSQL: ANALYZE after the bulk clone (as autovacuum would).")


def _post(client: Client, run: WizardRun, answer):
    response = form_post(client, answer.url, answer.data, **htmx_headers(answer.url))
    if response.status_code == 200:
        run.advance(answer)
    return response
