"""The deals page (PBN upload, the confirmation of a re-import that removes boards), typing a
ruling's hands, and the ruling page's diagram. The command: test_import_pbn.py; the board and
event pages: test_event_views.py."""

from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import IntegrityError
from django.urls import reverse

from lib.bridge import Seat
from scores import importing
from scores.models import Event, StoredDeal
from tests.support.rulings import make_ruling

FIXTURE = Path(__file__).resolve().parent.parent / "data" / "deals.pbn"
GOOD = FIXTURE.read_bytes()
EVENT = "Clubavond dinsdag – Café de Ruiten"  # the [Event] of the fixture
TYPED = {
    "north": "AKQJ.AKQJ.AKQJ.A",
    "east": "765.765.765.9876",
    "south": "T98.T98.T98.KQJT",
    "west": "432.432.432.5432",
    "dealer": "S",
    "vulnerability": "EW",
}


@pytest.fixture(autouse=True)
def _no_solver(quick_analysis):
    """No real double-dummy runs on these pages."""


def upload(client, data: bytes, event: str = "", name: str = "avond.pbn"):
    return client.post(
        reverse("scores:deals", args=["troefkaart"]),
        {"file": SimpleUploadedFile(name, data), "event": event},
        follow=True,
    )


def test_the_page_lists_events_in_constant_queries(
    client_director_a, club_a, django_assert_max_num_queries
):
    for number in range(3):
        upload(client_director_a, GOOD, event=f"Avond {number}")
    with django_assert_max_num_queries(8):
        response = client_director_a.get(reverse("scores:deals", args=["troefkaart"]))
    page = response.content.decode()
    for number in range(3):
        assert f'data-event="Avond {number}"' in page
    assert "5 spellen" in page


def test_upload_imports_the_event_named_in_the_file(client_director_a, club_a):
    response = upload(client_director_a, GOOD)
    assert response.redirect_chain[-1][0] == reverse("scores:deals", args=["troefkaart"])
    page = response.content.decode()
    assert f"5 spellen ingelezen voor {EVENT}, met 1 uitslag (5 nieuw, 0 vervangen" in page
    assert "Telling: matchpunten." in page
    assert StoredDeal.objects.filter(club=club_a, event=EVENT).count() == 5

    again = upload(client_director_a, GOOD)
    assert "(0 nieuw, 5 vervangen, 0 verwijderd)" in again.content.decode()
    assert StoredDeal.objects.count() == 5


def test_unreadable_file_names_the_line_and_imports_nothing(client_director_a, club_a):
    broken = GOOD.replace(b'[Board "2"]', b'[Board "2"', 1)
    line = GOOD[: GOOD.index(b'[Board "2"]')].count(b"\n") + 1
    response = upload(client_director_a, broken, event="Avond")
    assert response.status_code == 400
    assert f"Regel {line}: tag niet te lezen" in response.content.decode()
    assert not StoredDeal.objects.exists()


def test_doubled_card_is_refused_with_the_card_named(client_director_a, club_a):
    # North's spade two becomes a second ace of spades: one card doubled, one missing.
    doubled = GOOD.replace(b"N:AK32.QJ5", b"N:AKA3.QJ5", 1)
    response = upload(client_director_a, doubled, event="Avond")
    assert response.status_code == 400
    assert "♠A staat er twee keer in" in response.content.decode()
    assert not StoredDeal.objects.exists()


def test_file_without_event_needs_a_name(client_director_a, club_a):
    hands = "N:AKQJ.AKQJ.AKQJ.A 765.765.765.9876 T98.T98.T98.KQJT 432.432.432.5432"
    nameless = f'[Board "1"]\n[Deal "{hands}"]\n'.encode()
    response = upload(client_director_a, nameless)
    assert response.status_code == 400
    assert "vul de naam van de wedstrijd in" in response.content.decode()
    assert upload(client_director_a, nameless, event="Woensdag").status_code == 200
    assert StoredDeal.objects.get().event == "Woensdag"


def test_reviewer_may_not_import(client_reviewer_a, club_a):
    assert upload(client_reviewer_a, GOOD).status_code == 403
    assert not StoredDeal.objects.exists()


