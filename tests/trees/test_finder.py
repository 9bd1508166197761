"""Finding a tree by the words directors use (trees/finder.py), and the start page's answer
when the edition in use has no tree for them."""

import functools
from dataclasses import dataclass
from pathlib import Path

import pytest

from trees import finder
from trees.parse import load_tree_file

FILES = Path(__file__).resolve().parents[2] / "trees" / "files"


@dataclass
class Row:
    """What the finder reads of a Tree row, built from a tree file."""

    slug: str
    title_nl: str
    title_en: str
    description_nl: str
    description_en: str
    finder_nl: str
    finder_en: str


@functools.cache
def shipped_2017() -> tuple[Row, ...]:
    # Read once per process: about forty tests rank these rows and none changes them.
    rows = []
    for path in sorted(FILES.glob("*.yaml")):
        if path.name.endswith(".cases.yaml"):
            continue
        spec = load_tree_file(path)
        if spec.edition == "2017":
            rows.append(
                Row(
                    spec.slug,
                    spec.title.nl,
                    spec.title.en,
                    spec.description.nl,
                    spec.description.en,
                    "\n".join(spec.finder.nl),
                    "\n".join(spec.finder.en),
                )
            )
    return tuple(rows)


@pytest.mark.parametrize(
    ("typed", "first"),
    [
        ("uitkomen voor de beurt", "voor-de-beurt-uitkomen"),
        ("voor zijn beurt geboden", "bod-voor-de-beurt"),
        ("pas voor de beurt", "bod-voor-de-beurt"),
        ("call out of rotation", "bod-voor-de-beurt"),
        ("verkeerde biedkaart", "bod-gewijzigd"),
        ("change of call", "bod-gewijzigd"),
        ("kaart teveel", "spellen-en-handen"),
        ("verkeerd spel", "spellen-en-handen"),
        ("fouled board", "spellen-en-handen"),
        ("verzaakt", "verzaking"),
        ("VERZAAKT", "verzaking"),
        ("renonce", "verzaking"),
        ("kaart gevallen", "strafkaart"),
        ("verkeerde hand", "voor-de-beurt-uitkomen"),
        ("te laag", "onvoldoende-bod"),
        ("revoke", "verzaking"),
        ("penalty card", "strafkaart"),
        ("verzak", "verzaking"),
        ("denkpauze", "ongeoorloofde-informatie"),
        ("aarzeling", "ongeoorloofde-informatie"),
        ("tempo", "ongeoorloofde-informatie"),
        ("break in tempo", "ongeoorloofde-informatie"),
        ("hesitation", "ongeoorloofde-informatie"),
        ("ongeoorloofde informatie", "ongeoorloofde-informatie"),
        ("verkeerde uitleg", "verkeerde-uitleg"),
        ("alert", "verkeerde-uitleg"),
        ("niet gealerteerd", "verkeerde-uitleg"),
        ("misverstand", "verkeerde-uitleg"),
        ("misinformation", "verkeerde-uitleg"),
        ("claim", "claim"),
        ("concessie", "claim"),
        ("rest van de slagen", "claim"),
        ("voortijdig", "voortijdig-spelen"),
        ("te vroeg gespeeld", "voortijdig-spelen"),
        ("premature play", "voortijdig-spelen"),
        ("blinde waarschuwt", "blinde"),
        ("dummy suggests", "blinde"),
        ("foute slag", "slagen-en-uitslag"),
        ("slag te weinig kaarten", "slagen-en-uitslag"),
        ("defective trick", "slagen-en-uitslag"),
        ("langzaam spel", "gedrag-en-procedure"),
        ("slow play", "gedrag-en-procedure"),
        ("procedurele straf", "gedrag-en-procedure"),
    ],
)
def test_the_words_directors_use_find_the_tree_first(typed, first):
    found = finder.rank(shipped_2017(), typed)
    assert found, f"nothing found for {typed!r}"
    assert found[0].slug == first


@pytest.mark.parametrize("typed", ["beurt", "voor de beurt"])
def test_a_turn_finds_both_trees_about_a_turn_first(typed):
    """Out of turn in the auction or in the play: both trees come before any other."""
    found = [row.slug for row in finder.rank(shipped_2017(), typed)]
    assert set(found[:2]) == {"voor-de-beurt-uitkomen", "bod-voor-de-beurt"}


def test_blinde_finds_the_trees_about_dummys_cards():
    assert {row.slug for row in finder.rank(shipped_2017(), "blinde")} >= {
        "voor-de-beurt-uitkomen",
        "teruggenomen-kaart",
    }


def test_every_word_must_match_and_accents_do_not_count():
    rows = [
        Row("een", "Één kaart", "", "", "", "", ""),
        Row("twee", "Twee kaarten", "", "", "", "", ""),
    ]
    assert [row.slug for row in finder.rank(rows, "een kaart")] == ["een"]
    assert [row.slug for row in finder.rank(rows, "kaart")] == ["een", "twee"]  # by title
    assert finder.rank(rows, "kaart zwaluw") == []


def test_a_whole_finder_word_outranks_a_word_in_the_description():
    rows = [
        Row("a", "Anders", "", "de beurt van een ander", "", "", ""),
        Row("b", "Bijzonder", "", "", "", "beurt", ""),
    ]
    assert [row.slug for row in finder.rank(rows, "beurt")] == ["b", "a"]


def test_every_tree_file_has_finder_words_in_both_languages():
    for path in sorted(FILES.glob("*.yaml")):
        if not path.name.endswith(".cases.yaml"):
            spec = load_tree_file(path)
            assert spec.finder.nl, f"{path.name} has no Dutch finder words"
            assert spec.finder.en, f"{path.name} has no English finder words"


def test_an_edition_without_the_tree_points_to_the_editions_that_have_one(
    shipped, client_director_a
):
    response = client_director_a.get("/arbitrage/nieuw/", {"q": "verzaakt", "editie": "1963"})
    html = response.content.decode()
    assert "Geen beslisboom gevonden" not in html
    assert "data-elsewhere" in html
    assert "editie=2017" in html
    assert "editie=2007" in html
