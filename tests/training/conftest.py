"""Fixtures of the training tests."""

import pytest

from tests.support import recorded


@pytest.fixture
def loaded(db):
    recorded.shipped_laws_and_trees()
    recorded.shipped_cases()
