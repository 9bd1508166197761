"""Decision tree pages (public): the list of trees and a tree as outline and diagram."""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import groupby

from django.contrib.auth.decorators import login_not_required
from django.db.models import Prefetch, Q
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _

from lib import htmx
from lib.i18n import active_language
from lib.text import law_anchor, law_link, prose
from trees.diagram import render_svg
from trees.loading import spec_from_rows
from trees.models import Choice, Citation, Node, Phase, Tree
from trees.print_layout import print_chart
from trees.print_svg import render_pages

SEARCH_FIELDS = ["slug", "title_nl", "title_en", "description_nl", "description_en"]


@dataclass
class EditionGroup:
    code: str
    trees: list[Tree] = field(default_factory=list)


@dataclass
class PhaseGroup:
    phase: str
    label: str
    editions: list[EditionGroup] = field(default_factory=list)


def _grouped(trees: list[Tree]) -> list[PhaseGroup]:
    """Trees by phase (auction first), then by edition (newest first)."""
    labels = dict(Phase.choices)
    phase_order = [value for value, _label in Phase.choices]
    ordered = sorted(trees, key=lambda t: t.title.lower())
    ordered.sort(key=lambda t: t.edition.code, reverse=True)
    ordered.sort(key=lambda t: phase_order.index(t.phase) if t.phase in phase_order else 99)
    groups = []
    for phase, in_phase in groupby(ordered, key=lambda t: t.phase):
        group = PhaseGroup(phase=phase, label=str(labels.get(phase, phase)))
        for code, in_edition in groupby(in_phase, key=lambda t: t.edition.code):
            group.editions.append(EditionGroup(code=code, trees=list(in_edition)))
        groups.append(group)
    return groups


@login_not_required
def tree_list(request: HttpRequest) -> HttpResponse:
    query = request.GET.get("q", "").strip()[:100]
    trees = Tree.objects.select_related("edition")
    if query:
        condition = Q()
        for word in query.split():
            word_matches = Q()
            for name in SEARCH_FIELDS:
                word_matches |= Q(**{f"{name}__icontains": word})
            word_matches |= Q(edition__code=word)
            condition &= word_matches
        trees = trees.filter(condition)
    found = list(trees)
    context = {"query": query, "groups": _grouped(found), "count": len(found)}
    return htmx.render(request, "trees/list.html", context, partial="results")


@dataclass
class CitationLink:
    key: str
    url: str
    title: str


def _citation_link(citation: Citation, code: str) -> CitationLink:
    if citation.article is None:
        return CitationLink(citation.key, "", _("niet gevonden in deze editie"))
    url = reverse("laws:article", args=[code, citation.article.number])
    # A provision's own place on the article page (official text, or our title and summary
    # where the provision index has no official text yet), else the top of the article.
    key = citation.provision.key if citation.provision is not None else citation.key
    return CitationLink(citation.key, law_link(url, law_anchor(key, citation.article.number)), "")


def _tree_with_nodes(slug: str) -> Tree:
    """The tree with its nodes, choices and citations in file order (a fixed number of
    queries)."""
    return get_object_or_404(
        Tree.objects.select_related("edition").prefetch_related(
            Prefetch("nodes", queryset=Node.objects.order_by("order")),
            Prefetch(
                "nodes__choices",
                queryset=Choice.objects.select_related("target").order_by("order"),
            ),
            Prefetch(
                "nodes__citations",
                queryset=Citation.objects.select_related("article", "provision").order_by("order"),
            ),
        ),
        slug=slug,
    )


def _diagram(tree: Tree, highlight: str = "", page: str = "") -> str:
    """The tree's flowchart as SVG markup, named by its title and edition; its boxes link to
    their entries in the outline, on ``page`` (the tree page itself when empty)."""
    spec = spec_from_rows(tree)
    questions = sum(1 for node in spec.nodes if node.kind == "question")
    counts = {"questions": questions, "outcomes": len(spec.nodes) - questions}
    if page:
        description = (
            _("Stroomschema met %(questions)d vragen en %(outcomes)d uitkomsten.") % counts
            + " "
            + _("De uitgeschreven boom staat op de pagina van de beslisboom.")
        )
    else:
        description = (
            _(
                "Stroomschema met %(questions)d vragen en %(outcomes)d uitkomsten. De "
                "uitgeschreven boom op deze pagina is het tekstalternatief."
            )
            % counts
        )
    title = _("Stroomschema: %(title)s (%(edition)s)") % {
        "title": tree.title,
        "edition": tree.edition.code,
    }
    return render_svg(
        spec,
        language=active_language(),
        highlight=highlight or None,
        href=lambda key: f"{page}#node-{key}",
        title=title,
        description=description,
    )


@login_not_required
def tree_detail(request: HttpRequest, slug: str) -> HttpResponse:
    tree = _tree_with_nodes(slug)
    nodes = list(tree.nodes.all())
    keys = {node.key for node in nodes}
    highlight = request.GET.get("node", "")
    if highlight not in keys:
        highlight = ""
    code = tree.edition.code
    see_trees = {
        t.slug: t
        for t in Tree.objects.filter(slug__in={n.see_tree for n in nodes if n.see_tree}).only(
            "slug", "title_nl", "title_en"
        )
    }
    entries = [
        {
            "node": node,
            "citations": [_citation_link(c, code) for c in node.citations.all()],
            "choices": list(node.choices.all()),
            "see_tree": see_trees.get(node.see_tree),
            "ruling": prose(node.ruling) if node.is_outcome else "",
        }
        for node in nodes
    ]
    context = {
        "tree": tree,
        "entries": entries,
        "highlight": highlight,
        "diagram": mark_safe(_diagram(tree, highlight)),  # escaped pieces, see trees.diagram
        "start_key": tree.start_key,
    }
    return render(request, "trees/detail.html", context)


@login_not_required
def tree_print(request: HttpRequest, slug: str) -> HttpResponse:
    """The flowchart alone on one A4 landscape page, with title, edition and a legend: for
    the director's bag."""
    tree = _tree_with_nodes(slug)
    spec = spec_from_rows(tree)
    language = active_language()
    chart = print_chart(spec, language)
    page = reverse("trees:detail", args=[slug])
    pages = render_pages(
        spec,
        chart,
        href=lambda key: f"{page}#node-{key}",
        title=_("Stroomschema: %(title)s (%(edition)s)")
        % {"title": tree.title, "edition": tree.edition.code},
        description=_("De uitgeschreven boom staat op de pagina van de beslisboom."),
        language=language,
    )
    context = {
        "tree": tree,
        "pages": [mark_safe(svg) for svg in pages],  # escaped pieces, see trees.print_svg
        "questions": sum(1 for node in tree.nodes.all() if node.kind == "question"),
        "outcomes": sum(1 for node in tree.nodes.all() if node.kind == "outcome"),
    }
    return render(request, "trees/print.html", context)
