"""The law data files: the provision index of 2017 (``laws/data/provisions-2017/``: every law
with its titles and every provision with our title and, where cited, our summary) holds every key
a 2017 tree, its cases and the training cases cite; ``laws/data/edition-2017.yaml`` holds our
summaries of the articles they cite whole; ``laws/data/summaries.yaml`` our summaries of the
seed-edition articles the old trees rely on.

No database: only the YAML files are read.
"""

from __future__ import annotations

import re
from pathlib import Path

import yaml

from laws import keys
from laws.current_edition import index_from_files, read_index
from trees.parse import load_tree_file

ROOT = Path(__file__).resolve().parents[2]
TREES_DIR = ROOT / "trees" / "files"
CASES_DIR = ROOT / "training" / "files"
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
        # Titles live in the provision index only (one place).
        assert set(article) == {"number", "summary"}
        for language in ("nl", "en"):
            summary = article["summary"][language].strip()
            assert 3 <= _sentences(summary) <= 6, (article["number"], language, summary)


def test_the_index_holds_laws_1_to_93_with_titles_and_sources():
    laws = read_index()  # checks every key: canonical, of its law, once, parents first
    assert [law.number for law in laws] == [str(n) for n in range(1, 94)]
    titles = {law.number: law.title.nl for law in laws}
    assert titles["27"] == "Onvoldoende bod"
    assert titles["47"] == "Terugnemen van een gespeelde kaart"
    assert titles["50"] == "Behandeling van een strafkaart"
    assert titles["62"] == "Herstel van een verzaking"
    assert titles["63"] == "Voldongen worden van een verzaking"
    documents = [
        yaml.safe_load(path.read_text(encoding="utf-8"))
        for path in sorted((ROOT / "laws" / "data" / "provisions-2017").glob("*.yaml"))
    ]
    for document in documents:
        for law in document["laws"]:
            assert str(law.get("source") or "").strip(), f"law {law['number']}: no source"


def test_every_article_with_a_summary_is_in_the_index():
    assert article_numbers_2017() <= {law.number for law in read_index()}


def cited_2017() -> list[tuple[str, str]]:
    """(where, key) for every key a 2017 tree, its cases file or a training case cites."""
    found = []
    editions = {}
    for path in sorted(TREES_DIR.glob("*.yaml")):
        if path.name.endswith(".cases.yaml"):
            continue
        tree = load_tree_file(path)
        editions[tree.slug] = tree.edition
        if tree.edition == "2017":
            found += [
                (f"{path.name}: {node.key}", key) for node in tree.nodes for key in node.cites
            ]
    for path in sorted(TREES_DIR.glob("*.cases.yaml")):
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        if editions[data["tree"]] == "2017":
            for case in data["cases"]:
                found += [(f"{path.name}: {case['name']}", str(k)) for k in case.get("cites", [])]
    for path in sorted(CASES_DIR.glob("*.yaml")):
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        if editions[data["tree"]] == "2017":
            found += [(path.name, keys.canonical(str(k))) for k in data.get("cites") or []]
    return found


def test_every_key_cited_in_2017_exists_in_the_index():
    index = index_from_files()
    cited = cited_2017()
    assert len(cited) > 300
    unknown = [f"{where}: {u.english()}" for where, key in cited if (u := index.unknown(key))]
    assert unknown == []


def test_every_provision_cited_in_2017_has_our_summary_and_every_article_too():
    index = index_from_files()
    with_summary = article_numbers_2017()
    missing = []
    for where, key in cited_2017():
        parsed = keys.parse(key)
        if parsed.is_article and key not in with_summary:
            missing.append(f"{where}: {key} (edition-2017.yaml)")
        elif not parsed.is_article and not index.summary(key):
            missing.append(f"{where}: {key} (provision index)")
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
