"""The remembered number input renders exactly what Django's own renders."""

from django import forms
from django.utils.translation import gettext_lazy

from lib import widgets
from lib.widgets import MemoNumberInput


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


def test_lazy_attribute_is_rendered_without_memo():
    widgets.clear_memo()
    html = MemoNumberInput(attrs={"title": gettext_lazy("Spel")}).render("board", 1)
    assert 'title="Spel"' in html
    assert widgets._memo == {}
