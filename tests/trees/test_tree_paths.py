"""Every start-to-outcome path of the five trees of this module, pinned.

The paths are generated from the tree files; the table below is written out (produced once,
then reviewed), so any change to a tree that adds, removes or re-routes a path, or changes an
outcome's citations, fails here and must be reviewed in the same commit.
Each row: the choice keys answered from the start node (space-separated), the outcome key, and
the outcome's citations in file order. (H3's trees are pinned in ``test_tree_paths_h3.py``.)
"""

from __future__ import annotations

from pathlib import Path

import pytest

from trees.parse import load_tree_file
from trees.validate import paths, validate, walk

TREES_DIR = Path(__file__).resolve().parents[2] / "trees" / "files"

EXPECTED: dict[str, list[tuple[str, str, str]]] = {
    "strafkaart": [
        ("kaart-getoond bieding ja loopt-nog ja", "bieding-laag", "24 24A 24D 24E 16C"),
        ("kaart-getoond bieding ja loopt-nog nee", "bieding-pas", "24 24B 24C 72C 16C"),
        ("kaart-getoond bieding ja leider-blinde", "bieding-terug", "24D 48A 16C"),
        ("kaart-getoond bieding ja tegenspeler ja", "bieding-kleine", "24E 50B 50C 50E"),
        ("kaart-getoond bieding ja tegenspeler nee", "bieding-grote", "24E 50B 50D1 50D2 51B 50E"),
        ("kaart-getoond bieding nee", "geen-strafkaart", "49 24"),
        ("kaart-getoond spel leider-blinde", "leider-kaart", "48A 48B"),
        ("kaart-getoond spel tegenspeler anders ja ja", "grote-meerdere", "50B 50D1 51A 51B 50E"),
        (
            "kaart-getoond spel tegenspeler anders ja nee ja",
            "grote-strafkaart",
            "50A 50B 50D1 50D2 50E",
        ),
        (
            "kaart-getoond spel tegenspeler anders ja nee nee per-ongeluk",
            "kleine-strafkaart",
            "50A 50B 50C 50E",
        ),
        (
            "kaart-getoond spel tegenspeler anders ja nee nee bewust",
            "grote-strafkaart",
            "50A 50B 50D1 50D2 50E",
        ),
        ("kaart-getoond spel tegenspeler anders nee", "geen-strafkaart", "49 24"),
        (
            "kaart-getoond spel tegenspeler twee-tegelijk ja ja",
            "twee-kleine",
            "58B2 58B3 50B 50C 50E",
        ),
        (
            "kaart-getoond spel tegenspeler twee-tegelijk ja nee",
            "twee-grote",
            "58B2 58B3 50B 50D1 50D2 51A 51B 50E",
        ),
        ("kaart-getoond spel tegenspeler twee-tegelijk nee", "twee-een-zichtbaar", "58B1"),
        (
            "kaart-getoond spel tegenspeler voortijdig ja-beide-handen",
            "voortijdig-beide-handen",
            "57C1",
        ),
        ("kaart-getoond spel tegenspeler voortijdig ja-blinde", "voortijdig-blinde", "57C2 43"),
        (
            "kaart-getoond spel tegenspeler voortijdig nee hoogste",
            "voortijdig-hoogste",
            "57A 57B 59 50D1 50D2 50E",
        ),
        (
            "kaart-getoond spel tegenspeler voortijdig nee laagste",
            "voortijdig-laagste",
            "57A 57B 59 50D1 50D2 50E",
        ),
        (
            "kaart-getoond spel tegenspeler voortijdig nee kleur-eisen",
            "voortijdig-kleur-eisen",
            "57A 57B 59 50D1 50D2 50E",
        ),
        (
            "kaart-getoond spel tegenspeler voortijdig nee kleur-verbieden",
            "voortijdig-kleur-verbieden",
            "57A 57B 59 50D1 50D2 50E",
        ),
        (
            "kaart-getoond spel tegenspeler voor-rechtertegenstander ja",
            "rechts-gespeeld",
            "57D 16",
        ),
        (
            "kaart-getoond spel tegenspeler voor-rechtertegenstander nee",
            "rechts-strafkaart",
            "57D 50B 50D1 50D2 50E",
        ),
        ("kaart-getoond spel tegenspeler voor-de-beurt", "voor-de-beurt", "53 54 56"),
        ("kaart-getoond spel tegenspeler uitspraak ja", "uitspraak-lopende-slag", "68 49 16 57A"),
        (
            "kaart-getoond spel tegenspeler uitspraak concessie-bezwaar",
            "concessie-bezwaar",
            "68B2 16C",
        ),
        ("kaart-getoond spel tegenspeler uitspraak nee", "claim", "68"),
        ("partner-uitkomen een-kleine", "partner-vrij", "50C 50D1 50E"),
        ("partner-uitkomen een-grote eisen", "een-eisen", "50D2(a) 59 50D1 50E"),
        ("partner-uitkomen een-grote verbieden", "een-verbieden", "50D2(a) 50D1 50E"),
        ("partner-uitkomen een-grote niets", "een-niets", "50D2(b) 50D1 50E"),
        ("partner-uitkomen een-kleur eisen", "kleur-eisen", "51B1(a) 59 50D1 50E"),
        ("partner-uitkomen een-kleur verbieden", "kleur-verbieden", "51B1(b) 50D1 50E"),
        ("partner-uitkomen een-kleur niets", "kleur-niets", "50D2(b) 50D1 50E"),
        ("partner-uitkomen meer-kleuren eisen", "kleuren-eisen", "51B2(a) 51B1(a) 59 50D1 50E"),
        ("partner-uitkomen meer-kleuren verbieden", "kleuren-verbieden", "51B2(b) 50D1 50E"),
        ("partner-uitkomen meer-kleuren niets", "kleuren-niets", "51B2(c) 50D1 50E"),
        ("eigenaar-speelt een-kleine", "kleine-strafkaart", "50A 50B 50C 50E"),
        ("eigenaar-speelt groot ja ja", "leider-wijst-aan", "50D1 51A"),
        ("eigenaar-speelt groot ja nee", "strafkaart-spelen", "50D1"),
        ("eigenaar-speelt groot nee", "voorrang", "50D1"),
        ("andere-kaart ja ja", "moet-aanvaarden", "52A 52B1(b) 52B1(c) 61A 64B3 64C"),
        ("andere-kaart ja nee aanvaarden", "aanvaardt", "52A 52B1(a) 52B1(c) 61A 64B3 64C"),
        ("andere-kaart ja nee strafkaart", "strafkaart-geeist", "52A 52B2 16C"),
        ("andere-kaart nee", "geen-overtreding", "50C 50D1"),
    ],
    "verzaking": [
        ("ja ja tijdens-spel", "voldongen-doorspelen", "63A 63B 64"),
        ("ja ja na-spel geen ja ja", "twee-slagen", "63A 63B 64A1 64C"),
        ("ja ja na-spel geen ja nee", "een-slag-verzaakslag", "63A 63B 64A1 64C"),
        ("ja ja na-spel geen nee ja", "een-slag", "63A 63B 64A2 64C"),
        ("ja ja na-spel geen nee nee", "geen-slag", "63A 64B1 64C"),
        ("ja ja na-spel open-kaart", "open-kaart-verzaking", "63A 63B 64B3 64C"),
        ("ja ja na-spel tweede", "tweede-verzaking", "63A 63B 64A1 64A2 64B1 64B2 64C"),
        ("ja ja na-spel beide-partijen", "beide-voldongen", "63A 63B 64B7 64C"),
        ("ja ja na-spel twaalfde", "twaalfde-te-laat", "62D1 63B 64B6 64C"),
        ("ja ja twaalfde", "twaalfde-herstel", "62D1 62D2 62B 62C 64B6 64C 16C"),
        ("ja ja te-laat", "te-laat", "63A 64B4 64B5 64C"),
        ("ja nee tegenspeler ja", "herstel-strafkaart-later", "62A 62B1 62C1 62C2 50D 50E 16C"),
        ("ja nee tegenspeler nee", "herstel-strafkaart", "62A 62B1 50D 50E 16C"),
        ("ja nee open ja", "herstel-vrij-later", "62A 62B2 62C1 62C2 16C"),
        ("ja nee open nee", "herstel-vrij", "62A 62B2 43B2(b) 16C"),
        ("ja beide ja", "beide-voldongen", "63A 63B 64B7 64C"),
        ("ja beide nee", "beide-herstellen", "62C3 50B 50D2 50E 16C 64B8 64C"),
        ("nee", "geen-verzaking", "61A 61B"),
        ("strafkaart", "zie-strafkaart", "52 61A 64B3 64C"),
        ("onduidelijk", "later-vaststellen", "66C 63A1 62A"),
    ],
    "strafkaart-1963": [
        ("getoond tegenspeler ja", "strafkaart", "50 51"),
        ("getoond tegenspeler nee", "geen-strafkaart", "50"),
        ("getoond leider-blinde", "kaart-leider", "50"),
        ("partner-aan-slag een", "keuze-een", "50"),
        ("partner-aan-slag een-kleur", "keuze-een-kleur", "50 51"),
        ("partner-aan-slag meer-kleuren", "keuze-meer-kleuren", "50 51"),
        ("eigenaar-speelt ja ja", "leider-wijst-aan", "50"),
        ("eigenaar-speelt ja nee", "strafkaart-spelen", "50"),
        ("eigenaar-speelt nee", "voorrang", "50"),
        ("andere-kaart ja ja", "moet-aanvaarden", "52 52(a)"),
        ("andere-kaart ja nee", "leider-kiest", "52 52(a) 52(b)"),
        ("andere-kaart nee", "geen-verzuim", "50"),
    ],
    "teruggenomen-kaart-1987": [
        ("straf", "straf", "47A"),
        ("onreglementair", "onreglementair", "47B"),
        ("aanduiding", "aanduiding", "47C 47F"),
        ("tegenstander", "tegenstander", "47D 47F"),
        ("verkeerde-informatie beurt", "voor-de-beurt", "47E1 47F"),
        ("verkeerde-informatie uitleg ja", "uitleg-te-laat", "47E2(b) 47G"),
        ("verkeerde-informatie uitleg nee", "uitleg-terugnemen", "47E2(a) 47F"),
        ("anders", "niet-terugnemen", "47G"),
    ],
    "verzaking-2007": [
        ("ja ja tijdens-spel", "voldongen-doorspelen", "63A1"),
        ("ja ja na-spel geen ja ja", "twee-slagen", "63A1"),
        ("ja ja na-spel geen ja nee", "een-slag-verzaakslag", "63A1"),
        ("ja ja na-spel geen nee ja", "een-slag", "63A1"),
        ("ja ja na-spel geen nee nee", "geen-slag", "63A1"),
        ("ja ja na-spel open-kaart", "open-kaart-verzaking", "63A1"),
        ("ja ja na-spel tweede", "tweede-verzaking", "63A1"),
        ("ja ja na-spel beide-partijen", "beide-verzaakt", "63A1"),
        ("ja ja na-spel twaalfde", "twaalfde-te-laat", "62D1"),
        ("ja ja twaalfde ja", "twaalfde-herstel-beperking", "62D1 62D2 62C1 62C2"),
        ("ja ja twaalfde nee", "twaalfde-herstel", "62D1 62C1 62C2"),
        ("ja ja te-laat", "te-laat", "63A1"),
        ("ja nee tegenspeler ja", "herstel-strafkaart-later", "63A1 62C1 62C2"),
        ("ja nee tegenspeler nee", "herstel-strafkaart", "63A1 62B2"),
        ("ja nee open ja", "herstel-vrij-later", "62B2 62C1 62C2"),
        ("ja nee open nee", "herstel-vrij", "62B2 63A1"),
        ("nee", "niet-vastgesteld", "62 63A1"),
    ],
}