def test_ruling_page_shows_the_diagram_and_table(
    client_director_a, club_a, director_a, quick_analysis
):
    upload(client_director_a, GOOD)
    ruling = make_ruling(club_a, director_a, event=EVENT, board=1)
    page = client_director_a.get(reverse("archive:detail", args=[ruling.uuid])).content.decode()
    assert 'data-deal="1"' in page
    assert 'data-hand="N"' in page
    assert "A H 3 2" in page  # North's spades in the fixture, in Dutch
    assert "gever Noord" in page
    assert "niemand kwetsbaar" in page
    assert 'data-dd-row="W"' in page
    assert "<td>11</td>" in page
    assert len(quick_analysis) == 1
    client_director_a.get(reverse("archive:detail", args=[ruling.uuid]))
    assert len(quick_analysis) == 1  # cached


def test_ruling_page_without_deal_offers_to_type_it(client_director_a, club_a, director_a):
    ruling = make_ruling(club_a, director_a, event="Avond", board=5)
    page = client_director_a.get(reverse("archive:detail", args=[ruling.uuid])).content.decode()
    assert "data-deal=" not in page
    assert reverse("scores:ruling_deal", args=[ruling.uuid]) in page


def test_only_directors_are_offered_the_hands_and_the_deals_page(
    client_director_a, client_reviewer_a, club_a, director_a
):
    ruling = make_ruling(club_a, director_a, event="Avond", board=5)
    record = reverse("archive:detail", args=[ruling.uuid])
    typing, deals = (
        reverse("scores:ruling_deal", args=[ruling.uuid]),
        reverse("scores:deals", args=[club_a.slug]),
    )
    director_page = client_director_a.get(record).content.decode()
    assert typing in director_page
    assert f'href="{deals}" data-nav-deals' in director_page
    reviewer_page = client_reviewer_a.get(record).content.decode()
    assert typing not in reviewer_page
    assert deals not in reviewer_page


def test_typing_hands_stores_them_for_the_board(client_director_a, club_a, director_a):
    ruling = make_ruling(club_a, director_a, event="Avond", board=6)
    url = reverse("scores:ruling_deal", args=[ruling.uuid])
    form = client_director_a.get(url).content.decode()
    assert '<option value="E" selected>' in form  # board 6: East deals
    assert '<option value="EW" selected>' in form
    response = client_director_a.post(url, TYPED)
    assert response.status_code == 302
    assert response["Location"].endswith("#spel")
    stored = StoredDeal.objects.get(club=club_a, event="Avond", board=6)
    assert stored.typed
    assert stored.dealer == "S"
    assert stored.to_deal().hand(Seat.WEST).pbn == TYPED["west"]
    # The form shows the stored hands for a correction, in Dutch letters.
    again = client_director_a.get(url).content.decode()
    assert 'value="1098.1098.1098.HVB10"' in again


def test_hands_may_be_typed_with_dutch_letters(client_director_a, club_a, director_a):
    ruling = make_ruling(club_a, director_a, event="Avond", board=6)
    url = reverse("scores:ruling_deal", args=[ruling.uuid])
    dutch = {**TYPED, "north": "AHVB.AHVB.AHVB.A", "south": "1098.T98.1098.HVBT"}
    assert client_director_a.post(url, dutch).status_code == 302
    stored = StoredDeal.objects.get(club=club_a, board=6)
    assert stored.to_deal().hand(Seat.NORTH).pbn == TYPED["north"]
    assert stored.to_deal().hand(Seat.SOUTH).pbn == TYPED["south"]


def test_typing_a_missing_card_is_refused_and_loses_nothing(client_director_a, club_a, director_a):
    ruling = make_ruling(club_a, director_a, event="Avond", board=6)
    url = reverse("scores:ruling_deal", args=[ruling.uuid])
    response = client_director_a.post(url, {**TYPED, "west": "432.432.432.543"})
    page = response.content.decode()
    assert response.status_code == 400
    assert "ontbreekt: ♣2" in page
    assert 'value="432.432.432.543"' in page
    assert not StoredDeal.objects.exists()


def test_another_clubs_ruling_is_not_found(client_director_b, club_a, director_a):
    ruling = make_ruling(club_a, director_a, event="Avond", board=6)
    url = reverse("scores:ruling_deal", args=[ruling.uuid])
    assert client_director_b.post(url, TYPED).status_code == 404
    assert not StoredDeal.objects.exists()


def test_the_diagram_speaks_english_on_an_english_page(client_director_a, club_a, director_a):
    upload(client_director_a, GOOD)
    ruling = make_ruling(club_a, director_a, event=EVENT, board=1)
    client_director_a.post("/taal/", {"language": "en", "next": "/"})
    page = client_director_a.get(reverse("archive:detail", args=[ruling.uuid])).content.decode()
    assert "dealer North" in page
    assert "none vulnerable" in page
    assert "Double dummy: tricks per declarer and denomination" in page
    assert '<th scope="col"><span>NT</span></th>' in page
    assert "spades:" in page  # the suit's name for a screen reader


