"""Storing parsed law text (laws/loading.py): rows, nesting, references, atomicity, bootstrap."""

from __future__ import annotations

import io
import shutil
from pathlib import Path

import pytest

from laws import loading
from laws.importer import LawImportError, parse, parse_bytes
from laws.loading import bootstrap_laws, resolve_references, store_edition
from laws.models import Article, ArticleSummary, CrossReference, Edition, Footnote, Provision

pytestmark = pytest.mark.django_db

SEEDS = Path(loading.__file__).resolve().parent / "seeds"


def make_edition(code: str = "2007") -> Edition:
    return Edition.objects.create(code=code, title=f"Spelregels {code}")


def seed(name: str, code: str, start: str | None = None):
    return parse_bytes((SEEDS / name).read_bytes(), code, start)


def test_store_2007_seed_nests_provisions_and_links_footnotes():
    edition = make_edition()
    summary = store_edition(seed("001_e9318628a0090252.txt", "2007", "62B"), edition)
    assert (summary.articles, summary.provisions, summary.footnotes, summary.references) == (
        2,
        10,
        2,
        4,
    )
    art62 = Article.objects.get(edition=edition, number="62")
    assert art62.title == ""
    assert art62.group == ""
    assert art62.order == 0
    keys = list(art62.provisions.values_list("key", "parent__key", "label"))
    assert keys == [
        ("62B", None, "B"),
        ("62B2", "62B", "2"),
        ("62C", None, "C"),
        ("62C1", "62C", "1"),
        ("62C2", "62C", "2"),
        ("62D", None, "D"),
        ("62D1", "62D", "1"),
        ("62D2", "62D", "2"),
    ]
    d2 = Provision.objects.get(article=art62, key="62D2")
    assert d2.heading == "Partner van de overtreder had nog niet bijgespeeld in de twaalfde slag"
    assert "geen speelwijze kiezen" in d2.text
    marked = Footnote.objects.get(article=art62)
    assert (marked.marker, marked.provision.key) == ("*", "62B2")
    unmarked = Footnote.objects.get(article__number="63")
    assert (unmarked.marker, unmarked.provision) == ("", None)
    assert unmarked.text.endswith("tenzij toegestaan volgens artikel 66C.")
    edition.refresh_from_db()
    assert edition.imported_at is not None


def test_references_are_stored_with_their_source():
    edition = make_edition()
    store_edition(seed("001_e9318628a0090252.txt", "2007", "62B"), edition)
    rows = list(
        CrossReference.objects.filter(article__edition=edition).values_list(
            "article__number", "provision__key", "footnote__marker", "raw", "target_key"
        )
    )
    assert rows == [
        ("62", "62C1", None, "artikel 16C", "16C"),
        ("62", "62C2", None, "artikel 16C", "16C"),
        ("62", "62B2", "*", "artikel 43B2b", "43B2(b)"),
        ("63", None, "", "artikel 66C", "66C"),
    ]
    # None of these articles is in the 2007 seed, so nothing resolves.
    assert not CrossReference.objects.filter(target_article__isnull=False).exists()


def test_references_resolve_within_the_edition_after_all_articles_exist():
    text = (
        "Artikel 40 Eerste\n\nA. Kop\n\nZie artikel 41B2 en artikel 41C en artikel 41B2(c).\n\n"
        "Artikel 41 Tweede\n\nA. Kop\n\nTerug naar artikel 40 A.\n\nB. Kop\n\n"
        "1. Kop\n\nTekst.\n\n2. Kop\n\nTekst, zie artikel 99."
    )
    edition = make_edition("2017")
    summary = store_edition(parse(text, "2017"), edition)
    other = make_edition("1987")
    # Another edition has a 41C; a 2017 reference must never resolve into it.
    store_edition(parse("Artikel 41 Elders\n\nA. Kop\n\nB. Kop\n\nC. Kop\n\nTekst.", "1987"), other)
    refs = {
        (r.raw, r.target_key): (
            r.target_article.number if r.target_article else None,
            r.target_article.edition.code if r.target_article else None,
            r.target_provision.key if r.target_provision else None,
        )
        for r in CrossReference.objects.filter(article__edition=edition).select_related(
            "target_article__edition", "target_provision"
        )
    }
    assert refs == {
        ("artikel 41B2", "41B2"): ("41", "2017", "41B2"),  # a later article
        ("artikel 41C", "41C"): ("41", "2017", None),  # no 41C: the article itself
        ("artikel 41B2(c)", "41B2(c)"): ("41", "2017", "41B2"),  # nearest enclosing provision
        ("artikel 40 A", "40A"): ("40", "2017", "40A"),
        ("artikel 99", "99"): (None, None, None),
    }
    assert summary.resolved == 4


