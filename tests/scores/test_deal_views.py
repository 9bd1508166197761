"""The deals page (PBN upload), typing a ruling's hands, the ruling page's diagram, and the
``import_pbn`` command."""

from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import CommandError, call_command
from django.db import IntegrityError
from django.urls import reverse

from scores import deals as store
from scores.deal import Seat
from scores.double_dummy import DENOMINATIONS, DoubleDummy
from scores.models import StoredDeal
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
def quick_analysis(monkeypatch):
    calls: list[str] = []

    def fake(deal):
        calls.append(deal.pbn)
        row = (7, 8, 9, 10, 11)
        return DoubleDummy(tricks=(row, row, row, row), par_score=-50, par_contracts=())

    monkeypatch.setattr(store.double_dummy, "analyse", fake)
    return calls


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
    assert f"5 spellen ingelezen voor {EVENT}." in response.content.decode()
    assert StoredDeal.objects.filter(club=club_a, event=EVENT).count() == 5

    again = upload(client_director_a, GOOD)
    assert "(0 nieuw, 5 vervangen)" in again.content.decode()
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
    assert "A K 3 2" in page  # North's spades in the fixture
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
    # The form shows the stored hands for a correction.
    again = client_director_a.get(url).content.decode()
    assert TYPED["south"] in again


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


def test_command_imports_and_summarises(club_a, capsys):
    call_command("import_pbn", "troefkaart", "Avond", str(FIXTURE))
    out = capsys.readouterr().out
    assert "board 1: added" in out
    assert "5 deals imported for 'Avond' of BC De Troefkaart (5 new, 0 replaced)" in out
    call_command("import_pbn", "troefkaart", "Avond", str(FIXTURE))
    assert "(0 new, 5 replaced)" in capsys.readouterr().out
    assert StoredDeal.objects.count() == 5


def test_command_refuses_a_bad_file_in_one_line(club_a, tmp_path):
    bad = tmp_path / "kapot.pbn"
    bad.write_bytes(GOOD.replace(b"N:AK32.QJ5", b"N:AKA3.QJ5", 1))
    with pytest.raises(CommandError) as raised:
        call_command("import_pbn", "troefkaart", "Avond", str(bad))
    assert raised.value.returncode == 2
    message = str(raised.value)
    assert message.startswith("kapot.pbn: Regel ")
    assert "♠A staat er twee keer in" in message
    assert "\n" not in message
    assert not StoredDeal.objects.exists()
    with pytest.raises(CommandError, match="no club"):
        call_command("import_pbn", "elders", "Avond", str(FIXTURE))


def test_command_analyses_on_request(club_a, quick_analysis, capsys):
    call_command("import_pbn", "troefkaart", "Avond", str(FIXTURE), "--analyse")
    assert len(quick_analysis) == 5
    assert all(row.analysis is not None for row in StoredDeal.objects.all())
    assert (
        DoubleDummy.from_dict(StoredDeal.objects.first().analysis).tricks_for(
            Seat.EAST, DENOMINATIONS[4]
        )
        == 11
    )


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

    monkeypatch.setattr(store, "import_deals", racing)
    response = upload(client_director_a, GOOD)
    assert response.status_code == 200
    assert "tegelijk elders ingelezen" in response.content.decode()
    assert not StoredDeal.objects.exists()


def test_the_page_shows_how_many_results_each_board_has(client_director_a, club_a):
    data = (FIXTURE.parent / "deals-with-results.pbn").read_bytes()
    response = upload(client_director_a, data, event="Zomerdrive")
    assert "3 spellen ingelezen voor Zomerdrive." in response.content.decode()
    page = response.content.decode()
    assert 'data-board="1" title="avond.pbn">1 <small class="text-body-secondary">(3' in page
    assert 'data-board="2" title="avond.pbn">2 <small class="text-body-secondary">(2' in page
    assert 'data-board="3" title="avond.pbn">3 <small class="text-body-secondary">(4' in page
    assert '4<span class="visually-hidden"> uitslagen</span>' in page

    plain = upload(client_director_a, GOOD, event="Zonder uitslagen").content.decode()
    assert 'data-board="5" title="avond.pbn">5</span>' in plain


def test_the_command_says_how_many_results_each_board_brought(club_a, capsys):
    call_command(
        "import_pbn", "troefkaart", "Zomer", str(FIXTURE.parent / "deals-with-results.pbn")
    )
    out = capsys.readouterr().out
    assert "board 1: added, 3 results" in out
    assert "board 3: added, 4 results" in out
    assert StoredDeal.objects.get(club=club_a, event="Zomer", board=2).results == [-100, 620]
