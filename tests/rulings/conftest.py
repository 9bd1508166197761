"""Fixtures for the rulings tests: small trees in the database."""

import pytest

from .factories import make_tree


@pytest.fixture
def proef_tree(db):
    return make_tree()