def test_existing_articles_need_replace():
    edition = make_edition("1987")
    store_edition(seed("002_a0057157c6d8e1b2.txt", "1987"), edition)
    first_ids = set(Provision.objects.values_list("pk", flat=True))
    with pytest.raises(LawImportError, match="--replace"):
        store_edition(seed("002_a0057157c6d8e1b2.txt", "1987"), edition)
    assert set(Provision.objects.values_list("pk", flat=True)) == first_ids
    store_edition(parse("Artikel 47 Nieuw\n\nA. Kop\n\nTekst.", "1987"), edition, replace=True)
    assert list(Provision.objects.values_list("key", flat=True)) == ["47A"]
    assert Article.objects.get(edition=edition).title == "Nieuw"


def test_a_failing_import_writes_nothing(monkeypatch):
    edition = make_edition("1987")
    store_edition(seed("002_a0057157c6d8e1b2.txt", "1987"), edition)
    before = (Article.objects.count(), Provision.objects.count(), CrossReference.objects.count())

    def explode(_edition):
        raise RuntimeError("disk full")

    monkeypatch.setattr(loading, "resolve_references", explode)
    with pytest.raises(RuntimeError):
        store_edition(parse("Artikel 1 Ander\n\nTekst.", "1987"), edition, replace=True)
    after = (Article.objects.count(), Provision.objects.count(), CrossReference.objects.count())
    assert after == before
    assert Article.objects.get(edition=edition).number == "47"


def test_duplicate_article_numbers_are_refused():
    parsed = parse("Artikel 5 Een\n\nTekst.", "2017")
    parsed.articles.append(parsed.articles[0])
    with pytest.raises(LawImportError, match="article 5 occurs twice"):
        store_edition(parsed, make_edition("2017"))
    assert not Article.objects.exists()


def test_closing_text_is_stored_apart():
    text = "Artikel 52 Titel\n\nIndien:\n\na. dit; of\n\nb. dat.\n\nSlot."
    store_edition(parse(text, "1963"), make_edition("1963"))
    article = Article.objects.get()
    assert (article.text, article.closing_text) == ("Indien:", "Slot.")
    assert list(article.provisions.values_list("key", flat=True)) == ["52(a)", "52(b)"]


def test_resolve_references_can_run_again():
    edition = make_edition("1963")
    store_edition(seed("000_c0d9362b67ea3467.txt", "1963"), edition)
    ref = CrossReference.objects.get()
    assert (ref.raw, ref.target_article.number, ref.target_provision) == ("art. 50", "50", None)
    Article.objects.filter(number="50").delete()
    assert resolve_references(edition) == 0
    ref.refresh_from_db()
    assert ref.target_article is None


# --------------------------------------------------------------------------------------------
# Bootstrap


def snapshot() -> tuple[list, ...]:
    return (
        list(Provision.objects.order_by("pk").values_list("pk", "key", "text")),
        list(Article.objects.order_by("pk").values_list("pk", "number", "title")),
        list(ArticleSummary.objects.order_by("pk").values_list("pk", "text_nl", "text_en")),
        list(Edition.objects.order_by("pk").values_list("pk", "source_hash", "imported_at")),
    )


def test_bootstrap_loads_the_shipped_laws_and_is_idempotent():
    out = io.StringIO()
    bootstrap_laws(out)
    editions = {e.code: e for e in Edition.objects.all()}
    assert set(editions) == {"1963", "1987", "2007", "2017"}
    assert [e.code for e in Edition.objects.filter(is_current=True)] == ["2017"]
    counts = {code: e.articles.count() for code, e in editions.items()}
    assert counts["1963"] == 3
    assert counts["1987"] == 1
    assert counts["2007"] == 2
    assert counts["2017"] >= 30  # titles and summaries only
    assert not Provision.objects.filter(article__edition__code="2017").exists()
    assert Provision.objects.filter(article__edition__code="2007", key="62D2").exists()
    assert "Edition 2007: 2 articles, 10 provisions, 2 footnotes" in out.getvalue()
    # Our summaries of the seed articles are attached to the imported articles.
    assert ArticleSummary.objects.filter(article__edition__code="1963").count() == 3
    assert ArticleSummary.objects.get(article__edition__code="1987").text_en
    assert editions["2017"].title == "Spelregels voor Wedstrijdbridge 2017"
    assert "officiële tekst is niet" in Edition.objects.get(code="2017").source_note

    before = snapshot()
    again = io.StringIO()
    bootstrap_laws(again)
    assert again.getvalue().count("up to date") == 5
    assert snapshot() == before


