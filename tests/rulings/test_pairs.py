"""The club's psyche register (issue 32, item 7; rulings/pairs.py): a psyche ruling saved final
records the offending pair, another ruling may be recorded on request, and a later ruling of
the same pair shows what was recorded, on its steps, its record and the club's register."""

from __future__ import annotations

from datetime import date

import pytest
from django.urls import reverse

from rulings import audit, pairs, wizard
from rulings.audit import Action
from rulings.audit_text import trail
from rulings.models import Mode, PairRecord, RecordKind, Status
from tests.support.rulings import actions_of, make_ruling

HTMX = {"HTTP_HX_REQUEST": "true"}
# soort → reglement → partner-wist → herhaald → toegestaan (a permitted psyche)
PERMITTED_PSYCHE = ("psyche", "nee", "nee", "nee")
# soort: a deviation → partner-wist: yes → schade: no
DEVIATION_NO_DAMAGE = ("afwijking", "ja", "nee")


def psyche_ruling(club, director, answers=PERMITTED_PSYCHE, **kwargs):
    return make_ruling(club, director, answers, tree_slug="psyche", final=False, **kwargs)


def saved_psyche(club, director, answers=PERMITTED_PSYCHE, *, seat="S", **context):
    ruling = psyche_ruling(club, director, answers)
    values = {"played_on": date(2026, 3, 3), "board": 9, "offender_seat": seat, **context}
    wizard.save(ruling, director, values)
    ruling.refresh_from_db()
    return ruling


# --- the pair as compared ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("typed", "key"),
    [
        ("Jansen - De Vries", "de vries - jansen"),
        ("de vries/JANSEN", "de vries - jansen"),
        ("Jansen en De  Vries", "de vries - jansen"),
        ("Jansen & de Vriës", "de vries - jansen"),
        (" 7 ", "7"),
        ("", ""),
    ],
)
def test_two_spellings_of_a_pair_are_one_pair(typed, key):
    assert pairs.pair_key(typed) == key


# --- recording, through the one writer ----------------------------------------------------------


def test_a_saved_psyche_ruling_records_the_offending_pair(shipped, club_a, director_a):
    ruling = saved_psyche(club_a, director_a, pair_ns="Jansen - De Vries", pair_ew="3")
    record = PairRecord.objects.get(ruling=ruling)
    assert (record.pair, record.pair_key, record.side) == (
        "Jansen - De Vries",
        "de vries - jansen",
        "NS",
    )
    assert record.kind == RecordKind.PSYCHE
    assert record.club_id == club_a.pk
    assert actions_of(ruling)[-2:] == [Action.SAVED, Action.PAIR_RECORDED]
    assert audit.verify(ruling) == []
    event = ruling.audit_events.get(action=Action.PAIR_RECORDED)
    assert event.data == {"pair": "Jansen - De Vries", "side": "NS", "kind": "psyche"}
    words = [row["text"] for row in trail(ruling, [event])]
    assert words == ["Psyche vastgelegd voor paar Jansen - De Vries (NZ)"]


def test_a_deviation_in_the_psyche_tree_is_recorded_as_a_deviation(shipped, club_a, director_a):
    ruling = saved_psyche(club_a, director_a, DEVIATION_NO_DAMAGE, seat="E", pair_ew="12")
    assert ruling.outcome_key == "verborgen-afspraak-geen-schade"
    record = PairRecord.objects.get(ruling=ruling)
    assert (record.pair, record.side, record.kind) == ("12", "EW", RecordKind.DEVIATION)


def test_without_the_offender_or_his_pair_nothing_is_recorded(shipped, club_a, director_a):
    no_seat = saved_psyche(club_a, director_a, seat="", pair_ns="4", pair_ew="5")
    other_side = saved_psyche(club_a, director_a, seat="W", pair_ns="4")
    assert no_seat.status == other_side.status == Status.FINAL
    assert not PairRecord.objects.exists()
    assert Action.PAIR_RECORDED not in actions_of(no_seat)


