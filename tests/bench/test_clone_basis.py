"""The bench clones (bench/data.py multiply) carry each ruling's legal basis, so the record and CSV
measurements read the rows a real archive has."""

import io

import pytest
from django.core.management import call_command

from bench import data
from rulings.models import LegalBasis, Ruling


@pytest.mark.django_db
def test_clones_carry_their_legal_basis(club_a, director_a):
    call_command(
        "seed_demo", "--rulings", "20", "--seed", "3", "--club", club_a.name, stdout=io.StringIO()
    )
    first, last = Ruling.objects.order_by("pk").first().pk, Ruling.objects.order_by("pk").last().pk
    data.multiply(60, first, last)
    assert Ruling.objects.count() == 60
    with_outcome = Ruling.objects.exclude(outcome_key="")
    assert LegalBasis.objects.values("ruling").distinct().count() == with_outcome.count()
