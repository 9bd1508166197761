"""The board-details form: what must be filled to save is marked before saving."""

from rulings.forms import ContextForm


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
