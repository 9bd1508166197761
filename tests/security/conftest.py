"""Fixtures for the security tests: one club world per module, and a count of the examples
Hypothesis generated, printed in the terminal summary (with or without ``-s``)."""

from __future__ import annotations

import os

import hypothesis
import pytest
from django.conf import settings as django_settings
from django.test import Client
from hypothesis import HealthCheck

from tests.conftest import DEEP, hypothesis_examples
from tests.support.module_world import rolled_back_at_the_end
from tests.support.world import World, build_world

# Hostile-input tests: enough examples to find a crack, few enough for ``make test`` (20 per
# test; 60 with HYPOTHESIS_PROFILE=ci; HOSTILE_EXAMPLES=500 for a longer hunt). Each example is
# a few requests, so these counts are far below the other Hypothesis tests'.
hypothesis.settings.register_profile(
    "leidraad-security",
    max_examples=int(os.environ.get("HOSTILE_EXAMPLES", 60 if DEEP else 20)),
    deadline=None,
    database=None,
    phases=[hypothesis.Phase.explicit, hypothesis.Phase.generate]
    if os.environ.get("NOSHRINK")
    else list(hypothesis.Phase),
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


@pytest.fixture
def count_example(request):
    """Call once per generated example; the summary line adds them up per test (printed by
    tests/conftest.py, which also gathers the counts of pytest-xdist workers)."""

    def count() -> None:
        hypothesis_examples[request.node.nodeid] += 1

    return count


@pytest.fixture(scope="module")
def world(django_db_setup, django_db_blocker) -> World:
    """Built once per module; each test runs in a savepoint inside it, so tests never see
    each other's writes."""
    with rolled_back_at_the_end(django_db_blocker):
        yield build_world()


@pytest.fixture(scope="module")
def session_cookies(world: World, django_db_blocker) -> dict[str, str]:
    """A logged-in session per persona, made once per module; a test copies the cookie into a
    fresh client (see ``client_as``)."""
    cookies = {}
    with django_db_blocker.unblock():
        for persona, user in world.users.items():
            client = Client()
            client.force_login(user)
            cookies[persona] = client.cookies[django_settings.SESSION_COOKIE_NAME].value
    return cookies


@pytest.fixture
def client_as(session_cookies):
    def make(persona: str) -> Client:
        client = Client()
        if persona in session_cookies:
            client.cookies[django_settings.SESSION_COOKIE_NAME] = session_cookies[persona]
        return client

    return make
