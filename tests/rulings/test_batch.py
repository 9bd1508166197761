"""Rulings made in bulk (rulings/batch.py, for seed_demo): the wizard's own planners with all
their checks, written at the end of the block, the same rows as live transitions write."""

import uuid
from datetime import UTC, date, datetime

import pytest

from rulings import audit, wizard
from rulings.batch import batch
from rulings.errors import WizardError
from rulings.models import Ruling


@pytest.fixture
def frozen(proef_tree):
    return wizard.start("proef")


@pytest.fixture
def ruling(frozen, club_a, director_a):
    return wizard.begin(
        uuid=uuid.uuid4(),
        club=club_a,
        director=director_a,
        tree=frozen,
        node_key="onbedoeld",
        choice_key="nee",
    ).ruling


def actions(ruling):
    return list(ruling.audit_events.order_by("sequence").values_list("action", flat=True))


def raises(code):
    return pytest.raises(WizardError, match=f"^{code}")


def test_a_batch_writes_its_rulings_at_the_end_through_the_same_checks(
    frozen, club_a, director_a, django_assert_max_num_queries
):
    at = datetime(2024, 2, 3, 20, 0, tzinfo=UTC)
    with django_assert_max_num_queries(6), batch() as pending:
        rulings = []
        for _ in range(5):
            ruling, planned = wizard.plan_begin(
                uuid=uuid.uuid4(),
                club=club_a,
                director=director_a,
                tree=frozen,
                node_key="onbedoeld",
                choice_key="nee",
                at=at,
            )
            pending.create(ruling, planned, director_a, at)
            for node, number, choice in (("geaccepteerd", 2, "ja"), ("vervangen", 3, "nee")):
                pending.run(ruling, director_a, at, wizard.plan_answer(node, number, choice))
            changed = pending.run(
                ruling, director_a, at, wizard.plan_answer("onbedoeld", 1, "ja", revision=3)
            )
            assert changed.recorded
            with raises(WizardError.STALE):
                pending.run(
                    ruling, director_a, at, wizard.plan_answer("onbedoeld", 1, "nee", revision=3)
                )
            rulings.append(ruling)
        assert rulings[0].pk is None
    assert Ruling.objects.count() == 5
    for ruling in Ruling.objects.all():
        assert ruling.created_at == at
        assert ruling.path == [["onbedoeld", "ja"]]
        assert ruling.steps.filter(superseded=True).count() == 3
        assert ruling.steps.filter(superseded=False).count() == 1
        assert actions(ruling)[-1] == "answer_changed"
        assert audit.verify(ruling) == []


def test_a_batch_writes_the_same_rows_as_the_live_transitions(frozen, club_a, director_a):
    """A ruling made in a batch and one made live by the same plans store the same state,
    steps and audit trail: seed_demo's data is what the wizard would have written."""
    at = datetime(2024, 2, 3, 20, 0, tzinfo=UTC)
    context = {"board": 7, "played_on": date(2024, 2, 3)}
    answers = (("geaccepteerd", 2, "ja"), ("vervangen", 3, "nee"))
    begin_with = {"club": club_a, "tree": frozen, "node_key": "onbedoeld", "choice_key": "nee"}
    live = wizard.begin(uuid=uuid.uuid4(), director=director_a, at=at, **begin_with).ruling
    for node, number, choice in answers:
        wizard.answer(live, node, number, choice, director_a, at=at)
    wizard.save(live, director_a, context, at=at)
    with batch() as pending:
        ruling, planned = wizard.plan_begin(
            uuid=uuid.uuid4(), director=director_a, at=at, **begin_with
        )
        pending.create(ruling, planned, director_a, at)
        for node, number, choice in answers:
            pending.run(ruling, director_a, at, wizard.plan_answer(node, number, choice))
        pending.run(ruling, director_a, at, wizard.plan_save(context))
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
            at = datetime(2024, 2, 3, 20, 0, tzinfo=UTC)
            ruling, planned = wizard.plan_begin(
                uuid=uuid.uuid4(),
                club=club_a,
                director=director_a,
                tree=frozen,
                node_key="onbedoeld",
                choice_key="nee",
                at=at,
            )
            pending.create(ruling, planned, director_a, at)
            raise RuntimeError("stop")

    with pytest.raises(RuntimeError, match="stop"):
        begin_then_fail()
    assert not Ruling.objects.exists()
