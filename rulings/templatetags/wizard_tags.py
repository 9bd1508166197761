"""Template helpers for the wizard pages: texts in the active language and links to the law."""

from __future__ import annotations

import functools
import json
from typing import Any
from urllib.parse import urlencode

from django import template
from django.conf import settings
from django.urls import NoReverseMatch, get_script_prefix, reverse
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from lib import text as text_html
from lib.parts import RenderedParts
from rulings.audit import ACTION_LABELS
from rulings.forms import TableForm
from rulings.models import Status
from rulings.steps import draft_view
from trees.models import Chooser
from trees.snapshot import pick
from trees.spec import Snapshot

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


# The two partnerships, by the seats that sit in them.
_SIDES = {"N": "NS", "S": "NS", "E": "EW", "W": "EW"}


def _side_label(side: str) -> str:
    return _("Noord-Zuid") if side == "NS" else _("Oost-West")


@register.filter
def offending_sides(ruling: Any) -> dict[str, str] | None:
    """The offending and the non-offending partnership of ``ruling``, from its offender seat.

    Whoever the director entered as offender decides it (a misinforming declarer is the
    offender as much as a defender who leads out of turn); None while the seat is not known.
    """
    side = _SIDES.get(getattr(ruling, "offender_seat", "") or "")
    if side is None:
        return None
    other = "EW" if side == "NS" else "NS"
    return {"offending": _side_label(side), "non_offending": _side_label(other)}


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
    """The tree's diagram with ``node_key`` highlighted (on every wizard step, so each is
    made once per process)."""
    return _diagram_url(slug, node_key, get_script_prefix(), settings.ROOT_URLCONF)


@functools.lru_cache(maxsize=4096)
def _diagram_url(slug: str, node_key: str, prefix: str, urlconf: str) -> str:
    url = _tree_url(slug, prefix, urlconf)
    return f"{url}?{urlencode({'node': node_key})}" if url and node_key else url


@functools.lru_cache(maxsize=256)
def _tree_url(slug: str, prefix: str, urlconf: str) -> str:
    """The diagram of a tree, reversed once per tree (a large tree has many nodes)."""
    try:
        return reverse("trees:detail", args=[slug], urlconf=urlconf)
    except NoReverseMatch:
        return ""


@register.simple_tag
def query_string(values: dict[str, Any]) -> str:
    return urlencode({key: value for key, value in values.items() if value})


_choices = RenderedParts("rulings/_choices.html")


@register.simple_tag
def step_choices(view: Any, ruling: Any) -> SafeString:
    """The answer buttons of a wizard step (``rulings.steps.StepView``), rendered once per
    process for each snapshot, node, language, marked answer and state: they read nothing
    else, and rendering them was a large part of every answer (``make bench``)."""
    deferred = getattr(ruling, "status", "") == Status.DEFERRED
    language = get_language()
    if view.tree.digest not in _choices_of_tree.get(language, set()):
        warm_choices(view.tree, language)
    return _step_choices(view, language, deferred)


def _step_choices(view: Any, language: str | None, deferred: bool) -> SafeString:
    key = (view.tree.digest, view.node_key, language, view.selected, view.revisit, deferred)
    return _choices.get(key, lambda: {"view": view, "deferred": deferred})


# Per language, the snapshots whose every question has its buttons made (warm_choices).
_choices_of_tree: dict[str | None, set[str]] = {}


def warm_choices(tree: Snapshot, language: str | None) -> None:
    """The buttons of every question of ``tree`` as a director first meets them (nothing
    marked), in the active ``language``, made when the tree's first step is shown."""
    _choices_of_tree.setdefault(language, set()).add(tree.digest)
    for node in tree.tree.nodes:
        if node.outcome is None:
            _step_choices(draft_view(tree, node.key), language, deferred=False)


_table_fields = RenderedParts("rulings/_table_fields.html")


@register.simple_tag
def table_fields(form: Any, ruling: Any) -> SafeString:
    """The round/table/board fields of a step: of ``form`` (``rulings.forms.TableForm``), a
    submitted one with its errors, rendered each time; without one (None), of ``ruling``'s
    values, which with the language are all the fields show, so rendered once per process
    for each (and no form is made for them)."""
    if form:
        return _table_fields.render({"table_form": form})
    key = (get_language(), *(getattr(ruling, name) for name in TableForm.FIELDS))
    return _table_fields.get(key, lambda: {"table_form": TableForm.for_ruling(ruling)})


@register.simple_tag
def step_path(view: Any) -> SafeString:
    """The links of a step's path (``rulings.steps.StepView.path``), the step shown marked.
    Made here, not in a template loop: the loop cost about 0.03 ms per answered step on every
    answer, and paths grow with the tree (``make bench``)."""
    title = escape(_("Terug naar deze vraag om het antwoord te wijzigen"))
    links = []
    for entry in view.path:
        url = escape(entry.url)
        shown = entry.number == view.number
        style = "btn-secondary" if shown else "btn-outline-secondary"
        current = ' aria-current="step"' if shown else ""
        links.append(
            f'<li><a href="{url}" hx-get="{url}" hx-target="#wizard" hx-swap="outerHTML" '
            f'hx-push-url="true" class="btn btn-sm path-step {style}"{current} title="{title}">'
            f'<span class="path-question">{entry.number}. {escape(entry.question_label)}</span> '
            f'<span class="path-answer fw-semibold">→ {escape(entry.answer_label)}</span></a></li>'
        )
    return mark_safe("\n".join(links))  # every text in it is escaped above
