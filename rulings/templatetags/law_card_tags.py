"""The law cards beside a wizard step, at provision level.

A card shows what the ruling's frozen tree (``trees.snapshot``) holds for one citation: the
official text where the edition had all of it, otherwise our own summary (of the cited
provision itself, or of the nearest provision or article around it that has one). Around that
frozen text the card shows, read live from the edition's provision index (``laws.edition_law``,
kept per process and keyed on the edition's import time, so a step reads no law text):

- the cited provision's own title and its parents' titles as context
  ("63 Voldongen verzaking › A …"), in the active language;
- a label saying official text or our summary, and whose summary it is when not the cited
  provision's own;
- the official text with its structure (a heading on its own line, sub-items as a list with
  their labels, the marginal note "(strafbepaling)" apart, cross-references linked or marked as
  not in this edition) where the edition still holds exactly the text the snapshot froze, by
  the one law-text renderer (``laws/render.py``); otherwise the frozen text as it is.

Cards of one node that show a provision and an item inside it (63A and 63A1; 52 and 52(a)) are
nested: the item's card is folded into the enclosing one, which marks the item as cited.
"""

from __future__ import annotations

import functools
from datetime import datetime
from typing import Any

from django import template
from django.template.loader import render_to_string
from django.urls import get_script_prefix, reverse
from django.utils.html import linebreaks
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language

from laws import keys
from laws.edition_law import EditionLaw, law_of
from laws.render import LawHtml, display_label
from lib.i18n import pick_text
from rulings.steps import law_cards
from trees.snapshot import provision_text

__all__ = [
    "clear_cache",
    "display_label",
    "law_card_text",
    "nest_cards",
    "present",
    "step_law_cards",
]

register = template.Library()


# --------------------------------------------------------------------------------------------
# Nesting: an item's card inside the card of the provision that contains it


def _contains(outer: str, inner: str) -> bool:
    """Whether provision ``inner`` lies inside ``outer`` (62 ⊃ 62D2, 63A ⊃ 63A1, 52 ⊃ 52(a))."""
    a, b = keys.try_parse(outer), keys.try_parse(inner)
    return a is not None and b is not None and a != b and a.contains(b)


