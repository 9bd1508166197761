"""The bench's wizard timing (``bench.measure.step_times``) tells an answer reaching an outcome
the process has shown before from one reaching an outcome it shows for the first time, and
walks the same paths again until enough of the first kind are timed (issue 26's step goal)."""

import random

import pytest

from bench.measure import step_times
from bench.run import SHIPPED_TREE, with_bare_template
from rulings import wizard
from rulings.models import Ruling

WARM_UP_WALKS = 2  # step_times' own


@pytest.mark.django_db
def test_outcomes_are_timed_apart_by_whether_the_process_showed_them(
    settings, club_a, director_a, client_director_a
):
    # The bare reference view, as bench/settings.py adds it.
    settings.ROOT_URLCONF = "bench.urls"
    settings.TEMPLATES = with_bare_template(settings.TEMPLATES)
    tree = wizard.start(SHIPPED_TREE)

    times = step_times(client_director_a, tree, club_a.slug, 8, random.Random(5))

    assert len(times.questions) >= 8
    assert len(times.outcomes) >= 8 // 4
    assert len(times.bare) == times.answers  # one bare request after every timed answer
    # What the rulings reached, in the order they were made, decides which list each belongs to.
    shown, before, new = set(), 0, 0
    reached = Ruling.objects.filter(director=director_a).order_by("pk")
    outcome_keys = list(reached.values_list("outcome_key", flat=True))
    assert all(outcome_keys)
    for number, key in enumerate(outcome_keys):
        if number >= WARM_UP_WALKS:
            before, new = (before + 1, new) if key in shown else (before, new + 1)
        shown.add(key)
    assert (len(times.outcomes), len(times.new_outcomes)) == (before, new)
    assert new > 0  # the shipped tree has more outcomes than the warm-up reaches
