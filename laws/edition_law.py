"""An edition's law as read from the database: its rows and its :class:`~laws.index.ProvisionIndex`.

:func:`load` reads an edition afresh (two queries), for whatever checks keys or freezes a tree.
:func:`law_of` keeps the whole edition in memory per process for the law cards beside every
wizard step, so that a step reads no law text. That copy is keyed on the edition's import time
(``Edition.imported_at``, set by every import and by bootstrap when our words change): when
this process learns a later import time (:func:`note_import_time`, called wherever an
``Edition`` row or a snapshot is read anyway: freezing a tree, reading a snapshot, citing laws
for a free ruling), the next card reads the edition again. A worker thus shows imported text
as soon as it meets a ruling frozen after the import, without a query per step to ask.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

from django.core.exceptions import ObjectDoesNotExist

from laws.index import ArticleEntry, ProvisionEntry, ProvisionIndex, Words
from laws.models import Article, ArticleSummary, Edition, Provision

__all__ = ["EditionLaw", "clear_cache", "index_of", "law_of", "load", "note_import_time"]


@dataclass(frozen=True)
class EditionLaw:
    code: str
    imported_at: datetime | None
    index: ProvisionIndex
    articles: dict[str, Article]  # by number
    provisions: dict[str, Provision]  # by key
    # Per article pk: its provisions by parent pk (None: the top level), in stored order.
    children: dict[int, dict[int | None, list[Provision]]]


def _summary(article: Article) -> ArticleSummary | None:
    try:
        return article.summary
    except ObjectDoesNotExist:
        return None


def article_entry(article: Article) -> ArticleEntry:
    summary = _summary(article)
    return ArticleEntry(
        number=article.number,
        pk=article.pk,
        title=Words(article.title, article.title_en),
        summary=Words(summary.text_nl, summary.text_en) if summary else Words(),
        has_text=bool(article.text.strip() or article.closing_text.strip()),
    )


def provision_entry(provision: Provision) -> ProvisionEntry:
    return ProvisionEntry(
        key=provision.key,
        pk=provision.pk,
        article_pk=provision.article_id,
        title=Words(provision.our_title_nl, provision.our_title_en),
        summary=Words(provision.our_summary_nl, provision.our_summary_en),
        has_text=provision.has_text,
    )


def load(code: str, numbers: Iterable[str] | None = None) -> EditionLaw:
    """The edition's law as stored now (only the articles ``numbers`` when given)."""
    articles_query = Article.objects.filter(edition__code=code).select_related("edition", "summary")
    provisions_query = Provision.objects.filter(article__edition__code=code)
    if numbers is not None:
        wanted = set(numbers)
        articles_query = articles_query.filter(number__in=wanted)
        provisions_query = provisions_query.filter(article__number__in=wanted)
    articles = {a.number: a for a in articles_query.order_by("order")}
    imported_at = next(iter(articles.values())).edition.imported_at if articles else None
    children: dict[int, dict[int | None, list[Provision]]] = {a.pk: {} for a in articles.values()}
    provisions: dict[str, Provision] = {}
    for provision in provisions_query.order_by("article__order", "order", "pk"):
        provisions[provision.key] = provision
        children[provision.article_id].setdefault(provision.parent_id, []).append(provision)
    index = ProvisionIndex.build(
        code,
        (article_entry(a) for a in articles.values()),
        (provision_entry(p) for p in provisions.values()),
    )
    return EditionLaw(code, imported_at, index, articles, provisions, children)


def index_of(edition: Edition | str) -> ProvisionIndex:
    """The edition's key index as stored now, read in two queries of keys only (for checking
    typed keys: forms, tree files, training cases)."""
    code = edition.code if isinstance(edition, Edition) else edition
    articles = [
        ArticleEntry(number=number, pk=pk)
        for pk, number in Article.objects.filter(edition__code=code)
        .order_by("order")
        .values_list("pk", "number")
    ]
    provisions = [
        ProvisionEntry(key=key, pk=pk, article_pk=article_pk)
        for pk, key, article_pk in Provision.objects.filter(article__edition__code=code)
        .order_by("article__order", "order", "pk")
        .values_list("pk", "key", "article_id")
    ]
    return ProvisionIndex.build(code, articles, provisions)


# --------------------------------------------------------------------------------------------
# The per-process copy for the law cards

_laws: dict[str, EditionLaw] = {}
# The latest import time this process has seen per edition code.
_import_times: dict[str, datetime | None] = {}
_lock = threading.Lock()


def note_import_time(code: str, imported_at: datetime | None) -> None:
    """Tell the cache the edition's import time as just read from the database; a time other
    than the cached copy's makes the next :func:`law_of` read the edition again."""
    with _lock:
        _import_times[code] = imported_at


def law_of(code: str) -> EditionLaw:
    """The whole edition, kept per process for the import time last seen (see the module
    docstring)."""
    with _lock:
        cached = _laws.get(code)
        known = _import_times.get(code, cached.imported_at if cached else None)
        if cached is not None and cached.imported_at == known:
            return cached
    law = load(code)
    with _lock:
        _laws[code] = law
        _import_times[code] = law.imported_at
    return law


def clear_cache(**kwargs: object) -> int:
    """Forget every edition read (between tests; a receiver of ``edition_imported``, so the
    process that imported reads the new text at once)."""
    with _lock:
        _laws.clear()
        _import_times.clear()
    return 0
