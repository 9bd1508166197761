"""The one writer of every transition (rulings/transitions.py): a plan is written by a
compare-and-swap on the audit head, planned again on a fresh read when another request moved
the head, and a plan without entries writes nothing."""

import uuid
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


def test_a_new_ruling_is_inserted_with_its_plan(proef_tree, club_a, director_a):
    tree = wizard.start("proef")
    made = wizard.new_ruling(uuid=uuid.uuid4(), club=club_a, director=director_a, tree=tree)
    result = run(made, director_a, None, wizard.plan_first_answer(tree, "onbedoeld", "nee"))
    assert result.recorded
    assert result.ruling is made
    assert made.pk is not None
    stored = Ruling.objects.get(uuid=made.uuid)
    assert stored.path == [["onbedoeld", "nee"]]
    assert stored.steps.count() == 1
    assert actions_of(stored) == ["started", "answered"]
    assert audit.verify(stored) == []


def test_a_uuid_stored_meanwhile_is_planned_again_on_the_stored_ruling(
    proef_tree, club_a, director_a
):
    """Two first answers at once (a double click): the other request stores the ruling while
    this one plans; this insert then writes nothing and the plan is made again on the stored
    ruling, where the same answer changes nothing."""
    tree = wizard.start("proef")
    ruling_uuid = uuid.uuid4()
    first_answer = wizard.plan_first_answer(tree, "onbedoeld", "nee")
    seen = []

    def plan(ruling: Ruling, at: datetime) -> Planned:
        seen.append(ruling.pk)
        if len(seen) == 1:
            wizard.begin(
                uuid=ruling_uuid,
                club=club_a,
                director=director_a,
                tree=tree,
                node_key="onbedoeld",
                choice_key="nee",
            )
        return first_answer(ruling, at)

    made = wizard.new_ruling(uuid=ruling_uuid, club=club_a, director=director_a, tree=tree)
    result = run(made, director_a, None, plan)
    stored = Ruling.objects.get()
    assert seen == [None, stored.pk]
    assert result.ruling.pk == stored.pk
    assert not result.recorded
    assert stored.steps.count() == 1
    assert actions_of(stored) == ["started", "answered"]
