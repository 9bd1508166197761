"""The home page tells a director's open rulings apart: table, board and round, whether an
outcome was reached but not saved, and how long ago ("zojuist" at first)."""

import uuid
from datetime import timedelta

from django.utils import timezone

from rulings import wizard
from rulings.models import Ruling


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
