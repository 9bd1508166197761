"""The current edition (2017) as Leidraad ships it: OUR words for every article and provision.

Two sources, both in ``laws/data/``:

- ``edition-2017.yaml``: the edition's title and source note, and our summary of an article
  (``articles: [{number, summary}]``);
- ``provisions-2017/*.yaml``, the provision index (format: docs/TREE_FORMAT.md, "Citations",
  and the comment at the top of each file): every law with its Dutch and English title, and
  every provision of it down to the last level (``13A``, ``13A1``, ``16B1(a)``,
  ``12C1(e)(i)``) with our title or gist and, where given, our summary.

Article titles live in the index only. :func:`bootstrap_current` stores both as rows
(``Article``, ``ArticleSummary``, ``Provision`` with ``our_*`` fields) and is idempotent: while
the files are unchanged it writes nothing; a changed file updates our words and the structure of
the index, and never the official text an import wrote (``Provision.label``/``heading``/
``text``/``closing_text``), never an article, and never a provision that holds official text.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

import yaml
from django.db import transaction
from django.utils import timezone

from laws import keys
from laws.importer import LawImportError
from laws.index import ArticleEntry, ProvisionEntry, ProvisionIndex, Words
from laws.models import Article, ArticleSummary, Edition, Provision
from lib import yamltext

DATA_DIR = Path(__file__).resolve().parent / "data"
CURRENT_EDITION_FILE = DATA_DIR / "edition-2017.yaml"
INDEX_DIR = DATA_DIR / "provisions-2017"
CURRENT_EDITION = "2017"


# --------------------------------------------------------------------------------------------
# Reading the files


def read_yaml(path: Path) -> Any:
    try:
        return yamltext.load(path.read_text(encoding="utf-8"))
    except yaml.YAMLError as error:
        raise LawImportError(f"{path.name}: not valid YAML ({error.__class__.__name__})") from None


def text_of(value: Any, language: str) -> str:
    """``{"nl": ..., "en": ...}`` or a plain string (Dutch)."""
    if isinstance(value, dict):
        return str(value.get(language) or "").strip()
    return str(value or "").strip() if language == "nl" else ""


def words(value: Any) -> Words:
    return Words(text_of(value, "nl"), text_of(value, "en"))


@dataclass(frozen=True)
class IndexedProvision:
    key: str
    title: Words
    summary: Words


@dataclass(frozen=True)
class IndexedLaw:
    number: str
    title: Words
    provisions: tuple[IndexedProvision, ...]


def _provision(entry: Any, number: str, seen: set[str], where: str) -> IndexedProvision:
    if not isinstance(entry, dict) or not isinstance(entry.get("key"), str):
        raise LawImportError(f"{where}: every provision needs a quoted key")
    key = entry["key"]
    parsed = keys.try_parse(key)
    if parsed is None or str(parsed) != key:
        raise LawImportError(f"{where}: {key!r} is not a canonical key")
    if parsed.number != number or parsed.is_article:
        raise LawImportError(f"{where}: {key} is not a provision of law {number}")
    if key in seen:
        raise LawImportError(f"{where}: {key} is listed twice")
    parent = parsed.parent
    if parent is not None and not parent.is_article and str(parent) not in seen:
        raise LawImportError(f"{where}: {key} comes before its parent {parent}")
    title = words(entry.get("title"))
    if not (title.nl and title.en):
        raise LawImportError(f"{where}: {key} needs a Dutch and an English title")
    return IndexedProvision(key, title, words(entry.get("summary")))


def read_index_file(path: Path) -> list[IndexedLaw]:
    """The laws of one index file, checked: canonical keys of the law, each once, parents
    first, titles in both languages. Raises LawImportError naming the file and the key."""
    document = read_yaml(path)
    entries = document.get("laws") if isinstance(document, dict) else None
    if not isinstance(entries, list):
        raise LawImportError(f"{path.name}: a 'laws:' list is expected")
    laws = []
    for entry in entries:
        number = entry.get("number") if isinstance(entry, dict) else None
        if (
            not isinstance(number, str)
            or not keys.try_parse(number)
            or number != keys.canonical(number)
        ):
            raise LawImportError(f'{path.name}: every law needs a quoted number such as "13"')
        where = f"{path.name}: law {number}"
        title = words(entry.get("title"))
        if not (title.nl and title.en):
            raise LawImportError(f"{where}: a Dutch and an English title are needed")
        seen: set[str] = set()
        provisions = []
        for item in entry.get("provisions") or []:
            provision = _provision(item, number, seen, where)
            seen.add(provision.key)
            provisions.append(provision)
        laws.append(IndexedLaw(number, title, tuple(provisions)))
    return laws


def index_files(directory: Path | None = None) -> list[Path]:
    """The index files (``INDEX_DIR`` unless another directory is given)."""
    directory = directory or INDEX_DIR
    return sorted(directory.glob("*.yaml")) if directory.is_dir() else []


def read_index(directory: Path | None = None) -> list[IndexedLaw]:
    """Every law of the index, in law order; a law in two files is refused."""
    laws: dict[str, IndexedLaw] = {}
    for path in index_files(directory):
        for law in read_index_file(path):
            if law.number in laws:
                raise LawImportError(f"{path.name}: law {law.number} is also in another file")
            laws[law.number] = law
    return [laws[number] for number in sorted(laws, key=int)]


def index_from_files(directory: Path | None = None) -> ProvisionIndex:
    """The key index of edition 2017 as the files give it, without a database (for checking
    the tree and case files)."""
    laws = read_index(directory)
    return ProvisionIndex.build(
        CURRENT_EDITION,
        (ArticleEntry(law.number, title=law.title) for law in laws),
        (
            ProvisionEntry(p.key, title=p.title, summary=p.summary)
            for law in laws
            for p in law.provisions
        ),
    )


def _digest(paths: list[Path]) -> str:
    digest = hashlib.sha256()
    for path in paths:
        digest.update(path.name.encode("utf-8") + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


# --------------------------------------------------------------------------------------------
# Storing


def set_summary(article: Article, summary: Any) -> bool:
    """Give ``article`` this summary (nl/en); True when that changed anything."""
    text_nl, text_en = text_of(summary, "nl"), text_of(summary, "en")
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


_OUR_WORDS = ("our_title_nl", "our_title_en", "our_summary_nl", "our_summary_en")


def _our_words(provision: IndexedProvision) -> dict[str, str]:
    return {
        "our_title_nl": provision.title.nl,
        "our_title_en": provision.title.en,
        "our_summary_nl": provision.summary.nl,
        "our_summary_en": provision.summary.en,
    }


def _store_provisions(article: Article, law: IndexedLaw) -> int:
    """Create, update or drop the article's index rows; the number of rows written."""
    existing = {p.key: p for p in Provision.objects.filter(article=article)}
    created = 0
    changed: list[Provision] = []
    for order, entry in enumerate(law.provisions):
        parsed = keys.parse(entry.key)
        parent = existing.get(str(parsed.parent)) if parsed.parent is not None else None
        values: dict[str, Any] = {
            **_our_words(entry),
            "order": order,
            "parent_id": parent.pk if parent else None,
        }
        row = existing.get(entry.key)
        if row is None:
            # One at a time: its children need its id (only when the index grew).
            existing[entry.key] = Provision.objects.create(
                article=article, key=entry.key, label=parsed.label, **values
            )
            created += 1
        elif any(getattr(row, name) != value for name, value in values.items()):
            for name, value in values.items():
                setattr(row, name, value)
            changed.append(row)
    Provision.objects.bulk_update(changed, [*_OUR_WORDS, "order", "parent"])
    indexed = {entry.key for entry in law.provisions}
    # A row the index dropped goes, unless an import gave it official text.
    dropped = [
        row.pk
        for key, row in existing.items()
        if key not in indexed and not (row.has_text or row.imported_from_id)
    ]
    Provision.objects.filter(pk__in=dropped).delete()
    return created + len(changed) + len(dropped)


