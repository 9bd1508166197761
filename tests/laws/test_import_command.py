"""``manage.py import_laws``: dry runs, real imports, --replace, and every bad input."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest
from django.core.management import base, call_command, execute_from_command_line
from django.core.management.base import CommandError

from laws import loading
from laws.importer import parse_bytes
from laws.models import Article, CrossReference, Edition, Footnote, Provision
from trees.loading import load_trees
from trees.models import Citation

# These tests start where a new installation does, before bootstrap loads the shipped laws.
pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("without_shipped_data")]

SEEDS = Path(loading.__file__).resolve().parent / "seeds"
SEED_1963 = SEEDS / "000_c0d9362b67ea3467.txt"
SEED_2007 = SEEDS / "001_e9318628a0090252.txt"
SEED_1987 = SEEDS / "002_a0057157c6d8e1b2.txt"


def run(*args: str) -> tuple[str, str]:
    out, err = io.StringIO(), io.StringIO()
    call_command("import_laws", *args, stdout=out, stderr=err)
    return out.getvalue(), err.getvalue()


def nothing_written() -> bool:
    return not (
        Edition.objects.exists()
        or Article.objects.exists()
        or Provision.objects.exists()
        or Footnote.objects.exists()
        or CrossReference.objects.exists()
    )


def test_dry_run_json_is_exactly_the_parsed_structure():
    out, _ = run(str(SEED_2007), "--edition", "2007", "--start", "62B", "--dry-run", "--json")
    expected = parse_bytes(SEED_2007.read_bytes(), "2007", "62B").to_json_dict()
    assert json.loads(out) == expected
    assert json.loads(out)["articles"][0]["footnotes"][0]["key"] == "62B2"
    assert nothing_written()


def test_dry_run_preview_is_readable_and_writes_nothing():
    out, _ = run(str(SEED_2007), "--edition", "2007", "--start", "62B", "--dry-run")
    assert "nothing is written" in out
    assert "Skipped preamble: Operation Manual" in out
    assert "Article 63 Voldongen worden van een verzaking" in out
    assert "62D2: Partner van de overtreder had nog niet bijgespeeld in de twaalfde slag" in out
    assert "62C1: Door de niet-overtredende partij  -> 16C" in out
    assert "footnote * -> 62B2" in out
    assert "page number '78' dropped" in out
    assert out.rstrip().endswith("Total: 2 articles, 10 provisions, 2 footnotes, 4 references")
    assert nothing_written()


def test_import_writes_the_edition_and_reports_a_summary():
    out, _ = run(str(SEED_1963), "--edition", "1963")
    assert "Edition 1963: 3 articles, 2 provisions, 0 footnotes, 1 references (1 resolved)" in out
    edition = Edition.objects.get(code="1963")
    assert (edition.language, edition.is_current) == ("nl", False)
    assert list(edition.articles.values_list("number", flat=True)) == ["50", "51", "52"]
    assert edition.source_hash == loading.content_hash(SEED_1963.read_bytes())
    ref = CrossReference.objects.get()
    assert (ref.raw, ref.target_article.number) == ("art. 50", "50")


def test_a_replacing_import_relinks_tree_citations():
    loading.bootstrap_laws(io.StringIO())
    load_trees()
    cited = Citation.objects.filter(node__tree__slug="verzaking-2007", key="62D2")
    assert cited.exclude(provision=None).exists()
    out, _ = run(str(SEED_2007), "--edition", "2007", "--start", "62B", "--replace")
    # Replacing the articles cleared the links; the command puts them back.
    assert re.search(r"\d+ tree citations relinked", out)
    assert not cited.filter(provision=None).exists()
    assert {c.provision.key for c in cited} == {"62D2"}


def test_language_of_a_new_edition():
    run(str(SEED_1987), "--edition", "1987", "--language", "en")
    assert Edition.objects.get(code="1987").language == "en"


def test_second_import_needs_replace():
    run(str(SEED_1987), "--edition", "1987")
    ids = set(Provision.objects.values_list("pk", flat=True))
    with pytest.raises(CommandError, match="--replace") as error:
        run(str(SEED_1987), "--edition", "1987")
    assert error.value.returncode == 2
    assert set(Provision.objects.values_list("pk", flat=True)) == ids
    out, _ = run(str(SEED_1987), "--edition", "1987", "--replace")
    assert "11 provisions" in out
    assert Provision.objects.count() == 11
    assert not set(Provision.objects.values_list("pk", flat=True)) & ids


def test_existing_edition_with_another_language_is_refused():
    Edition.objects.create(code="1987", language="nl")
    with pytest.raises(CommandError, match="language") as error:
        run(str(SEED_1987), "--edition", "1987", "--language", "en")
    assert error.value.returncode == 2
    assert not Article.objects.exists()


def test_dry_run_of_a_filled_edition_needs_no_replace():
    run(str(SEED_1987), "--edition", "1987")
    out, _ = run(str(SEED_1987), "--edition", "1987", "--dry-run")
    assert "47E2(b)" in out


@pytest.fixture
def bad_inputs(tmp_path: Path) -> dict[str, Path]:
    files = {
        "empty": b"",
        "blank": b"  \n\n \n",
        "binary": b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR",
        "latin1": "Artikel 47 Terugnemen van één kaart".encode("latin-1"),
        "unrecognisable": b"Een boodschappenlijst\nmelk, brood",
        "utf16": "Artikel 47 Terugnemen van één kaart".encode("utf-16"),
        "html": b"<!DOCTYPE html>\n<html><body><p>Artikel 47</p></body></html>",
        "page": b"Sjabloon:2017:87A\n\nUit Spelregels voor tafelarbiters\n\nEen kaart.",
    }
    paths = {}
    for name, data in files.items():
        paths[name] = tmp_path / f"{name}.txt"
        paths[name].write_bytes(data)
    return paths


@pytest.mark.parametrize(
    ("case", "extra", "message"),
    [
        ("empty", [], "input is empty"),
        ("blank", [], "input is empty"),
        ("binary", [], "binary"),
        ("latin1", [], "not UTF-8"),
        ("unrecognisable", [], "unrecognisable input"),
        ("utf16", [], "UTF-16 text, not UTF-8"),
        ("html", [], "HTML page, not text"),
        ("page", [], "needs --start 87A"),
        ("page", ["--start", "87"], "--start 87 does not fit this page"),
        ("page", ["--start", "87A1"], "--start 87A1 does not fit this page"),
        ("page", ["--start", "A87"], "unknown start key 'A87'"),
    ],
)
def test_bad_input_files(bad_inputs, case, extra, message):
    with pytest.raises(CommandError, match=message) as error:
        run(str(bad_inputs[case]), "--edition", "2017", *extra)
    assert error.value.returncode == 2
    assert "\n" not in str(error.value)
    assert nothing_written()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ([str(SEED_2007), "--edition", "2007"], "--start KEY is needed"),
        ([str(SEED_2007), "--edition", "2007", "--start", "XYZ"], "unknown start key 'XYZ'"),
        ([str(SEED_2007), "--edition", "2007", "--start", "62B2"], "unknown start key '62B2'"),
        ([str(SEED_1987), "--edition", "1987", "--start", "46B"], "leave --start out"),
        ([str(SEED_1987), "--edition", "Wetboek"], "unknown edition code 'Wetboek'"),
        ([str(SEED_1987), "--edition", "87"], "unknown edition code '87'"),
        (["/nonexistent/wet.txt", "--edition", "1987"], "file not found"),
        ([str(SEEDS), "--edition", "1987"], "not a file"),
        ([str(SEED_1987), "--edition", "1987", "--json"], "--json only goes with --dry-run"),
    ],
)
def test_bad_arguments(args, message):
    with pytest.raises(CommandError, match=message) as error:
        run(*args)
    assert error.value.returncode == 2
    assert "\n" not in str(error.value)
    assert nothing_written()


def test_bad_dry_run_writes_nothing_either():
    with pytest.raises(CommandError) as error:
        run(str(SEED_2007), "--edition", "2007", "--dry-run", "--json")
    assert error.value.returncode == 2
    assert nothing_written()


def test_known_edition_code_that_is_not_a_year_is_accepted():
    Edition.objects.create(code="2017-en", language="en")
    run(str(SEED_1987), "--edition", "2017-en")
    assert Article.objects.get().edition.code == "2017-en"


def test_exit_status_and_one_line_on_stderr(capsys, monkeypatch):
    """From the command line: status 2 and a single readable line, no traceback."""
    # run_from_argv closes every connection when it ends; on PostgreSQL that would close the
    # test's own transaction under it.
    monkeypatch.setattr(base.connections, "close_all", lambda: None)
    with pytest.raises(SystemExit) as exit_info:
        execute_from_command_line(["manage.py", "import_laws", str(SEED_2007), "--edition", "2007"])
    assert exit_info.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert err.startswith("CommandError: the text starts inside an article")
    assert "Traceback" not in err
    assert nothing_written()


# --------------------------------------------------------------------------------------------
# A page of the wiki the seeds come from (shapes of real pages, sentences from the seeds)

PAGE_74B = """Sjabloon:1997:74B

