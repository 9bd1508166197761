"""Free texts have a maximum length (issue 35 item 2): in the forms with a message, in the
transfer bundle reader (tests/transfer/test_bundle_checks.py) and in the database, where a
trigger refuses a text that is too long when it is written or changed, while a longer text
saved before stays and its row can still change otherwise."""

from __future__ import annotations

import importlib

import pytest
from django.db import IntegrityError, connection, transaction

from archive.forms import AppealForm, ReviewForm
from archive.models import Review
from lib import limits
from rulings.forms import ContextForm
from rulings.models import Ruling, Verdict
from tests.support.rulings import make_ruling
from tests.training.test_views import case_data
from tests.training.test_views import cases as cases

LENGTHS = importlib.import_module("archive.migrations.0007_text_length_triggers")


def _execute(statements: dict[str, list[str]]) -> None:
    with connection.cursor() as cursor:
        for statement in statements[connection.vendor]:
            cursor.execute(statement)


@pytest.mark.parametrize(
    ("form", "field", "limit"),
    [
        (lambda data: ContextForm(data=data, mode="live"), "notes", limits.NOTES_MAX),
        (lambda data: ReviewForm(data=data, edition="2017"), "comment", limits.DECISION_MAX),
        (
            lambda data: ReviewForm(data=data, edition="2017"),
            "corrected_ruling",
            limits.DECISION_MAX,
        ),
        (lambda data: AppealForm(data=data), "note", limits.APPEAL_NOTE_MAX),
    ],
    ids=["notes", "review comment", "corrected ruling", "appeal note"],
)
def test_a_form_refuses_a_text_over_its_limit_with_a_message(db, form, field, limit):
    bound = form({field: "x" * (limit + 1)})
    assert not bound.is_valid()
    assert f"niet meer dan {limit} tekens" in " ".join(bound.errors[field])
    assert field not in form({field: "x" * limit}).errors


def test_a_free_ruling_keeps_its_limits(db):
    from rulings.free_forms import FreeForm

    assert FreeForm.base_fields["decision"].max_length == limits.DECISION_MAX
    assert FreeForm.base_fields["announcement"].max_length == limits.SAID_MAX


def test_the_case_form_refuses_a_situation_over_its_limit(cases, client_trainer_a):
    too_long = "x" * (limits.TRAINING_TEXT_MAX + 1)
    response = client_trainer_a.post("/oefenen/casussen/nieuw/", case_data(situation_nl=too_long))
    assert response.status_code == 200  # the form again, with the message
    assert f"niet meer dan {limits.TRAINING_TEXT_MAX} tekens" in response.content.decode()


def test_the_database_refuses_notes_over_the_limit(club_a, director_a):
    ruling = make_ruling(club_a, director_a)
    with pytest.raises(IntegrityError), transaction.atomic():
        Ruling.objects.filter(pk=ruling.pk).update(notes="x" * (limits.NOTES_MAX + 1))
    Ruling.objects.filter(pk=ruling.pk).update(notes="x" * limits.NOTES_MAX)


def test_notes_saved_longer_before_stay_and_the_ruling_still_changes(club_a, director_a):
    ruling = make_ruling(club_a, director_a)
    _execute({"sqlite": LENGTHS.DROP_RULING_SQLITE, "postgresql": LENGTHS.DROP_RULING_POSTGRESQL})
    long_ago = "y" * (limits.NOTES_MAX * 2)
    Ruling.objects.filter(pk=ruling.pk).update(notes=long_ago)
    _execute({"sqlite": LENGTHS.RULING_SQLITE, "postgresql": LENGTHS.RULING_POSTGRESQL})

    Ruling.objects.filter(pk=ruling.pk).update(review_verdict=Verdict.CONFIRMED)
    Ruling.objects.filter(pk=ruling.pk).update(notes=long_ago)  # unchanged: allowed
    with pytest.raises(IntegrityError), transaction.atomic():
        Ruling.objects.filter(pk=ruling.pk).update(notes=long_ago + "z")
    assert Ruling.objects.get(pk=ruling.pk).notes == long_ago


def test_the_database_refuses_a_review_comment_over_the_limit(club_a, director_a, reviewer_a):
    ruling = make_ruling(club_a, director_a)
    with pytest.raises(IntegrityError), transaction.atomic():
        Review.objects.create(
            ruling=ruling,
            reviewer=reviewer_a,
            verdict=Verdict.CONFIRMED,
            comment="x" * (limits.DECISION_MAX + 1),
            created_at=ruling.created_at,
        )
    assert not Review.objects.exists()


def test_the_database_refuses_a_case_text_over_the_limit(cases):
    from training.models import TrainingCase

    case = TrainingCase.objects.first()
    with pytest.raises(IntegrityError), transaction.atomic():
        TrainingCase.objects.filter(pk=case.pk).update(
            explanation_en="x" * (limits.TRAINING_TEXT_MAX + 1)
        )
    TrainingCase.objects.filter(pk=case.pk).update(title_nl="Nog steeds te wijzigen")
