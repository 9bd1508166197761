"""scores 0004: existing deals become events in any case, each stored score a table result."""

import importlib

from django.apps import apps

from scores.models import Event, StoredDeal

MIGRATION = importlib.import_module("scores.migrations.0004_events_sections_and_table_results")
BOARD = "N:AK32.QJ5.T98.765 QJ4.K987.AK3.K32 T98.T432.Q54.AJ4 765.A6.J762.QT98"


def test_names_in_another_case_become_one_event_keeping_the_newest_board():
    rows = [  # newest first
        (5, 1, "Dinsdag", 1, [420, -50]),
        (4, 1, "dinsdag", 1, [100]),
        (3, 1, "dinsdag", 2, []),
        (2, 2, "dinsdag", 1, [{"score": 10}]),
    ]
    kept, deleted, events = MIGRATION.plan(rows)
    assert deleted == [4]
    assert kept == {
        5: ("Dinsdag", [{"score": 420}, {"score": -50}]),
        3: ("Dinsdag", []),
        2: ("dinsdag", [{"score": 10}]),
    }
    assert events == [(1, "Dinsdag"), (2, "dinsdag")]


def test_forward_on_the_database(db, club_a):
    old = StoredDeal.objects.create(
        club=club_a,
        event="Avond",
        board=1,
        dealer="N",
        vulnerability="None",
        cards=BOARD,
        results=[620, -100],
    )
    MIGRATION.forward(apps, None)
    old.refresh_from_db()
    assert old.results == [{"score": 620}, {"score": -100}]
    assert Event.objects.get(club=club_a).name == "Avond"
    MIGRATION.backward(apps, None)
    old.refresh_from_db()
    assert old.results == [620, -100]
