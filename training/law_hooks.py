"""What the law text asks of the training cases, through ``laws/hooks.py`` (registered in
``training/apps.py``): the keys the cases of an edition's trees cite, which an import's dry run
checks for official text."""

from __future__ import annotations

from training.models import TrainingCase
from trees.models import Tree


def cited_keys(code: str) -> set[str]:
    """Every key cited by a training case (shipped or a club's) on a tree of edition ``code``."""
    slugs = Tree.objects.filter(edition__code=code).values_list("slug", flat=True)
    found: set[str] = set()
    for cites in TrainingCase.objects.filter(tree_slug__in=slugs).values_list("cites", flat=True):
        found.update(key for key in cites or [] if isinstance(key, str))
    return found
