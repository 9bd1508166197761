"""The Dutch texts use the terms of the NBB's 2017 Spelregels (issue 27 B, wording; TREES.md):
rechtzetting (not rectificatie), voorspeelbeperking (not uitkomstbeperking), speelsoort (not
denominatie), onloochenbaar gesuggereerd, and "artikel N" for a law (not "wet N").

Read: the Dutch texts of the 2017 trees (not the authors' notes, not node or choice keys, which
rulings record and must stay stable), of the training cases and their tags, and of our 2017 law
summaries and provision index. No database: only the YAML files are read.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
TREES_DIR = ROOT / "trees" / "files"
TRAINING_DIR = ROOT / "training" / "files"
PROVISIONS_2017 = ROOT / "laws" / "data" / "provisions-2017"
LAW_DATA = [ROOT / "laws" / "data" / "edition-2017.yaml", *sorted(PROVISIONS_2017.glob("*.yaml"))]

# A wrong term and the NBB term that replaces it.
NOT_NBB = {
    r"rectific": "rechtzetting / rechtzetten",
    r"uitkomstbeperking": "voorspeelbeperking",
    r"denominatie": "speelsoort",
    r"aantoonbaar(?:\s+\w+){0,3}\s+(?:ge)?sugger|sugger\w*\s+aantoonbaar": (
        "onloochenbaar gesuggereerd"
    ),
    r"\bwet(?:ten)?\s+\d": "artikel(en) N",
}


def dutch_texts(node: object, path: str = "") -> Iterator[tuple[str, str]]:
    """Every Dutch text in a parsed YAML file, with where it stands; skips the notes."""
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "notes":
                continue
            if key == "nl" and isinstance(value, str):
                yield f"{path}.nl", value
            elif key == "nl" and isinstance(value, list):
                texts = enumerate(value)
                yield from ((f"{path}.nl[{i}]", v) for i, v in texts if isinstance(v, str))
            else:
                yield from dutch_texts(value, f"{path}.{key}")
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from dutch_texts(value, f"{path}[{i}]")


def trees_2017() -> list[Path]:
    files = []
    for path in sorted(TREES_DIR.glob("*.yaml")):
        if path.name.endswith(".cases.yaml"):
            continue
        if str(yaml.safe_load(path.read_text(encoding="utf-8")).get("edition")) == "2017":
            files.append(path)
    return files


def wrong_terms(texts: Iterator[tuple[str, str]]) -> list[str]:
    found = []
    for where, text in texts:
        for pattern, nbb in NOT_NBB.items():
            match = re.search(pattern, text, flags=re.IGNORECASE)
            if match:
                found.append(f"{where}: '{match.group(0)}' (NBB: {nbb})")
    return found


def test_the_2017_trees_are_found():
    assert len(trees_2017()) >= 15


@pytest.mark.parametrize("path", trees_2017(), ids=lambda p: p.stem)
def test_a_2017_tree_speaks_nbb(path: Path):
    tree = yaml.safe_load(path.read_text(encoding="utf-8"))
    assert wrong_terms(dutch_texts(tree)) == []


@pytest.mark.parametrize("path", sorted(TRAINING_DIR.glob("*.yaml")), ids=lambda p: p.stem)
def test_a_training_case_speaks_nbb(path: Path):
    case = yaml.safe_load(path.read_text(encoding="utf-8"))
    tags = [(f"tags[{i}]", str(tag)) for i, tag in enumerate(case.get("tags") or [])]
    assert wrong_terms(iter([*dutch_texts(case), *tags])) == []


@pytest.mark.parametrize("path", LAW_DATA, ids=lambda p: p.stem)
def test_our_2017_law_summaries_speak_nbb(path: Path):
    assert wrong_terms(dutch_texts(yaml.safe_load(path.read_text(encoding="utf-8")))) == []


@pytest.mark.parametrize(
    "text",
    [
        "De wedstrijdleider legt een rectificatie op.",
        "Er zijn geen uitkomstbeperkingen.",
        "het laagste bod in dezelfde denominatie",
        "een actie die er aantoonbaar door wordt gesuggereerd",
        "dan geldt wet 52",
    ],
)
def test_the_check_finds_a_wrong_term(text: str):
    assert wrong_terms(iter([("x.nl", text)])) != []


def test_the_check_leaves_nbb_terms_alone():
    text = (
        "Geen rechtzetting en geen voorspeelbeperkingen; dezelfde speelsoort; wat er onloochenbaar"
        " door wordt gesuggereerd; dan geldt artikel 52; hij heeft aantoonbaar niet willen claimen."
    )
    assert wrong_terms(iter([("x.nl", text)])) == []


def test_the_interface_texts_speak_nbb():
    """The Dutch source texts of the interface (the msgids of the translation file)."""
    po = ROOT / "locale" / "en" / "LC_MESSAGES" / "django.po"
    msgids, in_msgid = [], False
    for number, line in enumerate(po.read_text(encoding="utf-8").splitlines(), start=1):
        if line.startswith(("msgid ", "msgid_plural ")):
            in_msgid = True
        elif not line.startswith('"'):
            in_msgid = False
        if in_msgid:
            msgids.append((f"django.po:{number}", line))
    assert len(msgids) > 100
    assert wrong_terms(iter(msgids)) == []
