"""The law text cards beside a wizard step, rendered with their structure.

A snapshot keeps each citation's official text as plain text (``trees.snapshot``): headings, items
and their labels flattened into paragraphs, a sub-item's heading run into its text. Where the law
text in the database is still the text the snapshot froze, the card is rendered from the
provisions instead: a heading on its own line, sub-items as a list with their labels ("a.",
"(b)"), the marginal note "(strafbepaling)" out of the running text, and cross-references
linked, or marked as not in this edition when the edition does not hold that article. When the
text differs (the law text was re-imported since), the frozen text is shown as it is.

Cards of one node that show a provision and an item inside it (63A and 63A1; 52 and 52(a)) are
nested: the item's card is folded into the enclosing one, which marks the item as cited.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from typing import Any

from django import template
from django.urls import reverse
from django.utils import translation
from django.utils.html import format_html, linebreaks
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from laws import keys
from laws.models import Article, Provision
from lib.i18n import pick_text
from lib.parts import RenderedParts
from lib.text import prose
from rulings.steps import law_cards
from rulings.templatetags import wizard_tags
from trees.snapshot import pick, provision_text
from trees.spec import Snapshot

register = template.Library()

PENALTY_NOTE = "(strafbepaling)"
_BARE_LABEL = re.compile(r"^[A-Za-z0-9]{1,3}$")


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
# Rendering one card


def _normal(text: str) -> str:
    return " ".join(text.split())


def display_label(label: str) -> str:
    """A label as printed before an item: "a" → "a.", "1" → "1."; "(b)" and "a." stay."""
    label = label.strip()
    return f"{label}." if _BARE_LABEL.match(label) else label


class _Renderer:
    def __init__(self, edition: str, numbers: set[str], cited: set[str]) -> None:
        self.edition = edition
        self.numbers = numbers
        self.cited = cited

    def inline(self, text: str) -> SafeString:
        """Escaped text with its cross-references: a link where the edition holds the article,
        plain text marked "not in this edition" where it does not (never a link to nothing)."""
        parts: list[str] = []
        position = 0
        for start, end, key in keys.reference_spans(text):
            parts.append(format_html("{}", text[position:start]))
            raw = text[start:end]
            number = str(keys.parse(key).article)
            if number in self.numbers:
                url = reverse("laws:article", args=[self.edition, number])
                parts.append(format_html('<a class="law-ref" href="{}">{}</a>', url, raw))
            else:
                parts.append(
                    format_html(
                        '<span class="law-ref-missing">{} <span class="text-body-secondary">'
                        "({})</span></span>",
                        raw,
                        _("niet opgenomen in deze editie"),
                    )
                )
            position = end
        parts.append(format_html("{}", text[position:]))
        return mark_safe("".join(parts))  # every piece is built by format_html

    def body(self, text: str) -> SafeString:
        text = text.strip()
        if not text:
            return mark_safe("")
        note = ""
        if PENALTY_NOTE in text:
            text = _normal(text.replace(PENALTY_NOTE, " "))
            note = format_html(
                '<span class="badge text-bg-light border law-penalty-note me-1">{}</span>',
                _("strafbepaling"),
            )
        paragraphs = [p for p in text.split("\n\n") if p.strip()]
        html = "".join(format_html("<p>{}</p>", self.inline(p)) for p in paragraphs)
        if note and html.startswith("<p>"):
            html = f"<p>{note}{html[3:]}"
        return mark_safe(html)

    def provision(
        self, item: Provision, children: dict[int | None, list[Provision]], depth: int
    ) -> SafeString:
        label = display_label(item.label) if item.label else ""
        head = ""
        if label or item.heading:
            head = format_html(
                '<p class="law-heading mb-1">{}{}</p>',
                format_html('<span class="law-label fw-semibold me-1">{}</span>', label)
                if label
                else "",
                format_html('<span class="fw-semibold">{}</span>', item.heading)
                if item.heading
                else "",
            )
        kids = children.get(item.pk, [])
        items = ""
        if kids:
            items = format_html(
                '<ol class="law-items list-unstyled ms-3 mb-2">{}</ol>',
                mark_safe(
                    "".join(
                        format_html(
                            "<li{}>{}</li>",
                            mark_safe(' class="law-cited"') if kid.key in self.cited else "",
                            self.provision(kid, children, depth + 1),
                        )
                        for kid in kids
                    )
                ),
            )
        closing = self.body(item.closing_text)
        return format_html(
            '<div class="law-provision" data-key="{}">{}{}{}{}</div>',
            item.key,
            head,
            self.body(item.text),
            items,
            closing,
        )


@register.simple_tag
def law_card_text(card: dict[str, Any]) -> SafeString:
    """The card's official text with its structure, or the frozen text as it is (see above)."""
    plain = mark_safe(linebreaks(pick_text(card.get("text")), autoescape=True))
    # Official text is the imported (Dutch) text; only that can be matched with the database.
    text = (card.get("text") or {}).get("nl") or ""
    if card.get("kind") != "official" or not text or not card.get("article"):
        return plain
    structured = _structured(
        card["edition"], card["article"], card["key"], text, tuple(sorted(card.get("cited") or []))
    )
    return plain if structured is None else structured


