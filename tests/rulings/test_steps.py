"""rulings.steps: the state of a step as the wizard page shows it."""

import uuid

from django.urls import reverse

from rulings.steps import _step_urls, step_view
from tests.support.rulings import make_ruling


def test_every_path_entry_links_to_its_own_step(club_a, director_a):
    ruling = make_ruling(club_a, director_a, ("nee", "ja"), final=False)
    entries = step_view(ruling).path
    assert [entry.number for entry in entries] == [1, 2]
    assert [entry.url for entry in entries] == [
        reverse("wizard:step", args=[ruling.uuid, number]) for number in (1, 2)
    ]


def test_step_urls_put_the_number_in_the_right_place_whatever_the_uuid():
    # A uuid that holds the digits used to find the number's place in the URL.
    tricky = uuid.UUID("00000000-0000-4000-8000-000987654321")
    for ruling in (tricky, uuid.uuid4()):
        url_of = _step_urls(ruling)
        for number in (1, 9, 12, 987654321):
            assert url_of(number) == reverse("wizard:step", args=[ruling, number])
