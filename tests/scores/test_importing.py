"""Importing a PBN file into an event: all or nothing, re-import replaces the event (boards the
new file lacks only after confirmation), names in any case, the scoring from the file."""

from pathlib import Path

import pytest
from django.db import IntegrityError, transaction

from scores import importing
from scores.importing import ImportSummary, UnconfirmedRemoval, import_file, missing_boards
from scores.models import Event, StoredDeal
from scores.pbn import parse_pbn, read_pbn
from scores.results import TableResult

DATA = Path(__file__).resolve().parent.parent / "data"
FIXTURE = DATA / "deals.pbn"
RESULTS = DATA / "deals-with-results.pbn"
BOARD = "N:AK32.QJ5.T98.765 QJ4.K987.AK3.K32 T98.T432.Q54.AJ4 765.A6.J762.QT98"


def game(board: int, *extra: str) -> str:
    return "\n".join([f'[Board "{board}"]', f'[Deal "{BOARD}"]', *extra]) + "\n\n"


def test_import_stores_every_board_and_reimport_replaces(club_a, director_a):
    pbn = read_pbn(FIXTURE)
    first = import_file(club_a, " Clubavond  dinsdag ", pbn, "deals.pbn", director_a)
    assert first.event == "Clubavond dinsdag"
    assert first.added == [("", board.deal.board) for board in pbn.boards]
    assert (first.replaced, first.removed) == ([], [])
    row = StoredDeal.objects.get(club=club_a, event="Clubavond dinsdag", board=1)
    assert row.cards == pbn.boards[0].deal.pbn
    assert row.source == "deals.pbn"
    assert row.entered_by == director_a
    assert Event.objects.get(club=club_a).source == "deals.pbn"

    row.cards = "changed"
    row.save()
    second = import_file(club_a, "CLUBAVOND DINSDAG", pbn, "nieuw.pbn")
    assert second.event == "Clubavond dinsdag"  # the event keeps the name it was made with
    assert second.added == []
    assert len(second.replaced) == len(pbn.boards)
    assert StoredDeal.objects.filter(club=club_a).count() == len(pbn.boards)
    assert Event.objects.filter(club=club_a).count() == 1
    row.refresh_from_db()
    assert (row.cards, row.source) == (pbn.boards[0].deal.pbn, "nieuw.pbn")


def test_boards_the_new_file_lacks_are_removed_only_when_confirmed(club_a):
    import_file(club_a, "Avond", read_pbn(FIXTURE), "deals.pbn")
    shorter = parse_pbn(game(1) + game(2))
    assert missing_boards(club_a, "avond", shorter) == [("", 3), ("", 4), ("", 5)]
    with pytest.raises(UnconfirmedRemoval) as raised:
        import_file(club_a, "Avond", shorter, "kort.pbn")
    assert raised.value.missing == [("", 3), ("", 4), ("", 5)]
    assert str(raised.value) == "3, 4, 5"
    assert StoredDeal.objects.filter(club=club_a).count() == 5  # nothing written
    assert not StoredDeal.objects.filter(source="kort.pbn").exists()

    # A confirmation of other boards than the file lacks is no confirmation either.
    with pytest.raises(UnconfirmedRemoval):
        import_file(club_a, "Avond", shorter, "kort.pbn", remove=[("", 3)])
    summary = import_file(club_a, "Avond", shorter, "kort.pbn", remove=[("", 3), ("", 4), ("", 5)])
    assert summary.removed == [("", 3), ("", 4), ("", 5)]
    assert sorted(StoredDeal.objects.values_list("board", flat=True)) == [1, 2]


def test_import_is_all_or_nothing(club_a):
    pbn = read_pbn(FIXTURE)

    def fail_on_third(board, replaced):
        if board is pbn.boards[2]:
            raise RuntimeError("disk full")

    with pytest.raises(RuntimeError):
        import_file(club_a, "Avond", pbn, "deals.pbn", progress=fail_on_third)
    assert not StoredDeal.objects.exists()
    assert not Event.objects.exists()


