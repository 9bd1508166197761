"""The trees of the auction-and-board and play issues, each as its pages show it: drawn with
every node on its page and in explore, and practised along a shipped case's model path to a
right grade. In Chromium: tests/trees/test_new_trees_browser.py."""

from __future__ import annotations

import pytest

from rulings import wizard
from tests.trees.test_new_trees_browser import NEW_TREES
from training.grading import grade
from training.models import TrainingCase
from training.practice import begin_practice
from trees.loading import TREES_DIR
from trees.parse import load_tree_file


@pytest.fixture
def loaded(db):
    """The shipped data is in every test database (tests/conftest.py)."""


@pytest.mark.parametrize("slug", NEW_TREES)
def test_a_new_tree_is_drawn_explored_and_practised(slug, loaded, client_director_a, director_a):
    spec = load_tree_file(TREES_DIR / f"{slug}.yaml")
    page = client_director_a.get(f"/beslisbomen/{slug}/").content.decode()
    assert page.count('class="node ') == len(spec.nodes)
    explore = client_director_a.get(f"/oefenen/verkennen/{slug}/")
    assert explore.status_code == 200
    assert 'class="tree-diagram' in explore.content.decode()

    practice = TrainingCase.objects.filter(tree_slug=slug, club=None).order_by("slug").first()
    assert practice is not None, f"no training case for {slug}"
    assert client_director_a.get(f"/oefenen/casussen/{practice.pk}/").status_code == 200
    (start, first), *rest = practice.expected_path
    ruling = begin_practice(director_a, practice, None, start, first).ruling
    for number, (node, choice) in enumerate(rest, start=2):
        wizard.answer(ruling, node, number, choice, director_a)
    assert grade(ruling).correct
