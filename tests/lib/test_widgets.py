"""The remembered number and text inputs render exactly what Django's own render."""

from django import forms
from django.utils.translation import gettext_lazy

from lib import widgets
from lib.widgets import MemoNumberInput, MemoTextInput


def _both(value, attrs=None, **widget_attrs):
    plain = forms.NumberInput(attrs=widget_attrs).render("round", value, attrs)
    memo = MemoNumberInput(attrs=widget_attrs).render("round", value, attrs)
    return plain, memo


def test_same_html_as_django_for_several_values():
    widgets.clear_memo()
    for value in (None, "", 3, "12", 0):
        plain, memo = _both(value, {"id": "id_round"}, min=1, max=999, inputmode="numeric")
        assert memo == plain


def test_each_value_keeps_its_own_html():
    widgets.clear_memo()
    first = MemoNumberInput().render("board", 5)
    second = MemoNumberInput().render("board", 6)
    assert 'value="5"' in first
    assert 'value="6"' in second


def test_rendered_once_per_context():
    widgets.clear_memo()
    MemoNumberInput().render("table", 2)
    MemoNumberInput().render("table", 2)
    MemoNumberInput().render("table", 3)
    assert len(widgets._memo) == 2


def test_an_attribute_without_a_stable_key_is_rendered_without_memo():
    widgets.clear_memo()
    html = MemoNumberInput(attrs={"title": object()}).render("board", 1)
    assert "object object at" in html
    assert widgets._memo == {}


def test_a_lazy_attribute_is_kept_per_language():
    from django.utils import translation

    widgets.clear_memo()
    attrs = {"placeholder": gettext_lazy("nummer of namen")}
    shown = {}
    for language in ("nl", "en", "nl"):
        with translation.override(language):
            memo = MemoTextInput(attrs=attrs).render("pair_ns", "")
            assert memo == forms.TextInput(attrs=attrs).render("pair_ns", "")
            shown[language] = memo
    assert 'placeholder="nummer of namen"' in shown["nl"]
    assert 'placeholder="number or names"' in shown["en"]
    assert len(widgets._memo) == 2


def test_a_typed_pair_is_shown_only_for_that_value():
    widgets.clear_memo()
    first = MemoTextInput().render("pair_ns", "7 Jansen")
    second = MemoTextInput().render("pair_ns", "8")
    assert 'value="7 Jansen"' in first
    assert 'value="8"' in second
    assert "Jansen" not in second
