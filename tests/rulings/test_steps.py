"""rulings.steps: the state of a step as the wizard page shows it."""

from django.urls import reverse

from rulings.steps import step_view
from tests.support.rulings import make_ruling


def test_every_path_entry_links_to_its_own_step(club_a, director_a):
    ruling = make_ruling(club_a, director_a, ("nee", "ja"), final=False)
    entries = step_view(ruling).path
    assert [entry.number for entry in entries] == [1, 2]
    assert [entry.url for entry in entries] == [
        reverse("wizard:step", args=[ruling.uuid, number]) for number in (1, 2)
    ]
