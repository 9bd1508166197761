"""The trees of issue 32 about information and conduct (16D, 73D/E, partner's conduct around
explanations, psychic calls): the flags the law decides for single outcomes, pinned. The walk of
every case is tests/trees/test_cases_files.py; these say which side an adjustment protects and
who chooses."""

from __future__ import annotations

import pytest

from trees.loading import TREES_DIR
from trees.parse import load_tree_file

UI = "ongeoorloofde-informatie"

OUTCOME_FIELDS = [
    # 16D2: the director picks the measure, only before any call
    ("informatie-van-elders", "plaatsen-wisselen", "chooser", "director"),
    ("informatie-van-elders", "laten-spelen", "adjusted_score", True),
    ("informatie-van-elders", "kunstmatige-score", "adjusted_score", True),
    # information of no consequence, or no effect on the result: nothing to adjust
    ("informatie-van-elders", "gewoon-spelen", "adjusted_score", False),
    ("informatie-van-elders", "score-blijft", "adjusted_score", False),
    # called after the first call: play on, judge after play
    ("informatie-van-elders", "doorspelen", "adjusted_score", False),
    ("informatie-van-elders", "aanpassen-na-afloop", "adjusted_score", True),
    ("informatie-van-elders", "naar-ongeoorloofde-informatie", "see_tree", UI),
    ("informatie-van-elders", "naar-strafkaart", "see_tree", "strafkaart"),
    # 73E2: adjusted only when all its conditions and damage are there; at own risk otherwise
    ("tempo-tegenstander", "arbitrale-score", "adjusted_score", True),
    ("tempo-tegenstander", "arbitrale-score-en-straf", "adjusted_score", True),
    ("tempo-tegenstander", "eigen-risico", "adjusted_score", False),
    ("tempo-tegenstander", "geen-schade", "adjusted_score", False),
    ("tempo-tegenstander", "geen-valse-conclusie", "adjusted_score", False),
    ("tempo-tegenstander", "naar-ongeoorloofde-informatie", "see_tree", UI),
    # 21B1(a): after a correction the misinformed opponent chooses whether to change his call
    ("partner-bij-uitleg", "bod-terugnemen", "chooser", "nos"),
    ("partner-bij-uitleg", "bod-terugnemen", "adjusted_score", False),
    ("partner-bij-uitleg", "vastleggen", "unauthorised_information", True),
    ("partner-bij-uitleg", "arbitrale-score", "adjusted_score", True),
    ("partner-bij-uitleg", "geen-gebruik", "adjusted_score", False),
    ("partner-bij-uitleg", "geen-schade", "adjusted_score", False),
    ("partner-bij-uitleg", "naar-verkeerde-uitleg", "see_tree", "verkeerde-uitleg"),
    # 40C1: a permitted psyche stands; an undisclosed understanding is adjusted only with damage
    ("psyche", "toegestaan", "adjusted_score", False),
    ("psyche", "verborgen-afspraak-geen-schade", "adjusted_score", False),
    ("psyche", "verborgen-afspraak-score", "adjusted_score", True),
    ("psyche", "verboden-psyche", "adjusted_score", True),
]


@pytest.mark.parametrize(("slug", "outcome", "field", "value"), OUTCOME_FIELDS)
def test_outcome_field(slug, outcome, field, value):
    node = load_tree_file(TREES_DIR / f"{slug}.yaml").node(outcome)
    assert node.is_outcome
    assert getattr(node.outcome, field) == value


@pytest.mark.parametrize(
    ("slug", "outcome", "protected"),
    [
        ("informatie-van-elders", "laten-spelen", "tegenpartij van de speler"),
        ("informatie-van-elders", "aanpassen-na-afloop", "tegenpartij van de speler"),
        ("tempo-tegenstander", "arbitrale-score", "misleide, niet-overtredende partij"),
        ("tempo-tegenstander", "arbitrale-score-en-straf", "misleide, niet-overtredende partij"),
        ("partner-bij-uitleg", "arbitrale-score", "de tegenpartij beschermt, de niet-overtredende"),
        ("psyche", "verborgen-afspraak-score", "de tegenstanders van het paar met de verborgen"),
        ("psyche", "verboden-psyche", "ter bescherming van de tegenpartij"),
    ],
)
def test_an_adjustment_names_the_side_it_protects(slug, outcome, protected):
    """Law 12C: every adjusting outcome says whom the adjustment protects (TREES.md)."""
    node = load_tree_file(TREES_DIR / f"{slug}.yaml").node(outcome)
    assert node.outcome.adjusted_score
    assert protected in " ".join(node.outcome.ruling.nl.split())