def test_another_tree_is_recorded_only_when_the_director_asks(proef_tree, club_a, director_a):
    asked = make_ruling(club_a, director_a, final=False)
    unasked = make_ruling(club_a, director_a, final=False)
    context = {"played_on": date(2026, 3, 3), "board": 4, "offender_seat": "N", "pair_ns": "8"}
    wizard.save(asked, director_a, context, record_pair=True)
    wizard.save(unasked, director_a, context)
    record = PairRecord.objects.get()
    assert record.ruling_id == asked.pk
    assert record.kind == RecordKind.DEVIATION


def test_a_practice_is_never_recorded(shipped, club_a, director_a):
    ruling = make_ruling(
        club_a, director_a, PERMITTED_PSYCHE, tree_slug="psyche", final=False, mode=Mode.TRAINING
    )
    context = {"offender_seat": "S", "pair_ns": "4"}
    wizard.save(ruling, director_a, context, record_pair=True)
    assert not PairRecord.objects.exists()


# --- what a later ruling shows --------------------------------------------------------------------


def test_a_later_ruling_of_the_pair_shows_its_history(
    shipped, club_a, club_b, director_a, director_b
):
    first = saved_psyche(club_a, director_a, pair_ns="Jansen - De Vries")
    saved_psyche(club_b, director_b, pair_ns="Jansen - De Vries")  # another club's
    later = psyche_ruling(club_a, director_a, ("psyche",))
    wizard.edit_context(later, {"pair_ew": "de vries/jansen"}, director_a)
    (earlier,) = pairs.history(later)
    assert earlier.uuid == first.uuid
    assert (earlier.board, earlier.kind, earlier.side) == (9, "psyche", "NZ")
    assert earlier.outcome.startswith("Toegestane psyche")
    assert pairs.history(first) == []  # its own record is not "earlier"


def test_no_pair_named_costs_no_query(shipped, club_a, director_a, django_assert_num_queries):
    ruling = psyche_ruling(club_a, director_a, ("psyche",))
    with django_assert_num_queries(0):
        assert pairs.history(ruling) == []


# --- over HTTP ---------------------------------------------------------------------------------


def save_url(ruling):
    return reverse("wizard:save", args=[ruling.uuid])


def test_saving_a_psyche_ruling_asks_for_the_pair(shipped, club_a, director_a, client_director_a):
    ruling = psyche_ruling(club_a, director_a)
    form = {"played_on": "2026-03-03", "board": "9", "offender_seat": "S"}
    refused = client_director_a.post(save_url(ruling), form, **HTMX)
    # The form again, in place, with the reason at the pair's field.
    assert "Nodig voor het psycheregister" in refused.content.decode()
    ruling.refresh_from_db()
    assert ruling.status != Status.FINAL
    saved = client_director_a.post(save_url(ruling), {**form, "pair_ns": "Jansen - De Vries"})
    assert saved.status_code == 302
    assert PairRecord.objects.get().ruling_id == ruling.pk


def test_the_box_to_record_another_ruling(proef_tree, club_a, director_a, client_director_a):
    ruling = make_ruling(club_a, director_a, final=False)
    page = client_director_a.get(reverse("wizard:ruling", args=[ruling.uuid])).content.decode()
    assert 'name="record_pair"' in page
    form = {"played_on": "2026-03-03", "board": "9", "record_pair": "on"}
    refused = client_director_a.post(save_url(ruling), form, **HTMX)
    assert "Nodig voor het psycheregister" in refused.content.decode()
    assert not PairRecord.objects.exists()
    form.update(offender_seat="W", pair_ew="Bakker - Smit")
    assert client_director_a.post(save_url(ruling), form).status_code == 302
    assert PairRecord.objects.get().pair == "Bakker - Smit"


def test_the_psyche_tree_has_no_box_it_always_records(
    shipped, club_a, director_a, client_director_a
):
    ruling = psyche_ruling(club_a, director_a)
    page = client_director_a.get(reverse("wizard:ruling", args=[ruling.uuid])).content.decode()
    assert 'name="pair_ns"' in page
    assert 'name="record_pair"' not in page


