"""Law text pages: editions, table of contents, articles, comparison and search. All public.

Law text is stored as plain text; its HTML comes from the one law-text renderer
(``laws/render.py``), search highlights and diff marks are built here from escaped pieces, so
nothing in the text can inject markup.
"""

from __future__ import annotations

import difflib
import re
from collections import defaultdict
from dataclasses import dataclass, field
from functools import reduce
from operator import and_, or_

from django.contrib.auth.decorators import login_not_required
from django.core.exceptions import ObjectDoesNotExist
from django.db.models import Count, Q, QuerySet
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.html import escape, format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

from laws import keys
from laws.hooks import uses_of
from laws.import_views import may_import
from laws.models import Article, ArticleSummary, CrossReference, Edition, Footnote, Provision
from laws.render import LawHtml
from lib import htmx
from lib.text import SUMMARY_ANCHOR, law_anchor, law_link

SEARCH_LIMIT = 50
SNIPPET_BEFORE = 80
SNIPPET_LENGTH = 240


def _article_url(code: str, number: str, key: str = "") -> str:
    return law_link(reverse("laws:article", args=[code, number]), key)


def _summary(article: Article) -> ArticleSummary | None:
    """The article's summary without a query when it was select_related (None if absent)."""
    try:
        return article.summary
    except ObjectDoesNotExist:
        return None


# --------------------------------------------------------------------------------------------
# An article's text, rendered by laws/render.py


@dataclass
class _Node:
    provision: Provision
    label: str  # as printed, with the period the source puts after "A" and "1"
    level: int  # heading level: 2 for the outermost provisions
    heading: SafeString
    text: SafeString
    closing: SafeString
    # Our words from the provision index, shown where the provision has no official text.
    our_title: str = ""
    our_summary: str = ""
    footnotes: list[Footnote] = field(default_factory=list)
    referred_by: list[CrossReference] = field(default_factory=list)
    children: list[_Node] = field(default_factory=list)


def _link_targets(article: Article, references: list[CrossReference]) -> dict[str, str]:
    """Canonical key -> URL for every resolved reference in the article."""
    links = {}
    for ref in references:
        if ref.target_article is None:
            continue
        target_key = ref.target_provision.key if ref.target_provision else ""
        if ref.target_article.pk == article.pk:
            links[ref.target_key] = f"#{law_anchor(target_key, article.number)}"
        else:
            links[ref.target_key] = _article_url(
                article.edition.code, ref.target_article.number, target_key
            )
    return links


@login_not_required
def editions(request: HttpRequest) -> HttpResponse:
    all_editions = Edition.objects.annotate(article_count=Count("articles")).order_by("code")
    return render(request, "laws/editions.html", {"editions": all_editions})


@login_not_required
def edition(request: HttpRequest, code: str) -> HttpResponse:
    current = get_object_or_404(Edition, code=code)
    official = Q(provisions__heading__gt="") | Q(provisions__text__gt="")
    articles = (
        current.articles.select_related("summary")
        .annotate(
            provision_count=Count("provisions"),
            official_count=Count(
                "provisions", filter=official | Q(provisions__closing_text__gt="")
            ),
        )
        .order_by("order")
    )
    context = {
        "edition": current,
        "articles": articles,
        "imports": current.imports.select_related("user")[:20],
        "may_import": may_import(request.user),
    }
    return render(request, "laws/edition.html", context)