@register.filter
def nest_cards(cards: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """``cards`` with every official card that an enclosing official card of the same article
    already shows folded into that card (its keys added, listed in ``cited``)."""
    result: list[dict[str, Any]] = []
    for card in cards:
        result.append({**card, "keys": list(card.get("keys") or [card["key"]]), "cited": []})
    official = [c for c in result if c.get("kind") == "official"]
    folded: set[int] = set()
    for card in official:
        outer = next(
            (
                other
                for other in official
                if other is not card
                and id(other) not in folded
                and other["edition"] == card["edition"]
                and _contains(other["key"], card["key"])
            ),
            None,
        )
        if outer is not None:
            outer["keys"].extend(card["keys"])
            outer["cited"].append(card["key"])
            folded.add(id(card))
    return [card for card in result if id(card) not in folded]


# --------------------------------------------------------------------------------------------
# What a card says around its text: title, context, whose summary


def _crumb(law: EditionLaw, name: str, language: str) -> str:
    """One step of the context: ``A Verzaking wordt voldongen``: the label and our title, or
    the official heading where the edition has no title of ours (the seed editions)."""
    row = law.provisions.get(name)
    title = law.index.title(name).get(language) or (row.heading if row else "")
    return " ".join(part for part in (keys.parse(name).label, title) if part)


def _same(a: str, b: str) -> bool:
    return " ".join(a.split()) == " ".join(b.split())


def _summary_source(law: EditionLaw, key: str, text: dict[str, str]) -> str:
    """The key whose summary the card shows (the cited key itself, an enclosing provision, or
    the article number): the one in the index whose summary is the frozen text. Empty when
    our words changed since the ruling was frozen."""
    for name in law.index.lineage(key):
        summary = law.index.summary(name)
        if summary and _same(summary.nl, text.get("nl") or ""):
            return name
    return ""


def present(card: dict[str, Any], language: str) -> dict[str, Any]:
    """``card`` (a citation as the snapshot froze it, nested) with what the card says around
    its frozen text, read from the edition's index in ``language``: ``title`` (the cited
    provision's own, else the article's), ``context`` (the article and provisions around it,
    outermost first) and ``summary_of`` (whose summary it shows, when not the cited key's
    own)."""
    key, number = card["key"], card.get("article") or ""
    law = law_of(card["edition"])
    index = law.index
    article_title = index.title(number).get(language) or card.get("article_title") or ""
    # One provision: its own title and its parents; a whole article, or several keys that
    # share one text (the article's summary), read as the article.
    provision = key != number and len(card["keys"]) == 1
    own = index.title(key).get(language) if provision else ""
    parents = [name for name in index.lineage(key) if name != key][::-1] if provision else []
    summary_of = ""
    if card.get("kind") == "summary":
        source = _summary_source(law, key, card.get("text") or {})
        summary_of = source if source != key else ""
    return {
        **card,
        "title": own or article_title,
        "context": [
            f"{number} {article_title}".strip() if name == number else _crumb(law, name, language)
            for name in parents
        ],
        "summary_of": summary_of,
        "summary_of_article": bool(summary_of) and summary_of == number,
    }


# --------------------------------------------------------------------------------------------
# The text of a card


@register.simple_tag
def law_card_text(card: dict[str, Any]) -> SafeString:
    """The card's official text with its structure, or the frozen text as it is (see above)."""
    # Official text is the imported (Dutch) text; only that can be matched with the database.
    text = (card.get("text") or {}).get("nl") or ""
    if card.get("kind") == "official" and text and card.get("article"):
        law = law_of(card["edition"])
        cited = tuple(sorted(card.get("cited") or []))
        structured = _structured(
            law.code, law.imported_at, card["article"], card["key"], text, cited
        )
        if structured is not None:
            return structured
    return mark_safe(linebreaks(pick_text(card.get("text")), autoescape=True))


@functools.lru_cache(maxsize=4096)
def _structured(
    code: str,
    imported_at: datetime | None,
    number: str,
    key: str,
    text: str,
    cited: tuple[str, ...],
) -> SafeString | None:
    """The structured card, or None where the edition no longer holds the frozen ``text``.

    Made once per process for everything it reads: the edition's law as of its import time
    (``laws.edition_law``), the key and the frozen text, and the keys marked as cited."""
    law = law_of(code)
    article = law.articles.get(number)
    if article is None or law.imported_at != imported_at:
        return None
    children = law.children[article.pk]

    def link(target: str) -> str | None:
        found = keys.parse(target).number
        if found not in law.articles:
            return None
        return reverse("laws:article", args=[law.code, found])

    render = LawHtml(link, cited=set(cited), penalty_badge=True)
    if key == number:
        top = children.get(None, [])
        parts = [article.text.strip(), *(provision_text(p, children) for p in top)]
        frozen = "\n\n".join(part for part in [*parts, article.closing_text.strip()] if part)
        return render.article(article, children) if _same(frozen, text) else None
    root = law.provisions.get(key)
    if root is None or root.article_id != article.pk:
        return None
    if not _same(provision_text(root, children), text):
        return None
    return render.provision(root, children)


# --------------------------------------------------------------------------------------------
# The cards of a step, whole


# The cards of a node are the same for every ruling on that frozen tree: made from the
# snapshot (its digest covers the tree and the law text it froze), the language and each cited
# edition as of its import time, the links' URL prefix, and from nothing of the request (no
# user, no token: the template is rendered without one). They are kept per exactly those.
CARDS_KEPT = 1024
_cards: dict[tuple[Any, ...], SafeString] = {}


@register.simple_tag
def step_law_cards(view: Any) -> SafeString:
    """The law cards beside a wizard step (``rulings.steps.StepView``)."""
    language = get_language() or "nl"
    citations = view.tree.citations(view.node_key)
    if not view.tree.digest:  # a tree not frozen from the database: nothing to key it by
        return _cards_html(citations, language)
    editions = sorted({citation.edition for citation in citations})
    key = (
        view.tree.digest,
        view.node_key,
        language,
        tuple((code, law_of(code).imported_at) for code in editions),
        get_script_prefix(),
    )
    html = _cards.get(key)
    if html is None:
        if len(_cards) >= CARDS_KEPT:
            _cards.clear()
        html = _cards[key] = _cards_html(citations, language)
    return html


def _cards_html(citations: Any, language: str) -> SafeString:
    cards = nest_cards(law_cards(citations))
    shown = [present(card, language) for card in cards]
    return render_to_string("rulings/_law_cards.html", {"cards": shown})


def clear_cache() -> None:
    """Forget the cards made (between tests, whose law rows change without a new import
    time)."""
    _structured.cache_clear()
    _cards.clear()
