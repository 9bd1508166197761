"""Frozen decision trees: what a ruling runs on and shows.

:func:`freeze` copies a loaded tree (``laws.models.Tree`` with its nodes, choices and citations)
together with the law text each citation shows into plain data, stored once per content in
``TreeSnapshot`` (the primary key is the SHA-256 of the data). A ruling points at its snapshot:
reloading a tree file or re-importing law text makes new snapshots for new rulings and never
changes what a past or unfinished ruling shows.

Because a snapshot never changes, :func:`get` keeps recently used ones in memory: a wizard step
reads no tree rows at all, whatever the size of the tree.
"""

from __future__ import annotations

import hashlib
import json
import threading
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from django.db.models import Prefetch

from laws.models import Provision
from lib.i18n import pick_text
from trees.models import Choice, Citation, NodeKind, Tree, TreeSnapshot

CACHE_SIZE = 256
Text = dict[str, str]


def pick(text: Text | None, language: str | None = None) -> str:
    """The text in the active language (English when asked for and present), else Dutch."""
    return pick_text(text, language)


@dataclass(frozen=True)
class FrozenTree:
    """A snapshot's data with a few helpers; ``nodes`` maps key → node data."""

    digest: str
    data: dict[str, Any]

    @property
    def slug(self) -> str:
        return self.data["slug"]

    @property
    def version(self) -> str:
        return self.data["version"]

    @property
    def edition(self) -> str:
        return self.data["edition"]

    @property
    def title(self) -> Text:
        return self.data["title"]

    @property
    def start(self) -> str:
        return self.data["start"]

    def has_node(self, key: str) -> bool:
        return key in self.data["nodes"]

    def node(self, key: str) -> dict[str, Any]:
        return self.data["nodes"][key]

    def choice(self, node_key: str, choice_key: str) -> dict[str, Any] | None:
        for choice in self.node(node_key).get("choices", []):
            if choice["key"] == choice_key:
                return choice
        return None

    def is_outcome(self, key: str) -> bool:
        return self.node(key)["kind"] == NodeKind.OUTCOME


def digest_of(data: dict[str, Any]) -> str:
    canonical = json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


# --------------------------------------------------------------------------------------------
# Cache

_cache: OrderedDict[str, FrozenTree] = OrderedDict()
# (tree pk, version, loaded at, law import time) → digest: a loaded tree is frozen once.
_frozen_trees: dict[tuple, str] = {}
_lock = threading.Lock()


def _remember(tree: FrozenTree) -> FrozenTree:
    with _lock:
        _cache[tree.digest] = tree
        _cache.move_to_end(tree.digest)
        while len(_cache) > CACHE_SIZE:
            _cache.popitem(last=False)
    return tree


def clear_cache() -> None:
    with _lock:
        _cache.clear()
        _frozen_trees.clear()


def get(digest: str) -> FrozenTree:
    """The snapshot with this digest, from memory when it was used recently."""
    with _lock:
        tree = _cache.get(digest)
        if tree is not None:
            _cache.move_to_end(digest)
            return tree
    data = TreeSnapshot.objects.values_list("data", flat=True).get(digest=digest)
    return _remember(FrozenTree(digest, data))


def store(data: dict[str, Any], digest: str | None = None) -> FrozenTree:
    """Save ``data`` as a snapshot (once per content) and return it."""
    digest = digest or digest_of(data)
    if not TreeSnapshot.objects.filter(digest=digest).exists():
        # Two requests freezing the same tree at once write the same row: ignore the loser.
        TreeSnapshot.objects.bulk_create(
            [
                TreeSnapshot(
                    digest=digest,
                    slug=data["slug"],
                    version=data["version"],
                    edition_code=data["edition"],
                    data=data,
                )
            ],
            ignore_conflicts=True,
        )
    return _remember(FrozenTree(digest, data))


# --------------------------------------------------------------------------------------------
# Freezing a loaded tree


def _text(obj: Any, field: str) -> Text | None:
    nl, en = getattr(obj, f"{field}_nl"), getattr(obj, f"{field}_en")
    return {"nl": nl, "en": en} if (nl or en) else None