@login_not_required
def article(request: HttpRequest, code: str, number: str) -> HttpResponse:
    item = get_object_or_404(
        Article.objects.select_related("edition", "summary"), edition__code=code, number=number
    )
    references = list(item.references.select_related("target_article", "target_provision"))
    links = _link_targets(item, references)
    footnotes = list(item.footnotes.select_related("provision"))
    referred_by = list(
        CrossReference.objects.filter(target_article=item)
        .select_related("article", "provision")
        .order_by("article__order", "order")
    )
    law_html = LawHtml(links.get)
    provisions = list(item.provisions.all())
    nodes = _provision_tree(provisions, law_html, footnotes, referred_by)
    numbers = list(item.edition.articles.order_by("order").values_list("number", flat=True))
    position = numbers.index(item.number)
    other_editions = (
        Article.objects.filter(number=item.number)
        .exclude(pk=item.pk)
        .select_related("edition")
        .order_by("edition__code")
    )
    context = {
        "edition": item.edition,
        "article": item,
        "summary": _summary(item),
        "title": law_html.inline(item.shown_title),
        "text": law_html.paragraphs(item.text),
        "closing": law_html.paragraphs(item.closing_text),
        "nodes": nodes,
        "footnotes": [(footnote, law_html.inline(footnote.text)) for footnote in footnotes],
        "article_footnotes": [f for f in footnotes if f.provision_id is None],
        "referred_by": referred_by,
        "other_editions": other_editions,
        "previous": numbers[position - 1] if position > 0 else None,
        "next": numbers[position + 1] if position + 1 < len(numbers) else None,
        "has_text": bool(item.text or item.closing_text or any(p.has_text for p in provisions)),
        "used_by": uses_of(item),
    }
    return render(request, "laws/article.html", context)


def _provision_tree(
    provisions: list[Provision],
    law_html: LawHtml,
    footnotes: list[Footnote],
    referred_by: list[CrossReference],
) -> list[_Node]:
    footnotes_of: dict[int, list[Footnote]] = defaultdict(list)
    for footnote in footnotes:
        if footnote.provision_id:
            footnotes_of[footnote.provision_id].append(footnote)
    referred_to: dict[int, list[CrossReference]] = defaultdict(list)
    for ref in referred_by:
        if ref.target_provision_id:
            referred_to[ref.target_provision_id].append(ref)
    depth: dict[int, int] = {}
    for p in provisions:  # stored depth first: a parent comes before its children
        depth[p.pk] = depth[p.parent_id] + 1 if p.parent_id else 2
    nodes = {
        p.pk: _Node(
            provision=p,
            label=p.label if p.label.endswith(")") else f"{p.label}.",
            level=min(depth[p.pk], 6),
            heading=law_html.inline(p.heading),
            text=law_html.paragraphs(p.text),
            closing=law_html.paragraphs(p.closing_text),
            our_title="" if p.has_text else p.our_title,
            our_summary="" if p.has_text else p.our_summary,
            footnotes=footnotes_of[p.pk],
            referred_by=referred_to[p.pk],
        )
        for p in provisions
    }
    roots = []
    for provision in provisions:  # stored depth first, so children arrive in order
        node = nodes[provision.pk]
        if provision.parent_id:
            nodes[provision.parent_id].children.append(node)
        else:
            roots.append(node)
    return roots


# --------------------------------------------------------------------------------------------
# Comparison


def _plain_text(article: Article) -> str:
    """The article as lines of plain text: title, text, then each provision with official
    text with its key (our own words are not compared)."""
    lines = [article.title, article.text]
    for provision in article.provisions.all():
        if not provision.has_text:
            continue
        lines.append(" ".join(filter(None, [provision.key, provision.heading])))
        lines += [provision.text, provision.closing_text]
    lines.append(article.closing_text)
    return "\n".join(line for line in lines if line)


def _word_diff(old: str, new: str) -> tuple[SafeString, SafeString]:
    """Both texts as HTML with the words that differ marked: deleted left, inserted right."""
    old_words, new_words = re.findall(r"\n|[^\s]+", old), re.findall(r"\n|[^\s]+", new)

    def html(words: list[str], tag: str | None) -> str:
        text = " ".join(escape(w) for w in words).replace(" \n ", "<br>").replace("\n", "<br>")
        colour = {"del": "bg-danger-subtle", "ins": "bg-success-subtle"}.get(tag or "")
        return f'<{tag} class="diff-{tag} {colour}">{text}</{tag}>' if tag and text else text

    left, right = [], []
    matcher = difflib.SequenceMatcher(None, old_words, new_words, autojunk=False)
    for operation, a1, a2, b1, b2 in matcher.get_opcodes():
        same = operation == "equal"
        left.append(html(old_words[a1:a2], None if same else "del"))
        right.append(html(new_words[b1:b2], None if same else "ins"))
    # Each piece was escaped word by word in html() before the tags were added.
    return mark_safe(" ".join(p for p in left if p)), mark_safe(" ".join(p for p in right if p))


