"""Synthetic inputs for the benchmark: law text in the PDF-extracted format and tree files.

Both are generated deterministically (a seeded ``random.Random``) and fed to the real code paths:
the law text to ``laws.importer.parse_bytes`` and ``laws.loading.store_edition``, the trees as
YAML files in a temporary folder to ``trees.loading.load_trees``.

The law text imitates ``laws/seeds/001_*.txt``: no blank lines, ``ARTIKEL 12`` with the title
on the next line, section and item headings (``A. Heading`` / ``1. Heading``) followed by text
wrapped at about 62 characters, words hyphenated across lines (``han-``/``den``), references
(``zie artikel 16C``), a stray running title (``Operation Manual``) at the top of every page,
page-number lines, and footnotes marked ``*`` in the text whose text follows the page number.
"""

# ruff: noqa: S311

from __future__ import annotations

import random
import re
from pathlib import Path

import yaml

from laws import keys
from laws.current_edition import IndexedLaw

RUNNING_TITLE = "Operation Manual"
SECTIONS = "ABC"
ITEMS = (1, 2)
LINE_WIDTH = 62
PAGE_LINES = 46

WORDS = [
    "de",
    "speler",
    "kaart",
    "slag",
    "partij",
    "tegenspeler",
    "leider",
    "blinde",
    "bieding",
    "verzaking",
    "aandacht",
    "overtreder",
    "partner",
    "beurt",
    "wedstrijdleider",
    "score",
    "regeling",
    "herstel",
    "spelen",
    "voorspelen",
    "bijspelen",
    "kleur",
    "troef",
    "contract",
    "doublet",
    "bod",
    "pas",
    "uitkomst",
    "hand",
    "tafel",
    "spel",
    "ronde",
]
HEADING_WORDS = [
    "Kaart",
    "Verzaking",
    "Strafkaart",
    "Voorspelen",
    "Bijspelen",
    "Herstel",
    "Regeling",
    "Bieding",
    "Uitkomst",
    "Partner",
    "Tegenspeler",
    "Leider",
    "Blinde",
    "Slag",
    "Score",
    "Contract",
    "Aandacht",
    "Overtreder",
    "Beurt",
]
# Words the importer must join again when they are split over two lines.
HYPHENATED = ("han-", "den"), ("te-", "rugneemt"), ("in-", "dien"), ("reglemen-", "tair")
FOOTNOTE = "Onderworpen aan artikel {ref}, als de blinde zijn rechten heeft verspeeld."


def _sentence(rng: random.Random, article: int, articles: int) -> str:
    words = [rng.choice(WORDS) for _ in range(rng.randint(8, 16))]
    words[0] = words[0].capitalize()
    if rng.random() < 0.35:
        target = rng.randint(1, articles)
        ref = f"{target}{rng.choice(SECTIONS)}{rng.choice(ITEMS)}"
        words.insert(rng.randint(2, len(words) - 1), f"(zie artikel {ref})")
    return " ".join(words) + "."


def _heading(rng: random.Random) -> str:
    words = rng.sample(HEADING_WORDS, rng.randint(2, 4))
    return " ".join([words[0], *(w.lower() for w in words[1:])])


# A wrapped line must never look like a label, a page number or an article heading.
_UNSAFE_START = re.compile(r"^(?:\d|[A-Za-z][.)]|\([a-z]\)|artikel\b|art\.)", re.I)


def _wrap(text: str, width: int = LINE_WIDTH) -> list[str]:
    lines: list[str] = []
    current: list[str] = []
    for word in text.split():
        if current and len(" ".join([*current, word])) > width:
            lines.append(" ".join(current))
            current = []
        current.append(word)
    if current:
        lines.append(" ".join(current))
    # Pull a dangerous first word back onto the line before it.
    index = 1
    while index < len(lines):
        if _UNSAFE_START.match(lines[index]):
            first, _, rest = lines[index].partition(" ")
            lines[index - 1] = f"{lines[index - 1]} {first}"
            if rest:
                lines[index] = rest
            else:
                del lines[index]
                continue
        index += 1
    return lines