def test_bootstrap_reimports_a_changed_seed(monkeypatch, tmp_path):
    seeds = tmp_path / "seeds"
    shutil.copytree(SEEDS, seeds)
    monkeypatch.setattr(loading, "SEEDS_DIR", seeds)
    bootstrap_laws(io.StringIO())
    old_hash = Edition.objects.get(code="1987").source_hash
    path = seeds / "002_a0057157c6d8e1b2.txt"
    path.write_text(path.read_text() + "\n\nH. Nieuw onderdeel\n\nNieuwe tekst.")
    out = io.StringIO()
    bootstrap_laws(out)
    assert "Edition 1987: 1 articles, 12 provisions" in out.getvalue()
    assert out.getvalue().count("up to date") == 3  # 1963, 2007, 2017
    assert "Summaries: 1 updated" in out.getvalue()  # the new article 47 gets its summary back
    assert Edition.objects.get(code="1987").source_hash != old_hash
    assert Provision.objects.filter(article__edition__code="1987", key="47H").exists()
    assert ArticleSummary.objects.filter(article__edition__code="1987").exists()


CURRENT = """
edition: "2017"
title: {nl: "Spelregels 2017", en: "Laws 2017"}
source: {nl: "Eigen woorden.", en: "Own words."}
articles:
  - number: "62"
    title: {nl: "Herstel van een verzaking", en: "Correction of a revoke"}
    summary: {nl: "Een verzaking wordt hersteld.", en: "A revoke is corrected."}
  - number: 63
    title: {nl: "Voldongen verzaking", en: "Established revoke"}
    summary: {nl: "Voldongen als er weer gespeeld is."}
  - number: "64"
    title: {nl: "Rectificatie"}
"""


@pytest.fixture
def current_file(monkeypatch, tmp_path) -> Path:
    path = tmp_path / "edition-2017.yaml"
    path.write_text(CURRENT, encoding="utf-8")
    monkeypatch.setattr(loading, "CURRENT_EDITION_FILE", path)
    monkeypatch.setattr(loading, "SUMMARIES_FILE", tmp_path / "none.yaml")
    return path


def test_bootstrap_loads_the_current_edition_file(current_file):
    bootstrap_laws(io.StringIO())
    current = Edition.objects.get(code="2017")
    assert (current.is_current, current.title, current.source_note) == (
        True,
        "Spelregels 2017",
        "Eigen woorden.",
    )
    assert list(current.articles.values_list("number", "title")) == [
        ("62", "Herstel van een verzaking"),
        ("63", "Voldongen verzaking"),
        ("64", "Rectificatie"),
    ]
    summaries = list(
        ArticleSummary.objects.filter(article__edition=current)
        .order_by("article__order")
        .values_list("article__number", "text_nl", "text_en")
    )
    assert summaries == [
        ("62", "Een verzaking wordt hersteld.", "A revoke is corrected."),
        ("63", "Voldongen als er weer gespeeld is.", ""),
    ]

    ids = list(current.articles.values_list("pk", flat=True))
    out = io.StringIO()
    bootstrap_laws(out)
    assert "Edition 2017: up to date" in out.getvalue()
    assert list(current.articles.values_list("pk", flat=True)) == ids
    # A changed file: titles and summaries follow, dropped articles go.
    current_file.write_text(
        'articles:\n  - number: "62"\n    title: Herstel\n    summary: Anders.\n',
        encoding="utf-8",
    )
    bootstrap_laws(io.StringIO())
    assert list(current.articles.values_list("number", "title")) == [("62", "Herstel")]
    assert list(
        ArticleSummary.objects.filter(article__edition=current).values_list("text_nl", flat=True)
    ) == ["Anders."]


@pytest.mark.parametrize(
    "content", ["articles:\n  - title: zonder nummer\n", "just text", "articles: [\n"]
)
def test_bootstrap_refuses_a_malformed_current_file(current_file, content):
    current_file.write_text(content, encoding="utf-8")
    with pytest.raises(LawImportError, match=r"edition-2017\.yaml"):
        bootstrap_laws(io.StringIO())
    assert not Article.objects.filter(edition__code="2017").exists()


def test_only_one_edition_is_current(current_file):
    Edition.objects.create(code="2007", is_current=True)
    bootstrap_laws(io.StringIO())
    assert list(Edition.objects.filter(is_current=True).values_list("code", flat=True)) == ["2017"]


def test_summary_for_a_missing_article_is_reported(monkeypatch, tmp_path, current_file):
    path = tmp_path / "summaries.yaml"
    path.write_text(
        '- {edition: "1963", number: "50", summary: {nl: Kort., en: Short.}}\n'
        '- {edition: "1963", number: "99", summary: {nl: Weg.}}\n',
        encoding="utf-8",
    )
    monkeypatch.setattr(loading, "SUMMARIES_FILE", path)
    out = io.StringIO()
    bootstrap_laws(out)
    assert "Summary for 1963 art. 99: no such article" in out.getvalue()
    assert "Summaries: 1 updated" in out.getvalue()
    summary = ArticleSummary.objects.get(article__edition__code="1963")
    assert (summary.article.number, summary.text_nl, summary.text_en) == ("50", "Kort.", "Short.")