@login_not_required
def compare_index(request: HttpRequest) -> HttpResponse:
    number = request.GET.get("artikel", "").strip()
    if number and "/" not in number:  # a slash cannot be in the URL of an article
        return redirect("laws:compare", number=number)
    shared = (
        Article.objects.values("number")
        .annotate(editions=Count("edition"))
        .filter(editions__gte=2)
        .order_by("number")
    )
    numbers = sorted((row["number"] for row in shared), key=lambda n: (len(n), n))
    return render(request, "laws/compare_index.html", {"numbers": numbers})


def _has_text(article: Article) -> bool:
    """Whether the article holds official text (a provision index alone is our words)."""
    return bool(
        article.text or article.closing_text or any(p.has_text for p in article.provisions.all())
    )


def _plain_html(text: str) -> SafeString:
    return mark_safe("<br>".join(escape(line) for line in text.split("\n")))  # escaped


@login_not_required
def compare(request: HttpRequest, number: str) -> HttpResponse:
    versions = list(
        Article.objects.filter(number=number)
        .select_related("edition", "summary")
        .prefetch_related("provisions")
        .order_by("edition__code")
    )
    if not versions:
        return render(request, "laws/compare.html", {"number": number}, status=404)
    by_code = {version.edition.code: version for version in versions}
    codes = list(by_code)
    # By default the two latest editions that have official text of this article.
    with_text = [v.edition.code for v in versions if _has_text(v)]
    defaults = with_text[-2:] if len(with_text) > 1 else [codes[0], codes[-1]]
    asked_a, asked_b = request.GET.get("a", ""), request.GET.get("b", "")
    code_a = asked_a if asked_a in by_code else defaults[0]
    code_b = asked_b if asked_b in by_code else defaults[1]
    a, b = by_code[code_a], by_code[code_b]
    text_a, text_b = _plain_text(a), _plain_text(b)
    comparable = _has_text(a) and _has_text(b)
    if comparable:
        left, right = _word_diff(text_a, text_b)
    else:
        # A title-only edition has nothing to set against the other's text: no marks.
        left, right = _plain_html(text_a), _plain_html(text_b)
    context = {
        "number": number,
        "versions": versions,
        "codes": codes,
        "sides": [
            {"article": a, "html": left, "has_text": _has_text(a), "summary": _summary(a)},
            {"article": b, "html": right, "has_text": _has_text(b), "summary": _summary(b)},
        ],
        "a": a,
        "b": b,
        "comparable": comparable,
        "identical": comparable and text_a == text_b,
    }
    return render(request, "laws/compare.html", context)


# --------------------------------------------------------------------------------------------
# Search


@dataclass
class Hit:
    edition: str
    number: str
    title: str
    label: str
    url: str
    snippet: SafeString
    kind: str  # "text", "summary" or "footnote"
    order: tuple[int, int] = (0, 0)


def _words(query: str) -> list[str]:
    return [w for w in query.split() if w][:8]


def _matching(words: list[str], fields: list[str]) -> Q:
    """Every word in at least one of the fields (AND over words, OR over fields)."""
    return reduce(
        and_, (reduce(or_, (Q(**{f"{name}__icontains": w}) for name in fields)) for w in words)
    )


def highlight(text: str, words: list[str]) -> SafeString:
    """A snippet of ``text`` around the first hit, escaped first and then marked."""
    pattern = re.compile("|".join(re.escape(w) for w in sorted(words, key=len, reverse=True)), re.I)
    first = pattern.search(text)
    start = 0
    if first and first.start() > SNIPPET_BEFORE:
        # Begin at a whole word shortly before the first hit.
        space = text.find(" ", first.start() - SNIPPET_BEFORE, first.start())
        start = space + 1 if space != -1 else first.start()
    end = start + SNIPPET_LENGTH
    if end < len(text):
        space = text.rfind(" ", start, end)
        if space > (first.end() if first else start):
            end = space
    snippet = " ".join(text[start:end].split())  # paragraph breaks read as spaces here
    pieces = pattern.split(snippet)
    marks = pattern.findall(snippet)
    html = [escape(pieces[0])]
    for mark, piece in zip(marks, pieces[1:], strict=True):
        html.append(format_html("<mark>{}</mark>", mark))
        html.append(escape(piece))
    prefix = "… " if start else ""
    suffix = " …" if end < len(text) else ""
    return mark_safe(prefix + "".join(html) + suffix)  # escaped above