def test_an_import_racing_another_is_refused_politely(client_director_a, club_a, monkeypatch):
    def racing(*args, **kwargs):
        raise IntegrityError("UNIQUE constraint failed: deal_per_board")

    monkeypatch.setattr(importing, "import_file", racing)
    response = upload(client_director_a, GOOD)
    assert response.status_code == 200
    assert "tegelijk elders ingelezen" in response.content.decode()
    assert not StoredDeal.objects.exists()


def test_the_page_shows_how_many_results_each_board_has(client_director_a, club_a):
    data = (FIXTURE.parent / "deals-with-results.pbn").read_bytes()
    response = upload(client_director_a, data, event="Zomerdrive")
    page = response.content.decode()
    assert "3 spellen ingelezen voor Zomerdrive, met 9 uitslagen" in page
    assert 'data-board="1" title="avond.pbn">1 <small class="text-body-secondary">(3' in page
    assert 'data-board="2" title="avond.pbn">2 <small class="text-body-secondary">(2' in page
    assert 'data-board="3" title="avond.pbn">3 <small class="text-body-secondary">(4' in page
    assert '4<span class="visually-hidden"> uitslagen</span>' in page

    plain = upload(client_director_a, GOOD, event="Zonder uitslagen").content.decode()
    assert 'data-board="5" title="avond.pbn">5</a>' in plain


SHORT = b"\n\n".join(GOOD.split(b"\n\n")[:3])  # the header comment, boards 1 and 2


def test_a_reimport_that_removes_boards_asks_first_and_then_removes_them(client_director_a, club_a):
    upload(client_director_a, GOOD, event="Avond")
    response = upload(client_director_a, SHORT, event="avond", name="kort.pbn")
    page = response.content.decode()
    assert "Spellen verwijderen?" in page
    assert [
        item.split(b">")[-1] for item in response.content.split(b"</li>")[:-1] if b"badge" in item
    ] == [b"3", b"4", b"5"]
    assert StoredDeal.objects.filter(club=club_a).count() == 5  # nothing yet
    assert not StoredDeal.objects.filter(source="kort.pbn").exists()

    payload = page.split('name="payload" value="')[1].split('"')[0]
    url = reverse("scores:deals", args=["troefkaart"])
    done = client_director_a.post(url, {"payload": payload}, follow=True).content.decode()
    assert "(0 nieuw, 2 vervangen, 3 verwijderd)" in done
    assert sorted(StoredDeal.objects.values_list("board", flat=True)) == [1, 2]
    assert Event.objects.get(club=club_a).name == "Avond"


def test_a_forged_or_foreign_confirmation_changes_nothing(
    client_director_a, client_director_b, club_a, club_b
):
    upload(client_director_a, GOOD, event="Avond")
    page = upload(client_director_a, SHORT, event="Avond").content.decode()
    payload = page.split('name="payload" value="')[1].split('"')[0]
    url_a = reverse("scores:deals", args=["troefkaart"])
    forged = client_director_a.post(url_a, {"payload": payload[:-3] + "xyz"}, follow=True)
    assert "verlopen of ongeldig" in forged.content.decode()
    # Club B's director cannot replay club A's confirmation on his own club either.
    url_b = reverse("scores:deals", args=[club_b.slug])
    replayed = client_director_b.post(url_b, {"payload": payload}, follow=True)
    assert "verlopen of ongeldig" in replayed.content.decode()
    assert StoredDeal.objects.filter(club=club_a).count() == 5
    assert not StoredDeal.objects.filter(club=club_b).exists()


def test_boards_typed_meanwhile_are_asked_for_again(client_director_a, club_a, director_a):
    upload(client_director_a, GOOD, event="Avond")
    page = upload(client_director_a, SHORT, event="Avond").content.decode()
    payload = page.split('name="payload" value="')[1].split('"')[0]
    ruling = make_ruling(club_a, director_a, event="Avond", board=9)
    client_director_a.post(reverse("scores:ruling_deal", args=[ruling.uuid]), TYPED)
    url = reverse("scores:deals", args=["troefkaart"])
    again = client_director_a.post(url, {"payload": payload}).content.decode()
    assert "Spellen verwijderen?" in again  # board 9 was not in the list that was confirmed
    assert ">9<" in again
    assert StoredDeal.objects.filter(club=club_a).count() == 6
