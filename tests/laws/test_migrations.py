"""Migrations of the laws app with data steps, run on the real test database."""

import importlib

import pytest
from django.apps import apps
from django.utils import timezone

from laws.models import Article, Edition, LawImport, Provision

MIGRATION = importlib.import_module("laws.migrations.0003_provision_index_and_imports")

# These tests start where a new installation does, before bootstrap loads the shipped laws.
pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("without_shipped_data")]


def test_text_imported_before_the_index_is_recorded_as_an_import():
    """0003: an edition that already held official text gets one import record, shipped for
    the seed editions, so bootstrap never loads a seed over a club's own text."""
    when = timezone.now()
    seed = Edition.objects.create(
        code="2007", source_note="Art. 62 (001.txt)", source_hash="ab" * 32, imported_at=when
    )
    own = Edition.objects.create(code="2017", source_hash="cd" * 32, imported_at=when)
    Edition.objects.create(code="1987")  # no text: no record
    for edition in (seed, own):
        article = Article.objects.create(edition=edition, number="62")
        Provision.objects.create(article=article, key="62B", label="B", text="Tekst.")
    MIGRATION.record_earlier_imports(apps, None)
    records = {r.edition.code: r for r in LawImport.objects.select_related("edition")}
    assert set(records) == {"2007", "2017"}
    assert (records["2007"].shipped, records["2007"].file_name, records["2007"].sha256) == (
        True,
        "Art. 62 (001.txt)",
        "ab" * 32,
    )
    assert (records["2017"].shipped, records["2017"].provisions, records["2017"].articles) == (
        False,
        1,
        1,
    )
    assert not Provision.objects.filter(imported_from=None).exists()
    assert Article.objects.get(edition=own).imported_from == records["2017"]
