"""Reviews and appeals: who may, what is stored, and the audit event each action adds."""

from __future__ import annotations

import pytest

from archive.models import Review
from rulings import audit
from rulings.models import AppealStatus, Ruling, Verdict
from tests.support.rulings import make_ruling


@pytest.fixture
def ruling(club_a, director_a):
    return make_ruling(club_a, director_a, ("ja", "nee"))


def review_url(ruling) -> str:
    return f"/arbitrages/{ruling.uuid}/beoordelen/"


def appeal_url(ruling) -> str:
    return f"/arbitrages/{ruling.uuid}/beroep/"


def last_event(ruling):
    return ruling.audit_events.order_by("-sequence").first()


def test_a_reviewer_confirms_a_ruling(client_reviewer_a, reviewer_a, ruling):
    response = client_reviewer_a.post(
        review_url(ruling), {"verdict": "confirmed", "comment": "Helemaal juist."}, follow=True
    )
    assert response.status_code == 200
    assert "De beoordeling is opgeslagen." in response.content.decode()
    review = Review.objects.get(ruling=ruling)
    assert (review.reviewer, review.verdict, review.comment) == (
        reviewer_a,
        "confirmed",
        "Helemaal juist.",
    )
    ruling.refresh_from_db()
    assert ruling.review_verdict == Verdict.CONFIRMED
    event = last_event(ruling)
    assert (event.action, event.actor, event.actor_name) == ("reviewed", reviewer_a, "rik")
    assert event.data["review"] == str(review.uuid)
    assert event.data["verdict"] == "confirmed"
    assert audit.verify(ruling) == []


def test_an_amendment_needs_the_corrected_ruling_and_citations(client_reviewer_a, ruling):
    response = client_reviewer_a.post(review_url(ruling), {"verdict": "amended", "comment": "Nee."})
    assert response.status_code == 400
    errors = response.context["review_form"].errors
    assert set(errors) == {"corrected_ruling", "corrected_citations"}
    assert not Review.objects.exists()
    assert last_event(ruling).action == "saved"


def test_citations_are_checked_and_written_canonically(client_reviewer_a, ruling):
    bad = client_reviewer_a.post(
        review_url(ruling),
        {
            "verdict": "overturned",
            "comment": "Fout.",
            "corrected_ruling": "Anders.",
            "corrected_citations": "27B1a, zomaar",
        },
    )
    assert bad.status_code == 400
    assert "‘zomaar’ is geen wetsverwijzing" in bad.content.decode()
    client_reviewer_a.post(
        review_url(ruling),
        {
            "verdict": "overturned",
            "comment": "Fout.",
            "corrected_ruling": "Anders.",
            "corrected_citations": "27B1a; Art. 52 a, 43B2b",
        },
    )
    review = Review.objects.get()
    assert review.corrected_citations == ["27B1(a)", "52(a)", "43B2(b)"]
    assert last_event(ruling).data["corrected_citations"] == ["27B1(a)", "52(a)", "43B2(b)"]


def test_the_latest_review_sets_the_verdict(client_reviewer_a, client_admin_a, ruling):
    client_reviewer_a.post(review_url(ruling), {"verdict": "confirmed", "comment": "Goed."})
    client_admin_a.post(
        review_url(ruling),
        {
            "verdict": "amended",
            "comment": "Toch niet.",
            "corrected_ruling": "Zo.",
            "corrected_citations": "25A",
        },
    )
    ruling.refresh_from_db()
    assert ruling.review_verdict == Verdict.AMENDED
    assert list(ruling.reviews.values_list("verdict", flat=True)) == ["confirmed", "amended"]
    assert [e.action for e in ruling.audit_events.order_by("sequence")][-2:] == [
        "reviewed",
        "reviewed",
    ]
    assert audit.verify(ruling) == []


@pytest.mark.parametrize("persona", ["client_director_a", "client_trainer_a"])
def test_only_reviewers_and_admins_review(request, persona, ruling):
    client = request.getfixturevalue(persona)
    response = client.post(review_url(ruling), {"verdict": "confirmed", "comment": "Ik ook."})
    assert response.status_code == 403
    response = client.post(appeal_url(ruling), {"status": "open", "note": "x"})
    assert response.status_code == 403
    assert not Review.objects.exists()


def test_other_clubs_get_404(client_director_b, ruling):
    assert (
        client_director_b.post(
            review_url(ruling), {"verdict": "confirmed", "comment": "x"}
        ).status_code
        == 404
    )
    assert (
        client_director_b.post(appeal_url(ruling), {"status": "open", "note": "x"}).status_code
        == 404
    )


def test_an_unfinished_ruling_is_not_reviewed(client_reviewer_a, club_a, director_a):
    unfinished = make_ruling(club_a, director_a, ("ja",), final=False)
    response = client_reviewer_a.post(
        review_url(unfinished), {"verdict": "confirmed", "comment": "x"}
    )
    assert response.status_code == 403


def test_review_needs_post(client_reviewer_a, ruling):
    assert client_reviewer_a.get(review_url(ruling)).status_code == 405


def test_appeal_is_opened_and_settled_with_audit_events(client_reviewer_a, ruling):
    response = client_reviewer_a.post(
        appeal_url(ruling), {"status": "open", "note": "NZ tekenen beroep aan."}, follow=True
    )
    assert "De arbitrage staat nu in beroep." in response.content.decode()
    ruling.refresh_from_db()
    assert ruling.appeal_status == AppealStatus.OPEN
    assert (last_event(ruling).action, last_event(ruling).data) == (
        "appeal_opened",
        {"note": "NZ tekenen beroep aan."},
    )
    # The page now offers to settle it.
    assert client_reviewer_a.get(f"/arbitrages/{ruling.uuid}/").context["next_appeal"] == "settled"

    client_reviewer_a.post(appeal_url(ruling), {"status": "settled", "note": "Commissie: blijft."})
    ruling.refresh_from_db()
    assert ruling.appeal_status == AppealStatus.SETTLED
    assert last_event(ruling).action == "appeal_settled"
    assert audit.verify(ruling) == []


def test_a_stale_appeal_form_changes_nothing(client_reviewer_a, ruling):
    client_reviewer_a.post(appeal_url(ruling), {"status": "open", "note": "Eerste."})
    events = ruling.audit_events.count()
    response = client_reviewer_a.post(
        appeal_url(ruling), {"status": "open", "note": "Tweede tab."}, follow=True
    )
    assert "er is niets veranderd" in response.content.decode()
    assert ruling.audit_events.count() == events


def test_an_appeal_needs_a_note(client_reviewer_a, ruling):
    response = client_reviewer_a.post(appeal_url(ruling), {"status": "open", "note": ""})
    assert response.status_code == 400
    assert Ruling.objects.get(pk=ruling.pk).appeal_status == ""
