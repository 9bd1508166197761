"""Edition 2017 from its files (laws/current_edition.py): the provision index and our summaries
as rows, idempotent, updating our words only and never the official text an import wrote."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from laws import current_edition
from laws.current_edition import bootstrap_current, read_index_file
from laws.importer import LawImportError
from laws.models import Article, ArticleSummary, Edition, LawImport, Provision

# These tests start where a new installation does, before bootstrap loads the shipped laws.
pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("without_shipped_data")]

EDITION = """
edition: "2017"
title: {nl: "Spelregels 2017", en: "Laws 2017"}
source: {nl: "Eigen woorden.", en: "Own words."}
articles:
  - number: "62"
    summary: {nl: "Een verzaking wordt hersteld.", en: "A revoke is corrected."}
  - number: "63"
    summary: {nl: "Voldongen als er weer gespeeld is."}
"""

INDEX = """
laws:
  - number: "62"
    title: {nl: "Herstel van een verzaking", en: "Correction of a revoke"}
    source: "invented for the test"
    provisions:
      - key: "62A"
        title: {nl: "Verplicht herstel", en: "Must be corrected"}
      - key: "62B"
        title: {nl: "Herstellen", en: "Correcting"}
        summary: {nl: "De kaart gaat terug.", en: "The card goes back."}
      - key: "62B1"
        title: {nl: "Door een tegenspeler", en: "By a defender"}
  - number: "63"
    title: {nl: "Voldongen verzaking", en: "Established revoke"}
    provisions:
      - key: "63A"
        title: {nl: "Wanneer voldongen", en: "When established"}
      - key: "63A1"
        title: {nl: "Weer gespeeld", en: "Played again"}
  - number: "64"
    title: {nl: "Rectificatie", en: "Rectification"}
