"""Write parsed law text into the database, and load the shipped editions.

``store_edition`` takes the importer's ``ParsedEdition`` and stores it in one transaction;
``bootstrap_laws`` imports the seeds in ``laws/seeds/`` and the current edition's article list
from ``laws/data/edition-2017.yaml``, skipping whatever is already loaded and unchanged.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

import yaml
from django.db import transaction
from django.utils import timezone

from laws import keys
from laws.importer import Article as ParsedArticle
from laws.importer import LawImportError, ParsedEdition, parse_bytes
from laws.importer import Provision as ParsedProvision
from laws.models import Article, ArticleSummary, CrossReference, Edition, Footnote, Provision
from lib import yamltext

LAWS_DIR = Path(__file__).resolve().parent
SEEDS_DIR = LAWS_DIR / "seeds"
CURRENT_EDITION_FILE = LAWS_DIR / "data" / "edition-2017.yaml"
SUMMARIES_FILE = LAWS_DIR / "data" / "summaries.yaml"
CURRENT_EDITION = "2017"


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
        code=code, defaults={"language": language, "title": f"Spelregels {code}"}
    )
    return edition


@transaction.atomic
def store_edition(
    parsed: ParsedEdition, edition: Edition, *, replace: bool = False, source_hash: str = ""
) -> StoreSummary:
    """Store ``parsed`` as the text of ``edition``: all of it or, on any error, nothing.

    An edition that already has articles is only overwritten with ``replace``. References are
    resolved after every article exists, so a reference to a later article resolves too.
    """
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

    articles = Article.objects.bulk_create(
        Article(
            edition=edition,
            number=parsed_article.number,
            title=parsed_article.title or "",
            group=parsed_article.group or "",
            order=index,
            text=parsed_article.text,
            closing_text=parsed_article.closing,
        )
        for index, parsed_article in enumerate(parsed.articles)
    )
    references: list[CrossReference] = []
    footnote_count = provision_count = 0
    for article, parsed_article in zip(articles, parsed.articles, strict=True):
        by_key = _store_provisions(article, parsed_article)
        provision_count += len(by_key)
        footnotes = _store_footnotes(article, parsed_article, by_key)
        footnote_count += len(footnotes)
        references += _reference_rows(article, parsed_article, by_key, footnotes)
    CrossReference.objects.bulk_create(references)
    resolved = resolve_references(edition)

    edition.source_hash = source_hash
    edition.imported_at = timezone.now()
    edition.save(update_fields=["source_hash", "imported_at"])
    return StoreSummary(
        edition=edition.code,
        articles=len(articles),
        provisions=provision_count,
        footnotes=footnote_count,
        references=len(references),
        resolved=resolved,
    )


def _store_provisions(article: Article, parsed: ParsedArticle) -> dict[str, Provision]:
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


def _store_footnotes(
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


def _reference_rows(
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
    _bootstrap_current(stdout)
    _bootstrap_summaries(stdout)


def _bootstrap_seed(seed: Seed, stdout: IO[str]) -> None:
    data = (SEEDS_DIR / seed.file).read_bytes()
    digest = content_hash(data)
    edition = Edition.objects.filter(code=seed.edition).first()
    if edition and edition.source_hash == digest and edition.articles.exists():
        stdout.write(f"Edition {seed.edition}: up to date\n")
        return
    parsed = parse_bytes(data, seed.edition, seed.start)
    with transaction.atomic():
        if edition is None:
            edition = Edition.objects.create(
                code=seed.edition,
                language="nl",
                title=f"Spelregels {seed.edition}",
                source_note=f"{seed.note} ({seed.file})",
            )
        summary = store_edition(parsed, edition, replace=True, source_hash=digest)
    stdout.write(f"{summary}\n")


def _read_yaml(path: Path) -> Any:
    try:
        return yamltext.load(path.read_text(encoding="utf-8"))
    except yaml.YAMLError as error:
        raise LawImportError(f"{path.name}: not valid YAML ({error.__class__.__name__})") from None


def _text(value: Any, language: str) -> str:
    """``{"nl": ..., "en": ...}`` or a plain string (Dutch)."""
    if isinstance(value, dict):
        return str(value.get(language) or "").strip()
    return str(value or "").strip() if language == "nl" else ""


def _bootstrap_current(stdout: IO[str]) -> None:
    """Edition 2017: article numbers, titles and our summaries, no official text."""
    data = CURRENT_EDITION_FILE.read_bytes() if CURRENT_EDITION_FILE.exists() else b""
    digest = content_hash(data) if data else ""
    edition, created = Edition.objects.get_or_create(
        code=CURRENT_EDITION,
        defaults={"language": "nl", "title": f"Spelregels {CURRENT_EDITION}", "is_current": True},
    )
    if not edition.is_current:
        edition.is_current = True
        edition.save(update_fields=["is_current"])
    Edition.objects.exclude(pk=edition.pk).filter(is_current=True).update(is_current=False)
    # Loaded before English titles were kept: load again once to fill them in.
    titles_missing = bool(data) and not edition.title_en
    if not created and edition.source_hash == digest and not titles_missing:
        stdout.write(f"Edition {CURRENT_EDITION}: up to date\n")
        return
    if not data:
        stdout.write(f"Edition {CURRENT_EDITION}: no {CURRENT_EDITION_FILE.name}, no articles\n")
        return
    document = _read_yaml(CURRENT_EDITION_FILE)
    entries = document.get("articles") if isinstance(document, dict) else None
    if not isinstance(entries, list) or not all(
        isinstance(entry, dict) and entry.get("number") for entry in entries
    ):
        raise LawImportError(f"{CURRENT_EDITION_FILE.name}: every article needs a number")
    with transaction.atomic():
        count = _store_current(edition, entries)
        edition.title = _text(document.get("title"), "nl") or edition.title
        edition.title_en = _text(document.get("title"), "en")
        edition.source_note = _text(document.get("source"), "nl")
        edition.source_hash = digest
        edition.imported_at = timezone.now()
        edition.save()
    stdout.write(f"Edition {CURRENT_EDITION}: {count} articles with summaries loaded\n")


def _store_current(edition: Edition, entries: list[dict[str, Any]]) -> int:
    numbers = []
    for order, entry in enumerate(entries):
        number = str(entry["number"]).strip()
        numbers.append(number)
        article, _ = Article.objects.update_or_create(
            edition=edition,
            number=number,
            defaults={
                "title": _text(entry.get("title"), "nl"),
                "title_en": _text(entry.get("title"), "en"),
                "order": order,
            },
        )
        _set_summary(article, entry.get("summary"))
    edition.articles.exclude(number__in=numbers).delete()  # dropped from the file
    return len(numbers)


def _set_summary(article: Article, summary: Any) -> bool:
    """Give ``article`` this summary (nl/en); True when that changed anything."""
    text_nl, text_en = _text(summary, "nl"), _text(summary, "en")
    current = ArticleSummary.objects.filter(article=article).first()
    if not text_nl:
        if current is None:
            return False
        current.delete()
        return True
    if current and (current.text_nl, current.text_en) == (text_nl, text_en):
        return False
    ArticleSummary.objects.update_or_create(
        article=article, defaults={"text_nl": text_nl, "text_en": text_en}
    )
    return True


def _bootstrap_summaries(stdout: IO[str]) -> None:
    """Our summaries of the seed editions' articles (a re-imported seed loses them)."""
    if not SUMMARIES_FILE.exists():
        return
    entries = _read_yaml(SUMMARIES_FILE) or []
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
        changed += _set_summary(article, entry.get("summary"))
    stdout.write(f"Summaries: {changed} updated\n" if changed else "Summaries: up to date\n")
