"""Parts of a step rendered once per process (wizard_tags.step_choices, table_fields): what
is kept for one ruling is never shown for another in a different state or language."""

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


def test_the_table_fields_follow_each_rulings_values_and_a_refused_form(
    client_director_a, proef_tree, club_a, director_a
):
    first, second = begin_proef(club_a, director_a), begin_proef(club_a, director_a)
    wizard.edit_context(first, {"round": 3, "table": 7, "board": 12}, director_a)
    assert 'name="table" value="7"' in step_page(client_director_a, first)
    page = step_page(client_director_a, second)  # kept for the first, not shown for the second
    assert 'name="table" value="7"' not in page
    assert 'name="table"' in page
    refused = client_director_a.post(
        reverse("wizard:table", args=[second.uuid]), {"table": "-4"}, HTTP_HX_REQUEST="true"
    ).content.decode()
    assert 'value="-4"' in refused
    assert "text-danger" in refused
    assert "text-danger" not in step_page(client_director_a, second)
