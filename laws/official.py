"""Official text over a provision index: importing a file into an edition that has one (2017).

The edition already holds every article and provision by key, with our titles and summaries
(``laws.current_edition``). An import adds the official text of the provisions the file holds,
matched by key, and changes nothing else: it never deletes an article or a provision, never
touches our words, and a provision the file does not hold keeps showing our summary. Several
files may be imported one after another (one wiki page each); the same file twice changes
nothing.

:func:`plan_import` says what an import would do (the dry run: what gets official text, the
keys the index lacks, the cited keys still without official text); :func:`apply_import` does it
in one transaction, refusing a plan with keys the index lacks, and records the import
(``LawImport``: file, SHA-256, time, user).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from django.db import transaction
from django.utils import timezone

from laws import keys
from laws.edition_law import EditionLaw, load, provision_entry
from laws.hooks import cited_keys, relink_after_import
from laws.importer import Article as ParsedArticle
from laws.importer import LawImportError, ParsedEdition
from laws.importer import Provision as ParsedProvision
from laws.index import ProvisionIndex
from laws.loading import reference_rows, resolve_references, store_footnotes
from laws.models import Article, CrossReference, Edition, Footnote, LawImport, Provision

__all__ = ["ImportPlan", "apply_import", "plan_import", "run_import"]

_OFFICIAL = ("label", "heading", "text", "closing_text")


@dataclass
class ImportPlan:
    """What importing one file into an edition with a provision index would do."""

    edition: Edition
    file_name: str
    sha256: str
    parsed: ParsedEdition
    law: EditionLaw
    refused: list[str] = field(default_factory=list)  # keys the index lacks, law-book order
    new: list[str] = field(default_factory=list)  # provisions that get official text
    changed: list[str] = field(default_factory=list)  # provisions whose official text changes
    unchanged: list[str] = field(default_factory=list)
    articles: list[str] = field(default_factory=list)  # articles whose own text changes
    footnotes_changed: list[str] = field(default_factory=list)  # articles
    cited_without_text: list[str] = field(default_factory=list)
    earlier: LawImport | None = None  # the same file, imported before

    @property
    def changes(self) -> bool:
        return bool(self.new or self.changed or self.articles or self.footnotes_changed)

    def refusal(self) -> str:
        shown = ", ".join(self.refused[:20]) + (" …" if len(self.refused) > 20 else "")
        return (
            f"{len(self.refused)} key(s) in {self.file_name} are not in the provision index of "
            f"edition {self.edition.code}: {shown}; nothing imported"
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "edition": self.edition.code,
            "file": self.file_name,
            "sha256": self.sha256,
            "refused": self.refused,
            "new": self.new,
            "changed": self.changed,
            "unchanged": self.unchanged,
            "articles": self.articles,
            "footnotes_changed": self.footnotes_changed,
            "cited_without_text": self.cited_without_text,
            "already_imported": self.earlier.imported_at.isoformat() if self.earlier else None,
            "parsed": self.parsed.to_json_dict(),
        }

    def lines(self) -> list[str]:
        """The dry run in words, one line per fact."""
        code = self.edition.code
        found = [
            f"Dry run for edition {code} (provision index): nothing is written.",
            f"File {self.file_name} (SHA-256 {self.sha256[:16]}…): "
            f"{len(self.parsed.articles)} articles, {self.parsed.provision_count} provisions",
        ]
        if self.earlier is not None:
            found.append(f"This file was imported before, on {self.earlier.imported_at:%Y-%m-%d}")
        if self.refused:
            found.append(f"Refused: {self.refusal()}")
        for what, listed in (
            ("Official text for", self.new),
            ("Official text changes for", self.changed),
            ("Unchanged", self.unchanged),
        ):
            if listed:
                found.append(f"{what} {len(listed)} provisions: {', '.join(listed)}")
        if self.articles:
            found.append(f"Article text (introduction, closing) of: {', '.join(self.articles)}")
        if not self.changes and not self.refused:
            found.append("Nothing would change.")
        if self.cited_without_text:
            found.append(
                f"Cited keys still without official text ({len(self.cited_without_text)}): "
                + ", ".join(self.cited_without_text)
            )
        return found


def _covers_article(parsed: ParsedEdition, article: ParsedArticle) -> bool:
    """Whether the file holds the article from its start (not from ``--start 74B`` on)."""
    start = keys.try_parse(parsed.start or "")
    return start is None or start.is_article or start.number != article.number


def _held(parsed: ParsedEdition, article: ParsedArticle) -> list[ParsedProvision]:
    """The provisions whose official text the file holds: all it names, except the provision
    a page starts inside (``--start 74B``) when the page gives none of its own text."""
    start = keys.canonical(parsed.start) if parsed.start else ""
    return [
        node
        for node in article.walk()
        if node.key != start or node.heading or node.text or node.closing
    ]


def _footnotes(rows: list[Footnote]) -> list[tuple[str, str, str]]:
    return [(f.marker, f.text, f.provision.key if f.provision else "") for f in rows]


def _planned_footnotes(article: ParsedArticle, held: set[str]) -> list[tuple[str, str, str]]:
    return [(f.marker, f.text, f.key if f.key in held else "") for f in article.footnotes]


def _plan_article(plan: ImportPlan, parsed: ParsedArticle, existing: list[Footnote]) -> None:
    row = plan.law.articles.get(parsed.number)
    if row is None:
        plan.refused.append(parsed.number)
        return
    covered = _covers_article(plan.parsed, parsed)
    if covered and (row.text, row.closing_text) != (parsed.text, parsed.closing):
        plan.articles.append(parsed.number)
    walked = _held(plan.parsed, parsed)
    for node in walked:
        provision = plan.law.provisions.get(node.key)
        if provision is None or provision.article_id != row.pk:
            plan.refused.append(node.key)
            continue
        wanted = (node.label, node.heading or "", node.text, node.closing)
        if tuple(getattr(provision, name) for name in _OFFICIAL) == wanted:
            plan.unchanged.append(node.key)
        elif provision.has_text or provision.imported_from_id:
            plan.changed.append(node.key)
        else:
            plan.new.append(node.key)
    keys_held = {node.key for node in walked}
    in_scope = [f for f in existing if (f.provision.key in keys_held if f.provision else covered)]
    if _footnotes(in_scope) != _planned_footnotes(parsed, keys_held):
        plan.footnotes_changed.append(parsed.number)


def _cited_without_text(plan: ImportPlan) -> list[str]:
    """The keys trees and training cases cite that would still have no official text."""
    planned = {
        node.key: bool(node.heading or node.text or node.closing)
        for article in plan.parsed.articles
        for node in _held(plan.parsed, article)
    }
    law = plan.law
    index = ProvisionIndex.build(
        law.code,
        law.index.articles.values(),
        (
            replace(provision_entry(row), has_text=planned.get(key, row.has_text))
            for key, row in law.provisions.items()
        ),
    )
    cited = sorted(
        (parsed for key in cited_keys(law.code) if (parsed := keys.try_parse(key))),
    )
    return [str(key) for key in cited if index.holds(str(key)) and not index.official(str(key))]


def plan_import(
    edition: Edition, parsed: ParsedEdition, *, file_name: str, sha256: str
) -> ImportPlan:
    """What importing ``parsed`` (the file ``file_name``) into ``edition`` would do."""
    numbers = [article.number for article in parsed.articles]
    duplicates = sorted({n for n in numbers if numbers.count(n) > 1})
    if duplicates:
        raise LawImportError(f"article {duplicates[0]} occurs twice in the input")
    plan = ImportPlan(
        edition=edition, file_name=file_name, sha256=sha256, parsed=parsed, law=load(edition.code)
    )
    footnotes: dict[int, list[Footnote]] = {}
    for footnote in (
        Footnote.objects.filter(article__edition=edition, article__number__in=numbers)
        .select_related("provision")
        .order_by("order", "pk")
    ):
        footnotes.setdefault(footnote.article_id, []).append(footnote)
    for article in parsed.articles:
        row = plan.law.articles.get(article.number)
        _plan_article(plan, article, footnotes.get(row.pk, []) if row else [])
    plan.refused = [str(k) for k in sorted(keys.parse(key) for key in set(plan.refused))]
    plan.cited_without_text = _cited_without_text(plan)
    plan.earlier = edition.imports.filter(sha256=sha256).first()
    return plan


@transaction.atomic
def apply_import(plan: ImportPlan, user: Any = None) -> LawImport | None:
    """Write ``plan``: the official text of every provision the file holds, the article text
    it holds, its footnotes and references. None when nothing changes (the same file again).
    Raises LawImportError, writing nothing, when the file holds keys the index lacks."""
    if plan.refused:
        raise LawImportError(plan.refusal())
    if not plan.changes:
        return None
    now = timezone.now()
    record = LawImport.objects.create(
        edition=plan.edition,
        file_name=plan.file_name[:255],
        sha256=plan.sha256,
        imported_at=now,
        user=user,
        articles=len(plan.parsed.articles),
        provisions=len(plan.new) + len(plan.changed),
    )
    for parsed in plan.parsed.articles:
        _write_article(plan, parsed, record)
    resolve_references(plan.edition)
    plan.edition.imported_at = now
    plan.edition.save(update_fields=["imported_at"])
    return record


def _write_article(plan: ImportPlan, parsed: ParsedArticle, record: LawImport) -> None:
    article = plan.law.articles[parsed.number]
    covered = _covers_article(plan.parsed, parsed)
    if covered:
        Article.objects.filter(pk=article.pk).update(
            text=parsed.text, closing_text=parsed.closing, imported_from=record
        )
    # Every provision the file names, for its footnotes and references; only those it holds
    # text for are written.
    by_key = {node.key: plan.law.provisions[node.key] for node in parsed.walk()}
    held = _held(plan.parsed, parsed)
    rewritten: list[Provision] = []
    for node in held:
        row = by_key[node.key]
        values = (node.label, node.heading or "", node.text, node.closing)
        if tuple(getattr(row, name) for name in _OFFICIAL) != values:
            for name, value in zip(_OFFICIAL, values, strict=True):
                setattr(row, name, value)
            row.imported_from = record
            rewritten.append(row)
    Provision.objects.bulk_update(rewritten, [*_OFFICIAL, "imported_from"])
    # The footnotes and references of what the file holds are the file's, written anew.
    scope = [by_key[node.key].pk for node in held]
    Footnote.objects.filter(article=article, provision_id__in=scope).delete()
    CrossReference.objects.filter(
        article=article, provision_id__in=scope, footnote__isnull=True
    ).delete()
    if covered:
        Footnote.objects.filter(article=article, provision__isnull=True).delete()
        CrossReference.objects.filter(
            article=article, provision__isnull=True, footnote__isnull=True
        ).delete()
    footnotes = store_footnotes(article, parsed, by_key)
    CrossReference.objects.bulk_create(reference_rows(article, parsed, by_key, footnotes))


def run_import(plan: ImportPlan, user: Any = None) -> LawImport | None:
    """:func:`apply_import`, then tell the apps that cite law text (tree citations, the cached
    law of this process) that the edition changed."""
    record = apply_import(plan, user)
    if record is not None:
        relink_after_import(plan.edition)
    return record
