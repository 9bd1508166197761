"""An edition's law as read from the database (laws/edition_law.py): the key index for the
checkers, and the copy kept per process for the law cards, keyed on the edition's import time
so that every worker shows imported text as soon as it meets a ruling frozen after the import
(issue 25, item 6)."""

from __future__ import annotations

import pytest
from django.utils import timezone

from laws import edition_law
from laws.models import Edition, Provision
from trees import snapshot
from trees.models import Tree

pytestmark = pytest.mark.django_db


def another_process_imports(text: str) -> None:
    """What an import in another worker leaves behind: new rows and a later import time, and
    no signal in this process."""
    Provision.objects.filter(article__edition__code="2017", key="63A1").update(text=text)
    Edition.objects.filter(code="2017").update(imported_at=timezone.now())


def test_the_key_index_is_read_afresh_for_every_check(shipped):
    assert edition_law.index_of("2017").holds("63A1")
    Provision.objects.filter(article__edition__code="2017", key="63A4").delete()
    assert not edition_law.index_of("2017").holds("63A4")


def test_the_kept_law_is_read_again_once_a_later_import_time_is_known(
    shipped, django_assert_num_queries
):
    law = edition_law.law_of("2017")
    with django_assert_num_queries(0):
        assert edition_law.law_of("2017") is law
    another_process_imports("Nieuw.")
    assert edition_law.law_of("2017") is law  # nothing told this process yet
    edition_law.note_import_time("2017", Edition.objects.get(code="2017").imported_at)
    fresh = edition_law.law_of("2017")
    assert fresh is not law
    assert fresh.provisions["63A1"].text == "Nieuw."
    assert edition_law.law_of("2017") is fresh


def test_reading_a_snapshot_tells_the_process_the_editions_import_time(shipped):
    frozen = snapshot.freeze(Tree.objects.select_related("edition").get(slug="verzaking"))
    law = edition_law.law_of("2017")
    another_process_imports("Nieuw.")
    snapshot.clear_cache()  # this worker never saw the snapshot: it reads its row
    snapshot.get(frozen.digest)
    assert edition_law.law_of("2017") is not law
    assert edition_law.law_of("2017").provisions["63A1"].text == "Nieuw."


def test_freezing_a_tree_tells_the_process_the_editions_import_time(shipped):
    law = edition_law.law_of("2017")
    another_process_imports("Nieuw.")
    snapshot.freeze(Tree.objects.select_related("edition").get(slug="verzaking"))
    assert edition_law.law_of("2017").provisions["63A1"].text == "Nieuw."
    assert edition_law.law_of("2017") is not law
