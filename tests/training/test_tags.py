"""training/tags.py: every tag a shipped case uses has an English name; Dutch reads with spaces."""

from django.utils import translation

from training.files import read_shipped_cases
from training.tags import english_names, tag_name


def test_every_shipped_tag_has_an_english_name():
    used = {tag for case in read_shipped_cases() for tag in case.tags}
    assert used, "the shipped cases carry tags"
    assert sorted(used - set(english_names())) == []


def test_a_tag_reads_in_the_active_language():
    with translation.override("nl"):
        assert tag_name("grote-strafkaart") == "grote strafkaart"
    with translation.override("en"):
        assert tag_name("grote-strafkaart") == "major penalty card"
        # A trainer's own tag has no English name: shown as typed.
        assert tag_name("eigen-label") == "eigen-label"
