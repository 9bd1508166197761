"""The database refuses a ruling or step outside what the models promise (lib/constraints.py),
however the row is written: here by ``QuerySet.update``, which skips every validator."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from django.db import IntegrityError, transaction

from rulings.models import Ruling, Step
from tests.support.rulings import make_ruling

pytestmark = pytest.mark.django_db

REFUSED = [
    ("board", 0),
    ("board", 129),
    ("round", 0),
    ("round", 1000),
    ("table", 0),
    ("table", 1000),
    ("contract_level", 0),
    ("contract_level", 8),
    ("mode", "echt"),
    ("status", "done"),
    ("status", ""),
    ("review_verdict", "ok"),
    ("appeal_status", "closed"),
    ("offender_seat", "X"),
    ("declarer_seat", "n"),
    ("contract_strain", "SA"),
    ("contract_doubled", "XY"),
]
ACCEPTED = [
    {"board": 1, "round": 1, "table": 1, "contract_level": 1},
    {"board": 128, "round": 999, "table": 999, "contract_level": 7},
    {"board": None, "round": None, "table": None, "contract_level": None},
    {"offender_seat": "", "declarer_seat": "W", "contract_strain": "NT", "contract_doubled": "XX"},
    {"status": "discarded", "mode": "training", "review_verdict": "", "appeal_status": ""},
    {"review_verdict": "overturned", "appeal_status": "settled"},
]


@pytest.fixture
def ruling(club_a, director_a) -> Ruling:
    return make_ruling(club_a, director_a, ("ja", "nee"))


@pytest.mark.parametrize(("field", "value"), REFUSED)
def test_a_value_outside_the_models_promise_is_refused(ruling, field, value):
    with pytest.raises(IntegrityError), transaction.atomic():
        Ruling.objects.filter(pk=ruling.pk).update(**{field: value})
    assert getattr(Ruling.objects.get(pk=ruling.pk), field) == getattr(ruling, field)


@pytest.mark.parametrize("values", ACCEPTED)
def test_the_edges_and_blanks_are_accepted(ruling, values):
    assert Ruling.objects.filter(pk=ruling.pk).update(**values) == 1


def test_one_step_counts_per_place_on_the_path(ruling):
    first = ruling.steps.get(order=1, superseded=False)
    twin = {
        "ruling": ruling,
        "order": 1,
        "node_key": first.node_key,
        "choice_key": "nee",
        "answered_at": datetime(2025, 3, 1, tzinfo=UTC),
    }
    with pytest.raises(IntegrityError), transaction.atomic():
        Step.objects.create(**twin)
    # A superseded step may share its place: that is how a changed answer is kept.
    Step.objects.create(**twin, superseded=True)
    assert ruling.steps.filter(order=1).count() == 2