def law_text(articles: int, seed: int = 1) -> tuple[str, dict[str, int]]:
    """``articles`` articles in the PDF-extracted format, and what the importer should find."""
    rng = random.Random(seed)
    body: list[str] = []
    footnotes_expected = 0
    pending_footnotes: list[str] = []
    for number in range(1, articles + 1):
        body += [f"ARTIKEL {number}", _heading(rng)]
        for section in SECTIONS:
            body.append(f"{section}. {_heading(rng)}")
            for item in ITEMS:
                body.append(f"{item}. {_heading(rng)}")
                text = " ".join(_sentence(rng, number, articles) for _ in range(rng.randint(2, 3)))
                lines = _wrap(text)
                if len(lines) > 2 and rng.random() < 0.5:
                    # Hyphenate across a line break, as PDF text does.
                    left, right = rng.choice(HYPHENATED)
                    where = rng.randint(0, len(lines) - 2)
                    lines[where] = f"{lines[where]} {left}"
                    lines[where + 1] = f"{right} {lines[where + 1]}"
                if rng.random() < 0.08:
                    lines[-1] = lines[-1].replace(" hand ", " hand* ", 1)
                    if "hand*" not in lines[-1]:
                        lines[-1] = lines[-1][:-1] + " uit de hand*."
                    ref = f"{rng.randint(1, articles)}{rng.choice(SECTIONS)}2"
                    pending_footnotes.append(FOOTNOTE.format(ref=ref))
                    footnotes_expected += 1
                body += lines
        # A page ends after some articles: page number, the page's footnotes, running title.
        if number % 2 == 0 or number == articles:
            body.append(str(70 + number // 2))
            body += [f"* {text}" for text in pending_footnotes]
            pending_footnotes = []
            body.append(RUNNING_TITLE)
    text = "\n".join([RUNNING_TITLE, "", *body]) + "\n"
    expected = {
        "articles": articles,
        "provisions": articles * len(SECTIONS) * (1 + len(ITEMS)),
        "footnotes": footnotes_expected,
    }
    return text, expected


def index_text(laws: list[IndexedLaw], seed: int = 1) -> tuple[str, list[str]]:
    """Every law of a provision index as a wiki-template export with invented sentences (an
    import of official text over the index, e.g. edition 2017), and the keys it holds.
    Clauses (``12C1(e)(i)``) are left out: the importer reads no deeper than a sub-item."""
    rng = random.Random(seed)
    articles = len(laws)
    blocks: list[str] = []
    found: list[str] = []
    for law in laws:
        blocks.append(f"Artikel {law.number} {_heading(rng)}")
        for provision in law.provisions:
            key = keys.parse(provision.key)
            if key.level == "clause":
                continue
            label = key.label if key.level == "sub" else f"{key.label}."
            blocks.append(f"{label} {_heading(rng)}")
            blocks.append(" ".join(_sentence(rng, key.article, articles) for _ in range(2)))
            found.append(provision.key)
    return "\n\n".join(blocks) + "\n", found


def provision_keys(articles: int) -> list[str]:
    """The item keys of the synthetic edition, e.g. ``37B2``: what synthetic trees cite."""
    return [f"{n}{s}{i}" for n in range(1, articles + 1) for s in SECTIONS for i in ITEMS]


# --------------------------------------------------------------------------------------------
# Trees


def tree_data(
    slug: str, nodes: int, edition: str, keys: list[str], branching: int = 3, seed: int = 1
) -> dict:
    """A valid tree of exactly ``nodes`` nodes: every question has ``branching`` choices,
    breadth first, so its depth grows with the logarithm of its size (10 nodes: 1–3 answers
    to an outcome; 1,000 nodes: 5–6). Every node cites one or two provisions of ``edition``."""
    if (nodes - 1) % branching:
        raise ValueError(f"{nodes} nodes cannot be built with {branching} choices per question")
    rng = random.Random(seed)
    questions = (nodes - 1) // branching
    names = [f"v{i:04d}" if i < questions else f"u{i:04d}" for i in range(nodes)]
    spec_nodes: dict[str, dict] = {}
    for index, key in enumerate(names):
        cites = rng.sample(keys, 2 if rng.random() < 0.4 else 1)
        if index < questions:
            spec_nodes[key] = {
                "question": {
                    "nl": f"Vraag {index + 1}: {_heading(rng).lower()}?",
                    "en": f"Question {index + 1}?",
                },
                "help": {"nl": _sentence(rng, 1, 1), "en": "Ask the players."},
                "cites": cites,
                "choices": [
                    {
                        "key": f"k{c + 1}",
                        "label": {"nl": f"Antwoord {c + 1}", "en": f"Answer {c + 1}"},
                        "next": names[1 + branching * index + c],
                    }
                    for c in range(branching)
                ],
            }
        else:
            spec_nodes[key] = {
                "outcome": {
                    "title": {"nl": f"Uitkomst {index + 1}", "en": f"Outcome {index + 1}"},
                    "ruling": {
                        "nl": " ".join(_sentence(rng, 1, 1) for _ in range(3)),
                        "en": "The card is played; no further rectification.",
                    },
                    "options": {
                        "nl": "1. De leider kiest.\n2. Of niet.",
                        "en": "1. Choose.\n2. Or not.",
                    },
                    "chooser": "declarer",
                    "announce": {"nl": _sentence(rng, 1, 1), "en": "Play on."},
                    "adjusted_score": rng.random() < 0.2,
                },
                "cites": cites,
            }
    return {
        "slug": slug,
        "edition": edition,
        "phase": "play",
        "title": {"nl": f"Benchmarkboom ({nodes} knopen)", "en": f"Benchmark tree ({nodes} nodes)"},
        "description": {
            "nl": f"Synthetische beslisboom met {nodes} knopen voor de benchmark.",
            "en": f"Synthetic decision tree with {nodes} nodes for the benchmark.",
        },
        "start": names[0],
        "nodes": spec_nodes,
    }


def write_tree(directory: Path, data: dict) -> Path:
    path = directory / f"{data['slug']}.yaml"
    path.write_text(
        yaml.safe_dump(data, allow_unicode=True, sort_keys=False, width=100), encoding="utf-8"
    )
    return path
