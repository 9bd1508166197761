"""Counts over a (filtered) set of rulings, for the statistics page.

One GROUP BY query reads the filtered rulings once, grouped on everything the page counts by
(tree, outcome, month of play, director, cited articles); the breakdowns are then summed from
those groups in Python. The groups are few (they follow the tree paths, the months and the
directors), whatever the number of rulings. Cited articles come from the denormalised
``cited_articles`` strings (``|25|27|``), split and added up.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Hashable, Iterable
from dataclasses import dataclass
from datetime import date

from django.contrib.auth import get_user_model
from django.db.models import Count, Max, QuerySet
from django.db.models.functions import TruncMonth
from django.utils.formats import date_format
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from laws.models import Tree

from . import charts, citations, snapshot
from .models import Ruling, TreeSnapshot


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


@dataclass(frozen=True)
class Group:
    """The number of rulings sharing one combination of the counted properties."""

    tree_slug: str
    tree_title: str
    outcome_key: str
    snapshot: str | None
    month: date | None
    director_id: int
    cited_articles: str
    count: int


def _language() -> str:
    return "en" if (get_language() or "nl").startswith("en") else "nl"


def tree_titles() -> dict[str, str]:
    """Tree titles in the active language, by slug (the loaded trees)."""
    field = "title_en" if _language() == "en" else "title_nl"
    rows = Tree.objects.values_list("slug", field, "title_nl")
    return {slug: title or dutch for slug, title, dutch in rows}


def outcome_title(digest: str | None, key: str, language: str | None = None) -> str:
    """The title of outcome ``key`` in the tree snapshot ``digest`` (kept in memory by
    ``rulings.snapshot``), so no ruling's large outcome JSON is read; the key when the
    snapshot does not have it."""
    if not digest:
        return key
    try:
        tree = snapshot.get(digest)
    except TreeSnapshot.DoesNotExist:
        return key
    if not tree.has_node(key):
        return key
    return snapshot.pick(tree.node(key).get("text"), language) or key


def groups(rulings: QuerySet[Ruling]) -> list[Group]:
    """One query: the rulings grouped on every property the page counts by."""
    rows = (
        rulings.order_by()
        .annotate(month=TruncMonth("played_on"))
        .values_list("tree_slug", "outcome_key", "month", "director_id", "cited_articles")
        .annotate(n=Count("pk"), digest=Max("snapshot_id"), tree=Max("tree_title"))
    )
    return [
        Group(slug, tree, outcome, digest, month, director, cited, n)
        for slug, outcome, month, director, cited, n, digest, tree in rows
    ]


def _count(groups: Iterable[Group], key: Callable[[Group], Hashable]) -> Counter:
    counts: Counter = Counter()
    for group in groups:
        counts[key(group)] += group.count
    return counts


def _by_count(rows: Iterable[tuple[str, int]]) -> list[tuple[str, int]]:
    return sorted(rows, key=lambda row: (-row[1], row[0].lower()))


def per_irregularity(groups: list[Group], titles: dict[str, str]) -> list[tuple[str, int]]:
    fallback = {g.tree_slug: g.tree_title for g in groups}
    counts = _count(groups, lambda g: g.tree_slug)
    return _by_count((titles.get(slug) or fallback[slug], n) for slug, n in counts.items())


def per_month(groups: list[Group]) -> list[tuple[str, int]]:
    counts = _count(groups, lambda g: g.month)
    months = sorted(counts, key=lambda month: (month is None, month or date.min))
    return [
        (date_format(month, "F Y") if month else _("zonder datum"), counts[month])
        for month in months
    ]


def per_director(groups: list[Group]) -> list[tuple[str, int]]:
    counts = _count(groups, lambda g: g.director_id)
    users = get_user_model().objects.filter(pk__in=counts)
    names = {
        pk: f"{first} {last}".strip() or username
        for pk, username, first, last in users.values_list(
            "pk", "username", "first_name", "last_name"
        )
    }
    return _by_count((names.get(pk, str(pk)), n) for pk, n in counts.items())


def per_outcome(groups: list[Group], titles: dict[str, str]) -> list[tuple[str, int]]:
    reached = [g for g in groups if g.outcome_key]
    counts = _count(reached, lambda g: (g.tree_slug, g.outcome_key))
    digests = {(g.tree_slug, g.outcome_key): g.snapshot for g in reached if g.snapshot}
    trees = {g.tree_slug: g.tree_title for g in reached}
    rows = []
    for (slug, key), n in counts.items():
        tree = titles.get(slug) or trees[slug]
        rows.append((f"{tree}: {outcome_title(digests.get((slug, key)), key)}", n))
    return _by_count(rows)


def per_article(groups: list[Group]) -> list[tuple[str, int]]:
    counts: Counter[str] = Counter()
    for group in groups:
        for article in citations.decode(group.cited_articles):
            counts[article] += group.count
    ordered = sorted(counts.items(), key=lambda item: (-item[1], int(item[0])))
    return [(_("Artikel %(number)s") % {"number": number}, n) for number, n in ordered]


def summarise(rulings: QuerySet[Ruling]) -> tuple[int, list[Breakdown]]:
    """The number of ``rulings`` and every breakdown of them: three queries whatever the number
    of rulings (the groups, the directors' names, the tree titles), plus one for each tree
    snapshot not yet in memory (outcome titles)."""
    found = groups(rulings)
    titles = tree_titles()
    breakdowns = [
        Breakdown(
            "irregularity",
            _("Per onregelmatigheid"),
            _("Onregelmatigheid"),
            per_irregularity(found, titles),
        ),
        Breakdown("month", _("Per maand (speeldatum)"), _("Maand"), per_month(found)),
        Breakdown("director", _("Per wedstrijdleider"), _("Wedstrijdleider"), per_director(found)),
        Breakdown("outcome", _("Per uitkomst"), _("Uitkomst"), per_outcome(found, titles)),
        Breakdown("article", _("Per geciteerd wetsartikel"), _("Artikel"), per_article(found)),
    ]
    return sum(g.count for g in found), breakdowns
