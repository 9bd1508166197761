"""Storing parsed law text (laws/loading.py): rows, nesting, references, atomicity, bootstrap."""

from __future__ import annotations

import io
import shutil
from pathlib import Path

import pytest

from laws import loading
from laws.importer import LawImportError, parse, parse_bytes
from laws.loading import bootstrap_laws, resolve_references, store_edition
from laws.models import (
    Article,
    ArticleSummary,
    CrossReference,
    Edition,
    Footnote,
    LawImport,
    Provision,
)

# These tests start where a new installation does, before bootstrap loads the shipped laws.
pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("without_shipped_data")]

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
        list(
            Provision.objects.order_by("pk").values_list(
                "pk", "key", "text", "our_title_nl", "our_summary_nl", "order", "parent"
            )
        ),
        list(LawImport.objects.order_by("pk").values_list("pk", "file_name", "sha256")),
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
    assert counts["2017"] == 93  # every law of the provision index
    # 2017: every provision of the index with our words, none with official text.
    indexed = Provision.objects.filter(article__edition__code="2017")
    assert indexed.count() > 500
    assert not indexed.filter(our_title_nl="").exists()
    assert not indexed.exclude(text="", heading="", closing_text="").exists()
    assert indexed.get(key="63A1").parent.key == "63A"
    assert Article.objects.get(edition__code="2017", number="13").title_en == (
        "Incorrect number of cards"
    )
    assert Provision.objects.filter(article__edition__code="2007", key="62D2").exists()
    # Each seed is recorded as a shipped import, and its rows point at the record.
    shipped = LawImport.objects.get(edition__code="2007")
    assert (shipped.shipped, shipped.file_name, shipped.user) == (
        True,
        "001_e9318628a0090252.txt",
        None,
    )
    assert not Provision.objects.filter(article__edition__code="2007", imported_from=None).exists()
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


def test_bootstrap_never_loads_a_seed_over_a_clubs_own_import(monkeypatch, tmp_path):
    seeds = tmp_path / "seeds"
    shutil.copytree(SEEDS, seeds)
    monkeypatch.setattr(loading, "SEEDS_DIR", seeds)
    bootstrap_laws(io.StringIO())
    edition = Edition.objects.get(code="1987")
    # A club imports its own text of 1987 (here: the 1963 seed's text, any text will do).
    store_edition(
        seed("000_c0d9362b67ea3467.txt", "1987"), edition, replace=True, file_name="eigen.txt"
    )
    own = list(Article.objects.filter(edition=edition).values_list("number", flat=True))
    path = seeds / "002_a0057157c6d8e1b2.txt"
    path.write_text(path.read_text() + "\n\nH. Nieuw onderdeel\n\nNieuwe tekst.")
    out = io.StringIO()
    bootstrap_laws(out)
    assert "Edition 1987: holds text imported from eigen.txt" in out.getvalue()
    assert list(Article.objects.filter(edition=edition).values_list("number", flat=True)) == own


def test_store_edition_refuses_an_edition_with_a_provision_index():
    edition = make_edition("2017")
    article = Article.objects.create(edition=edition, number="62")
    Provision.objects.create(article=article, key="62A", label="A", our_title_nl="Herstel")
    with pytest.raises(LawImportError, match="provision index"):
        store_edition(seed("001_e9318628a0090252.txt", "2017", "62B"), edition, replace=True)
    assert list(Provision.objects.values_list("key", flat=True)) == ["62A"]


def test_summary_for_a_missing_article_is_reported(monkeypatch, tmp_path):
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
