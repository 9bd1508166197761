from collections.abc import Mapping
from datetime import datetime, timedelta
from typing import Any

from django import template
from django.utils import timezone
from django.utils.timesince import timesince
from django.utils.translation import gettext

from lib import text

register = template.Library()


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
