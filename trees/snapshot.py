"""Frozen decision trees: what a ruling runs on and shows.

:func:`freeze` reads a loaded tree (``trees.models.Tree`` with its nodes, choices and citations)
into the one tree type, :class:`trees.spec.Snapshot`: the tree with the law text each citation
shows. Its JSON (:meth:`Snapshot.to_json`) is stored once per content in ``TreeSnapshot``, whose
primary key is the SHA-256 of that JSON. A ruling points at its snapshot: reloading a tree file
or re-importing law text makes new snapshots for new rulings and never changes what a past or
unfinished ruling shows, or how a practice is graded.

A snapshot never changes, so :func:`get` keeps recently used ones in memory, parsed, keyed by
digest (an LRU of ``CACHE_SIZE``): a wizard step reads no tree rows and parses no JSON.
Tests clear it with :func:`clear_cache`.
"""

from __future__ import annotations

import hashlib
import json
import threading
from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import replace
from datetime import datetime
from typing import Any

from django.db.models import Prefetch, prefetch_related_objects

from laws.models import Article, Edition, Provision
from lib.i18n import pick as pick_language
from lib.i18n import pick_text
from trees import progress
from trees.loading import EditionIndex, spec_from_rows
from trees.models import Choice, Citation, Node, Tree, TreeSnapshot
from trees.spec import CitedLaw, Snapshot, Text

__all__ = [
    "CACHE_SIZE",
    "build",
    "cite",
    "clear_cache",
    "digest_of",
    "freeze",
    "get",
    "pick",
    "provision_text",
    "store",
]

CACHE_SIZE = 256


def pick(text: Text | Mapping[str, str] | None, language: str | None = None) -> str:
    """The text in the active language (English when asked for and present), else Dutch.
    ``text`` is a :class:`Text` or its stored form ``{"nl": …, "en": …}``."""
    if isinstance(text, Text):
        return pick_language(text.nl, text.en, language)
    return pick_text(text, language)


def digest_of(data: dict[str, Any]) -> str:
    """SHA-256 of the canonical JSON of stored snapshot data (keys sorted, no spaces, UTF-8)."""
    canonical = json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


# --------------------------------------------------------------------------------------------
# Cache

_cache: OrderedDict[str, Snapshot] = OrderedDict()
# (tree pk, version, loaded at, law import time) → digest: a loaded tree is frozen once.
_frozen_trees: dict[tuple[int, str, datetime, datetime | None], str] = {}
# Digests whose row this process wrote or read: a snapshot row is never deleted.
_stored: set[str] = set()
_lock = threading.Lock()


def _remember(tree: Snapshot) -> Snapshot:
    with _lock:
        _cache[tree.digest] = tree
        _cache.move_to_end(tree.digest)
        _stored.add(tree.digest)
        while len(_cache) > CACHE_SIZE:
            _stored.discard(_cache.popitem(last=False)[0])
    return tree


def clear_cache() -> None:
    with _lock:
        _cache.clear()
        _frozen_trees.clear()
        _stored.clear()
    # Derived per digest (the progress hint's table): cleared with the snapshots it came from.
    progress.clear_cache()


def get(digest: str) -> Snapshot:
    """The snapshot with this digest, from memory when it was used recently.
    Raises ``TreeSnapshot.DoesNotExist`` when there is none."""
    with _lock:
        tree = _cache.get(digest)
        if tree is not None:
            _cache.move_to_end(digest)
            return tree
    data = TreeSnapshot.objects.values_list("data", flat=True).get(digest=digest)
    return _remember(Snapshot.from_json(data, digest))


def store(tree: Snapshot) -> Snapshot:
    """Save ``tree`` (once per content) and return it with its digest."""
    data = tree.to_json()
    digest = digest_of(data)
    if tree.digest != digest:
        tree = Snapshot(tree=tree.tree, version=tree.version, law=tree.law, digest=digest)
    if not TreeSnapshot.objects.filter(digest=digest).exists():
        # Two requests freezing the same tree at once write the same row: ignore the loser.
        TreeSnapshot.objects.bulk_create(
            [
                TreeSnapshot(
                    digest=digest,
                    slug=tree.slug,
                    version=tree.version,
                    edition_code=tree.edition,
                    data=data,
                )
            ],
            ignore_conflicts=True,
        )
    return _remember(tree)


# --------------------------------------------------------------------------------------------
# Freezing a loaded tree


def provision_text(provision: Provision, children: dict[int | None, list[Provision]]) -> str:
    """The provision and everything nested under it, one paragraph per provision: the text a
    snapshot freezes for an official citation (the law cards compare against it)."""
    lines: list[str] = []

    def add(item: Provision, depth: int) -> None:
        head = " ".join(part for part in (item.label, item.heading) if part).strip()
        body = item.text.strip()
        if head and body:
            lines.append(f"{head} {body}" if depth else f"{head}\n{body}")
        elif head or body:
            lines.append(head or body)
        for child in children.get(item.pk, []):
            add(child, depth + 1)
        if item.closing_text.strip():
            lines.append(item.closing_text.strip())

    add(provision, 0)
    return "\n\n".join(lines)