"""


@pytest.fixture
def files(monkeypatch, tmp_path) -> tuple[Path, Path]:
    edition = tmp_path / "edition-2017.yaml"
    edition.write_text(EDITION, encoding="utf-8")
    index = tmp_path / "provisions"
    index.mkdir()
    (index / "laws.yaml").write_text(INDEX, encoding="utf-8")
    monkeypatch.setattr(current_edition, "CURRENT_EDITION_FILE", edition)
    monkeypatch.setattr(current_edition, "INDEX_DIR", index)
    return edition, index / "laws.yaml"


def rows() -> list[tuple]:
    return list(
        Provision.objects.order_by("article__order", "order").values_list(
            "key",
            "parent__key",
            "order",
            "label",
            "our_title_nl",
            "our_title_en",
            "our_summary_nl",
            "text",
        )
    )


def test_the_index_becomes_articles_and_provisions(files):
    out = io.StringIO()
    bootstrap_current(out)
    edition = Edition.objects.get(code="2017")
    assert (edition.is_current, edition.title, edition.title_en, edition.source_note) == (
        True,
        "Spelregels 2017",
        "Laws 2017",
        "Eigen woorden.",
    )
    assert list(edition.articles.values_list("number", "title", "title_en")) == [
        ("62", "Herstel van een verzaking", "Correction of a revoke"),
        ("63", "Voldongen verzaking", "Established revoke"),
        ("64", "Rectificatie", "Rectification"),
    ]
    assert rows() == [
        ("62A", None, 0, "A", "Verplicht herstel", "Must be corrected", "", ""),
        ("62B", None, 1, "B", "Herstellen", "Correcting", "De kaart gaat terug.", ""),
        ("62B1", "62B", 2, "1", "Door een tegenspeler", "By a defender", "", ""),
        ("63A", None, 0, "A", "Wanneer voldongen", "When established", "", ""),
        ("63A1", "63A", 1, "1", "Weer gespeeld", "Played again", "", ""),
    ]
    summaries = ArticleSummary.objects.order_by("article__order")
    assert [(s.article.number, s.text_nl, s.text_en) for s in summaries] == [
        ("62", "Een verzaking wordt hersteld.", "A revoke is corrected."),
        ("63", "Voldongen als er weer gespeeld is.", ""),
    ]
    assert "3 articles, 5 provisions in the index" in out.getvalue()


def test_a_second_bootstrap_writes_nothing(files, django_assert_max_num_queries):
    bootstrap_current(io.StringIO())
    before = (rows(), Edition.objects.get(code="2017").imported_at)
    out = io.StringIO()
    # The edition (get), the other current editions (update): no row of the index is read.
    with django_assert_max_num_queries(2):
        bootstrap_current(out)
    assert out.getvalue() == "Edition 2017: up to date\n"
    assert (rows(), Edition.objects.get(code="2017").imported_at) == before


def test_a_changed_index_updates_our_words_and_never_official_text(files):
    _edition_file, index_file = files
    bootstrap_current(io.StringIO())
    first_import = Edition.objects.get(code="2017").imported_at
    # An import gave 62B1 official text; 62A has none.
    Provision.objects.filter(key="62B1").update(text="Officieel.", label="1.")
    changed = (
        INDEX.replace("Door een tegenspeler", "Door een van de tegenspelers")
        .replace(
            '      - key: "62A"\n        title: {nl: "Verplicht herstel", en: "Must be '
            'corrected"}\n',
            "",
        )
        .replace(
            '        title: {nl: "Weer gespeeld", en: "Played again"}\n',
            '        title: {nl: "Weer gespeeld", en: "Played again"}\n'
            '      - key: "63A2"\n        title: {nl: "Nieuw", en: "New"}\n',
        )
    )
    index_file.write_text(changed, encoding="utf-8")
    out = io.StringIO()
    bootstrap_current(out)
    found = {row[0]: row for row in rows()}
    assert "62A" not in found  # dropped from the index, and it held no official text
    assert found["62B1"][4] == "Door een van de tegenspelers"
    assert found["62B1"][3] == "1."  # the imported label stays
    assert found["62B1"][7] == "Officieel."  # and so does the official text
    assert found["63A2"][1] == "63A"
    assert Edition.objects.get(code="2017").imported_at > first_import
    # A provision the index drops keeps its row when an import gave it official text.
    index_file.write_text(changed.replace("62B1", "62B2"), encoding="utf-8")
    bootstrap_current(io.StringIO())
    assert Provision.objects.get(key="62B1").text == "Officieel."
    assert Article.objects.filter(edition__code="2017").count() == 3


def test_bootstrap_never_deletes_an_article(files):
    _edition_file, index_file = files
    bootstrap_current(io.StringIO())
    index_file.write_text(INDEX.split('  - number: "64"')[0], encoding="utf-8")
    bootstrap_current(io.StringIO())
    assert list(Article.objects.filter(edition__code="2017").values_list("number", flat=True)) == [
        "62",
        "63",
        "64",
    ]
    assert not LawImport.objects.exists()


def test_only_one_edition_is_current(files):
    Edition.objects.create(code="2007", is_current=True)
    bootstrap_current(io.StringIO())
    assert list(Edition.objects.filter(is_current=True).values_list("code", flat=True)) == ["2017"]


def test_a_summary_of_an_article_outside_the_index_is_refused(files):
    edition_file, _index = files
    edition_file.write_text(EDITION + '  - number: "65"\n    summary: {nl: "Weg."}\n')
    with pytest.raises(LawImportError, match="article 65 has a summary but is not in"):
        bootstrap_current(io.StringIO())
    assert not Article.objects.exists()


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("just text", "a 'laws:' list is expected"),
        ("laws:\n  - number: 13\n", "quoted number"),
        ('laws:\n  - number: "13"\n    title: {nl: "Alleen"}\n', "an English title"),
        (
            'laws:\n  - number: "13"\n    title: {nl: "a", en: "b"}\n    provisions:\n'
            '      - key: "13A1"\n        title: {nl: "a", en: "b"}\n',
            "13A1 comes before its parent 13A",
        ),
        (
            'laws:\n  - number: "13"\n    title: {nl: "a", en: "b"}\n    provisions:\n'
            '      - key: "14A"\n        title: {nl: "a", en: "b"}\n',
            "14A is not a provision of law 13",
        ),
        (
            'laws:\n  - number: "13"\n    title: {nl: "a", en: "b"}\n    provisions:\n'
            '      - key: "13 a"\n        title: {nl: "a", en: "b"}\n',
            "'13 a' is not a canonical key",
        ),
        (
            'laws:\n  - number: "13"\n    title: {nl: "a", en: "b"}\n    provisions:\n'
            '      - key: "13A"\n        title: {nl: "a", en: "b"}\n'
            '      - key: "13A"\n        title: {nl: "a", en: "b"}\n',
            "13A is listed twice",
        ),
        ("laws: [\n", "not valid YAML"),
    ],
)
def test_a_malformed_index_file_is_refused_naming_the_file(tmp_path, text, message):
    path = tmp_path / "laws-x.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(LawImportError, match=r"laws-x\.yaml") as error:
        read_index_file(path)
    assert message in str(error.value)
