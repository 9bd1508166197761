"""Template helpers for the wizard pages: texts in the active language and links to the law."""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import urlencode

from django import template
from django.urls import NoReverseMatch, reverse

from lib import text as text_html
from lib.bridge import side_of
from rulings.audit import ACTION_LABELS
from trees.models import Chooser
from trees.snapshot import pick

register = template.Library()


@register.filter
def tr(text: dict[str, str] | None) -> str:
    """A snapshot text ({"nl": …, "en": …}) in the active language."""
    return pick(text)


@register.filter
def as_json(data: Any) -> str:
    """Audit data as compact JSON (escaped by the template like any text)."""
    return json.dumps(data, ensure_ascii=False, sort_keys=True)


@register.filter
def action_label(action: str) -> str:
    return str(ACTION_LABELS.get(action, action))


@register.filter
def offending_sides(ruling: Any) -> dict[str, str] | None:
    """The offending and the non-offending partnership of ``ruling``, from its offender seat.

    Whoever the director entered as offender decides it (a misinforming declarer is the
    offender as much as a defender who leads out of turn); None while the seat is not known.
    """
    side = side_of(getattr(ruling, "offender_seat", "") or "")
    if side is None:
        return None
    return {"offending": side.long_label, "non_offending": side.other.long_label}


@register.filter
def chooser_label(code: str) -> str:
    if not code or code == Chooser.NONE or code not in Chooser.values:
        return ""
    return str(Chooser(code).label)


@register.filter
def citation_url(citation: dict[str, Any]) -> str:
    """The full article, scrolled to what the citation shows: the provision, or our summary."""
    if not citation.get("article"):
        return ""
    try:
        url = reverse("laws:article", args=[citation["edition"], citation["article"]])
    except NoReverseMatch:
        return ""
    keys = citation.get("keys") or [citation["key"]]
    return text_html.law_link(
        url, text_html.law_anchor(keys[0], citation["article"], citation["kind"])
    )


@register.simple_tag
def diagram_url(slug: str, node_key: str = "") -> str:
    """The tree's diagram with ``node_key`` highlighted ("" for a slug the route refuses)."""
    try:
        url = reverse("trees:detail", args=[slug])
    except NoReverseMatch:
        return ""
    return f"{url}?{urlencode({'node': node_key})}" if node_key else url


@register.simple_tag
def query_string(values: dict[str, Any]) -> str:
    return urlencode({key: value for key, value in values.items() if value})