def _provision_text(provision: Provision, children: dict[int | None, list[Provision]]) -> str:
    """The provision and everything nested under it, one paragraph per provision."""
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


def _citation(
    citation: Citation,
    edition: str,
    language: str,
    provisions: dict[int, list[Provision]],
    children: dict[int | None, list[Provision]],
) -> dict[str, Any]:
    """What the wizard shows for one citation: official text where the edition has it (the
    provision, or a whole article), otherwise our summary (flagged ``kind: summary``)."""
    article = citation.article
    shown: dict[str, Any] = {
        "key": citation.key,
        "edition": edition,
        "article": article.number if article else "",
        "article_title": article.title if article else "",
        "kind": "missing",
        "text": {"nl": "", "en": ""},
    }
    if citation.provision is not None:
        shown["kind"] = "official"
        shown["text"][language] = _provision_text(citation.provision, children)
    elif article is not None and (provisions.get(article.pk) or article.text.strip()):
        top = [p for p in provisions.get(article.pk, []) if p.parent_id is None]
        parts = [article.text.strip(), *(_provision_text(p, children) for p in top)]
        parts.append(article.closing_text.strip())
        shown["kind"] = "official"
        shown["text"][language] = "\n\n".join(part for part in parts if part)
    elif article is not None and hasattr(article, "summary"):
        shown["kind"] = "summary"
        shown["text"] = {"nl": article.summary.text_nl, "en": article.summary.text_en}
    elif article is not None:
        shown["kind"] = "title"
    return shown


def freeze_data(tree: Tree) -> dict[str, Any]:
    """Plain data for ``tree`` as loaded now, with the law text of every citation."""
    edition = tree.edition
    nodes = list(
        tree.nodes.order_by("order").prefetch_related(
            Prefetch("choices", queryset=Choice.objects.order_by("order").select_related("target")),
            Prefetch(
                "citations",
                queryset=Citation.objects.order_by("order").select_related(
                    "article__summary", "provision"
                ),
            ),
        )
    )
    article_ids = {c.article_id for n in nodes for c in n.citations.all() if c.article_id}
    provisions: dict[int, list[Provision]] = {}
    children: dict[int | None, list[Provision]] = {}
    for provision in Provision.objects.filter(article_id__in=article_ids).order_by("order", "pk"):
        provisions.setdefault(provision.article_id, []).append(provision)
        children.setdefault(provision.parent_id, []).append(provision)
    language = edition.language or "nl"

    frozen_nodes: dict[str, Any] = {}
    for node in nodes:
        frozen: dict[str, Any] = {
            "kind": node.kind,
            "text": _text(node, "text"),
            "help": _text(node, "help"),
            "citations": [
                _citation(c, edition.code, language, provisions, children)
                for c in node.citations.all()
            ],
        }
        if node.kind == NodeKind.OUTCOME:
            frozen["outcome"] = {
                "ruling": _text(node, "ruling"),
                "options": _text(node, "options"),
                "chooser": node.chooser,
                "announce": _text(node, "announce"),
                "adjusted_score": node.adjusted_score,
                "unauthorised_information": node.unauthorised_information,
                "see_tree": node.see_tree or None,
            }
        else:
            frozen["choices"] = [
                {"key": c.key, "label": _text(c, "label"), "target": c.target.key}
                for c in node.choices.all()
            ]
        frozen_nodes[node.key] = frozen
    return {
        "slug": tree.slug,
        "version": tree.version,
        "edition": edition.code,
        "phase": tree.phase,
        "title": _text(tree, "title"),
        "start": tree.start_key,
        "nodes": frozen_nodes,
    }


def freeze(tree: Tree) -> FrozenTree:
    """The snapshot of ``tree`` as loaded now. Built once per loaded version and law import;
    after that one query makes sure the row is there."""
    marker = (tree.pk, tree.version, tree.loaded_at, tree.edition.imported_at)
    with _lock:
        digest = _frozen_trees.get(marker)
        known = _cache.get(digest) if digest else None
    if known is not None:
        return store(known.data, known.digest)
    frozen = store(freeze_data(tree))
    with _lock:
        _frozen_trees[marker] = frozen.digest
    return frozen
