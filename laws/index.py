"""Which keys an edition holds, and the nearest ones for a key it does not: the one key checker.

Pure module (no database): a :class:`ProvisionIndex` is built from an edition's articles and
provisions (``laws.edition_law`` reads them) and answers, for a canonical key (``laws.keys``):

- whether the edition holds it (:meth:`ProvisionIndex.holds`): a whole-article key (``27``)
  when the edition has the article, any other key only when the edition has exactly that
  provision. Every edition answers by its provisions: 2017 by its shipped provision index
  (every provision of the Laws), the seed editions 1963, 1987 and 2007 by what was imported;
- for a key it does not hold, which existing keys are nearest (:meth:`ProvisionIndex.unknown`):
  the provisions beside it under its nearest existing ancestor (``13E`` in 2017 ->
  ``13A``–``13D``), that ancestor itself when it has no provisions below it, or the
  neighbouring articles when the article itself is missing;
- what a card for a key shows: whether it has official text throughout
  (:meth:`ProvisionIndex.official`), our own summary nearest to it
  (:meth:`ProvisionIndex.summary_for`), and the titles of the provisions around it.

``check_trees`` and the tree loader, training cases, review citations and free-ruling citations
all ask this index, so they agree on every key (``64A1``, ``27B1(a)``, ``12C1(c)``,
``16B1(a)``). :func:`message` says it in the active language.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from django.utils.translation import gettext as _

from laws import keys

__all__ = [
    "ArticleEntry",
    "ProvisionEntry",
    "ProvisionIndex",
    "Unknown",
    "Words",
    "key_range",
    "message",
]

# More suggestions than this are cut short ("…"): a message names a few keys, not a list.
MAX_NEAREST = 12


@dataclass(frozen=True)
class Words:
    """A text in Dutch and English (our titles and summaries)."""

    nl: str = ""
    en: str = ""

    def get(self, language: str) -> str:
        """The English text for ``en`` when there is one, else the Dutch."""
        return self.en if language.startswith("en") and self.en else self.nl or self.en

    def __bool__(self) -> bool:
        return bool(self.nl or self.en)


@dataclass(frozen=True)
class ArticleEntry:
    number: str
    pk: int | None = None
    title: Words = Words()
    summary: Words = Words()
    has_text: bool = False  # official text of its own (introduction or closing)


@dataclass(frozen=True)
class ProvisionEntry:
    key: str  # canonical
    pk: int | None = None
    article_pk: int | None = None
    title: Words = Words()  # our title or gist
    summary: Words = Words()  # our summary
    has_text: bool = False  # official heading, text or closing of its own


@dataclass(frozen=True)
class Unknown:
    """A key the edition does not hold, with the existing keys nearest to it."""

    key: str
    edition: str
    nearest: tuple[str, ...] = ()

    @property
    def nearest_text(self) -> str:
        """The nearest keys as a director reads them: ``13A–13D``, ``62B2``, ``52, 53``."""
        return key_range(self.nearest)

    def english(self) -> str:
        """The message in English, for the authors' tools (``check_trees``)."""
        if self.nearest:
            return f"{self.key} does not exist in {self.edition}; did you mean {self.nearest_text}?"
        return f"{self.key} does not exist in {self.edition}"


def message(unknown: Unknown) -> str:
    """The message in the active language: "13E bestaat niet in 2017; bedoelt u 13A–13D?"."""
    values = {"key": unknown.key, "edition": unknown.edition, "nearest": unknown.nearest_text}
    if unknown.nearest:
        return _("%(key)s bestaat niet in %(edition)s; bedoelt u %(nearest)s?") % values
    return _("%(key)s bestaat niet in %(edition)s.") % values


def _follows(before: keys.Key, after: keys.Key) -> bool:
    """Whether ``after`` is the next sibling of ``before`` (``13A`` -> ``13B``, ``62D1`` ->
    ``62D2``, ``12C1(a)`` -> ``12C1(b)``, ``12`` -> ``13``)."""
    if before.level != after.level or before.parent != after.parent:
        return False
    level = before.level
    if level == "article":
        return after.article == before.article + 1
    if level == "section":
        return ord(after.section) == ord(before.section) + 1
    if level == "item":
        return after.item == before.item + 1
    if level == "sub":
        return ord(after.sub) == ord(before.sub) + 1
    return after.clause == before.clause + 1


def key_range(found: Iterable[str]) -> str:
    """Keys in order with runs of three or more consecutive siblings written as a range:
    ``13A, 13B, 13C, 13D`` -> ``13A–13D``; ``62B2`` -> ``62B2``."""
    parsed = [key for text in found if (key := keys.try_parse(text)) is not None]
    runs: list[list[keys.Key]] = []
    for key in parsed:
        if runs and _follows(runs[-1][-1], key):
            runs[-1].append(key)
        else:
            runs.append([key])
    parts: list[str] = []
    for run in runs:
        if len(run) >= 3:
            parts.append(f"{run[0]}–{run[-1]}")
        else:
            parts.extend(str(key) for key in run)
    if len(parts) > MAX_NEAREST:
        parts = [*parts[:MAX_NEAREST], "…"]
    return ", ".join(parts)