def test_a_step_shows_the_pairs_history_in_constant_queries(
    shipped, club_a, director_a, client_director_a, django_assert_max_num_queries
):
    later = psyche_ruling(club_a, director_a, ("psyche",))
    wizard.edit_context(later, {"pair_ns": "Jansen - De Vries"}, director_a)
    url = reverse("wizard:step", args=[later.uuid, 2])
    client_director_a.get(url)
    with django_assert_max_num_queries(12) as empty:
        client_director_a.get(url)
    for board in (1, 2, 3):
        saved_psyche(club_a, director_a, pair_ew="De Vries/Jansen", seat="E", board=board)
    with django_assert_max_num_queries(len(empty.captured_queries)):
        page = client_director_a.get(url).content.decode()
    assert page.count("data-pair-record") == 3
    assert "Psycheregister: ook vastgelegd voor dit paar" in page


def test_naming_the_pair_at_a_question_shows_its_history(
    shipped, club_a, director_a, client_director_a
):
    saved_psyche(club_a, director_a, pair_ns="7")
    later = psyche_ruling(club_a, director_a, ("psyche",))
    url = reverse("wizard:table", args=[later.uuid])
    html = client_director_a.post(url, {"table": "3", "pair_ns": " 7"}, **HTMX).content.decode()
    assert 'hx-swap-oob="true"' in html
    assert "data-pair-record" in html
    later.refresh_from_db()
    assert later.pair_ns == "7"
    assert later.audit_events.filter(action=Action.CONTEXT_EDITED).exists()


def test_the_record_shows_its_own_entry_and_the_earlier_ones(
    shipped, club_a, director_a, client_director_a
):
    first = saved_psyche(club_a, director_a, pair_ns="Jansen - De Vries")
    second = saved_psyche(club_a, director_a, pair_ns="De Vries - Jansen")
    html = client_director_a.get(reverse("archive:detail", args=[second.uuid])).content.decode()
    assert "data-own-pair-record" in html
    assert reverse("archive:detail", args=[first.uuid]) in html
    assert html.count("data-pair-record") == 1


def test_the_register_lists_the_pairs_for_members_only(
    shipped, club_a, director_a, client_director_a, client_reviewer_a, client_director_b
):
    saved_psyche(club_a, director_a, pair_ns="Jansen - De Vries")
    saved_psyche(club_a, director_a, pair_ns="de vries en jansen")
    saved_psyche(club_a, director_a, DEVIATION_NO_DAMAGE, seat="E", pair_ew="12")
    url = reverse("archive:pairs", args=[club_a.slug])
    html = client_reviewer_a.get(url).content.decode()
    assert html.count("data-register-pair") == 2
    assert html.count("data-register-record") == 3
    # The pair recorded most often first, named as it was typed last.
    assert html.index("de vries en jansen <span") < html.index(">12 <span")
    assert client_director_b.get(url).status_code == 404
    empty = client_director_a.get(reverse("archive:pairs", args=["nergens"]))
    assert empty.status_code == 404


def test_the_register_page_costs_constant_queries(
    shipped, club_a, director_a, client_director_a, django_assert_max_num_queries
):
    url = reverse("archive:pairs", args=[club_a.slug])
    saved_psyche(club_a, director_a, pair_ns="1")
    client_director_a.get(url)
    with django_assert_max_num_queries(8) as one:
        client_director_a.get(url)
    for number in range(2, 6):
        saved_psyche(club_a, director_a, pair_ns=str(number))
    with django_assert_max_num_queries(len(one.captured_queries)):
        html = client_director_a.get(url).content.decode()
    assert html.count("data-register-pair") == 5


def test_the_record_page_costs_constant_queries(
    shipped, club_a, director_a, client_director_a, django_assert_max_num_queries
):
    saved_psyche(club_a, director_a, pair_ns="5", board=1)
    latest = saved_psyche(club_a, director_a, pair_ns="5", board=2)
    url = reverse("archive:detail", args=[latest.uuid])
    client_director_a.get(url)
    with django_assert_max_num_queries(40) as one:
        client_director_a.get(url)
    for board in (3, 4, 5):
        saved_psyche(club_a, director_a, pair_ew="5", seat="W", board=board)
    with django_assert_max_num_queries(len(one.captured_queries)):
        html = client_director_a.get(url).content.decode()
    assert html.count("data-pair-record") == 4
