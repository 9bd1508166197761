"""The one writer of every transition (rulings/transitions.py): a plan is written by a
compare-and-swap on the audit head, planned again on a fresh read when another request moved
the head, and a plan without entries writes nothing."""

from datetime import datetime

import pytest

from rulings import audit, wizard
from rulings.errors import WizardError
from rulings.models import Ruling
from rulings.transitions import ATTEMPTS, UNCHANGED, Planned, run
from tests.support.audit import append
from tests.support.rulings import actions_of, begin_proef, refused


@pytest.fixture
def ruling(proef_tree, club_a, director_a):
    return begin_proef(club_a, director_a)


def test_a_plan_without_entries_writes_nothing(ruling, director_a, django_assert_num_queries):
    with django_assert_num_queries(0):
        result = run(ruling, director_a, None, lambda ruling, at: UNCHANGED)
    assert not result.recorded
    assert result.number == 2
    assert actions_of(Ruling.objects.get(pk=ruling.pk)) == ["started", "answered"]


def test_a_plan_is_made_again_on_a_fresh_read_until_it_wins(ruling, director_a):
    """Another request moves the audit head while this plan is made: the compare-and-swap
    loses, the ruling is read again and the plan made on it; after ATTEMPTS losses the
    transition gives up, and nothing of the plan is written."""
    other_request = Ruling.objects.get(pk=ruling.pk)
    planned = []

    def plan(current: Ruling, at: datetime) -> Planned:
        planned.append(current.audit_sequence)
        append(other_request, "viewed", director_a, {})
        current.status = "deferred"
        return Planned(("status",), [("deferred", {})])

    with refused(WizardError.CONFLICT):
        run(ruling, director_a, None, plan)
    assert len(planned) == ATTEMPTS
    assert planned == sorted(set(planned))  # each attempt saw the head the last one lost to
    stored = Ruling.objects.get(pk=ruling.pk)
    assert stored.status == "in_progress"
    assert actions_of(stored)[-ATTEMPTS:] == ["viewed"] * ATTEMPTS
    assert audit.verify(stored) == []


def test_a_concurrent_answer_makes_the_slower_one_stale(ruling, director_a):
    other_tab = Ruling.objects.get(pk=ruling.pk)
    wizard.answer(ruling, "geaccepteerd", 2, "ja", director_a, revision=1)
    # The other copy was read before that answer: its compare-and-swap fails, it reads the
    # ruling again and finds its form stale.
    with refused(WizardError.STALE):
        wizard.answer(other_tab, "geaccepteerd", 2, "nee", director_a, revision=1)
    assert ruling.steps.count() == 2
    assert audit.verify(ruling) == []


def test_an_unrelated_audit_event_does_not_make_the_form_stale(ruling, director_a):
    copy = Ruling.objects.get(pk=ruling.pk)
    append(ruling, "viewed", director_a, {})
    result = wizard.answer(copy, "geaccepteerd", 2, "ja", director_a, revision=1)
    assert result.recorded
    assert actions_of(ruling)[-2:] == ["viewed", "answered"]
    assert audit.verify(ruling) == []
