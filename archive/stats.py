"""Counts over a (filtered) set of rulings, for the statistics page: per tree, month of play,
director, outcome and cited articles (``Counts``), then shown as breakdowns.

When the filters are ones ``RulingTally`` keeps (tree, edition, status, mode, director, verdict,
appeal, cited article, and dates on month boundaries), the counts are summed from the tally,
which the database keeps up to date on every write (``archive/tally.py``): the page then costs
about the same for 200 rulings or 200,000. Other filters (table, board, free text, dates within
a month) group the matching rulings themselves in one query (``groups``), on everything counted;
the groups are few (they follow the tree paths, the months and the directors) and are summed
in Python. Cited articles come from the denormalised ``cited_articles`` strings (``|25|27|``),
split and added up.
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import date
from typing import Any, NamedTuple

from django.contrib.auth import get_user_model
from django.db.models import Count, Exists, Max, OuterRef, Q, QuerySet, Sum
from django.db.models.functions import TruncMonth
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from archive import charts
from archive.models import RulingTally
from lib.i18n import pick_text
from rulings import free
from rulings.models import HandOver, Ruling, Verdict
from scores.models import AdjustedScore
from trees import citations, snapshot
from trees.models import TreeSnapshot, localised_titles


@dataclass(frozen=True)
class Breakdown:
    """One table of counts: ``rows`` are (label, count), in the order shown."""

    key: str
    title: str
    column: str
    rows: list[tuple[str, int]]

    @property
    def total(self) -> int:
        return sum(count for _label, count in self.rows)

    def svg(self) -> str:
        return charts.bar_chart(f"chart-{self.key}", self.title, self.rows)


class Group(NamedTuple):
    """The number of rulings sharing one combination of the counted properties (a tuple:
    there can be thousands per page)."""

    tree_slug: str
    outcome_key: str
    month: date | None
    director_id: int
    cited_articles: str
    rulings: int  # how many share it (not ``count``, which would hide ``tuple.count``)


def tree_titles() -> dict[str, str]:
    """Tree titles in the active language, by slug (the loaded trees, and the free ruling's
    marker, so free rulings are named, filtered and counted like a tree's)."""
    titles = localised_titles()
    titles[free.FREE_SLUG] = pick_text(free.TITLE)
    return titles


def outcome_title(digest: str | None, key: str, language: str | None = None) -> str:
    """The title of outcome ``key`` in the tree snapshot ``digest`` (kept in memory by
    ``trees.snapshot``), so no ruling's large outcome JSON is read; the key when the
    snapshot does not have it."""
    if not digest:
        # Only a free ruling has an outcome without a tree: it is titled like one.
        return pick_text(free.TITLE, language) if key == free.FREE_SLUG else key
    tree = snapshot.find(digest)
    if tree is None:
        return key
    if not tree.has_node(key):
        return key
    return snapshot.pick(tree.node(key).text, language) or key


def outcome_titles(outcomes: Iterable[tuple[str, str]]) -> dict[tuple[str, str], str]:
    """Titles of (tree slug, outcome key) pairs from the trees' snapshots, newest first: one
    query for the snapshots' digests, and one per snapshot not yet in memory."""
    wanted: dict[str, set[str]] = {}
    for slug, key in outcomes:
        wanted.setdefault(slug, set()).add(key)
    digests = TreeSnapshot.objects.filter(slug__in=wanted).order_by("-created_at", "digest")
    titles: dict[tuple[str, str], str] = {}
    for slug, digest in digests.values_list("slug", "digest"):
        for key in wanted[slug] - {k for s, k in titles if s == slug}:
            title = outcome_title(digest, key)
            if title != key:
                titles[(slug, key)] = title
    return titles


def groups(rulings: QuerySet[Ruling]) -> list[Group]:
    """One query: the rulings grouped on every property the page counts by."""
    rows = (
        rulings.order_by()
        .annotate(month=TruncMonth("played_on"))
        .values_list("tree_slug", "outcome_key", "month", "director_id", "cited_articles")
        .annotate(n=Count("pk"))
    )
    return [Group._make(row) for row in rows]


@functools.lru_cache(maxsize=1024)
def tally_month(text: str) -> date | None:
    """A ``RulingTally.month`` (``YYYY-MM``, empty when unknown) as the first of the month."""
    return date(int(text[:4]), int(text[5:7]), 1) if text else None


@dataclass
class Counts:
    """The groups summed per property, in one pass over them."""

    trees: Counter[str] = field(default_factory=Counter)
    months: Counter[date | None] = field(default_factory=Counter)
    directors: Counter[int] = field(default_factory=Counter)
    outcomes: Counter[tuple[str, str]] = field(default_factory=Counter)
    cited: Counter[str] = field(default_factory=Counter)

    @classmethod
    def of(cls, groups: Iterable[Group]) -> Counts:
        counts = cls()
        for slug, outcome, month, director, cited, n in groups:
            counts.trees[slug] += n
            counts.months[month] += n
            counts.directors[director] += n
            if outcome:
                counts.outcomes[(slug, outcome)] += n
            counts.cited[cited] += n
        return counts

    @classmethod
    def of_tallies(cls, tallies: QuerySet[RulingTally]) -> Counts:
        """Summed in the database, one small GROUP BY per property: a few hundred rows come
        back instead of one per combination (thousands on a large archive)."""
        tallies = tallies.order_by()
        counts = cls()

        def summed(column: str) -> QuerySet[RulingTally, tuple[Any, int]]:
            return tallies.values_list(column).annotate(n=Sum("count"))

        for slug, n in summed("tree_slug"):
            counts.trees[slug] += n
        for month, n in summed("month"):
            counts.months[tally_month(month)] += n
        for director, n in summed("director_id"):
            counts.directors[director] += n
        for cited, n in summed("cited_articles"):
            counts.cited[cited] += n
        reached = tallies.exclude(outcome_key="").values_list("tree_slug", "outcome_key")
        for slug, outcome, n in reached.annotate(n=Sum("count")):
            counts.outcomes[(slug, outcome)] += n
        return counts

    @property
    def total(self) -> int:
        return sum(self.trees.values())


def _by_count(rows: Iterable[tuple[str, int]]) -> list[tuple[str, int]]:
    return sorted(rows, key=lambda row: (-row[1], row[0].lower()))


def per_irregularity(
    counts: Counts, titles: dict[str, str], passed: Counter[str] | None = None
) -> list[tuple[str, int]]:
    """Rulings per tree: under the tree each ended in, and (``passed``) once more under every
    tree it went through before a hand-over (rulings/hand_over.py), so a ruling counts once
    per tree; the total, months and directors count it once."""
    trees = counts.trees + (passed or Counter())
    return _by_count((titles.get(slug) or slug, n) for slug, n in trees.items())


def hand_over_trees(rulings: QuerySet[Ruling]) -> Counter[str]:
    """Per tree, how many of ``rulings`` went through it before the tree they ended in: one
    query, driven from the few hand-over rows (each looked up among ``rulings`` by its key,
    as ``with_adjusted_score``), never from every ruling's JSON."""
    rows = (
        HandOver.objects.filter(Exists(rulings.filter(pk=OuterRef("ruling_id"))))
        .order_by()
        .values_list("tree_slug")
        .annotate(n=Count("ruling", distinct=True))
    )
    return Counter(dict(rows))


def per_month(counts: Counts) -> list[tuple[str, int]]:
    months = sorted(counts.months, key=lambda month: (month is None, month or date.min))
    return [
        (
            date_format(month, "YEAR_MONTH_FORMAT") if month else _("zonder datum"),
            counts.months[month],
        )
        for month in months
    ]


def per_director(counts: Counts) -> list[tuple[str, int]]:
    users = get_user_model().objects.filter(pk__in=counts.directors)
    names = {
        pk: f"{first} {last}".strip() or username
        for pk, username, first, last in users.values_list(
            "pk", "username", "first_name", "last_name"
        )
    }
    return _by_count((names.get(pk, str(pk)), n) for pk, n in counts.directors.items())


def per_outcome(counts: Counts, titles: dict[str, str]) -> list[tuple[str, int]]:
    outcomes = outcome_titles(counts.outcomes)
    rows = []
    for (slug, key), n in counts.outcomes.items():
        if slug == free.FREE_SLUG:
            # A free ruling's one outcome is the ruling itself: "Vrije arbitrage", not ": vrij".
            rows.append((outcome_title(None, key), n))
            continue
        rows.append((f"{titles.get(slug) or slug}: {outcomes.get((slug, key), key)}", n))
    return _by_count(rows)


def per_article(counts: Counts) -> list[tuple[str, int]]:
    articles: Counter[str] = Counter()
    for cited, n in counts.cited.items():
        for article in citations.decode(cited):
            articles[article] += n
    ordered = sorted(articles.items(), key=lambda item: (-item[1], int(item[0])))
    return [(_("Artikel %(number)s") % {"number": number}, n) for number, n in ordered]


def with_adjusted_score(rulings: QuerySet[Ruling]) -> int:
    """How many of ``rulings`` have an adjusted score recorded (one count query).

    Counted from the adjusted scores, each looked up among ``rulings`` by its key: they are
    few, and driven from the rulings' side SQLite read every ruling of the club to find them
    (most of the statistics page at 200 000 rulings, ``make bench``)."""
    return AdjustedScore.objects.filter(Exists(rulings.filter(pk=OuterRef("ruling_id")))).count()


def titles_of(
    found: Counts, rulings: QuerySet[Ruling], loaded: dict[str, str] | None = None
) -> dict[str, str]:
    """Tree titles by slug: the loaded trees' (``loaded``, when already read), and for a tree
    no longer loaded the title its rulings recorded (one more query, only then)."""
    titles = dict(tree_titles() if loaded is None else loaded)
    missing = set(found.trees) - set(titles)
    if missing:
        recorded = rulings.filter(tree_slug__in=missing).order_by().values_list("tree_slug")
        titles.update(recorded.annotate(title=Max("tree_title")))
    return titles


def summarise(
    counts: Counts, rulings: QuerySet[Ruling], titles: dict[str, str] | None = None
) -> tuple[int, list[Breakdown]]:
    """The number of rulings counted (of ``rulings``) and every breakdown of them:
    a constant number of queries whatever the number of rulings (the directors' names, the
    tree titles, the snapshots' digests), plus one for each tree snapshot not yet in memory
    (outcome titles). ``titles`` are the loaded trees' titles when the caller has them."""
    titles = titles_of(counts, rulings, titles)
    breakdowns = [
        Breakdown(
            "irregularity",
            _("Per onregelmatigheid"),
            _("Onregelmatigheid"),
            per_irregularity(counts, titles, hand_over_trees(rulings)),
        ),
        Breakdown("month", _("Per maand (speeldatum)"), _("Maand"), per_month(counts)),
        Breakdown("director", _("Per wedstrijdleider"), _("Wedstrijdleider"), per_director(counts)),
        Breakdown("outcome", _("Per uitkomst"), _("Uitkomst"), per_outcome(counts, titles)),
        Breakdown("article", _("Per geciteerd wetsartikel"), _("Artikel"), per_article(counts)),
    ]
    return counts.total, breakdowns


# --------------------------------------------------------------------------------------------
# The summary a committee reads first


TOP_IRREGULARITIES = 3


@dataclass(frozen=True)
class Summary:
    """The page's opening sentences: how many rulings in which period, the most common
    irregularities, and how many of them were reviewed or appealed."""

    total: int
    period_from: str  # formatted; "" when the rulings have no date of play
    period_to: str
    top: list[tuple[str, int]]
    reviewed: int
    appealed: int

    @staticmethod
    def _percent(part: int, total: int) -> int:
        return round(100 * part / total) if total else 0

    @property
    def reviewed_percent(self) -> int:
        return self._percent(self.reviewed, self.total)

    @property
    def appealed_percent(self) -> int:
        return self._percent(self.appealed, self.total)


def reviewed_and_appealed(
    rulings: QuerySet[Ruling], tallies: QuerySet[RulingTally] | None
) -> tuple[int, int]:
    """How many of the counted rulings have a review, and how many an appeal: one query, on
    the tally when it answers the filters."""
    if tallies is None:
        row = rulings.order_by().aggregate(
            reviewed=Count("pk", filter=~Q(review_verdict="")),
            appealed=Count("pk", filter=~Q(appeal_status="")),
        )
    else:
        row = tallies.order_by().aggregate(
            reviewed=Sum("count", filter=~Q(review_verdict="")),
            appealed=Sum("count", filter=~Q(appeal_status="")),
        )
    return row["reviewed"] or 0, row["appealed"] or 0


def period(counts: Counts, date_from: date | None, date_to: date | None) -> tuple[str, str]:
    """The period counted, as shown: the filter's dates when given, else the first and the
    last month of play among the rulings."""
    months = sorted(month for month, n in counts.months.items() if month and n)
    start = date_format(date_from, "DATE_FORMAT") if date_from else ""
    end = date_format(date_to, "DATE_FORMAT") if date_to else ""
    if months:
        start = start or date_format(months[0], "YEAR_MONTH_FORMAT")
        end = end or date_format(months[-1], "YEAR_MONTH_FORMAT")
    return start, end


def summary(
    counts: Counts,
    irregularities: list[tuple[str, int]],
    shares: tuple[int, int],
    dates: tuple[date | None, date | None] = (None, None),
) -> Summary:
    """The summary of ``counts``; ``irregularities`` are ``per_irregularity`` (by count),
    ``shares`` ``reviewed_and_appealed``, ``dates`` the filter's period."""
    start, end = period(counts, *dates)
    return Summary(
        total=counts.total,
        period_from=start,
        period_to=end,
        top=irregularities[:TOP_IRREGULARITIES],
        reviewed=shares[0],
        appealed=shares[1],
    )


# --------------------------------------------------------------------------------------------
# Where reviewers disagreed with the director: the committee's view of where directors go wrong


@dataclass(frozen=True)
class Disagreement:
    """One tree: its reviewed rulings, and how many of them the reviewer amended or
    overturned."""

    title: str
    reviewed: int
    disagreed: int

    @property
    def percent(self) -> int:
        return round(100 * self.disagreed / self.reviewed) if self.reviewed else 0


DISAGREEING = (Verdict.AMENDED, Verdict.OVERTURNED)


def disagreement_per_tree(
    rulings: QuerySet[Ruling], tallies: QuerySet[RulingTally] | None, titles: dict[str, str]
) -> list[Disagreement]:
    """Per tree with a review, how often the reviewer disagreed: one query (on the tally when it
    answers the filters), the highest share first."""
    rows: Iterable[tuple[Any, ...]]
    if tallies is None:
        rows = (
            rulings.order_by()
            .values_list("tree_slug")
            .annotate(
                reviewed=Count("pk", filter=~Q(review_verdict="")),
                disagreed=Count("pk", filter=Q(review_verdict__in=DISAGREEING)),
            )
        )
    else:
        rows = (
            tallies.order_by()
            .values_list("tree_slug")
            .annotate(
                reviewed=Sum("count", filter=~Q(review_verdict="")),
                disagreed=Sum("count", filter=Q(review_verdict__in=DISAGREEING)),
            )
        )
    found = [
        Disagreement(titles.get(slug) or slug, reviewed or 0, disagreed or 0)
        for slug, reviewed, disagreed in rows
        if reviewed
    ]
    return sorted(found, key=lambda row: (-row.percent, -row.disagreed, row.title.lower()))