def test_the_results_are_stored_and_replaced(club_a):
    import_file(club_a, "Zomerdrive", read_pbn(RESULTS), "zomer.pbn")
    stored = {row.board: row.results for row in StoredDeal.objects.filter(club=club_a)}
    assert stored[1] == [
        {"score": -120, "contract": "1NT+1", "declarer": "W", "ns": "1", "ew": "2"},
        {"score": 110, "contract": "2S=", "declarer": "N", "ns": "3", "ew": "4"},
        {"score": 50, "contract": "3NT-1", "declarer": "W", "ns": "5", "ew": "6"},
    ]
    corrected = parse_pbn(
        game(1, '[ScoreTable "Score_NS"]', "-120", "110")
        + game(2)
        + game(3, '[Contract "4S"]', '[Declarer "E"]', '[Result "10"]')
    )
    summary = import_file(club_a, "zomerdrive", corrected, "zomer-2.pbn")
    assert summary.replaced == [("", 1), ("", 2), ("", 3)]
    assert summary.results == 3
    stored = {row.board: row.results for row in StoredDeal.objects.filter(club=club_a)}
    assert stored == {
        1: [{"score": -120}, {"score": 110}],
        2: [],
        3: [{"score": -620, "contract": "4S=", "declarer": "E"}],
    }
    assert TableResult.from_json(stored[3][0]) == TableResult(-620, "4S=", "E")


@pytest.mark.parametrize(
    ("tag", "extra", "scoring"),
    [
        ("MP", "", "mp"),
        ("MatchPoints;MP1", "", "mp"),
        ("IMP", '[Room "Open"]', "imps"),
        ("IMP", "", "ximp"),
        ("IMP;Cross1", "", "ximp"),
        ("IMP;Butler-2", "", "butl"),
        ("", "", "mp"),
    ],
)
def test_a_new_event_takes_its_scoring_from_the_file(club_a, tag, extra, scoring):
    text = game(
        1, f'[Scoring "{tag}"]', extra, '[Contract "3NT"]', '[Declarer "S"]', '[Result "9"]'
    )
    summary = import_file(club_a, "Avond", parse_pbn(text), "a.pbn")
    assert summary.scoring == scoring
    assert Event.objects.get(club=club_a).scoring == scoring
    assert summary.warnings == ()


def test_an_unknown_scoring_is_matchpoints_with_a_warning_and_a_chosen_one_stays(club_a):
    text = game(1, '[Scoring "BAM"]')
    summary = import_file(club_a, "Avond", parse_pbn(text), "a.pbn")
    assert summary.scoring == "mp"
    assert summary.warnings == ("Telling 'BAM' uit het bestand onbekend: matchpunten gekozen.",)
    Event.objects.filter(club=club_a).update(scoring="butl")
    again = import_file(club_a, "Avond", parse_pbn(text.replace("BAM", "IMP")), "a.pbn")
    assert again.scoring == "butl"
    assert again.warnings == ()


def test_the_summary_is_what_the_command_prints(club_a):
    text = game(1, '[Contract "3NT"]', '[Declarer "S"]', '[Result "9"]') + game(200)
    summary = import_file(club_a, "Avond", parse_pbn(text), "a.pbn")
    assert isinstance(summary, ImportSummary)
    assert summary.as_json() == {
        "event": "Avond",
        "scoring": "mp",
        "boards": 1,
        "results": 1,
        "added": ["1"],
        "replaced": [],
        "removed": [],
        "warnings": ["Regel 7: spel 200 overgeslagen: Leidraad kent spellen 1 t/m 128."],
    }
    assert importing.board_label(("B", 7)) == "7 (B)"


def test_event_names_are_unique_in_any_case_in_the_database(club_a):
    import_file(club_a, "Dinsdag", parse_pbn(game(1)), "a.pbn")
    with pytest.raises(IntegrityError), transaction.atomic():
        StoredDeal.objects.create(
            club=club_a, event="DINSDAG", board=1, dealer="N", vulnerability="None", cards=BOARD
        )
    with pytest.raises(IntegrityError), transaction.atomic():
        Event.objects.create(club=club_a, name="dinsdag")
    # Another section of the same event may have its own board 1.
    StoredDeal.objects.create(
        club=club_a,
        event="Dinsdag",
        section="B",
        board=1,
        dealer="N",
        vulnerability="None",
        cards=BOARD,
    )
