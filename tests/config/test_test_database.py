"""The test databases start where an installation does (tests/support/shipped.py): the shipped
laws, trees and cases are there in every test, also after a transactional test's flush."""

from __future__ import annotations

import pytest
from django.core.management import call_command

from laws.models import Edition, Provision
from tests.support import shipped
from training.models import TrainingCase
from trees.loading import TREES_DIR, tree_file_paths
from trees.models import Choice, Tree


def counts() -> tuple[int, ...]:
    return tuple(
        model.objects.count() for model in (Edition, Provision, Tree, Choice, TrainingCase)
    )


def test_every_test_has_the_shipped_data(db):
    assert sorted(Tree.objects.values_list("slug", flat=True)) == sorted(
        path.stem for path in tree_file_paths(TREES_DIR)
    )
    assert Edition.objects.filter(code="2017").exists()
    assert TrainingCase.objects.filter(club__isnull=True).exists()


@pytest.mark.django_db(transaction=True)
def test_after_a_flush_the_shipped_rows_come_back_and_new_rows_get_new_ids():
    before = counts()
    call_command("flush", interactive=False, verbosity=0)  # what ends a transactional test
    assert counts() == (0, 0, 0, 0, 0)
    shipped.ensure()
    assert counts() == before
    # The next id follows the copied ones (PostgreSQL's sequences are reset after the copy).
    highest = Edition.objects.order_by("-pk").values_list("pk", flat=True).first()
    assert Edition.objects.create(code="1997", title="Proef").pk > highest


def test_without_shipped_data_starts_empty(without_shipped_data):
    assert counts() == (0, 0, 0, 0, 0)
