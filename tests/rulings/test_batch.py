"""Rulings made in bulk (rulings/batch.py, for seed_demo): the wizard's own planners with all
their checks, written at the end of the block, the same rows as live transitions write."""

import uuid
from datetime import UTC, date, datetime

import pytest

from rulings import audit, wizard
from rulings.batch import batch
from rulings.errors import WizardError
from rulings.models import Ruling
from tests.support.rulings import actions_of, begin_proef, refused


@pytest.fixture
def frozen(proef_tree):
    return wizard.start("proef")


@pytest.fixture
def ruling(frozen, club_a, director_a):
    return begin_proef(club_a, director_a)


AT = datetime(2024, 2, 3, 20, 0, tzinfo=UTC)


def begun(pending, frozen, club, director):
    """A new ruling in ``pending``: its first answer (nee) planned by the wizard."""
    ruling = wizard.new_ruling(uuid=uuid.uuid4(), club=club, director=director, tree=frozen)
    pending.run(ruling, director, AT, wizard.plan_first_answer(frozen, "onbedoeld", "nee"))
    return ruling


def test_a_batch_writes_its_rulings_at_the_end_through_the_same_checks(
    frozen, club_a, director_a, django_assert_max_num_queries
):
    with django_assert_max_num_queries(6), batch() as pending:
        rulings = []
        for _ in range(5):
            ruling = begun(pending, frozen, club_a, director_a)
            for node, number, choice in (("geaccepteerd", 2, "ja"), ("vervangen", 3, "nee")):
                pending.run(ruling, director_a, AT, wizard.plan_answer(node, number, choice))
            changed = pending.run(
                ruling, director_a, AT, wizard.plan_answer("onbedoeld", 1, "ja", revision=3)
            )
            assert changed.recorded
            with refused(WizardError.STALE):
                pending.run(
                    ruling, director_a, AT, wizard.plan_answer("onbedoeld", 1, "nee", revision=3)
                )
            rulings.append(ruling)
        assert rulings[0].pk is None
    assert Ruling.objects.count() == 5
    for ruling in Ruling.objects.all():
        assert ruling.created_at == AT
        assert ruling.path == [["onbedoeld", "ja"]]
        assert ruling.steps.filter(superseded=True).count() == 3
        assert ruling.steps.filter(superseded=False).count() == 1
        assert actions_of(ruling)[-1] == "answer_changed"
        assert audit.verify(ruling) == []


def test_a_batch_writes_the_same_rows_as_the_live_transitions(frozen, club_a, director_a):
    """A ruling made in a batch and one made live by the same plans store the same state,
    steps and audit trail: seed_demo's data is what the wizard would have written."""
    context = {"board": 7, "played_on": date(2024, 2, 3)}
    answers = (("geaccepteerd", 2, "ja"), ("vervangen", 3, "nee"))
    begin_with = {"club": club_a, "tree": frozen, "node_key": "onbedoeld", "choice_key": "nee"}
    live = wizard.begin(
        uuid=uuid.uuid4(), director=director_a, at=AT, **begin_with
    ).ruling  # as begun()
    for node, number, choice in answers:
        wizard.answer(live, node, number, choice, director_a, at=AT)
    wizard.save(live, director_a, context, at=AT)
    with batch() as pending:
        ruling = begun(pending, frozen, club_a, director_a)
        for node, number, choice in answers:
            pending.run(ruling, director_a, AT, wizard.plan_answer(node, number, choice))
        pending.run(ruling, director_a, AT, wizard.plan_save(context))
    live.refresh_from_db()
    ruling.refresh_from_db()

    def stored(r: Ruling) -> tuple:
        steps = list(r.steps.order_by("order").values("order", "node_key", "choice_key"))
        events = list(r.audit_events.order_by("sequence").values("action", "data", "at"))
        state = (r.status, r.path, r.outcome_key, r.cited_articles, r.board, r.revision)
        return state, steps, events

    assert stored(ruling) == stored(live)
    assert audit.verify(ruling) == []


def test_a_batch_changes_only_its_own_rulings(ruling, director_a):
    with batch() as pending, pytest.raises(ValueError, match="created in this batch"):
        pending.run(ruling, director_a, ruling.created_at, wizard.plan_defer())
    ruling.refresh_from_db()
    assert ruling.status == "in_progress"


def test_a_failing_batch_writes_nothing(frozen, club_a, director_a):
    def begin_then_fail() -> None:
        with batch() as pending:
            begun(pending, frozen, club_a, director_a)
            raise RuntimeError("stop")

    with pytest.raises(RuntimeError, match="stop"):
        begin_then_fail()
    assert not Ruling.objects.exists()
