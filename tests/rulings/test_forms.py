"""The wizard's forms: an answer as posted, and the board details (what must be filled to
save is marked before saving)."""

from datetime import date
from urllib.parse import urlencode

import pytest
from django.http import QueryDict
from hypothesis import given
from hypothesis import strategies as st

from rulings.forms import Answer, ContextForm, read_answer

DIGEST = "0123456789abcdef" * 4
LATER = {"node": "verzaakt", "step": "2", "revision": "1", "choice": "ja"}
FIRST = {**LATER, "step": "1", "revision": "0", "snapshot": DIGEST, "club": "bc-oost"}


def posted(values: dict[str, str]) -> QueryDict:
    return QueryDict(urlencode(values))


def test_an_answer_is_read_with_its_numbers():
    assert read_answer(posted(LATER)) == Answer("verzaakt", 2, 1, "ja")
    spaced = {name: f" {value} " for name, value in LATER.items()}
    assert read_answer(posted(spaced)) == Answer("verzaakt", 2, 1, "ja")


def test_the_first_answer_names_snapshot_club_and_day():
    answer = read_answer(posted({**FIRST, "played_on": "2026-12-02"}), first=True)
    assert answer == Answer("verzaakt", 1, 0, "ja", DIGEST, "bc-oost", date(2026, 12, 2))
    assert read_answer(posted({**FIRST, "club": ""}), first=True).club == ""
    assert read_answer(posted(FIRST), first=True).played_on is None
    assert read_answer(posted(FIRST)) == Answer("verzaakt", 1, 0, "ja")  # a later answer's


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("node", ""),
        ("node", "a b"),
        ("node", "x" * 81),
        ("node", "vérzaakt"),
        ("choice", "ja!"),
        ("step", "0"),
        ("step", "-1"),
        ("step", "1.5"),
        ("step", "²"),
        ("step", "1" * 10),
        ("revision", ""),
        ("revision", "-1"),
    ],
)
def test_a_malformed_answer_is_no_answer(name, value):
    assert read_answer(posted({**LATER, name: value})) is None
    assert read_answer(posted({**FIRST, name: value}), first=True) is None


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("snapshot", ""),
        ("snapshot", DIGEST.upper()),
        ("snapshot", DIGEST[:-1]),
        ("club", "club a"),
        ("club", "c" * 61),
        ("played_on", "2-12-2026"),
        ("played_on", "2026-02-30"),
        ("played_on", "２０２６-12-02"),
    ],
)
def test_a_malformed_first_answer_is_no_answer(name, value):
    assert read_answer(posted({**FIRST, name: value}), first=True) is None


@given(st.dictionaries(st.sampled_from([*FIRST, "played_on"]), st.text(max_size=90)))
def test_any_post_is_an_answer_or_none(values):
    for first in (False, True):
        answer = read_answer(posted(values), first=first)
        assert answer is None or (answer.step >= 1 and answer.revision >= 0)


def test_fields_needed_to_save_are_marked_but_not_required_for_keeping_details():
    form = ContextForm(data={"event": "Dinsdagavond"}, mode="live")
    assert str(form.fields["board"].label).endswith("(verplicht)")
    assert str(form.fields["played_on"].label).endswith("(verplicht)")
    assert not str(form.fields["table"].label).endswith("(verplicht)")
    assert form.is_valid(), form.errors  # "Gegevens bewaren" keeps a partial context


def test_saving_refuses_the_missing_marked_fields():
    form = ContextForm(data={"event": "Dinsdagavond"}, mode="live", for_save=True)
    assert not form.is_valid()
    assert set(form.errors) == {"board", "played_on"}


def test_training_marks_nothing():
    form = ContextForm(mode="training")
    assert not any(str(field.label).endswith("(verplicht)") for field in form.fields.values())


def test_the_denomination_says_it_includes_no_trump():
    assert ContextForm(mode="live").fields["contract_strain"].label == "Kleur / SA"
