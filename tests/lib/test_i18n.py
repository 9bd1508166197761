"""lib.i18n: one language pick, Dutch first."""

import pytest
from django.utils import translation

from lib.i18n import active_language, normalise, pick, pick_text


@pytest.mark.parametrize(
    ("language", "expected"),
    [
        ("en", "en"),
        ("en-gb", "en"),
        ("EN", "en"),
        ("nl", "nl"),
        ("de", "nl"),
        ("", "nl"),
        (None, "nl"),
    ],
)
def test_normalise(language, expected):
    assert normalise(language) == expected


def test_active_language_follows_the_request_language():
    with translation.override("en-gb"):
        assert active_language() == "en"
    with translation.override("nl"):
        assert active_language() == "nl"
    with translation.override(None):
        assert active_language() == "nl"


def test_pick_english_only_when_asked_and_written():
    with translation.override("en"):
        assert pick("Ja", "Yes") == "Yes"
        assert pick("Alleen Nederlands", "") == "Alleen Nederlands"
        assert pick("Ja", None) == "Ja"
    with translation.override("nl"):
        assert pick("Ja", "Yes") == "Ja"
        assert pick("", "Only English") == "Only English"
        assert pick(None, None) == ""


def test_pick_with_an_explicit_language_ignores_the_active_one():
    with translation.override("nl"):
        assert pick("Ja", "Yes", "en") == "Yes"
    with translation.override("en"):
        assert pick("Ja", "Yes", "nl") == "Ja"


def test_pick_text_reads_a_snapshot_mapping():
    with translation.override("en"):
        assert pick_text({"nl": "Ja", "en": "Yes"}) == "Yes"
        assert pick_text({"nl": "Ja"}) == "Ja"
        assert pick_text({"en": "Yes"}) == "Yes"
        assert pick_text({"nl": "Ja", "en": "Yes"}, "nl") == "Ja"
    assert pick_text(None) == ""
    assert pick_text({}) == ""
