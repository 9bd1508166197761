"""Fixtures of the scores tests."""

import pytest

from scores import deals
from scores.double_dummy import DoubleDummy


@pytest.fixture
def quick_analysis(monkeypatch):
    """The double-dummy solver replaced by a fixed table (a real run takes up to seconds);
    the list of the deals it was asked for, to count the analyses."""
    calls: list[str] = []

    def fake(deal):
        calls.append(deal.pbn)
        row = (7, 8, 9, 10, 11)
        return DoubleDummy(tricks=(row, row, row, row), par_score=-50, par_contracts=())

    monkeypatch.setattr(deals.double_dummy, "analyse", fake)
    return calls
