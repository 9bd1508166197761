"""Text shown to users: prose as safe HTML, links into the law, and law text shown once.

- :func:`prose`: every written text (tree help and outcomes, training situations and
  explanations) as HTML, through limited Markdown and nh3.
- :func:`law_anchor` / :func:`law_link`: where an article page shows a cited key.
- :func:`unique_citations`: citations that would show the same text become one card.

Nothing here knows a model: citations are plain mappings as tree snapshots store them.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import markdown
import nh3
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

# --------------------------------------------------------------------------------------------
# Prose

ALLOWED_TAGS = {"p", "br", "em", "strong", "ul", "ol", "li", "blockquote", "code", "h3", "h4"}
ENUMERATED_LIST_CLASS = "tree-list"
# ``1.``, ``2)``, ``(a)``, ``(aa)``, ``(iv)``, ``a.``, ``b)``: the marker is part of the text
# (law text refers to "(a)"), so it stays and the list has no bullets of its own.
_ENUMERATOR = re.compile(r"^(\d{1,2}[.)]|\([a-z0-9]{1,4}\)|[a-z][.)])\s+(.*)$")
# ``-``, ``*``, ``+``, ``•``, ``–``: an ordinary bulleted list.
_BULLET = re.compile(r"^[-*+•–]\s+(.*)$")
_BLOCK_START = re.compile(r"^(?:>|[-*+]\s|#{1,6}\s)")
_NUMBER_START = re.compile(r"^(\d+)[.)]\s")
_HEADING = re.compile(r"^#{1,6}\s")
_RED_SUITS = re.compile("([♥♦])")
_BETWEEN_TAGS = re.compile(r">\s*\n\s*<")
_PARAGRAPH = re.compile(r"^<p>(.*)</p>$", re.DOTALL)
# A line Markdown would only wrap in a paragraph: none of its syntax characters (emphasis,
# code, links, escapes, entities, headings, quotes, tabs, line breaks), and no list or
# indentation at its start (tests/lib/test_text.py checks the two agree).
_PLAIN = re.compile(r"(?![-+\s]|\d+\.)[^\\`*_\[\]!<>&#\t\r\n]+")
_local = threading.local()


@dataclass
class _Line:
    kind: str  # "text" | "bullet" | "enum" | "heading" | "quote"
    text: str
    marker: str = ""


def _lines(paragraph: str) -> list[_Line]:
    """A paragraph's lines with wrapped lines joined: a line continues the one before unless
    it starts a list item, a heading or a quote; after a list item only an indented line
    continues it."""
    lines: list[_Line] = []
    for raw in paragraph.splitlines():
        line = raw.strip()
        if not line:
            continue
        if enumerated := _ENUMERATOR.match(line):
            lines.append(_Line("enum", enumerated.group(2), enumerated.group(1)))
        elif bullet := _BULLET.match(line):
            lines.append(_Line("bullet", bullet.group(1)))
        elif _HEADING.match(line):
            lines.append(_Line("heading", line))
        elif line.startswith(">"):
            if lines and lines[-1].kind == "quote":
                lines[-1].text = f"{lines[-1].text}\n{line}"
            else:
                lines.append(_Line("quote", line))
        elif (
            lines
            and lines[-1].kind not in ("heading", "quote")
            and (lines[-1].kind == "text" or raw[:1].isspace())
        ):
            lines[-1].text = f"{lines[-1].text} {line}"
        else:
            lines.append(_Line("text", line))
    return lines


def _markdown(source: str) -> str:
    if _PLAIN.fullmatch(source):  # most lines of most texts; a conversion costs 0.02 ms
        return f"<p>{source}</p>"
    converter = getattr(_local, "markdown", None)
    if converter is None:
        converter = _local.markdown = markdown.Markdown(output_format="html")
    return converter.reset().convert(source)


def _inline(source: str) -> str:
    """Markdown of a list item: emphasis and code, without the paragraph around it. A list,
    heading or quote marker at its start is text (``1. - een`` is one item)."""
    if number := _NUMBER_START.match(source):
        source = f"{number.group(1)}\\{source[len(number.group(1)) :]}"
    elif _BLOCK_START.match(source):
        source = f"\\{source}"
    html = _markdown(source)
    only = _PARAGRAPH.match(html)
    return only.group(1) if only and "<p>" not in only.group(1) else html


def _blocks_html(text: str) -> str:
    html: list[str] = []
    for paragraph in re.split(r"\n\s*\n", text.strip()):
        items: list[str] = []
        open_kind = ""
        for line in _lines(paragraph):
            if open_kind and line.kind != open_kind:
                html.append(_list_html(open_kind, items))
                items, open_kind = [], ""
            if line.kind == "bullet":
                items.append(_inline(line.text))
                open_kind = "bullet"
            elif line.kind == "enum":
                items.append(f"{escape(line.marker)} {_inline(line.text)}")
                open_kind = "enum"
            else:
                html.append(_markdown(line.text))
        if open_kind:
            html.append(_list_html(open_kind, items))
    return "".join(html)


def _list_html(kind: str, items: list[str]) -> str:
    start = f'<ul class="{ENUMERATED_LIST_CLASS}">' if kind == "enum" else "<ul>"
    return start + "".join(f"<li>{item}</li>" for item in items) + "</ul>"


# A Markdown code span: a run of backticks, the code, the same run again.
_CODE_SPAN = re.compile(r"(`+)(.+?)(?<!`)\1(?!`)", re.DOTALL)


def _escape_angles(text: str) -> str:
    """``<`` as ``&lt;`` outside code spans. Inside one, Markdown escapes the code itself: an
    entity written there showed as ``&lt;b>`` (issue 35, item 7)."""
    parts: list[str] = []
    end = 0
    for span in _CODE_SPAN.finditer(text):
        parts.append(text[end : span.start()].replace("<", "&lt;"))
        parts.append(span.group(0))
        end = span.end()
    parts.append(text[end:].replace("<", "&lt;"))
    return "".join(parts)


# Room for every text of the loaded trees and then some: each text is made once per process,
# the first time a step shows it.
@lru_cache(maxsize=8192)
def _prose(text: str) -> str:
    # Text is never HTML: an angle bracket is shown as typed (Markdown keeps the entity).
    html = _blocks_html(_escape_angles(text))
    clean = nh3.clean(
        html,
        tags=ALLOWED_TAGS,
        attributes={},
        allowed_classes={"ul": {ENUMERATED_LIST_CLASS}},
        link_rel=None,
    )
    # Markdown puts newlines between blocks and keeps them in paragraphs: one line of HTML.
    clean = _BETWEEN_TAGS.sub("><", clean).replace("\n", " ")
    return _RED_SUITS.sub(r'<span class="suit-red">\1</span>', clean)


def prose(text: str | None) -> SafeString:
    """Text as safe HTML. Blank lines separate paragraphs and other line breaks are wrapped
    lines; lines starting with ``-``/``*``/``•`` are a bulleted list, lines starting with
    ``1.``, ``a.`` or ``(a)`` a list that keeps those markers (continued by indented lines).
    Inside, limited Markdown: emphasis, code, headings, quotes. Links, images and HTML are not
    rendered (angle brackets show as typed); nh3 keeps only the tags in ``ALLOWED_TAGS``.
    Red suit symbols get a class for their colour."""
    if not text or not text.strip():
        return mark_safe("")
    # Safe: nh3 removed every tag but the allowed ones, and the span is our own.
    return mark_safe(_prose(text))


# --------------------------------------------------------------------------------------------
# Anchors on an article page

ARTICLE_ANCHOR = "artikel"
SUMMARY_ANCHOR = "samenvatting"


def law_anchor(key: str, article: str = "", kind: str = "official") -> str:
    """The id on an article page where a cited ``key`` shows: the provision itself (its id is
    its canonical key) for part of the article, official text or summary; our summary of the
    article for a summary of a whole article; the top of the article for the whole article, a
    title or anything else."""
    if kind in ("official", "summary") and key and key != article:
        return key
    if kind == "summary":
        return SUMMARY_ANCHOR
    return ARTICLE_ANCHOR


def law_link(article_url: str, anchor: str = "") -> str:
    """``article_url`` scrolled to ``anchor`` (as :func:`law_anchor` gives it)."""
    return f"{article_url}#{anchor}" if article_url and anchor else article_url


# --------------------------------------------------------------------------------------------
# Each law text once


def unique_citations(citations: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """The citations as shown, each text once, in their first order. A key cited twice shows
    once; citations of one article that show the same summary (e.g. 64A1 and 64C where
    neither has a summary of its own, only the article) or only its title share one entry.
    Each entry is the first citation with ``keys``: every key it stands for."""
    shown: dict[tuple[str, ...], dict[str, Any]] = {}
    for citation in citations:
        if not isinstance(citation, Mapping) or not citation.get("key"):
            continue
        edition = str(citation.get("edition", ""))
        article = str(citation.get("article", ""))
        kind = citation.get("kind")
        text = citation.get("text")
        if not isinstance(text, Mapping):
            text = {}
        if kind == "summary" and article:
            words = (str(text.get("nl", "")), str(text.get("en", "")))
            group: tuple[str, ...] = ("summary", edition, article, *words)
        elif kind == "title" and article:
            group = ("article", edition, article)
        else:
            group = ("key", edition, citation["key"])
        entry = shown.get(group)
        if entry is None:
            shown[group] = {**citation, "keys": [citation["key"]]}
        elif citation["key"] not in entry["keys"]:
            entry["keys"].append(citation["key"])
    return list(shown.values())


def names_edition(title: str, edition: str) -> bool:
    """Whether ``title`` already says which edition it is ("Strafkaart (1963)" for 1963):
    the titles of trees for an older edition do, so that lists mixing editions tell them apart."""
    return bool(edition) and edition in title


def with_edition(title: str, edition: str) -> str:
    """``title (edition)``, unless the title already names the edition: never
    "Strafkaart (1963) (1963)"."""
    if not edition or names_edition(title, edition):
        return title
    return f"{title} ({edition})"
