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

from django.db.models import OuterRef, Prefetch, Subquery, prefetch_related_objects

from laws import edition_law, keys
from laws.edition_law import EditionLaw
from laws.models import Edition, Provision
from lib.i18n import pick as pick_language
from lib.i18n import pick_text
from trees import progress
from trees.loading import spec_from_rows
from trees.models import Choice, Citation, Node, Tree, TreeSnapshot
from trees.spec import CitedLaw, Snapshot, Text

__all__ = [
    "CACHE_SIZE",
    "build",
    "cite",
    "cited_law",
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
    # The edition's import time comes with it: a snapshot frozen after an import tells this
    # process that its copy of the law (laws.edition_law) is out of date.
    imported_at = Edition.objects.filter(code=OuterRef("edition_code")).values("imported_at")
    row = (
        TreeSnapshot.objects.annotate(law_imported_at=Subquery(imported_at))
        .values_list("data", "edition_code", "law_imported_at")
        .get(digest=digest)
    )
    data, code, law_imported_at = row
    edition_law.note_import_time(code, law_imported_at)
    return _remember(Snapshot.from_json(data, digest))


def find(digest: Any) -> Snapshot | None:
    """The snapshot a stored ruling ran on, or None when it has none, its digest does not read
    or its tree is gone: pages and exports then show the ruling's own copies as they are."""
    if not isinstance(digest, str) or not digest:
        return None
    try:
        return get(digest)
    except (TreeSnapshot.DoesNotExist, ValueError):
        return None


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


def cited_law(key: str, law: EditionLaw) -> CitedLaw:
    """What the wizard shows for one citation: the official text where the edition holds all
    of it (the provision and everything under it, or a whole article), otherwise our summary
    nearest to the key (its own, else its nearest enclosing provision's or the article's;
    ``kind: summary``), else only the article's title."""
    parsed = keys.try_parse(key)
    article = law.articles.get(parsed.number) if parsed else None
    if parsed is None or article is None:
        return CitedLaw(key=key, edition=law.code)
    cited = CitedLaw(key=key, edition=law.code, article=article.number, article_title=article.title)
    language = article.edition.language or "nl"
    index = law.index
    children = law.children[article.pk]
    if parsed.is_article and index.official(article.number):
        top = children.get(None, [])
        parts = [article.text.strip(), *(provision_text(p, children) for p in top)]
        parts.append(article.closing_text.strip())
        text = "\n\n".join(part for part in parts if part)
        return replace(cited, kind="official", text=_in(language, text))
    if key in law.provisions and index.official(key):
        return replace(
            cited,
            kind="official",
            text=_in(language, provision_text(law.provisions[key], children)),
        )
    found = index.summary_for(key)
    if found is not None:
        return replace(cited, kind="summary", text=Text(nl=found[1].nl, en=found[1].en))
    return replace(cited, kind="title")


def _in(language: str, text: str) -> Text:
    """Official text in the edition's language (only Dutch and English are kept)."""
    return Text(nl="", en=text) if language.startswith("en") else Text(nl=text, en="")


def build(tree: Tree) -> Snapshot:
    """The snapshot of ``tree`` as loaded now, with the law text of every citation."""
    prefetch_related_objects(
        [tree],
        Prefetch("nodes", queryset=Node.objects.order_by("order")),
        Prefetch(
            "nodes__choices", queryset=Choice.objects.order_by("order").select_related("target")
        ),
        Prefetch("nodes__citations", queryset=Citation.objects.order_by("order")),
    )
    cited = [c.key for node in tree.nodes.all() for c in node.citations.all()]
    cited += [key for node in tree.nodes.all() for c in node.choices.all() for key in c.cites]
    law = _law_for(tree.edition.code, cited)
    texts = {key: cited_law(key, law) for key in cited}
    return Snapshot.of(spec_from_rows(tree), tree.version, texts)


def _law_for(code: str, cited: list[str]) -> EditionLaw:
    """The edition's law for the articles ``cited`` names (two queries)."""
    numbers = {parsed.number for key in cited if (parsed := keys.try_parse(key))}
    return edition_law.load(code, numbers)


def freeze(tree: Tree) -> Snapshot:
    """The stored snapshot of ``tree`` as loaded now. Built once per loaded version and law
    import and process; after that it costs no query."""
    marker = (tree.pk, tree.version, tree.loaded_at, tree.edition.imported_at)
    edition_law.note_import_time(tree.edition.code, tree.edition.imported_at)
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
    edition_law.note_import_time(edition.code, edition.imported_at)
    law = _law_for(edition.code, wanted)
    return {key: cited_law(key, law) for key in wanted if law.index.holds(key)}