def _cited_law(
    citation: Citation,
    edition: str,
    language: str,
    provisions: dict[int, list[Provision]],
    children: dict[int | None, list[Provision]],
) -> CitedLaw:
    """What the wizard shows for one citation: official text where the edition has it (the
    provision, or a whole article), otherwise our summary (flagged ``kind: summary``)."""
    article = citation.article
    cited = CitedLaw(
        key=citation.key,
        edition=edition,
        article=article.number if article else "",
        article_title=article.title if article else "",
    )
    if citation.provision is not None:
        return replace(
            cited,
            kind="official",
            text=_in(language, provision_text(citation.provision, children)),
        )
    if article is not None and (provisions.get(article.pk) or article.text.strip()):
        top = [p for p in provisions.get(article.pk, []) if p.parent_id is None]
        parts = [article.text.strip(), *(provision_text(p, children) for p in top)]
        parts.append(article.closing_text.strip())
        text = "\n\n".join(part for part in parts if part)
        return replace(cited, kind="official", text=_in(language, text))
    if article is not None and hasattr(article, "summary"):
        summary = Text(nl=article.summary.text_nl, en=article.summary.text_en)
        return replace(cited, kind="summary", text=summary)
    if article is not None:
        return replace(cited, kind="title")
    return cited


def _in(language: str, text: str) -> Text:
    """Official text in the edition's language (only Dutch and English are kept)."""
    return Text(nl="", en=text) if language.startswith("en") else Text(nl=text, en="")


def build(tree: Tree) -> Snapshot:
    """The snapshot of ``tree`` as loaded now, with the law text of every citation."""
    edition = tree.edition
    prefetch_related_objects(
        [tree],
        Prefetch("nodes", queryset=Node.objects.order_by("order")),
        Prefetch(
            "nodes__choices", queryset=Choice.objects.order_by("order").select_related("target")
        ),
        Prefetch(
            "nodes__citations",
            queryset=Citation.objects.order_by("order").select_related(
                "article__summary", "provision"
            ),
        ),
    )
    citations = [c for node in tree.nodes.all() for c in node.citations.all()]
    article_ids = {c.article_id for c in citations if c.article_id}
    provisions: dict[int, list[Provision]] = {}
    children: dict[int | None, list[Provision]] = {}
    for provision in Provision.objects.filter(article_id__in=article_ids).order_by("order", "pk"):
        provisions.setdefault(provision.article_id, []).append(provision)
        children.setdefault(provision.parent_id, []).append(provision)
    language = edition.language or "nl"
    law = {c.key: _cited_law(c, edition.code, language, provisions, children) for c in citations}
    return Snapshot.of(spec_from_rows(tree), tree.version, law)


def freeze(tree: Tree) -> Snapshot:
    """The stored snapshot of ``tree`` as loaded now. Built once per loaded version and law
    import and process; after that it costs no query."""
    marker = (tree.pk, tree.version, tree.loaded_at, tree.edition.imported_at)
    with _lock:
        digest = _frozen_trees.get(marker)
        known = _cache.get(digest) if digest else None
        if known is not None and digest in _stored:
            _cache.move_to_end(digest)
            return known
    frozen = store(build(tree))
    with _lock:
        _frozen_trees[marker] = frozen.digest
    return frozen


def cite(edition: Edition, wanted: list[str]) -> dict[str, CitedLaw]:
    """The law text each canonical key in ``wanted`` shows in ``edition``, exactly as a frozen
    tree citation would show it: for a ruling that cites laws without a tree (a free ruling).
    Keys the edition does not hold are left out (the caller reports them)."""
    index = EditionIndex.build(edition)
    targets = {key: index.target(key) for key in wanted}
    resolved = {key: target for key, target in targets.items() if target[0] is not None}
    article_ids = {article_id for article_id, _provision in resolved.values()}
    articles = Article.objects.select_related("summary").in_bulk(article_ids)
    provisions: dict[int, list[Provision]] = {}
    children: dict[int | None, list[Provision]] = {}
    by_id: dict[int, Provision] = {}
    for provision in Provision.objects.filter(article_id__in=article_ids).order_by("order", "pk"):
        provisions.setdefault(provision.article_id, []).append(provision)
        children.setdefault(provision.parent_id, []).append(provision)
        by_id[provision.pk] = provision
    language = edition.language or "nl"
    cited = {}
    for key, (article_id, provision_id) in resolved.items():
        assert article_id is not None
        # An unsaved citation: the same reading as a tree's, without a node to hang it on.
        citation = Citation(
            key=key,
            article=articles[article_id],
            provision=by_id.get(provision_id) if provision_id else None,
        )
        cited[key] = _cited_law(citation, edition.code, language, provisions, children)
    return cited
