"""Law text as HTML: the one renderer for the article pages and the law cards beside a step.

Law text is stored as plain text; the HTML for it is built here from escaped pieces, so nothing
in the text can inject markup. A cross-reference (``artikel 43B2b``) becomes a link where the
caller knows its target (``link(key)`` gives the URL), and is otherwise marked as not in this
edition: never a link to a page that is not there.

The article page lays out its provisions in a template (anchors, footnotes, references to
them) and uses :meth:`LawHtml.inline` and :meth:`LawHtml.paragraphs` for every text; a card
shows one provision or article with its structure through :meth:`LawHtml.provision` and
:meth:`LawHtml.article`.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection

from django.utils.html import escape, format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

from laws.keys import reference_spans
from laws.models import Article, Provision

__all__ = ["PENALTY_NOTE", "LawHtml", "display_label"]

PENALTY_NOTE = "(strafbepaling)"
_BARE_LABEL = re.compile(r"^[A-Za-z0-9]{1,3}$")

# Provisions by parent pk (None: the top level of the article), in stored order.
Children = dict[int | None, list[Provision]]


def display_label(label: str) -> str:
    """A label as printed before an item: "a" → "a.", "1" → "1."; "(b)" and "a." stay."""
    label = label.strip()
    return f"{label}." if _BARE_LABEL.match(label) else label


def _normal(text: str) -> str:
    return " ".join(text.split())


class LawHtml:
    """Renders law text of one edition. ``link(key)`` is the URL of a canonical key's target,
    or None where the edition does not hold it; ``cited`` are keys to mark as cited in a card
    that shows more than one of them; ``penalty_badge`` sets the marginal note
    "(strafbepaling)" apart from the running text, as the cards do."""

    def __init__(
        self,
        link: Callable[[str], str | None],
        *,
        cited: Collection[str] = (),
        penalty_badge: bool = False,
    ) -> None:
        self.link = link
        self.cited = cited
        self.penalty_badge = penalty_badge

    def inline(self, text: str) -> SafeString:
        """Escaped text with every cross-reference linked or marked as missing."""
        parts: list[str] = []
        position = 0
        for start, end, key in reference_spans(text):
            parts.append(escape(text[position:start]))
            raw = text[start:end]
            url = self.link(key)
            if url:
                parts.append(format_html('<a class="law-ref" href="{}">{}</a>', url, raw))
            else:
                parts.append(
                    format_html(
                        '<span class="law-ref-missing">{} <span class="text-body-secondary">({})'
                        "</span></span>",
                        raw,
                        _("niet opgenomen in deze editie"),
                    )
                )
            position = end
        parts.append(escape(text[position:]))
        return mark_safe("".join(parts))  # every piece is escaped or built by format_html

    def paragraphs(self, text: str) -> SafeString:
        """One ``<p>`` per paragraph (blank-line separated)."""
        text = text.strip()
        note = ""
        if self.penalty_badge and PENALTY_NOTE in text:
            text = _normal(text.replace(PENALTY_NOTE, " "))
            note = format_html(
                '<span class="badge text-bg-light border law-penalty-note me-1">{}</span>',
                _("strafbepaling"),
            )
        paragraphs = [p for p in text.split("\n\n") if p.strip()]
        html = "".join(format_html("<p>{}</p>", self.inline(p)) for p in paragraphs)
        if note and html.startswith("<p>"):
            html = f"<p>{note}{html[3:]}"
        return mark_safe(html)  # built from escaped pieces above

    def _items(self, items: list[Provision], children: Children, css: str) -> SafeString:
        if not items:
            return mark_safe("")
        return format_html(
            '<ol class="{}">{}</ol>',
            css,
            mark_safe(
                "".join(
                    format_html(
                        "<li{}>{}</li>",
                        mark_safe(' class="law-cited"') if item.key in self.cited else "",
                        self.provision(item, children),
                    )
                    for item in items
                )
            ),
        )

    def provision(self, item: Provision, children: Children) -> SafeString:
        """One provision and everything under it: its label and heading on a line of their
        own, its text, its sub-provisions as a list with their printed labels, its closing."""
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
        return format_html(
            '<div class="law-provision" data-key="{}">{}{}{}{}</div>',
            item.key,
            head,
            self.paragraphs(item.text),
            self._items(children.get(item.pk, []), children, "law-items list-unstyled ms-3 mb-2"),
            self.paragraphs(item.closing_text),
        )

    def article(self, article: Article, children: Children) -> SafeString:
        """A whole article: its introduction, its provisions, its closing text."""
        return format_html(
            "{}{}{}",
            self.paragraphs(article.text),
            self._items(children.get(None, []), children, "law-items list-unstyled mb-2"),
            self.paragraphs(article.closing_text),
        )