def _search(query: str, code: str) -> tuple[list[Hit], list[Hit]]:
    """(direct hits on a key such as ``62B2``, full-text hits), in edition and text order."""
    words = _words(query)
    in_edition: dict[str, str] = {"edition__code": code} if code else {}
    in_article_edition = {"article__edition__code": code} if code else {}
    hits: list[Hit] = []

    provisions: QuerySet[Provision] = Provision.objects.filter(
        _matching(words, ["heading", "text", "closing_text"]), **in_article_edition
    ).select_related("article__edition")
    for p in provisions[:SEARCH_LIMIT]:
        body = " ".join(filter(None, [p.heading, p.text, p.closing_text]))
        hits.append(_hit(p.article, p.key, p.key, highlight(body, words), "text", p.order))
    articles = Article.objects.filter(
        _matching(words, ["title", "text", "closing_text"]), **in_edition
    ).select_related("edition")
    for a in articles[:SEARCH_LIMIT]:
        body = " ".join(filter(None, [a.title, a.text, a.closing_text]))
        hits.append(_hit(a, "", "", highlight(body, words), "text", -1))
    summaries = ArticleSummary.objects.filter(
        _matching(words, ["text_nl", "text_en"]), **in_article_edition
    ).select_related("article__edition")
    for s in summaries[:SEARCH_LIMIT]:
        # Show the language being read when it matches, else the one that does.
        body = next((t for t in (s.text, s.text_nl, s.text_en) if _contains(t, words)), s.text)
        hits.append(
            _hit(
                s.article, SUMMARY_ANCHOR, _("Samenvatting"), highlight(body, words), "summary", -2
            )
        )
    footnotes = Footnote.objects.filter(
        _matching(words, ["text"]), **in_article_edition
    ).select_related("article__edition")
    for f in footnotes[:SEARCH_LIMIT]:
        label = _("Voetnoot")
        hits.append(
            _hit(f.article, "voetnoten", label, highlight(f.text, words), "footnote", 10**6)
        )
    hits.sort(key=lambda hit: (hit.edition, hit.order))

    direct: list[Hit] = []
    parsed = keys.try_parse(query)
    if parsed:
        key = str(parsed)
        for p in Provision.objects.filter(key=key, **in_article_edition).select_related(
            "article__edition"
        ):
            direct.append(_hit(p.article, p.key, p.key, _inline_heading(p), "text", p.order))
        if parsed.is_article:
            for a in Article.objects.filter(number=key, **in_edition).select_related("edition"):
                direct.append(_hit(a, "", "", escape(a.title), "text", -1))
        direct.sort(key=lambda hit: hit.edition)
    return direct, hits


def _contains(text: str, words: list[str]) -> bool:
    lowered = text.lower()
    return any(w.lower() in lowered for w in words)


def _inline_heading(provision: Provision) -> SafeString:
    """The official heading or text, else (a provision index only) our own title."""
    return escape(provision.heading or provision.text[:SNIPPET_LENGTH] or provision.our_title)


def _hit(
    article: Article, anchor: str, label: str, snippet: SafeString, kind: str, order: int
) -> Hit:
    return Hit(
        edition=article.edition.code,
        number=article.number,
        title=article.title,
        label=label,
        url=_article_url(article.edition.code, article.number, anchor),
        snippet=snippet,
        kind=kind,
        order=(article.order, order),
    )


@login_not_required
def search(request: HttpRequest) -> HttpResponse:
    query = request.GET.get("q", "").strip()[:100]
    code = request.GET.get("editie", "").strip()
    all_editions = list(Edition.objects.order_by("code"))
    if code not in {e.code for e in all_editions}:
        code = ""
    direct, hits = _search(query, code) if len(query) >= 2 else ([], [])
    context = {
        "query": query,
        "code": code,
        "editions": all_editions,
        "direct": direct,
        "hits": hits,
        "searched": len(query) >= 2,
        "limit": SEARCH_LIMIT,
    }
    return htmx.render(request, "laws/search.html", context, partial="results")
