"""What the law text asks of the trees, through ``laws/hooks.py`` (registered in
``trees/apps.py``): the trees citing an article, the keys they cite, and relinking citations
after an import."""

from __future__ import annotations

from typing import Any

from django.urls import reverse

from laws import hooks
from laws.models import Article, Edition
from trees.loading import resolve_citations, trees_citing
from trees.models import Citation


def tree_uses(article: Article) -> list[hooks.Use]:
    """The trees citing ``article`` as the article page lists them."""
    return [
        {
            "title": use["tree"].title,
            "url": reverse("trees:detail", args=[use["tree"].slug]),
            "keys": use["keys"],
        }
        for use in trees_citing(article)
    ]


def cited_keys(code: str) -> set[str]:
    """Every key the loaded trees of edition ``code`` cite."""
    return set(
        Citation.objects.filter(node__tree__edition__code=code).values_list("key", flat=True)
    )


def relink_citations(sender: object, edition: Edition, **kwargs: Any) -> int:
    """After an import of ``edition``: point the tree citations at its new rows."""
    return resolve_citations(edition)