@dataclass
class ProvisionIndex:
    """An edition's articles and provisions by key (see the module docstring)."""

    code: str
    articles: dict[str, ArticleEntry] = field(default_factory=dict)  # by number
    provisions: dict[str, ProvisionEntry] = field(default_factory=dict)  # by canonical key
    # Child keys in law-book order, under a provision key or (top level) an article number.
    children: dict[str, list[str]] = field(default_factory=dict)
    _official: dict[str, bool] = field(default_factory=dict, repr=False)

    @classmethod
    def build(
        cls, code: str, articles: Iterable[ArticleEntry], provisions: Iterable[ProvisionEntry]
    ) -> ProvisionIndex:
        index = cls(code=code)
        for article in articles:
            index.articles[article.number] = article
        parsed: list[tuple[keys.Key, ProvisionEntry]] = []
        for provision in provisions:
            key = keys.try_parse(provision.key)
            if key is not None and key.number in index.articles:
                parsed.append((key, provision))
        for key, provision in sorted(parsed, key=lambda pair: pair[0]):
            index.provisions[provision.key] = provision
            index.children.setdefault(index._parent_of(key), []).append(provision.key)
        return index

    def _parent_of(self, key: keys.Key) -> str:
        """The nearest enclosing provision the edition holds, else the article."""
        for ancestor in key.ancestors:
            if ancestor.is_article or str(ancestor) in self.provisions:
                return str(ancestor)
        return key.number  # pragma: no cover - the last ancestor is the article

    # -- which keys exist ---------------------------------------------------------------------

    def holds(self, key: str) -> bool:
        """Whether ``key`` (canonical) names an article or provision of the edition."""
        parsed = keys.try_parse(key)
        if parsed is None or str(parsed) != key or parsed.number not in self.articles:
            return False
        return parsed.is_article or key in self.provisions

    def target(self, key: str) -> tuple[int | None, int | None]:
        """(article pk, provision pk) that ``key`` cites; (None, None) when not held."""
        if not self.holds(key):
            return None, None
        parsed = keys.parse(key)
        article = self.articles[parsed.number]
        provision = None if parsed.is_article else self.provisions[key]
        return article.pk, provision.pk if provision else None

    def unknown(self, key: str) -> Unknown | None:
        """None when the edition holds ``key``; otherwise what is nearest to it."""
        if self.holds(key):
            return None
        parsed = keys.try_parse(key)
        nearest = self.nearest(parsed) if parsed is not None else ()
        return Unknown(str(parsed) if parsed else key, self.code, nearest)

    def nearest(self, key: keys.Key) -> tuple[str, ...]:
        """The existing keys nearest to ``key``: the provisions under its nearest existing
        ancestor (or that ancestor itself when nothing lies below it); the neighbouring
        articles when its article is missing."""
        if key.number not in self.articles:
            numbers = sorted(int(n) for n in self.articles if n.isdigit())
            below = [n for n in numbers if n < key.article][-1:]
            above = [n for n in numbers if n > key.article][:1]
            return tuple(str(n) for n in below + above)
        for ancestor in key.ancestors:
            name = str(ancestor)
            if ancestor.is_article or name in self.provisions:
                return tuple(self.children.get(name, [])) or (name,)
        return ()  # pragma: no cover - the last ancestor is the article

    # -- what a card shows --------------------------------------------------------------------

    def official(self, key: str) -> bool:
        """Whether the official text of ``key`` is complete: every innermost provision under
        it (itself, when nothing lies below it) holds imported text. A whole article: every
        provision of it, or its own text when it has none."""
        if key in self._official:
            return self._official[key]
        below = self.children.get(key, [])
        if below:
            result = all(self.official(child) for child in below)
        elif key in self.provisions:
            result = self.provisions[key].has_text
        else:
            article = self.articles.get(key)
            result = article is not None and article.has_text
        self._official[key] = result
        return result

    def lineage(self, key: str) -> list[str]:
        """``key`` and the enclosing provisions and article the edition holds, nearest first:
        ``63A1`` -> ``["63A1", "63A", "63"]``."""
        parsed = keys.try_parse(key)
        if parsed is None:
            return []
        return [
            str(k)
            for k in parsed.lineage
            if (k.is_article and k.number in self.articles) or str(k) in self.provisions
        ]

    def title(self, key: str) -> Words:
        """Our title of a provision, or the article's title for an article number."""
        if key in self.provisions:
            return self.provisions[key].title
        article = self.articles.get(key)
        return article.title if article else Words()

    def summary(self, key: str) -> Words:
        """Our summary of a provision, or of the article for an article number."""
        if key in self.provisions:
            return self.provisions[key].summary
        article = self.articles.get(key)
        return article.summary if article else Words()

    def summary_for(self, key: str) -> tuple[str, Words] | None:
        """The summary nearest to ``key``: its own, else that of the nearest enclosing
        provision or article that has one, with the key it belongs to."""
        for name in self.lineage(key):
            summary = self.summary(name)
            if summary:
                return name, summary
        return None
