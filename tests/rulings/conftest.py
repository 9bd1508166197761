"""Fixtures for the rulings tests: small trees in the database and a clean snapshot cache."""

import pytest

from rulings import snapshot

from .factories import make_tree


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings):
    # The personas get real passwords; PBKDF2 takes about a second per user, MD5 is enough
    # for test users (the browser tests still log in through the real form).
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def _fresh_snapshot_cache():
    # Snapshots are cached per process by content; a test database rolled back between tests
    # must not leave a remembered snapshot whose row is gone.
    snapshot.clear_cache()
    yield
    snapshot.clear_cache()


@pytest.fixture
def proef_tree(db):
    return make_tree()
