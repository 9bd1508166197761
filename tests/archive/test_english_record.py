"""The record in English (issue 30, item 8): a free ruling's title, the deal's compass and
vulnerability, the board's result and the law cards of a wizard step, with no Dutch interface
words (the list of tests/security/test_english_pages.py)."""

from __future__ import annotations

import uuid
from datetime import date

import pytest
from django.urls import reverse

from rulings import free
from rulings.models import Ruling
from scores import deals
from tests.security.test_english_pages import WORDS, visible_text
from tests.support.rulings import begin_proef, make_ruling

HANDS = {
    "N": "AKQJ.AKQJ.AKQJ.A",
    "E": "765.765.765.9876",
    "S": "T98.T98.T98.KQJT",
    "W": "432.432.432.5432",
}


@pytest.fixture
def english(client_director_a):
    session = client_director_a.session
    session["language"] = "en"
    session.save()
    return client_director_a


def dutch_on(page: str) -> list[str]:
    return sorted(set(WORDS.findall(visible_text(page))))


def test_a_free_ruling_reads_as_a_free_ruling(db, english, club_a, director_a):
    edition = free.current_edition()
    assert edition is not None
    ruling = free.create(
        uuid=uuid.uuid4(),
        club=club_a,
        director=director_a,
        edition=edition,
        content=free.Content(laws=("12",), decision="Score adjusted.", announcement="Later."),
        context={"played_on": date(2026, 3, 3), "board": 4, "event": "Tuesday"},
        final=True,
    )
    page = english.get(reverse("archive:detail", args=[ruling.uuid])).content.decode()
    assert "Ruling: Free ruling" in page
    assert dutch_on(page) == []


def test_the_deal_and_the_result_in_english(db, english, club_a, director_a, monkeypatch):
    monkeypatch.setattr(
        deals.double_dummy, "analyse", lambda deal: (_ for _ in ()).throw(RuntimeError)
    )
    ruling = make_ruling(club_a, director_a, ("ja", "nee"), board=2, event="Tuesday")
    Ruling.objects.filter(pk=ruling.pk).update(
        contract_level=3, contract_strain="NT", declarer_seat="S"
    )
    deals.store_typed(club_a, deals.typed_deal(2, HANDS, event="Tuesday"), director_a)
    english.post(
        reverse("scores:result", args=[ruling.uuid]),
        {"tricks_made": 9, "sequence": Ruling.objects.get(pk=ruling.pk).audit_sequence},
    )
    page = english.get(reverse("archive:detail", args=[ruling.uuid])).content.decode()
    assert "NS vulnerable" in page
    assert "3NT by South" in page
    assert "Result of the board" in page
    assert dutch_on(page) == []


def test_the_law_cards_of_a_step_in_english(db, english, proef_tree, club_a, director_a):
    ruling = begin_proef(club_a, director_a)
    page = english.get(reverse("wizard:ruling", args=[ruling.uuid]), follow=True)
    assert dutch_on(page.content.decode()) == []


def test_hand_entry_errors_in_english():
    from django.utils import translation

    from lib.bridge import Seat, Vulnerability
    from scores.deal import DealError, make_deal

    hands = {Seat(seat): cards for seat, cards in HANDS.items()}
    hands[Seat.SOUTH] = "T98.T98.T98.KQJ"
    with translation.override("en"), pytest.raises(DealError) as error:
        make_deal(2, Seat.EAST, Vulnerability.NS, hands)
    assert str(error.value) == "South has 12 cards instead of 13; missing: ♣10."
    with translation.override("nl"), pytest.raises(DealError) as error:
        make_deal(2, Seat.EAST, Vulnerability.NS, hands)
    assert str(error.value) == "Zuid heeft 12 kaarten in plaats van 13; ontbreekt: ♣10."
