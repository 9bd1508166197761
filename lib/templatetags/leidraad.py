from collections.abc import Mapping
from datetime import datetime, timedelta
from typing import Any

from django import template
from django.utils import timezone
from django.utils.timesince import timesince
from django.utils.translation import get_language, gettext

from lib import text
from lib.urls import quick_reverse

register = template.Library()


@register.simple_tag
def quick_url(name: str, *args: Any) -> str:
    """``{% url %}`` for the routes of a wizard step, reversed once per process
    (:func:`lib.urls.quick_reverse`)."""
    return quick_reverse(name, *args)


# Tree text (help, ruling, options, announce) as safe HTML, wherever it is shown: the one
# prose renderer.
prose = register.filter("prose", text.prose)


@register.filter
def minutes(value: timedelta | None) -> int:
    """Whole minutes of a duration, rounded up, so a lock-out never ends earlier than said."""
    if not value:
        return 0
    return -(-int(value.total_seconds()) // 60)


@register.filter
def ago(value: datetime | None) -> str:
    """ "zojuist" within the first minute, else "12 minuten geleden": a list of open rulings
    must not say "0 minuten geleden" about the one just left."""
    if value is None:
        return ""
    if timezone.now() - value < timedelta(minutes=1):
        return gettext("zojuist")
    return gettext("%(time)s geleden") % {"time": timesince(value)}


@register.filter
def with_edition(title: str, edition: object) -> str:
    """``{{ tree.title|with_edition:tree.edition.code }}``: the title with its edition in
    brackets, once (``lib.text.with_edition``)."""
    return text.with_edition(str(title or ""), str(edition or ""))


@register.filter
def edition_badge(edition: object, title: str) -> str:
    """``{{ code|edition_badge:title }}``: the edition to show beside ``title``, or "" when
    the title already names it."""
    code = str(edition or "")
    return "" if text.names_edition(str(title or ""), code) else code


@register.filter
def lookup(mapping: Mapping[str, Any] | None, key: object) -> Any:
    """``{{ titles|lookup:ruling.tree_slug }}``: the value under ``key``, "" when absent."""
    return (mapping or {}).get(str(key), "")


# How many renderings one {% keep %} block holds before it starts again.
KEEP_SIZE = 4096


class KeepNode(template.Node):
    """A block rendered once per process for each set of its values and the active language,
    kept on the compiled template (``{% keep %}``)."""

    def __init__(self, nodelist: template.NodeList, values: list[Any]) -> None:
        self.nodelist = nodelist
        self.values = values
        self.kept: dict[tuple[Any, ...], str] = {}

    def render(self, context: template.Context) -> str:
        key = (get_language(), *(value.resolve(context) for value in self.values))
        html = self.kept.get(key)
        if html is None:
            html = self.nodelist.render(context)
            if len(self.kept) >= KEEP_SIZE:
                self.kept.clear()
            self.kept[key] = html
        return html


@register.tag
def keep(parser: template.base.Parser, token: template.base.Token) -> KeepNode:
    """``{% keep value … %}…{% endkeep %}``: the block's HTML is made once per process for each
    combination of the values (and the language) and then reused, for the labels of the
    wizard's step that every answer shows (``make bench``: each ``{% translate %}`` costs
    about 85 Python calls, a tenth of a bare request, on every answer). The values must be
    all the block reads besides the language, and hashable; never put a CSRF token, a URL
    of one ruling or a user's text that is not among them inside."""
    values = [parser.compile_filter(bit) for bit in token.split_contents()[1:]]
    nodelist = parser.parse(("endkeep",))
    parser.delete_first_token()
    return KeepNode(nodelist, values)