def load(slug: str):
    return load_tree_file(TREES_DIR / f"{slug}.yaml")


@pytest.mark.parametrize("slug", sorted(EXPECTED))
def test_tree_is_valid(slug):
    tree = load(slug)
    assert tree.slug == slug
    assert validate(tree) == []


@pytest.mark.parametrize("slug", sorted(EXPECTED))
def test_every_path_is_pinned(slug):
    """The generated paths, in order, are exactly the table: outcome and citations per path."""
    tree = load(slug)
    generated = [
        (" ".join(path.answers), path.outcome, " ".join(tree.node(path.outcome).cites))
        for path in paths(tree)
    ]
    assert generated == EXPECTED[slug]


@pytest.mark.parametrize("slug", sorted(EXPECTED))
def test_walking_each_pinned_path_reaches_its_outcome(slug):
    tree = load(slug)
    for answers, outcome, cites in EXPECTED[slug]:
        node = walk(tree, answers.split())
        assert (node.key, node.kind, " ".join(node.cites)) == (outcome, "outcome", cites)


@pytest.mark.parametrize("slug", sorted(EXPECTED))
def test_every_outcome_is_reached_by_a_pinned_path(slug):
    tree = load(slug)
    reached = {outcome for _answers, outcome, _cites in EXPECTED[slug]}
    assert reached == {node.key for node in tree.outcomes}


def test_path_counts():
    assert {slug: len(rows) for slug, rows in EXPECTED.items()} == {
        "strafkaart": 45,
        "verzaking": 20,
        "strafkaart-1963": 12,
        "teruggenomen-kaart-1987": 8,
        "verzaking-2007": 17,
    }
