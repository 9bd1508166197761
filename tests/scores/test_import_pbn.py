"""``manage.py import_pbn``: lines or one JSON object, re-import and removal, a bad file in
one line with exit status 2 and nothing stored."""

import json
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from lib.bridge import Seat
from scores.double_dummy import DENOMINATIONS, DoubleDummy
from scores.models import StoredDeal

DATA = Path(__file__).resolve().parent.parent / "data"
FIXTURE = DATA / "deals.pbn"
GOOD = FIXTURE.read_bytes()


def test_command_imports_and_summarises(club_a, capsys):
    call_command("import_pbn", "troefkaart", "Avond", str(FIXTURE))
    out = capsys.readouterr().out
    assert "board 1: added" in out
    assert (
        "5 deals and 1 results imported for 'Avond' of BC De Troefkaart "
        "(5 new, 0 replaced, 0 removed; scoring mp)"
    ) in out
    call_command("import_pbn", "troefkaart", "Avond", str(FIXTURE))
    assert "(0 new, 5 replaced, 0 removed" in capsys.readouterr().out
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


def test_the_command_says_how_many_results_each_board_brought(club_a, capsys):
    call_command("import_pbn", "troefkaart", "Zomer", str(DATA / "deals-with-results.pbn"))
    out = capsys.readouterr().out
    assert "board 1: added, 3 results" in out
    assert "board 3: added, 4 results" in out
    stored = StoredDeal.objects.get(club=club_a, event="Zomer", board=2)
    assert [item["score"] for item in stored.results] == [-100, 620]


def test_json_prints_one_object_with_boards_results_and_warnings(club_a, capsys, tmp_path):
    file = tmp_path / "avond.pbn"
    file.write_bytes(GOOD + b'\n\n[Board "129"]\n[Deal ""]\n')
    call_command("import_pbn", "troefkaart", "Avond", str(file), "--json")
    printed = capsys.readouterr().out
    assert printed.count("\n") == 1
    summary = json.loads(printed)
    assert summary["boards"] == 5
    assert summary["results"] == 1
    assert summary["added"] == ["1", "2", "3", "4", "5"]
    assert summary["scoring"] == "mp"
    assert summary["warnings"] == [
        "Regel 65: spel 129 overgeslagen: Leidraad kent spellen 1 t/m 128."
    ]


def test_a_reimport_removes_boards_only_with_remove_missing(club_a, capsys, tmp_path):
    call_command("import_pbn", "troefkaart", "Avond", str(FIXTURE))
    short = tmp_path / "kort.pbn"
    short.write_bytes(b"\n\n".join(GOOD.split(b"\n\n")[:3]))
    with pytest.raises(CommandError) as raised:
        call_command("import_pbn", "troefkaart", "AVOND", str(short))
    assert raised.value.returncode == 2
    assert str(raised.value) == (
        "boards 3, 4, 5 of 'AVOND' are not in kort.pbn; add --remove-missing to remove them"
    )
    assert StoredDeal.objects.count() == 5
    capsys.readouterr()
    call_command("import_pbn", "troefkaart", "AVOND", str(short), "--remove-missing", "--json")
    assert json.loads(capsys.readouterr().out)["removed"] == ["3", "4", "5"]
    assert sorted(StoredDeal.objects.values_list("board", flat=True)) == [1, 2]
