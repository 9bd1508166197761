"""Every path of the 2017 trees onvoldoende-bod, teruggenomen-kaart and voor-de-beurt-uitkomen.

The paths are generated from the tree files with ``trees.spec.paths()`` and compared with the
tables written out below: each row is (answers, outcome key, citations of the outcome). A change
to a tree that adds, removes or reroutes a path, or changes an outcome's citations, fails here and
must update the table in the same commit.

Also checks the law data files: ``laws/data/edition-2017.yaml`` (articles, titles and our own
summaries of the 2017 edition) covers every article cited by every 2017 tree, and
``laws/data/summaries.yaml`` holds our summaries of the seed-edition articles.

No database: only the YAML files are read.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

from laws import keys
from trees.loading import tree_file_paths
from trees.parse import load_tree_file
from trees.validate import paths, validate, walk

ROOT = Path(__file__).resolve().parents[2]
TREES_DIR = ROOT / "trees" / "files"
EDITION_2017 = ROOT / "laws" / "data" / "edition-2017.yaml"
SUMMARIES = ROOT / "laws" / "data" / "summaries.yaml"

ONVOLDOENDE_BOD_PATHS = [
    (("ja", "ja", "ja"), "naar-31", ("27A2", "29A", "31A", "31B", "23C", "16C", "26B", "72C")),
    (("ja", "ja", "nee", "ja"), "geaccepteerd", ("27A1",)),
    (("ja", "ja", "nee", "nee", "ja", "laagste-zelfde"), "b1a", ("27B1(a)", "27D")),
    (
        ("ja", "ja", "nee", "nee", "ja", "vergelijkbaar"),
        "b1b",
        ("27B1(b)", "23A", "26A", "27D", "23C"),
    ),
    (("ja", "ja", "nee", "nee", "ja", "andere"), "b2", ("27B2", "26B", "16C", "72C")),
    (("ja", "ja", "nee", "nee", "ja", "doublet"), "b3", ("27B3", "27B2", "26B", "16C", "72C")),
    (
        ("ja", "ja", "nee", "nee", "ja", "weer-onvoldoende", "ja"),
        "b4-geaccepteerd",
        ("27B4", "27A1", "26B", "16C"),
    ),
    (
        ("ja", "ja", "nee", "nee", "ja", "weer-onvoldoende", "nee"),
        "b4-niet",
        ("27B4", "27B3", "26B", "16C", "72C"),
    ),
    (("ja", "ja", "nee", "nee", "nee", "laagste-zelfde"), "b1a", ("27B1(a)", "27D")),
    (
        ("ja", "ja", "nee", "nee", "nee", "vergelijkbaar"),
        "b1b",
        ("27B1(b)", "23A", "26A", "27D", "23C"),
    ),
    (("ja", "ja", "nee", "nee", "nee", "andere"), "b2", ("27B2", "26B", "16C", "72C")),
    (("ja", "ja", "nee", "nee", "nee", "doublet"), "b3", ("27B3", "27B2", "26B", "16C", "72C")),
    (
        ("ja", "ja", "nee", "nee", "nee", "weer-onvoldoende", "ja"),
        "b4-geaccepteerd",
        ("27B4", "27A1", "26B", "16C"),
    ),
    (
        ("ja", "ja", "nee", "nee", "nee", "weer-onvoldoende", "nee"),
        "b4-niet",
        ("27B4", "27B3", "26B", "16C", "72C"),
    ),
    (("ja", "nee"), "naar-25a", ("25A1", "25A4", "25A6")),
    (("nee", "ja"), "naar-31", ("27A2", "29A", "31A", "31B", "23C", "16C", "26B", "72C")),
    (("nee", "nee", "ja"), "geaccepteerd", ("27A1",)),
    (("nee", "nee", "nee", "ja", "laagste-zelfde"), "b1a", ("27B1(a)", "27D")),
    (("nee", "nee", "nee", "ja", "vergelijkbaar"), "b1b", ("27B1(b)", "23A", "26A", "27D", "23C")),
    (("nee", "nee", "nee", "ja", "andere"), "b2", ("27B2", "26B", "16C", "72C")),
    (("nee", "nee", "nee", "ja", "doublet"), "b3", ("27B3", "27B2", "26B", "16C", "72C")),
    (
        ("nee", "nee", "nee", "ja", "weer-onvoldoende", "ja"),
        "b4-geaccepteerd",
        ("27B4", "27A1", "26B", "16C"),
    ),
    (
        ("nee", "nee", "nee", "ja", "weer-onvoldoende", "nee"),
        "b4-niet",
        ("27B4", "27B3", "26B", "16C", "72C"),
    ),
    (("nee", "nee", "nee", "nee", "laagste-zelfde"), "b1a", ("27B1(a)", "27D")),
    (("nee", "nee", "nee", "nee", "vergelijkbaar"), "b1b", ("27B1(b)", "23A", "26A", "27D", "23C")),
    (("nee", "nee", "nee", "nee", "andere"), "b2", ("27B2", "26B", "16C", "72C")),
    (("nee", "nee", "nee", "nee", "doublet"), "b3", ("27B3", "27B2", "26B", "16C", "72C")),
    (
        ("nee", "nee", "nee", "nee", "weer-onvoldoende", "ja"),
        "b4-geaccepteerd",
        ("27B4", "27A1", "26B", "16C"),
    ),
    (
        ("nee", "nee", "nee", "nee", "weer-onvoldoende", "nee"),
        "b4-niet",
        ("27B4", "27B3", "26B", "16C", "72C"),
    ),
]

TERUGGENOMEN_KAART_PATHS = [
    (("ja", "verzaking"), "naar-verzaking", ("47B", "62A")),
    (("ja", "voor-de-beurt"), "naar-voor-de-beurt", ("47B", "53A")),
    (("ja", "rectificatie"), "rectificatie", ("47A", "49", "52B2", "16C")),
    (
        ("ja", "onreglementair", "tegenspeler"),
        "onreglementair-tegenspeler",
        ("47B", "49", "58B1", "58B2"),
    ),
    (("ja", "onreglementair", "leider"), "onreglementair-leider", ("47B", "48A")),
    (("ja", "aanduiding", "ja"), "aanduiding", ("45C4(b)", "47C", "47D", "16C")),
    (("ja", "aanduiding", "nee"), "aanduiding-geldt", ("45C4(a)", "45C4(b)", "47F2")),
    (("ja", "tegenstander-wijzigde"), "tegenstander-wijzigde", ("47D", "16C", "62C2")),
    (("ja", "verkeerd-beurt"), "verkeerd-beurt", ("47E1", "16C")),
    (("ja", "verkeerde-uitleg", "ja"), "verkeerde-uitleg-te-laat", ("47E2(b)", "40B4")),
    (("ja", "verkeerde-uitleg", "nee"), "verkeerde-uitleg-terug", ("47E2(a)", "16C")),
    (
        ("ja", "juiste-voorspel", "ja"),
        "juiste-voorspel-strafkaart",
        ("53B", "47F1", "49", "50B", "50D1", "50D2", "50E", "16C"),
    ),
    (("ja", "juiste-voorspel", "nee"), "juiste-voorspel", ("53B", "47F1", "48A", "16C")),
    (("ja", "anders"), "blijft-gespeeld", ("47F2", "49", "48A")),
    (("nee-leider",), "niet-gespeeld-leider", ("45C2", "45C3", "45C4(a)", "48A")),
    (("nee-tegenspeler",), "naar-strafkaart", ("49",)),
]

VOOR_DE_BEURT_UITKOMEN_PATHS = [
    (("uitkomst-tegenspeler", "ja", "ja"), "misinformatie", ("47E1", "16C")),
    (("uitkomst-tegenspeler", "ja", "nee", "ja"), "moet-accepteren", ("54C", "54B1", "54B2", "54")),
    (
        ("uitkomst-tegenspeler", "ja", "nee", "nee", "zelf-blinde"),
        "leider-wordt-blinde",
        ("54A", "54"),
    ),
    (
        ("uitkomst-tegenspeler", "ja", "nee", "nee", "accepteren"),
        "uitkomst-geaccepteerd",
        ("54B1", "54B2", "53A", "54"),
    ),
    (
        ("uitkomst-tegenspeler", "ja", "nee", "nee", "weigeren", "eisen"),
        "uitkomst-eist-kleur",
        ("54D", "56", "50D2(a)", "59", "50E", "54"),
    ),
    (
        ("uitkomst-tegenspeler", "ja", "nee", "nee", "weigeren", "verbieden"),
        "uitkomst-verbiedt-kleur",
        ("54D", "56", "50D2(a)", "50E", "54"),
    ),
    (
        ("uitkomst-tegenspeler", "ja", "nee", "nee", "weigeren", "vrij"),
        "uitkomst-vrij",
        ("54D", "56", "50D2(b)", "50D1", "50E", "54"),
    ),
    (("uitkomst-tegenspeler", "nee"), "dicht-terug", ("41A",)),
    (("uitkomst-leidende-partij",), "leidende-partij", ("54E", "17D", "24")),
    (("later-tegenspeler", "ja"), "misinformatie", ("47E1", "16C")),
    (("later-tegenspeler", "nee", "niets", "ja"), "later-tegenspeler-geaccepteerd", ("53A",)),
    (
        ("later-tegenspeler", "nee", "niets", "nee", "partner", "eisen"),
        "later-eist-kleur",
        ("56", "50D2(a)", "59", "50E"),
    ),
    (
        ("later-tegenspeler", "nee", "niets", "nee", "partner", "verbieden"),
        "later-verbiedt-kleur",
        ("56", "50D2(a)", "50E"),
    ),
    (
        ("later-tegenspeler", "nee", "niets", "nee", "partner", "vrij"),
        "later-vrij",
        ("56", "50D2(b)", "50D1", "50E"),
    ),
    (
        ("later-tegenspeler", "nee", "niets", "nee", "leider"),
        "later-leider-aan-slag",
        ("56", "50D1", "50D2", "50E"),
    ),
    (("later-tegenspeler", "nee", "volgende-speelde"), "later-tegenspeler-geaccepteerd", ("53A",)),
    (
        ("later-tegenspeler", "nee", "juiste-voorspeler"),
        "later-tegenspeler-juist-voorgespeeld",
        ("53B", "47F1", "49", "16C"),
    ),
    (("later-leider", "ja"), "misinformatie", ("47E1", "16C")),
    (("later-leider", "nee", "volgende-speelde"), "leider-geaccepteerd", ("55A", "53A")),
    (
        ("later-leider", "nee", "rechts-speelde", "hoogste"),
        "premature-hoogste",
        ("53C", "57A", "57A1", "57B", "50D1", "50D2", "50E"),
    ),
    (
        ("later-leider", "nee", "rechts-speelde", "laagste"),
        "premature-laagste",
        ("53C", "57A", "57A2", "57B", "50D1", "50D2", "50E"),
    ),
    (
        ("later-leider", "nee", "rechts-speelde", "andere-kleur"),
        "premature-andere-kleur",
        ("53C", "57A", "57A3", "57B", "50D1", "50D2", "50E"),
    ),
    (
        ("later-leider", "nee", "rechts-speelde", "kleur-verboden"),
        "premature-kleur-verboden",
        ("53C", "57A", "57A4", "57B", "50D1", "50D2", "50E"),
    ),
    (
        ("later-leider", "nee", "juiste-voorspeler"),
        "leider-juist-voorgespeeld",
        ("53B", "47F1", "16C"),
    ),
    (("later-leider", "nee", "niets", "accepteren"), "leider-geaccepteerd", ("55A", "53A")),
    (
        ("later-leider", "nee", "niets", "terug-tegenspeler"),
        "leider-terug-tegenspeler",
        ("55A", "55B1", "55C"),
    ),
    (
        ("later-leider", "nee", "niets", "terug-andere-hand"),
        "leider-terug-andere-hand",
        ("55A", "55B2", "55C"),
    ),
]


TABLES = {
    "onvoldoende-bod": ONVOLDOENDE_BOD_PATHS,
    "teruggenomen-kaart": TERUGGENOMEN_KAART_PATHS,
    "voor-de-beurt-uitkomen": VOOR_DE_BEURT_UITKOMEN_PATHS,
}

ROWS = [
    pytest.param(slug, answers, outcome, cites, id=f"{slug}:{'/'.join(answers)}")
    for slug, table in TABLES.items()
    for answers, outcome, cites in table
]


def load(slug: str):
    return load_tree_file(TREES_DIR / f"{slug}.yaml")


def all_tree_slugs() -> set[str]:
    return {path.stem for path in tree_file_paths(TREES_DIR)}


def edition_2017() -> dict:
    return yaml.safe_load(EDITION_2017.read_text(encoding="utf-8"))


def article_numbers_2017() -> set[str]:
    return {str(article["number"]) for article in edition_2017()["articles"]}


def resolves_2017(key: str) -> bool:
    """Edition 2017 ships articles only: a key resolves when its article is listed."""
    parsed = keys.try_parse(key)
    return parsed is not None and keys.is_canonical(key) and parsed.number in article_numbers_2017()


# --- the trees and their paths ---------------------------------------------------------------


@pytest.mark.parametrize("slug", TABLES)
def test_tree_is_valid_with_2017_citations_and_known_see_tree(slug):
    tree = load(slug)
    assert tree.slug == slug
    assert tree.edition == "2017"
    assert validate(tree, resolves=resolves_2017, trees=all_tree_slugs()) == []


@pytest.mark.parametrize("slug", TABLES)
def test_generated_paths_match_the_table_exactly(slug):
    tree = load(slug)
    generated = [
        (path.answers, path.outcome, tree.node(path.outcome).cites) for path in paths(tree)
    ]
    assert generated == TABLES[slug]


@pytest.mark.parametrize("slug", TABLES)
def test_every_outcome_is_reached_by_some_path(slug):
    tree = load(slug)
    reached = {outcome for _answers, outcome, _cites in TABLES[slug]}
    assert reached == {node.key for node in tree.outcomes}


@pytest.mark.parametrize(("slug", "answers", "outcome", "cites"), ROWS)
def test_path(slug, answers, outcome, cites):
    tree = load(slug)
    node = walk(tree, answers)
    assert node.key == outcome
    assert node.is_outcome
    assert node.cites == cites
    # every step on the way is a question whose answer is one of its choices
    current = tree.node(tree.start)
    for answer in answers:
        assert current.kind == "question"
        choice = current.choice(answer)
        assert choice is not None, f"{current.key}: no choice {answer!r}"
        current = tree.node(choice.target)
    assert current.key == outcome


# --- the law data files ----------------------------------------------------------------------


def _sentences(text: str) -> int:
    return len(re.findall(r"[.!?](?:\s|$)", text.strip()))


def test_edition_2017_file_parses_and_is_complete():
    data = edition_2017()
    assert data["edition"] == "2017"
    assert data["title"] == {
        "nl": "Spelregels voor Wedstrijdbridge 2017",
        "en": "Laws of Duplicate Bridge 2017",
    }
    for language in ("nl", "en"):
        assert data["source"][language].strip()
    # our note: no official text, our own summaries
    assert "niet opgenomen" in data["source"]["nl"]
    assert "not included" in data["source"]["en"]
    numbers = [str(article["number"]) for article in data["articles"]]
    assert len(numbers) == len(set(numbers)), "an article is listed twice"
    assert numbers == sorted(numbers, key=int), "articles are listed in law order"
    for article in data["articles"]:
        assert isinstance(article["number"], str), "quote the article number"
        assert set(article) == {"number", "title", "summary"}
        for language in ("nl", "en"):
            assert article["title"][language].strip(), (article["number"], language)
            summary = article["summary"][language].strip()
            assert 3 <= _sentences(summary) <= 6, (article["number"], language, summary)


def test_edition_2017_titles_we_rely_on():
    titles = {str(a["number"]): a["title"]["nl"] for a in edition_2017()["articles"]}
    assert titles["27"] == "Onvoldoende bod"
    assert titles["47"] == "Terugnemen van een gespeelde kaart"
    assert titles["50"] == "Behandeling van een strafkaart"
    assert titles["62"] == "Herstel van een verzaking"
    assert titles["63"] == "Voldongen worden van een verzaking"


def test_every_article_cited_by_a_2017_tree_is_in_edition_2017():
    listed = article_numbers_2017()
    checked = 0
    missing = []
    for path in tree_file_paths(TREES_DIR):
        tree = load_tree_file(path)
        if tree.edition != "2017":
            continue
        checked += 1
        for node in tree.nodes:
            for key in node.cites:
                assert keys.is_canonical(key), f"{path.name}: {node.key}: {key!r}"
                if keys.parse(key).number not in listed:
                    missing.append(f"{path.name}: {node.key}: {key}")
    assert checked >= 3, "the 2017 trees were not found"
    assert missing == []


def test_laws_the_trees_touch_are_in_edition_2017():
    listed = article_numbers_2017()
    wanted = {"12", "16", "23", "24", "25", "26", "27", "31", "40", "41", "43", "45", "47", "66"}
    wanted |= {str(n) for n in range(48, 59)} | {str(n) for n in range(61, 65)} | {"72"}
    assert wanted <= listed


def test_seed_summaries_file_parses_and_is_complete():
    entries = yaml.safe_load(SUMMARIES.read_text(encoding="utf-8"))
    assert isinstance(entries, list)
    keys = [(entry["edition"], entry["number"]) for entry in entries]
    assert keys == [
        ("1963", "50"),
        ("1963", "51"),
        ("1963", "52"),
        ("1987", "47"),
        ("2007", "62"),
        ("2007", "63"),
    ]
    for entry in entries:
        assert set(entry) == {"edition", "number", "summary"}
        for language in ("nl", "en"):
            summary = entry["summary"][language].strip()
            assert 2 <= _sentences(summary) <= 8, (entry["edition"], entry["number"], language)