def _store_article(edition: Edition, order: int, law: IndexedLaw, summary: Any) -> int:
    values = {"title": law.title.nl, "title_en": law.title.en, "order": order}
    article = Article.objects.filter(edition=edition, number=law.number).first()
    changes = 0
    if article is None:
        article = Article.objects.create(edition=edition, number=law.number, **values)
        changes += 1
    elif any(getattr(article, name) != value for name, value in values.items()):
        Article.objects.filter(pk=article.pk).update(**values)
        changes += 1
    changes += set_summary(article, summary)
    return changes + _store_provisions(article, law)


def bootstrap_current(stdout: IO[str]) -> None:
    """Load edition 2017 from the edition file and the provision index (see the module
    docstring); running it again writes nothing unless a file changed."""
    paths = [p for p in [CURRENT_EDITION_FILE, *index_files()] if p.exists()]
    digest = _digest(paths) if paths else ""
    edition, created = Edition.objects.get_or_create(
        code=CURRENT_EDITION,
        defaults={"language": "nl", "title": f"Spelregels {CURRENT_EDITION}", "is_current": True},
    )
    if not edition.is_current:
        edition.is_current = True
        edition.save(update_fields=["is_current"])
    Edition.objects.exclude(pk=edition.pk).filter(is_current=True).update(is_current=False)
    if not created and edition.source_hash == digest:
        stdout.write(f"Edition {CURRENT_EDITION}: up to date\n")
        return
    if not paths:
        stdout.write(f"Edition {CURRENT_EDITION}: no {CURRENT_EDITION_FILE.name}, no articles\n")
        return
    document = read_yaml(CURRENT_EDITION_FILE) if CURRENT_EDITION_FILE.exists() else {}
    summaries = _summaries(document)
    laws = read_index()
    missing = sorted(set(summaries) - {law.number for law in laws}, key=int)
    if missing:
        raise LawImportError(
            f"{CURRENT_EDITION_FILE.name}: article {missing[0]} has a summary but is not in "
            f"the provision index ({INDEX_DIR.name}/)"
        )
    with transaction.atomic():
        changes = sum(
            _store_article(edition, order, law, summaries.get(law.number))
            for order, law in enumerate(laws)
        )
        edition.title = text_of(document.get("title"), "nl") or edition.title
        edition.title_en = text_of(document.get("title"), "en")
        edition.source_note = text_of(document.get("source"), "nl")
        edition.source_note_en = text_of(document.get("source"), "en")
        edition.source_hash = digest
        if changes or edition.imported_at is None:
            # The key of every per-process copy of this edition (laws.edition_law).
            edition.imported_at = timezone.now()
        edition.save()
    provisions = sum(len(law.provisions) for law in laws)
    stdout.write(
        f"Edition {CURRENT_EDITION}: {len(laws)} articles, {provisions} provisions in the index"
        f" ({changes} rows changed)\n"
    )


def _summaries(document: Any) -> dict[str, Any]:
    """Our article summaries by number, from ``edition-2017.yaml``."""
    entries = document.get("articles", []) if isinstance(document, dict) else None
    if not isinstance(entries, list) or not all(
        isinstance(entry, dict) and entry.get("number") for entry in entries
    ):
        raise LawImportError(f"{CURRENT_EDITION_FILE.name}: every article needs a number")
    return {str(entry["number"]).strip(): entry.get("summary") for entry in entries}
