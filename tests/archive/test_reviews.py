"""Reviews and appeals: who may, what is stored, and the audit event each action adds."""

from __future__ import annotations

import html
import re

import pytest

from archive.models import Review
from archive.reviews import StaleReview, record_review, set_appeal
from rulings import audit
from rulings.models import AppealStatus, Ruling, Verdict
from tests.support.reviews import confirm, review_url
from tests.support.rulings import actions_of, make_ruling


@pytest.fixture
def ruling(club_a, director_a):
    return make_ruling(club_a, director_a, ("ja", "nee"))


def appeal_url(ruling) -> str:
    return f"/arbitrages/{ruling.uuid}/beroep/"


def last_event(ruling):
    return ruling.audit_events.order_by("-sequence").first()


def test_a_reviewer_confirms_a_ruling(client_reviewer_a, reviewer_a, ruling):
    response = confirm(
        client_reviewer_a,
        ruling,
        {"verdict": "confirmed", "comment": "Helemaal juist."},
        follow=True,
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
    confirm(
        client_reviewer_a,
        ruling,
        {
            "verdict": "overturned",
            "comment": "Fout.",
            "corrected_ruling": "Anders.",
            "corrected_citations": "25 a 1; Art. 27, 25a",
        },
    )
    review = Review.objects.get()
    # "25a" is section 25A in this edition (no lettered item 25(a) exists); 25A is cited once.
    assert review.corrected_citations == ["25A1", "27", "25A"]
    assert last_event(ruling).data["corrected_citations"] == ["25A1", "27", "25A"]


def test_the_latest_review_sets_the_verdict(client_reviewer_a, client_admin_a, ruling):
    confirm(client_reviewer_a, ruling, {"verdict": "confirmed", "comment": "Goed."})
    confirm(
        client_admin_a,
        ruling,
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


AMEND = {
    "verdict": "amended",
    "comment": "Toch straf.",
    "corrected_ruling": "Het bod wordt vervangen.",
    "corrected_citations": "25a, 27",
}


def test_a_key_the_edition_lacks_is_refused_by_name(client_reviewer_a, ruling):
    response = client_reviewer_a.post(review_url(ruling), {**AMEND, "corrected_citations": "99Z"})
    assert response.status_code == 400
    assert "99Z bestaat niet in 1997; bedoelt u " in response.content.decode()
    # What was typed stays in the form.
    assert "Het bod wordt vervangen." in response.content.decode()
    assert not Review.objects.exists()


def test_the_confirmation_shows_canonical_keys_and_titles_and_saves_nothing(
    client_reviewer_a, ruling
):
    events = ruling.audit_events.count()
    response = client_reviewer_a.post(review_url(ruling), AMEND)
    assert response.status_code == 200
    page = response.content.decode()
    assert "Beoordeling bevestigen" in page
    assert "<strong data-law-key>25A</strong> – Geoorloofde en ongeoorloofde veranderingen" in page
    assert "<strong data-law-key>27</strong> – Onvoldoende bod" in page
    assert 'name="corrected_citations" value="25A, 27"' in page
    assert 'name="confirmed" value="1"' in page
    assert 'name="change" value="1"' in page
    assert not Review.objects.exists()
    assert ruling.audit_events.count() == events


def test_change_returns_to_the_form_with_everything_typed(client_reviewer_a, ruling):
    shown = client_reviewer_a.post(review_url(ruling), AMEND)
    back = client_reviewer_a.post(
        review_url(ruling),
        {**AMEND, "corrected_citations": shown.context["citations_text"], "change": "1"},
    )
    assert back.status_code == 200
    page = back.content.decode()
    assert 'id="beoordelingen"' in page
    assert "Het bod wordt vervangen." in page
    assert 'value="25A, 27"' in page
    assert not Review.objects.exists()


def test_a_repeated_confirmation_saves_one_review(client_reviewer_a, ruling):
    shown = client_reviewer_a.post(review_url(ruling), AMEND)
    confirmed = {
        **AMEND,
        # As the confirmation's hidden fields carry them (a fragment has no test context).
        "corrected_citations": hidden(shown, "corrected_citations"),
        "seen": hidden(shown, "seen"),
        "confirmed": "1",
    }
    assert client_reviewer_a.post(review_url(ruling), confirmed).status_code == 302
    again = client_reviewer_a.post(review_url(ruling), confirmed)
    assert again.status_code == 409
    assert "Er is niets opgeslagen" in again.content.decode()
    assert Review.objects.count() == 1
    # The refusal offers a fresh confirmation against the record as it is now.
    assert again.context["seen"] == Ruling.objects.get(pk=ruling.pk).audit_sequence
    assert audit.verify(ruling) == []


def test_a_confirmation_overtaken_by_an_appeal_is_refused(client_reviewer_a, ruling):
    shown = client_reviewer_a.post(review_url(ruling), AMEND)
    client_reviewer_a.post(appeal_url(ruling), {"status": "open", "note": "Beroep."})
    response = client_reviewer_a.post(
        review_url(ruling),
        {
            **AMEND,
            "corrected_citations": shown.context["citations_text"],
            "seen": shown.context["seen"],
            "confirmed": "1",
        },
    )
    assert response.status_code == 409
    assert not Review.objects.exists()


@pytest.mark.parametrize("seen", ["", "abc"])
def test_a_confirmation_without_a_valid_seen_is_refused(client_reviewer_a, ruling, seen):
    response = client_reviewer_a.post(review_url(ruling), {**AMEND, "seen": seen, "confirmed": "1"})
    assert response.status_code == 409
    assert not Review.objects.exists()


def test_a_stale_seen_in_the_model_function_saves_nothing(reviewer_a, ruling):
    with pytest.raises(StaleReview):
        record_review(ruling, reviewer_a, Verdict.CONFIRMED, "x", seen=ruling.audit_sequence - 1)
    assert not Review.objects.exists()


def test_a_head_moved_while_the_review_is_written_makes_it_stale(reviewer_a, ruling):
    """The review is one transition written by the one writer: when another request appends
    between the reviewer's read and the write, the compare-and-swap loses, the plan is made
    again on the ruling as it is now, and the review is refused as stale."""
    read_before = Ruling.objects.get(pk=ruling.pk)
    set_appeal(ruling, reviewer_a, AppealStatus.OPEN, "In beroep.")
    with pytest.raises(StaleReview):
        record_review(
            read_before, reviewer_a, Verdict.CONFIRMED, "x", seen=read_before.audit_sequence
        )
    assert not Review.objects.exists()
    assert audit.verify(Ruling.objects.get(pk=ruling.pk)) == []


def test_reviews_and_appeals_keep_the_rulings_time_of_last_change(reviewer_a, ruling):
    """updated_at stays the director's last change (transfer bundles carry it)."""
    before = Ruling.objects.get(pk=ruling.pk).updated_at
    record_review(ruling, reviewer_a, Verdict.CONFIRMED, "Juist.")
    set_appeal(ruling, reviewer_a, AppealStatus.OPEN, "In beroep.")
    stored = Ruling.objects.get(pk=ruling.pk)
    assert stored.updated_at == before
    assert (stored.review_verdict, stored.appeal_status) == (Verdict.CONFIRMED, "open")
    assert actions_of(stored)[-2:] == ["reviewed", "appeal_opened"]


HTMX = {"HTTP_HX_REQUEST": "true"}


def hidden(response, name: str) -> str:
    found = re.search(rf'name="{name}" value="([^"]*)"', response.content.decode())
    assert found, name
    return html.unescape(found.group(1))


def test_with_htmx_refusals_swap_in_place_and_the_save_is_a_full_page_load(
    client_reviewer_a, ruling
):
    refused = client_reviewer_a.post(
        review_url(ruling), {**AMEND, "corrected_citations": "99Z"}, **HTMX
    )
    # The review box alone (its partial), with the errors and the form's own status: htmx
    # swaps a 400 in place (templates/base.html's responseHandling).
    assert refused.status_code == 400
    assert (
        refused.content.decode()
        .lstrip()
        .startswith('<div class="card mt-3 no-print" id="review-box">')
    )
    assert "99Z bestaat niet in 1997" in refused.content.decode()
    shown = client_reviewer_a.post(review_url(ruling), AMEND, **HTMX)
    assert shown.status_code == 200
    assert shown.content.decode().lstrip().startswith('<div class="card" id="review-box">')
    changed = client_reviewer_a.post(review_url(ruling), {**AMEND, "change": "1"}, **HTMX)
    assert changed.content.decode().lstrip().startswith('<div class="card mt-3 no-print"')
    assert "Het bod wordt vervangen." in changed.content.decode()  # everything typed kept
    confirmed = {
        **AMEND,
        # As the confirmation's hidden fields carry them (a fragment has no test context).
        "corrected_citations": hidden(shown, "corrected_citations"),
        "seen": hidden(shown, "seen"),
        "confirmed": "1",
    }
    saved = client_reviewer_a.post(review_url(ruling), confirmed, **HTMX)
    assert saved["HX-Redirect"] == f"/arbitrages/{ruling.uuid}/#beoordelingen"
    again = client_reviewer_a.post(review_url(ruling), confirmed, **HTMX)
    assert again.status_code == 409  # stale: swapped in place like a form with errors
    assert again.content.decode().lstrip().startswith('<div class="card" id="review-box">')
    assert "Er is niets opgeslagen" in again.content.decode()
    assert Review.objects.count() == 1
