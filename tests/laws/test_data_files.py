"""The law data files: ``laws/data/edition-2017.yaml`` (articles, titles and our own summaries of
the 2017 edition) covers every article a 2017 tree cites, and ``laws/data/summaries.yaml`` holds
our summaries of the seed-edition articles the old trees rely on.

No database: only the YAML files are read.
"""

from __future__ import annotations

import re
from pathlib import Path

import yaml

from laws import keys
from trees.parse import load_tree_file

ROOT = Path(__file__).resolve().parents[2]
TREES_DIR = ROOT / "trees" / "files"
EDITION_2017 = ROOT / "laws" / "data" / "edition-2017.yaml"
SUMMARIES = ROOT / "laws" / "data" / "summaries.yaml"


def edition_2017() -> dict:
    return yaml.safe_load(EDITION_2017.read_text(encoding="utf-8"))


def article_numbers_2017() -> set[str]:
    return {str(article["number"]) for article in edition_2017()["articles"]}


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
    for path in sorted(TREES_DIR.glob("*.yaml")):
        if path.name.endswith(".cases.yaml"):
            continue
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
    numbers = [(entry["edition"], entry["number"]) for entry in entries]
    assert numbers == [
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
