"""Fixtures of the training tests."""

import pytest

from training.models import TrainingCase


@pytest.fixture
def loaded(db):
    """The shipped laws, trees and cases: in every test database (tests/conftest.py)."""


@pytest.fixture
def without_cases(db):
    """The shipped laws and trees without the shipped cases, for the tests that load them."""
    TrainingCase.objects.all().delete()