@functools.lru_cache(maxsize=2048)
def _structured(
    edition: str, number: str, key: str, text: str, cited: tuple[str, ...]
) -> SafeString | None:
    """The structured card, or None where the database no longer holds the frozen ``text``.

    Cached per process, like the edition's law it is made from (``edition_law``): a wizard
    step must not read the law text again on every answer. A result is only ever the
    structure of ``text`` itself, so it stays right for every ruling that froze that text; an
    import of new law text clears the cache (``rulings/apps.py``), so that a reference to a
    newly imported article links at once."""
    law = edition_law(edition)
    article = law.articles.get(number)
    if article is None:
        return None
    children = law.children[article.pk]
    provisions = [p for items in children.values() for p in items]
    numbers = set(law.articles)
    renderer = _Renderer(edition, numbers, set(cited))
    if key == number:
        top = children.get(None, [])
        frozen = "\n\n".join(
            part
            for part in (
                article.text.strip(),
                *(provision_text(p, children) for p in top),
                article.closing_text.strip(),
            )
            if part
        )
        if _normal(frozen) != _normal(text):
            return None
        html = [renderer.body(article.text)]
        if top:
            html.append(
                format_html(
                    '<ol class="law-items list-unstyled mb-2">{}</ol>',
                    mark_safe(
                        "".join(
                            format_html(
                                "<li{}>{}</li>",
                                mark_safe(' class="law-cited"') if p.key in renderer.cited else "",
                                renderer.provision(p, children, 1),
                            )
                            for p in top
                        )
                    ),
                )
            )
        html.append(renderer.body(article.closing_text))
        return mark_safe("".join(html))
    root = next((p for p in provisions if p.key == key), None)
    if root is None or _normal(provision_text(root, children)) != _normal(text):
        return None
    return renderer.provision(root, children, 0)


@dataclass(frozen=True)
class _EditionLaw:
    articles: dict[str, Article]  # by number
    children: dict[int, dict[int | None, list[Provision]]]  # per article, by parent


@functools.lru_cache(maxsize=16)
def edition_law(edition: str) -> _EditionLaw:
    """Every article and provision of an edition, read once per process in two queries (not
    three per card and step): the cards of any step of any tree of that edition need no query."""
    articles = {
        article.number: article
        for article in Article.objects.filter(edition__code=edition).only(
            "pk", "number", "text", "closing_text"
        )
    }
    children: dict[int, dict[int | None, list[Provision]]] = {
        article.pk: {} for article in articles.values()
    }
    for provision in Provision.objects.filter(article__edition__code=edition).order_by(
        "order", "pk"
    ):
        children[provision.article_id].setdefault(provision.parent_id, []).append(provision)
    return _EditionLaw(articles, children)


# --------------------------------------------------------------------------------------------
# The cards of a step, whole

# Distinct (snapshot, node, language) kept; a full store starts again.
_step_cards = RenderedParts("rulings/_law_cards.html", size=8192)
# (snapshot digest, language) whose every step has its cards and prose made (warm_tree).
_warmed: set[tuple[str, str]] = set()


@register.simple_tag
def step_law_cards(view: Any) -> SafeString:
    """The law cards beside a wizard step (``rulings.steps.StepView``), rendered once per
    process for each snapshot, node and language: they depend on nothing else (no user, no
    ruling), and rendering them was a large part of every answer (``make bench``). Like the
    structured cards they are made of, they are forgotten when law text is imported."""
    language = get_language() or ""
    if (view.tree.digest, language) not in _warmed:
        warm_tree(view.tree, language)
    return _node_cards(view.tree, view.node_key, language)


def _node_cards(tree: Snapshot, node_key: str, language: str) -> SafeString:
    return _step_cards.get(
        (tree.digest, node_key, language),
        lambda: {"cards": nest_cards(law_cards(tree.citations(node_key)))},
    )


def warm_tree(tree: Snapshot, language: str) -> None:
    """Make the parts of every step of ``tree`` that depend only on it and ``language``: the
    law cards, the prose of its help and outcome texts and the answer buttons, the first time
    one of its steps is shown in that language. Made one step at a time, a director's first
    visit of each node paid for them, and on a large tree nearly every node reached is a
    first visit (``make bench``: about a millisecond more per answer). A shipped tree takes a
    few milliseconds, once per process."""
    _warmed.add((tree.digest, language))
    with translation.override(language):
        _warm_nodes(tree, language)
        wizard_tags.warm_choices(tree, language)


def _warm_nodes(tree: Snapshot, language: str) -> None:
    for node in tree.tree.nodes:
        _node_cards(tree, node.key, language)
        texts = [node.help]
        if node.outcome is not None:
            texts += [node.outcome.ruling, node.outcome.options, node.outcome.announce]
        for text in texts:
            if text is not None:
                prose(pick(text, language))


def clear_cache(**kwargs: Any) -> int:
    """Forget the law read and the cards made from it (after a law text import, and between
    tests)."""
    _step_cards.clear()
    _warmed.clear()
    _structured.cache_clear()
    edition_law.cache_clear()
    return 0
