"""The wizard's forms: an answer as posted (the same rules for a later answer and the first),
and the board details (what must be filled to save is marked before saving)."""

from datetime import date
from urllib.parse import urlencode

import pytest
from django.http import QueryDict
from hypothesis import given
from hypothesis import strategies as st

from rulings.forms import AnswerForm, ContextForm, FirstAnswerForm

DIGEST = "0123456789abcdef" * 4
LATER = {"node": "verzaakt", "step": "2", "revision": "1", "choice": "ja"}
FIRST = {**LATER, "step": "1", "revision": "0", "snapshot": DIGEST, "club": "bc-oost"}


def read(values: dict[str, str], form=AnswerForm) -> dict | None:
    """The answer posted as ``values`` (URL-encoded, as a browser sends it), or None."""
    posted = form(QueryDict(urlencode(values)))
    return posted.cleaned_data if posted.is_valid() else None


def test_an_answer_is_read_with_its_numbers():
    expected = {"node": "verzaakt", "step": 2, "revision": 1, "choice": "ja"}
    assert read(LATER) == expected
    spaced = {name: f" {value} " for name, value in LATER.items()}
    assert read(spaced) == expected


def test_the_first_answer_names_snapshot_club_and_day():
    answer = read({**FIRST, "played_on": "2026-12-02"}, FirstAnswerForm)
    assert answer == {
        "node": "verzaakt",
        "step": 1,
        "revision": 0,
        "choice": "ja",
        "snapshot": DIGEST,
        "club": "bc-oost",
        "played_on": date(2026, 12, 2),
    }
    assert read({**FIRST, "club": ""}, FirstAnswerForm)["club"] == ""
    assert read(FIRST, FirstAnswerForm)["played_on"] is None
    assert read(FIRST) == {"node": "verzaakt", "step": 1, "revision": 0, "choice": "ja"}


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
        ("step", "1.0"),
        ("step", "²"),
        ("step", "１"),
        ("step", "1" * 10),
        ("revision", ""),
        ("revision", "-1"),
    ],
)
def test_a_malformed_answer_is_no_answer(name, value):
    assert read({**LATER, name: value}) is None
    assert read({**FIRST, name: value}, FirstAnswerForm) is None


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
    assert read({**FIRST, name: value}, FirstAnswerForm) is None


@given(st.dictionaries(st.sampled_from([*FIRST, "played_on"]), st.text(max_size=90)))
def test_any_post_is_an_answer_or_none(values):
    for form in (AnswerForm, FirstAnswerForm):
        answer = read(values, form)
        assert answer is None or (answer["step"] >= 1 and answer["revision"] >= 0)


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
