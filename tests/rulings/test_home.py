"""The home page tells a director's open rulings apart: table, board and round, whether an
outcome was reached but not saved, and how long ago ("zojuist" at first)."""

import uuid
from datetime import timedelta

import pytest
from django.utils import timezone

from rulings import audit, wizard
from rulings.errors import WizardError
from rulings.models import Ruling, Status


def begin(club, director, **extra):
    return wizard.begin(
        uuid=uuid.uuid4(),
        club=club,
        director=director,
        tree=wizard.start("proef"),
        node_key="onbedoeld",
        choice_key="nee",
        **extra,
    ).ruling


def row(html: str, ruling: Ruling) -> str:
    start = html.index(f'data-open-ruling="{ruling.uuid}"')
    return html[start : html.index("</li>", start)]


def test_open_rulings_show_table_board_and_unsaved_outcome(
    proef_tree, club_a, director_a, client_director_a
):
    at_table = begin(club_a, director_a)
    wizard.edit_context(at_table, {"round": 3, "table": 7, "board": 12}, director_a)
    wizard.answer(at_table, "geaccepteerd", 2, "ja", director_a, revision=at_table.revision)
    wizard.answer(at_table, "vervangen", 3, "nee", director_a, revision=at_table.revision)
    older = begin(club_a, director_a)
    Ruling.objects.filter(pk=older.pk).update(updated_at=timezone.now() - timedelta(minutes=12))

    html = client_director_a.get("/").content.decode()
    first, second = row(html, at_table), row(html, older)
    assert "ronde 3" in first
    assert "tafel 7" in first
    assert "spel 12" in first
    assert "uitkomst bereikt, nog niet definitief opgeslagen" in first
    assert "zojuist" in first
    assert "12\xa0minuten geleden" in second  # timesince joins with a no-break space
    assert "tafel" not in second
    assert "nog niet definitief" not in second
    assert "1 vraag beantwoord" in second


def test_a_director_discards_an_abandoned_ruling(proef_tree, club_a, director_a, client_director_a):
    abandoned = begin(club_a, director_a)
    response = client_director_a.post(
        f"/arbitrage/{abandoned.uuid}/verwerpen/", {"reason": "verkeerde tafel"}
    )
    assert response.status_code == 302
    assert response["Location"] == "/"
    abandoned.refresh_from_db()
    assert abandoned.status == Status.DISCARDED
    event = abandoned.audit_events.order_by("-sequence").first()
    assert event.action == "discarded"
    assert event.data["reason"] == "verkeerde tafel"
    assert audit.verify(abandoned) == []
    # Kept, but gone from the open list and from the archive's default view.
    assert f'data-open-ruling="{abandoned.uuid}"' not in client_director_a.get("/").content.decode()
    assert str(abandoned.uuid) not in client_director_a.get("/arbitrages/").content.decode()
    listed = client_director_a.get("/arbitrages/", {"status": "discarded"}).content.decode()
    assert str(abandoned.uuid) in listed
    # It cannot go on, and discarding again changes nothing.
    with pytest.raises(WizardError):
        wizard.answer(abandoned, "geaccepteerd", 2, "ja", director_a, revision=abandoned.revision)
    again = client_director_a.post(f"/arbitrage/{abandoned.uuid}/verwerpen/")
    assert again.status_code == 302
    assert abandoned.audit_events.filter(action="discarded").count() == 1


def test_a_final_ruling_cannot_be_discarded(proef_tree, club_a, director_a):
    ruling = begin(club_a, director_a)
    wizard.answer(ruling, "geaccepteerd", 2, "ja", director_a, revision=ruling.revision)
    wizard.answer(ruling, "vervangen", 3, "nee", director_a, revision=ruling.revision)
    wizard.save(ruling, director_a, {"played_on": timezone.localdate(), "board": 3})
    with pytest.raises(WizardError) as error:
        wizard.discard(ruling, director_a)
    assert error.value.code == WizardError.FINAL


def test_table_and_board_can_be_given_at_any_step(
    proef_tree, club_a, director_a, client_director_a
):
    ruling = begin(club_a, director_a)
    url = f"/arbitrage/{ruling.uuid}/tafel/"
    page = client_director_a.get(f"/arbitrage/{ruling.uuid}/").content.decode()
    assert "data-table-form" in page
    assert f'action="{url}"' in page
    response = client_director_a.post(
        url, {"round": "2", "table": "7", "board": "12"}, HTTP_HX_REQUEST="true"
    )
    html = response.content.decode()
    assert response.status_code == 200
    assert html.strip().startswith('<details class="table-details')
    assert "tafel 7" in html
    assert "Bewaard." in html
    ruling.refresh_from_db()
    assert (ruling.round, ruling.table, ruling.board) == (2, 7, 12)
    assert ruling.played_on is None
    assert ruling.path
    assert ruling.audit_events.filter(action="context_edited").count() == 1
    # A board number beyond 128 keeps nothing and says why.
    bad = client_director_a.post(url, {"board": "200"}, HTTP_HX_REQUEST="true").content.decode()
    assert "128" in bad
    ruling.refresh_from_db()
    assert ruling.board == 12
    # Without JavaScript: a plain post and back to the step.
    plain = client_director_a.post(url, {"table": "8"})
    assert plain.status_code == 302
    ruling.refresh_from_db()
    assert ruling.table == 8
    assert ruling.board is None
