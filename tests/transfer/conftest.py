"""Fixtures of the transfer tests: a few final rulings, and their bundle."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest

from archive.reviews import record_review, set_appeal
from rulings.models import AppealStatus, Verdict
from tests.support.rulings import START, make_ruling
from tests.support.scores import record_weighted
from tests.transfer.test_bundles import export, wipe


@pytest.fixture
def made(club_a, director_a, reviewer_a):
    """Three final rulings: one with an adjusted score, one with a changed answer, one reviewed
    and under appeal."""
    first = make_ruling(club_a, director_a, ("ja", "nee"), notes="Zuid: ‘ik heb de ♠A’ – ë")
    record_weighted(first, director_a)
    second = make_ruling(
        club_a,
        director_a,
        ("ja", "nee"),
        change_first_to="nee",
        then=("nee",),
        at=START + timedelta(days=1),
    )
    third = make_ruling(club_a, director_a, ("ja", "ja"), at=START + timedelta(days=2))
    record_review(second, reviewer_a, Verdict.AMENDED, "Te streng.", "Geen straf.", ["25A"])
    set_appeal(second, reviewer_a, AppealStatus.OPEN, "NZ gaan in beroep.")
    return [first, second, third]


@pytest.fixture
def bundle_data(tmp_path, made) -> dict:
    bundle = tmp_path / "laptop.json"
    export(bundle)
    wipe()
    return json.loads(bundle.read_text())
