"""The audit trail in words on the ruling pages: every event labelled, questions and answers
by their text, table details by their labels, no raw JSON keys."""

import uuid

from django.utils import timezone, translation

from rulings import audit_text, wizard
from rulings.models import AuditEvent


def a_ruling_with_history(club, director):
    ruling = wizard.begin(
        uuid=uuid.uuid4(),
        club=club,
        director=director,
        tree=wizard.start("proef"),
        node_key="onbedoeld",
        choice_key="nee",
    ).ruling
    wizard.answer(ruling, "geaccepteerd", 2, "ja", director, revision=ruling.revision)
    wizard.answer(ruling, "onbedoeld", 1, "ja", director, revision=ruling.revision)  # changed
    wizard.answer(ruling, "vervangen", 2, "nee", director, revision=ruling.revision)
    wizard.edit_context(ruling, {"table": 7, "offender_seat": "E"}, director)
    wizard.save(ruling, director, {"played_on": timezone.localdate(), "board": 12})
    return ruling


def test_every_event_reads_as_a_sentence(proef_tree, club_a, director_a):
    ruling = a_ruling_with_history(club_a, director_a)
    events = list(ruling.audit_events.order_by("sequence"))
    rows = audit_text.trail(ruling, events)
    texts = {row["event"].action: row["text"] for row in rows}
    assert texts["started"].startswith("Gestart met beslisboom proef")
    answered = [row["text"] for row in rows if row["event"].action == "answered"]
    assert answered[0].startswith("Vraag 1 ‘")
    assert answered[0].endswith("’: Nee")
    assert answered[1] == "Vraag 2 ‘Is het bod geaccepteerd?’: Ja"
    assert answered[-1] == "Vraag 2 ‘Vervangt de speler het bod?’: Nee"
    assert "antwoord gewijzigd van Nee in Ja" in texts["answer_changed"]
    assert "1 latere antwoorden vervallen" in texts["answer_changed"]
    assert texts["outcome_reached"].startswith("Uitkomst bereikt: ")
    edited = [row["text"] for row in rows if row["event"].action == "context_edited"]
    assert edited[0] == "Gegevens gewijzigd: tafel: – → 7; plaats overtreder: – → Oost"
    assert texts["saved"].startswith("Definitief opgeslagen met de uitkomst ")
    assert all(row["label"] for row in rows)


def test_an_unknown_action_still_shows_its_data(proef_tree, club_a, director_a):
    event = AuditEvent(action="signed_by_laptop", data={"bundle": "laptop-3", "board": 4})
    (row,) = audit_text.trail(a_ruling_with_history(club_a, director_a), [event])
    assert row["text"] == "bundle: laptop-3; spel: 4"


def test_the_ruling_page_shows_no_raw_keys(proef_tree, club_a, director_a, client_director_a):
    ruling = a_ruling_with_history(club_a, director_a)
    for url in (f"/arbitrages/{ruling.uuid}/", f"/arbitrage/{ruling.uuid}/"):
        html = client_director_a.get(url, follow=True).content.decode()
        trail = html[html.index("data-audit-event") :]
        assert "antwoord gewijzigd van Nee in Ja" in trail
        for raw in ('"choice"', "superseded", '"node"', "{&quot;"):
            assert raw not in trail, (url, raw)


def test_an_adjusted_score_reads_as_a_sentence_in_either_language(proef_tree, club_a, director_a):
    ruling = a_ruling_with_history(club_a, director_a)
    rows = [{"contract": "4S=", "declarer": "N", "weight": 60}]
    weighted = AuditEvent(
        action="score_adjusted",
        data={
            "kind": "weighted",
            "offending_side": "NS",
            "non_offending": {"rows": rows, "artificial": "", "percent": None},
            "offending": {"rows": [{**rows[0], "weight": "33.33"}], "artificial": ""},
            "amended": True,
        },
    )
    artificial = AuditEvent(
        action="score_adjusted",
        data={
            "kind": "artificial",
            "offending_side": "EW",
            "non_offending": {"rows": [], "artificial": "plus", "percent": 60},
            "offending": {"rows": [], "artificial": "plus", "percent": 60},
            "amended": False,
        },
    )
    first, second = audit_text.trail(ruling, [weighted, artificial])
    assert first["label"] == "arbitrale score"
    assert first["text"] == (
        "Arbitrale score gewijzigd (gewogen): OW 60 % 4S= (N); NZ (overtreders) 33.33 % 4S= (N)"
    )
    assert second["text"] == (
        "Arbitrale score vastgelegd (kunstmatig): NZ gemiddeld plus (60 %); OW (overtreders) "
        "dezelfde"
    )
    with translation.override("en"):
        (english,) = audit_text.trail(ruling, [artificial])
    assert english["text"] == (
        "Adjusted score recorded (artificial): NS average plus (60 %); EW (offending) the same"
    )


def test_a_date_of_play_reads_in_the_page_date_format():
    assert audit_text.field_value("played_on", "2025-03-01") == "1 maart 2025"
    assert audit_text.field_value("played_on", "not a date") == "not a date"
    assert audit_text.field_value("played_on", None) == "–"
