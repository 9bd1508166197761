"""lib/urls.py: a route reversed once, then filled in; always what ``reverse`` gives."""

from __future__ import annotations

import uuid

import pytest
from django.test import override_settings
from django.urls import NoReverseMatch, reverse, set_script_prefix
from hypothesis import given
from hypothesis import strategies as st

from lib.urls import _pieces, quick_reverse

RULING_ROUTES = ["ruling", "answer", "context", "table", "defer", "resume", "discard", "save"]


@given(value=st.uuids(), number=st.integers(min_value=0, max_value=10**12))
def test_the_wizards_routes_are_what_reverse_gives(value, number):
    for name in RULING_ROUTES:
        assert quick_reverse(f"wizard:{name}", value) == reverse(f"wizard:{name}", args=[value])
    step = quick_reverse("wizard:step", value, number)
    assert step == reverse("wizard:step", args=[value, number])
    assert quick_reverse("archive:detail", value) == reverse("archive:detail", args=[value])
    draft = quick_reverse("wizard:draft", "verzaking", value)  # a slug: reverse itself
    assert draft == reverse("wizard:draft", args=["verzaking", value])


def test_a_uuid_holding_a_markers_digits_is_put_in_its_place():
    tricky = uuid.UUID("00000000-0000-4000-8000-000987654321")
    for number in (1, 9, 12, 987654320, 987654321):
        url = quick_reverse("wizard:step", tricky, number)
        assert url == reverse("wizard:step", args=[tricky, number])


def test_a_route_is_reversed_once_per_route_and_kind_of_arguments():
    _pieces.cache_clear()
    for _ in range(3):
        quick_reverse("wizard:answer", uuid.uuid4())
        quick_reverse("wizard:step", uuid.uuid4(), 4)
    assert _pieces.cache_info().misses == 2


@pytest.mark.parametrize("number", [-1, True, 1.0])
def test_other_arguments_are_checked_by_reverse(number):
    with pytest.raises(NoReverseMatch):
        quick_reverse("wizard:step", uuid.uuid4(), number)
    value = uuid.uuid4()
    assert quick_reverse("wizard:step", value, "7") == reverse("wizard:step", args=[value, 7])


def test_the_script_prefix_and_a_changed_urlconf_count():
    value = uuid.uuid4()
    set_script_prefix("/leidraad/")
    try:
        assert quick_reverse("wizard:answer", value) == f"/leidraad/arbitrage/{value}/antwoord/"
    finally:
        set_script_prefix("/")
    assert quick_reverse("wizard:answer", value) == f"/arbitrage/{value}/antwoord/"
    with override_settings(ROOT_URLCONF="tests.lib.urls"):
        assert quick_reverse("wizard:answer", value) == f"/arbitrage/{value}/antwoord/"
        assert _pieces.cache_info().currsize == 1  # forgotten when the URLconf changed
