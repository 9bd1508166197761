"""The "consider an adjusted score" banner: only where the outcome allows an adjustment, and
naming the sides from the ruling's offender seat (never a fixed seat)."""

from types import SimpleNamespace

import pytest
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation

from rulings import wizard
from rulings.models import Ruling
from rulings.templatetags.wizard_tags import offending_sides
from tests.support.rulings import begin_proef


def outcome(adjusted_score: bool, unauthorised_information: bool = False) -> dict:
    return {
        "ruling": {"nl": "Beslissing.", "en": "Ruling."},
        "announce": {"nl": "Zeg dit.", "en": "Say this."},
        "options": None,
        "chooser": "none",
        "adjusted_score": adjusted_score,
        "unauthorised_information": unauthorised_information,
        "see_tree": None,
    }


def render(adjusted_score: bool, seat: str, unauthorised_information: bool = False) -> str:
    return render_to_string(
        "rulings/_outcome.html",
        {
            "outcome": outcome(adjusted_score, unauthorised_information),
            "ruling": SimpleNamespace(offender_seat=seat),
        },
    )


@pytest.mark.parametrize(
    ("seat", "offending", "non_offending"),
    [
        ("N", "Noord-Zuid", "Oost-West"),
        ("S", "Noord-Zuid", "Oost-West"),
        ("E", "Oost-West", "Noord-Zuid"),
        ("W", "Oost-West", "Noord-Zuid"),
    ],
)
def test_the_offending_side_follows_the_offender_seat(seat, offending, non_offending):
    with translation.override("nl"):
        sides = offending_sides(SimpleNamespace(offender_seat=seat))
    assert sides == {"offending": offending, "non_offending": non_offending}


def test_no_side_while_the_offender_seat_is_unknown():
    assert offending_sides(SimpleNamespace(offender_seat="")) is None
    assert offending_sides(None) is None


def test_no_banner_when_the_outcome_allows_no_adjustment():
    html = render(adjusted_score=False, seat="S")
    assert "data-adjusted-score" not in html
    assert "arbitrale score" not in html


def test_a_misinforming_declarer_makes_his_side_the_offender():
    # South, declarer, gave the wrong explanation: North-South offended, East-West may be damaged.
    with translation.override("nl"):
        html = render(adjusted_score=True, seat="S", unauthorised_information=True)
    assert "data-adjusted-score" in html
    assert (
        "controleer na het spel of Oost-West, de niet-overtredende partij, schade leed door de "
        "overtreding van Noord-Zuid." in html
    )
    # Which side holds the information is the outcome's own text: the banner names no side
    # (in some outcomes the non-offending side holds it, issue 30).
    assert "de beslissing hierboven zegt welke partij deze informatie niet mag gebruiken" in html
    assert "de overtredende partij (Noord-Zuid) mag" not in html


def test_a_defender_offender_names_east_west_in_english():
    with translation.override("en"):
        html = render(adjusted_score=True, seat="W")
    assert (
        "check whether North-South, the non-offending side, was damaged by the infraction of "
        "East-West." in html
    )


def test_without_a_seat_the_banner_names_no_side():
    with translation.override("nl"):
        html = render(adjusted_score=True, seat="")
    assert "de niet-overtredende partij schade leed." in html
    assert "Noord-Zuid" not in html
    assert "Oost-West" not in html
    assert "West" not in html


# --- on the ruling's page ---------------------------------------------------------------------


@pytest.fixture
def ruling(proef_tree, club_a, director_a):
    return begin_proef(club_a, director_a)


def test_the_ruling_page_names_the_side_entered_as_offender(client_director_a, ruling, director_a):
    wizard.answer(ruling, "geaccepteerd", 2, "ja", director_a)
    wizard.answer(ruling, "vervangen", 3, "nee", director_a)  # 'straf': adjusted score
    url = reverse("wizard:ruling", args=[ruling.uuid])
    html = client_director_a.get(url).content.decode()
    assert "data-adjusted-score" in html
    assert "Noord-Zuid" not in html
    Ruling.objects.filter(pk=ruling.pk).update(offender_seat="E")
    html = client_director_a.get(url).content.decode()
    assert "of Noord-Zuid, de niet-overtredende partij, schade leed" in html
    assert "door de overtreding van Oost-West." in html


def test_the_ruling_page_has_no_banner_without_adjustment(client_director_a, ruling, director_a):
    wizard.answer(ruling, "geaccepteerd", 2, "nee", director_a)  # 'afgewezen'
    Ruling.objects.filter(pk=ruling.pk).update(offender_seat="E")
    html = client_director_a.get(reverse("wizard:ruling", args=[ruling.uuid])).content.decode()
    assert "Het bod blijft staan" in html
    assert "data-adjusted-score" not in html
    assert "arbitrale score" not in html.lower()
