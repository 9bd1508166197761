"""Write parsed law text into the database, and load the shipped editions.

``store_edition`` takes the importer's ``ParsedEdition`` and stores it in one transaction, as
the whole text of an edition without a provision index (the seeds; official text for an
edition with an index is added over it by ``laws.official``). ``bootstrap_laws`` imports the
seeds in ``laws/seeds/`` (never over text a club imported), the current edition from its
provision index (``laws.current_edition``) and our summaries of the seed articles, skipping
whatever is already loaded and unchanged.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from django.db import transaction
from django.utils import timezone

from laws import keys
from laws.current_edition import bootstrap_current, read_yaml, set_summary
from laws.importer import Article as ParsedArticle
from laws.importer import LawImportError, ParsedEdition, parse_bytes
from laws.importer import Provision as ParsedProvision
from laws.models import Article, CrossReference, Edition, Footnote, LawImport, Provision

LAWS_DIR = Path(__file__).resolve().parent
SEEDS_DIR = LAWS_DIR / "seeds"
SUMMARIES_FILE = LAWS_DIR / "data" / "summaries.yaml"


@dataclass(frozen=True)
class Seed:
    file: str
    edition: str
    start: str | None
    note: str


# 001 is PDF text that begins inside Art. 62 with item "2." of section B (62B2).
SEEDS = [
    Seed("000_c0d9362b67ea3467.txt", "1963", None, "Art. 50–52 (strafkaart), wiki-export"),
    Seed("002_a0057157c6d8e1b2.txt", "1987", None, "Art. 47 (terugnemen), wiki-export"),
    Seed("001_e9318628a0090252.txt", "2007", "62B", "Art. 62B2–63A1 (verzaking), uit een PDF"),
]

_EDITION_CODE_RE = re.compile(r"^(19|20)\d\d$")


@dataclass(frozen=True)
class StoreSummary:
    edition: str
    articles: int
    provisions: int
    footnotes: int
    references: int
    resolved: int

    def __str__(self) -> str:
        return (
            f"Edition {self.edition}: {self.articles} articles, {self.provisions} provisions, "
            f"{self.footnotes} footnotes, {self.references} references "
            f"({self.resolved} resolved) imported"
        )


def content_hash(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def check_edition_code(code: str) -> None:
    """An edition code is a year (``1987``, ``2017``) or the code of an existing edition."""
    if not _EDITION_CODE_RE.match(code) and not Edition.objects.filter(code=code).exists():
        raise LawImportError(f"unknown edition code {code!r}: use a year such as 2007")


def get_or_create_edition(code: str, language: str = "nl") -> Edition:
    check_edition_code(code)
    edition, _ = Edition.objects.get_or_create(
        code=code,
        defaults={
            "language": language,
            "title": f"Spelregels {code}",
            "title_en": f"Laws of Duplicate Bridge {code}",
        },
    )
    return edition


def has_index(edition: Edition) -> bool:
    """Whether ``edition`` has a provision index (our words for its provisions, as 2017 has):
    official text is then added over it provision by provision (``laws.official``), never
    stored as a replacement of the whole edition."""
    return Provision.objects.filter(article__edition=edition).exclude(our_title_nl="").exists()


@transaction.atomic
def store_edition(
    parsed: ParsedEdition,
    edition: Edition,
    *,
    replace: bool = False,
    source_hash: str = "",
    file_name: str = "",
    user: Any = None,
    shipped: bool = False,
) -> StoreSummary:
    """Store ``parsed`` as the text of ``edition``: all of it or, on any error, nothing.

    An edition that already has articles is only overwritten with ``replace``, and never an
    edition with a provision index. References are resolved after every article exists, so a
    reference to a later article resolves too. The import is recorded (``LawImport``: the file,
    its hash, the time, the user; ``shipped`` for a seed loaded by bootstrap).
    """
    if has_index(edition):
        raise LawImportError(
            f"edition {edition.code} has a provision index: its official text is added "
            "provision by provision, without --replace"
        )
    existing = edition.articles.count()
    if existing and not replace:
        raise LawImportError(
            f"edition {edition.code} already has {existing} articles: use --replace to overwrite"
        )
    numbers = [article.number for article in parsed.articles]
    duplicates = sorted({n for n in numbers if numbers.count(n) > 1})
    if duplicates:
        raise LawImportError(f"article {duplicates[0]} occurs twice in the input")
    edition.articles.all().delete()
    now = timezone.now()
    record = LawImport.objects.create(
        edition=edition,
        file_name=file_name[:255],
        sha256=source_hash,
        imported_at=now,
        user=user,
        shipped=shipped,
        articles=len(parsed.articles),
        provisions=parsed.provision_count,
    )

    articles = Article.objects.bulk_create(
        Article(
            edition=edition,
            number=parsed_article.number,
            title=parsed_article.title or "",
            group=parsed_article.group or "",
            order=index,
            text=parsed_article.text,
            closing_text=parsed_article.closing,
            imported_from=record,
        )
        for index, parsed_article in enumerate(parsed.articles)
    )
    references: list[CrossReference] = []
    footnote_count = provision_count = 0
    for article, parsed_article in zip(articles, parsed.articles, strict=True):
        by_key = _store_provisions(article, parsed_article, record)
        provision_count += len(by_key)
        footnotes = store_footnotes(article, parsed_article, by_key)
        footnote_count += len(footnotes)
        references += reference_rows(article, parsed_article, by_key, footnotes)
    CrossReference.objects.bulk_create(references)
    resolved = resolve_references(edition)

    edition.source_hash = source_hash
    edition.imported_at = now
    edition.save(update_fields=["source_hash", "imported_at"])
    return StoreSummary(
        edition=edition.code,
        articles=len(articles),
        provisions=provision_count,
        footnotes=footnote_count,
        references=len(references),
        resolved=resolved,
    )


def _store_provisions(
    article: Article, parsed: ParsedArticle, record: LawImport
) -> dict[str, Provision]:
    """Create the provision tree one depth at a time, so parents have ids before children."""
    by_key: dict[str, Provision] = {}
    order = {p.key: index for index, p in enumerate(parsed.walk())}
    level: list[tuple[ParsedProvision, Provision | None]] = [(p, None) for p in parsed.provisions]
    while level:
        created = Provision.objects.bulk_create(
            Provision(
                article=article,
                parent=parent,
                label=node.label,
                key=node.key,
                heading=node.heading or "",
                text=node.text,
                closing_text=node.closing,
                order=order[node.key],
                imported_from=record,
            )
            for node, parent in level
        )
        by_key.update((p.key, p) for p in created)
        level = [
            (child, provision)
            for (node, _), provision in zip(level, created, strict=True)
            for child in node.children
        ]
    return by_key


def store_footnotes(
    article: Article, parsed: ParsedArticle, by_key: dict[str, Provision]
) -> list[Footnote]:
    # A footnote's key is the provision its marker stands in, or the article number.
    return Footnote.objects.bulk_create(
        Footnote(
            article=article,
            provision=by_key.get(footnote.key or ""),
            marker=footnote.marker,
            text=footnote.text,
            order=index,
        )
        for index, footnote in enumerate(parsed.footnotes)
    )


def reference_rows(
    article: Article,
    parsed: ParsedArticle,
    by_key: dict[str, Provision],
    footnotes: list[Footnote],
) -> list[CrossReference]:
    rows = [
        CrossReference(article=article, raw=ref.raw, target_key=ref.key)
        for ref in parsed.references
    ]
    for node in parsed.walk():
        rows += [
            CrossReference(article=article, provision=by_key[node.key], raw=r.raw, target_key=r.key)
            for r in node.references
        ]
    for footnote, parsed_footnote in zip(footnotes, parsed.footnotes, strict=True):
        rows += [
            CrossReference(
                article=article,
                provision=footnote.provision,
                footnote=footnote,
                raw=r.raw,
                target_key=r.key,
            )
            for r in parsed_footnote.references
        ]
    for index, row in enumerate(rows):
        row.order = index
    return rows


def resolve_references(edition: Edition) -> int:
    """Point every cross-reference of ``edition`` at its target in the same edition.

    The target is the provision with the key, else its nearest enclosing provision that
    exists (``45C4(b)`` -> ``45C4``), else the article alone. Returns how many resolved.
    """
    articles = {a.number: a for a in edition.articles.all()}
    provisions = {p.key: p for p in Provision.objects.filter(article__edition=edition)}
    rows = list(CrossReference.objects.filter(article__edition=edition))
    resolved = 0
    for row in rows:
        target = keys.try_parse(row.target_key)
        row.target_article = articles.get(target.number) if target else None
        row.target_provision = None
        if target and row.target_article:
            # the provision itself, else the nearest enclosing provision that exists
            for key in target.lineage:
                if str(key) in provisions:
                    row.target_provision = provisions[str(key)]
                    break
        resolved += row.target_article is not None
    CrossReference.objects.bulk_update(rows, ["target_article", "target_provision"])
    return resolved


# --------------------------------------------------------------------------------------------
# Bootstrap


def bootstrap_laws(stdout: IO[str]) -> None:
    """Load the shipped editions; running it again changes nothing unless a source changed."""
    for seed in SEEDS:
        _bootstrap_seed(seed, stdout)
    bootstrap_current(stdout)
    _bootstrap_summaries(stdout)


def _bootstrap_seed(seed: Seed, stdout: IO[str]) -> None:
    data = (SEEDS_DIR / seed.file).read_bytes()
    digest = content_hash(data)
    edition = Edition.objects.filter(code=seed.edition).first()
    if edition and edition.source_hash == digest and edition.articles.exists():
        stdout.write(f"Edition {seed.edition}: up to date\n")
        return
    latest = edition.imports.first() if edition else None
    if latest is not None and not latest.shipped:
        # A club imported its own text into this edition: the seed never replaces it.
        stdout.write(
            f"Edition {seed.edition}: holds text imported from {latest.file_name or '?'}; "
            "the shipped seed is not loaded over it\n"
        )
        return
    parsed = parse_bytes(data, seed.edition, seed.start)
    with transaction.atomic():
        if edition is None:
            edition = Edition.objects.create(
                code=seed.edition,
                language="nl",
                title=f"Spelregels {seed.edition}",
                title_en=f"Laws of Duplicate Bridge {seed.edition}",
                source_note=f"{seed.note} ({seed.file})",
            )
        summary = store_edition(
            parsed, edition, replace=True, source_hash=digest, file_name=seed.file, shipped=True
        )
    stdout.write(f"{summary}\n")


def _bootstrap_summaries(stdout: IO[str]) -> None:
    """Our summaries of the seed editions' articles (a re-imported seed loses them)."""
    if not SUMMARIES_FILE.exists():
        return
    entries = read_yaml(SUMMARIES_FILE) or []
    articles = {
        (a.edition.code, a.number): a
        for a in Article.objects.filter(
            edition__code__in=[s.edition for s in SEEDS]
        ).select_related("edition")
    }
    changed = 0
    for entry in entries:
        article = articles.get((str(entry.get("edition")), str(entry.get("number"))))
        if article is None:
            stdout.write(
                f"Summary for {entry.get('edition')} art. {entry.get('number')}: no such article\n"
            )
            continue
        changed += set_summary(article, entry.get("summary"))
    stdout.write(f"Summaries: {changed} updated\n" if changed else "Summaries: up to date\n")
