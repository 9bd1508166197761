"""No developer text reaches a director: the tree's author notes and repository files stay out
of every wizard page (they are for authors, on the tree's own page under "Voor auteurs")."""

import re
import uuid

from django.urls import reverse

from rulings import wizard
from trees.loading import TREES_DIR
from trees.parse import load_tree_file
from trees.validate import paths

REPOSITORY = re.compile(r"\.ya?ml\b|\.py\b|github\.com|trees/files|/blob/", re.I)


def note_lines(slug: str) -> list[str]:
    """Distinctive lines of the tree's notes (long enough not to occur by chance)."""
    notes = load_tree_file(TREES_DIR / f"{slug}.yaml").notes
    return [line.strip(" -") for line in notes.splitlines() if len(line.strip(" -")) > 50]


def test_wizard_pages_show_no_author_notes_and_no_repository_links(
    shipped, club_a, director_a, client_director_a
):
    for slug in ("strafkaart", "voor-de-beurt-uitkomen", "strafkaart-1963"):
        lines = note_lines(slug)
        assert lines, slug
        frozen = wizard.start(slug)
        spec = load_tree_file(TREES_DIR / f"{slug}.yaml")
        path = max(paths(spec), key=lambda p: len(p.steps))
        (first_node, first_choice), *rest = path.steps
        ruling = wizard.begin(
            uuid=uuid.uuid4(),
            club=club_a,
            director=director_a,
            tree=frozen,
            node_key=first_node,
            choice_key=first_choice,
        ).ruling
        pages = [client_director_a.get(reverse("wizard:tree", args=[slug]), follow=True)]
        for number, (node, choice) in enumerate(rest, start=2):
            pages.append(client_director_a.get(reverse("wizard:step", args=[ruling.uuid, number])))
            wizard.answer(ruling, node, number, choice, director_a, revision=ruling.revision)
        pages.append(client_director_a.get(reverse("wizard:ruling", args=[ruling.uuid])))
        assert ruling.outcome_key == path.outcome
        for page in pages:
            assert page.status_code == 200, (slug, page.status_code)
            html = page.content.decode()
            assert "Voor auteurs" not in html
            assert "(?)" not in html
            for line in lines:
                assert line not in html, (slug, line)
            hrefs = re.findall(r'href="([^"]*)"', html)
            assert not [h for h in hrefs if REPOSITORY.search(h)], (slug, hrefs)
