"""The ruling page /arbitrages/<uuid>/: context, outcome, full path, law text as shown, tree
version, audit trail, reviews; print-friendly; constant queries; other clubs get 404."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from archive.reviews import record_review, set_appeal
from laws.models import Provision
from rulings import audit
from rulings.models import AppealStatus, AuditEvent, Ruling, Verdict
from tests.support.rulings import START, make_ruling
from trees.models import Tree


@pytest.fixture
def changed(club_a, director_a):
    """Answered ja, nee; then the first answer changed to nee and answered nee (afgewezen)."""
    return make_ruling(
        club_a,
        director_a,
        ("ja", "nee"),
        change_first_to="nee",
        then=("nee",),
        table=5,
        board=17,
        notes="Oost riep de arbiter.",
    )


def url(ruling) -> str:
    return f"/arbitrages/{ruling.uuid}/"


def test_it_shows_context_and_outcome(client_reviewer_a, changed):
    response = client_reviewer_a.get(url(changed))
    assert response.status_code == 200
    page = response.content.decode()
    for text in (
        "Proefboom",
        "Het bod blijft staan",  # outcome title
        "Beslissing: het bod blijft staan.",  # the ruling
        "Zeg aan tafel: het bod blijft staan.",
        "Oost riep de arbiter.",
        "Dinsdagavond",
        "1 maart 2025",
        "Anna",
    ):
        assert text in page, text
    context = response.context
    assert context["ruling"].table == 5
    assert context["ruling"].board == 17


def test_it_shows_the_whole_path_with_changed_answers_and_times(client_reviewer_a, changed):
    response = client_reviewer_a.get(url(changed))
    steps = response.context["steps"]
    assert [(s.node_key, s.choice_key, s.superseded) for s in steps] == [
        ("onbedoeld", "ja", True),
        ("vervangen", "nee", True),
        ("onbedoeld", "nee", False),
        ("geaccepteerd", "nee", False),
    ]
    page = response.content.decode()
    assert page.count('class="ruling-step superseded"') == 2
    assert page.count(">gewijzigd</span>") == 2
    # One date format on the whole page (DATETIME_FORMAT): when answered, when changed.
    assert "vervangen op 1 maart 2025 19:30" in page  # the change came at 19:30:40
    assert "beantwoord 1 maart 2025 19:30" in page


def test_law_text_is_the_text_shown_at_the_time(client_reviewer_a, changed):
    Provision.objects.filter(key="25A").update(text="Later gewijzigde tekst.")
    page = client_reviewer_a.get(url(changed)).content.decode()
    assert "Later gewijzigde tekst." not in page
    # Article 27 has only our summary: it is labelled as such.
    assert "Eigen samenvatting: een onvoldoende bod mag worden geaccepteerd." in page
    assert "Samenvatting in eigen woorden – geen officiële wettekst" in page
    # The record shows the legal basis: the outcome's 27, not the question cards on the way
    # (25A at step 1, 25A1 superseded).
    keys = [c["key"] for c in client_reviewer_a.get(url(changed)).context["basis"]]
    assert keys == ["27"]
    assert 'href="/wetten/1997/artikel/27/"' in page


def test_tree_version_and_a_note_when_the_tree_changed(client_reviewer_a, changed):
    page = client_reviewer_a.get(url(changed)).content.decode()
    assert "v1-proef" not in page  # no version hash for a committee
    assert "Dit is nog de huidige versie." in page
    Tree.objects.filter(slug="proef").update(version="v2-proef")
    response = client_reviewer_a.get(url(changed))
    assert response.context["tree_changed"]
    assert "De beslisboom is sindsdien gewijzigd." in response.content.decode()
    Tree.objects.filter(slug="proef").delete()
    assert "niet meer geladen" in client_reviewer_a.get(url(changed)).content.decode()


def test_it_shows_the_audit_trail_and_that_the_chain_is_intact(client_reviewer_a, changed):
    response = client_reviewer_a.get(url(changed))
    labels = [item["label"] for item in response.context["events"]]
    assert labels == [
        "gestart",
        "beantwoord",
        "beantwoord",
        "uitkomst bereikt",
        "antwoord gewijzigd",
        "beantwoord",
        "uitkomst bereikt",
        "gegevens gewijzigd",
        "definitief opgeslagen",
    ]
    assert "keten intact" in response.content.decode()


def test_reviews_and_appeals_in_the_trail_read_as_the_wizard_labels_them(
    client_reviewer_a, reviewer_a, changed
):
    """One table of labels (rulings.audit) for the wizard's actions and the archive's."""
    record_review(changed, reviewer_a, Verdict.CONFIRMED, "Goed.", "", [])
    set_appeal(changed, reviewer_a, AppealStatus.OPEN, "NZ gaan in beroep.")
    set_appeal(changed, reviewer_a, AppealStatus.SETTLED, "Afgehandeld.")
    response = client_reviewer_a.get(url(changed))
    labels = [str(item["label"]) for item in response.context["events"]]
    assert labels[-4:] == [
        str(audit.ACTION_LABELS[audit.Action.SAVED]),
        "beoordeeld",
        "in beroep",
        "beroep afgehandeld",
    ]


def test_a_tampered_chain_is_shown_as_broken(client_reviewer_a, changed):
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {AuditEvent._meta.db_table} SET actor_name = 'iemand' "  # noqa: S608
            "WHERE ruling_id = %s AND sequence = 2",
            [changed.pk],
        )
    page = client_reviewer_a.get(url(changed)).content.decode()
    assert "keten verbroken" in page
    assert "event 2 (answered): content changed" in page


def test_the_director_sees_the_reviews_of_his_ruling(client_director_a, changed, reviewer_a):
    record_review(
        changed, reviewer_a, Verdict.AMENDED, "Te snel beslist.", "Wel vervangen.", ["25A"]
    )
    page = client_director_a.get(url(changed)).content.decode()
    assert "Te snel beslist." in page
    assert "Wel vervangen." in page
    assert "aangepast" in page
    assert "Beoordeling toevoegen" not in page  # directors do not review


def test_it_is_print_friendly(client_reviewer_a, changed):
    page = client_reviewer_a.get(url(changed)).content.decode()
    assert 'href="/static/css/print.css" media="print"' in page
    assert "data-print" in page
    assert "js/archive.js" in page
    assert '<form method="post" action="/arbitrages/' in page
    assert "review-form" in page


def test_other_clubs_get_404(client_director_b, changed):
    assert client_director_b.get(url(changed)).status_code == 404


def test_an_unknown_ruling_is_404(client_reviewer_a, club_a):
    assert (
        client_reviewer_a.get("/arbitrages/00000000-0000-0000-0000-000000000000/").status_code
        == 404
    )


def test_an_unfinished_ruling_can_be_looked_at_but_not_reviewed(
    client_reviewer_a, club_a, director_a
):
    ruling = make_ruling(club_a, director_a, ("ja",), final=False)
    response = client_reviewer_a.get(url(ruling))
    assert response.status_code == 200
    assert "Nog geen uitkomst bereikt." in response.content.decode()
    assert not response.context["can_review"]


def count(client, ruling) -> int:
    with CaptureQueriesContext(connection) as context:
        assert client.get(url(ruling)).status_code == 200
    return len(context)


def test_query_count_is_constant(
    client_reviewer_a, club_a, director_a, reviewer_a, django_assert_max_num_queries
):
    simple = make_ruling(club_a, director_a, ("ja", "ja"))
    for day in range(2):
        make_ruling(club_a, director_a, at=START + timedelta(days=day))
    few = count(client_reviewer_a, simple)
    busy = make_ruling(club_a, director_a, ("ja", "nee"), change_first_to="nee", then=("ja", "nee"))
    for n in range(4):
        record_review(busy, reviewer_a, Verdict.CONFIRMED, f"Review {n}")
    for day in range(55):
        make_ruling(club_a, director_a, at=START + timedelta(days=day))
    assert count(client_reviewer_a, busy) == few
    # 11: one more since the page looks up the board's deal (scores.deals.deal_for); 12 with
    # the legal basis (rulings.LegalBasis).
    with django_assert_max_num_queries(12):
        client_reviewer_a.get(url(busy))


def test_outcome_citations_come_from_the_snapshot_when_not_copied(
    client_reviewer_a, club_a, director_a
):
    ruling = make_ruling(club_a, director_a, ("ja", "nee"))  # straf: cites 27 and 40
    expected = ["27", "40"]
    basis = client_reviewer_a.get(url(ruling)).context["basis"]
    assert [c["key"] for c in basis] == expected
    outcome = {k: v for k, v in ruling.outcome.items() if k != "citations"}
    Ruling.objects.filter(pk=ruling.pk).update(outcome=outcome)
    again = client_reviewer_a.get(url(ruling)).context["basis"]
    assert [c["key"] for c in again] == expected
    # The law text then comes from the tree snapshot.
    assert [c["shown_text"] for c in again] == [c["shown_text"] for c in basis]
    assert any(c["shown_text"] for c in again)
