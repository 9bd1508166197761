"""rulings.steps: the state of a step as the wizard page shows it."""

from django.urls import reverse

from rulings.steps import law_cards, step_view
from tests.support.rulings import make_ruling
from trees.spec import CitedLaw


def test_every_path_entry_links_to_its_own_step(club_a, director_a):
    ruling = make_ruling(club_a, director_a, ("nee", "ja"), final=False)
    entries = step_view(ruling).path
    assert [entry.number for entry in entries] == [1, 2]
    assert [entry.url for entry in entries] == [
        reverse("wizard:step", args=[ruling.uuid, number]) for number in (1, 2)
    ]


def test_same_text_citations_share_one_card():
    cards = law_cards(
        [
            CitedLaw(key="64A1", edition="2017", article="64", kind="summary"),
            CitedLaw(key="63B", edition="2017", article="63", kind="summary"),
            CitedLaw(key="64C", edition="2017", article="64", kind="summary"),
            CitedLaw(key="62D2", edition="2007", article="62", kind="official"),
            CitedLaw(key="62D1", edition="2007", article="62", kind="official"),
        ]
    )
    assert [card["keys"] for card in cards] == [["64A1", "64C"], ["63B"], ["62D2"], ["62D1"]]