Uit Spelregels voor tafelarbiters
Versie door Redacteur (overleg | bijdragen) op 20 aug 2019 om 13:42
(wijz) ← Oudere versie | Huidige versie (wijz) | Nieuwere versie → (wijz)

B. Gedrag aan tafel
Indien een tegenspeler een andere kaart voor- of bijspeelt*), mag hij niet:
- 1. de strafkaart opnemen;
- 2. een andere kaart voorspelen.

*) Zie artikel 50.
"""


@pytest.fixture
def page_74b(tmp_path: Path) -> Path:
    path = tmp_path / "74B.txt"
    path.write_text(PAGE_74B, encoding="utf-8")
    return path


def test_page_dry_run_accepts_the_pages_own_key(page_74b):
    out, _ = run(str(page_74b), "--edition", "1997", "--start", "74B", "--dry-run", "--json")
    (article,) = json.loads(out)["articles"]
    (section,) = article["provisions"]
    assert (section["key"], section["heading"]) == ("74B", "Gedrag aan tafel")
    assert [child["key"] for child in section["children"]] == ["74B1", "74B2"]
    assert article["footnotes"] == [{"marker": "*", "text": "Zie artikel 50.", "key": "74B"}]
    assert "Spelregels voor tafelarbiters" not in out
    assert "Versie door" not in out
    assert nothing_written()


def test_page_preview_lists_the_skipped_furniture(page_74b):
    out, _ = run(str(page_74b), "--edition", "1997", "--start", "74B", "--dry-run")
    assert "Header (skipped): Sjabloon:1997:74B" in out
    assert "Page furniture (skipped): Uit Spelregels voor tafelarbiters" in out
    assert "Page furniture (skipped): (wijz) ← Oudere versie" in out
    assert "74B1: de strafkaart opnemen" in out
    assert "footnote * -> 74B: Zie artikel 50." in out


def test_page_import_stores_the_provisions_and_the_footnote(page_74b):
    out, _ = run(str(page_74b), "--edition", "1997", "--start", "74B")
    assert "Edition 1997: 1 articles, 3 provisions, 1 footnotes" in out
    assert list(Provision.objects.order_by("order").values_list("key", flat=True)) == [
        "74B",
        "74B1",
        "74B2",
    ]
    footnote = Footnote.objects.get()
    assert (footnote.marker, footnote.provision.key, footnote.text) == (
        "*",
        "74B",
        "Zie artikel 50.",
    )
    assert "*)" not in Provision.objects.get(key="74B").text
    stored = " ".join(Provision.objects.values_list("text", flat=True))
    assert "Spelregels voor tafelarbiters" not in stored


def test_page_whose_first_label_does_not_fit_the_start(page_74b):
    # A page titled 74B1 that holds 74B: its first label names a level above the start key.
    page_74b.write_text(PAGE_74B.replace("Sjabloon:1997:74B", "Sjabloon:1997:74B1"))
    with pytest.raises(CommandError, match=r"'B\.' \(line 7\) cannot follow 74B1") as error:
        run(str(page_74b), "--edition", "1997", "--start", "74B1")
    assert error.value.returncode == 2
    assert nothing_written()
