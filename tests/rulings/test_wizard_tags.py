"""The answer buttons rendered once per process (wizard_tags.step_choices): what is kept for
one ruling is never shown for another in a different state or language."""

from django.urls import reverse

from rulings import wizard
from tests.support.rulings import begin_proef


def step_page(client, ruling) -> str:
    return client.get(reverse("wizard:step", args=[ruling.uuid, 2])).content.decode()


def test_a_deferred_rulings_disabled_buttons_are_not_shown_for_an_open_one(
    client_director_a, proef_tree, club_a, director_a
):
    deferred, open_ = begin_proef(club_a, director_a), begin_proef(club_a, director_a)
    wizard.defer(deferred, director_a)
    assert step_page(client_director_a, deferred).count(" disabled>") == 2
    page = step_page(client_director_a, open_)
    assert page.count(" disabled>") == 0
    assert page.count('name="choice"') == 2


def test_the_buttons_follow_the_language(client_director_a, proef_tree, club_a, director_a):
    ruling = begin_proef(club_a, director_a)
    dutch = step_page(client_director_a, ruling)
    client_director_a.post(reverse("set_language"), {"language": "en", "next": "/"})
    english = step_page(client_director_a, ruling)
    label = '<span class="flex-grow-1">{}</span>'
    assert label.format("Ja") in dutch
    assert label.format("Yes") not in dutch
    assert label.format("Yes") in english
    assert label.format("Ja") not in english
