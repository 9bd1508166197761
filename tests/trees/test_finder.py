"""Finding a tree, and the question in it, by what a director types (trees/finder.py), and the
start page's answer when the edition in use has no tree for those words."""

import functools
from pathlib import Path

import pytest

from trees import finder
from trees.finder import TreeIndex, first_clause
from trees.parse import load_tree_file, parse_tree
from trees.spec import TreeSpec

FILES = Path(__file__).resolve().parents[2] / "trees" / "files"


@functools.cache
def shipped_2017() -> tuple[TreeIndex, ...]:
    # Read once per process: about fifty tests rank these trees and none changes them.
    specs = (
        load_tree_file(path)
        for path in sorted(FILES.glob("*.yaml"))
        if not path.name.endswith(".cases.yaml")
    )
    return tuple(TreeIndex.of(spec) for spec in specs if spec.edition == "2017")


def ranked(typed: str) -> list[str]:
    return [found.slug for found in finder.rank(shipped_2017(), typed)]


def tree(
    slug: str, title: str, finder: str = "", description: str = "", nodes: str = ""
) -> TreeSpec:
    """A small tree: one question (or ``nodes``) and two outcomes; ``finder`` is the YAML of
    its finder block."""
    words = f"finder: {finder}\n" if finder else ""
    nodes = nodes or (
        "  vraag:\n"
        '    question: {nl: "Is het zo?", en: "Is it so?"}\n'
        "    choices:\n"
        '      - {key: ja, label: {nl: "Ja", en: "Yes"}, next: uit-ja}\n'
        '      - {key: nee, label: {nl: "Nee", en: "No"}, next: uit-nee}\n'
        '  uit-ja: {outcome: {title: {nl: "Ja", en: "Yes"}, ruling: {nl: "J.", en: "Y."}, '
        'announce: {nl: "J.", en: "Y."}}}\n'
        '  uit-nee: {outcome: {title: {nl: "Nee", en: "No"}, ruling: {nl: "N.", en: "N."}, '
        'announce: {nl: "N.", en: "N."}}}\n'
    )
    start = nodes.split(":", 1)[0].strip()
    text = (
        f'slug: {slug}\nedition: "2017"\nphase: play\ntitle: {{nl: "{title}", en: ""}}\n'
        f'description: {{nl: "{description}", en: ""}}\n{words}start: {start}\nnodes:\n{nodes}'
    )
    return parse_tree(text, f"{slug}.yaml")


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
        # Issue 29: these found nothing when every word had to match a name.
        ("lange pauze", "ongeoorloofde-informatie"),
        ("partner aarzelde", "ongeoorloofde-informatie"),
        ("hij dacht lang na en paste", "ongeoorloofde-informatie"),
        ("slow pass", "ongeoorloofde-informatie"),
        ("verkeerd kaartje uit de biedbox", "bod-gewijzigd"),
        ("concession cancelled", "claim"),
    ],
)
def test_the_words_directors_use_find_the_tree_first(typed, first):
    found = ranked(typed)
    assert found, f"nothing found for {typed!r}"
    assert found[0] == first


@pytest.mark.parametrize("typed", ["beurt", "voor de beurt"])
def test_a_turn_finds_both_trees_about_a_turn_first(typed):
    """Out of turn in the auction or in the play: both trees come before any other."""
    assert set(ranked(typed)[:2]) == {"voor-de-beurt-uitkomen", "bod-voor-de-beurt"}


def test_an_opening_out_of_turn_finds_the_call_and_the_lead():
    """Issue 29: "opening" is an opening bid and an opening lead; both trees come first."""
    assert set(ranked("opening voor de beurt")[:2]) == {
        "voor-de-beurt-uitkomen",
        "bod-voor-de-beurt",
    }


def test_blinde_finds_the_trees_about_dummys_cards():
    assert set(ranked("blinde")) >= {"voor-de-beurt-uitkomen", "teruggenomen-kaart"}


@pytest.mark.parametrize(
    ("typed", "forms"),
    [
        ("verzaakt", ["verzaking", "verzaken", "Verzaakte"]),
        ("uitgekomen", ["uitkomen"]),
        ("gealerteerd", ["alerteren", "alert"]),
        ("verzaakr", ["verzaakt"]),  # one typing error
        ("aarzleing", ["aarzeling"]),  # two letters swapped
    ],
)
def test_a_word_matches_in_any_form_and_through_a_typo(typed, forms):
    for form in forms:
        index = TreeIndex.of(tree("t", form.capitalize()))
        assert [found.slug for found in finder.rank([index], typed)] == ["t"], form


def test_a_word_no_tree_has_no_longer_empties_the_list():
    rows = [TreeIndex.of(tree("een", "Één kaart")), TreeIndex.of(tree("twee", "Twee kaarten"))]
    assert [found.slug for found in finder.rank(rows, "een kaart")] == ["een", "twee"]
    assert [found.slug for found in finder.rank(rows, "kaart zwaluw")][:1] == ["een"]
    assert finder.rank(rows, "zwaluw") == []


def test_words_without_meaning_are_ignored():
    rows = [TreeIndex.of(tree("a", "Hij en de een")), TreeIndex.of(tree("b", "Kaart"))]
    assert [found.slug for found in finder.rank(rows, "hij de kaart")] == ["b"]
    # Only words without meaning typed: they are all there is to look for.
    assert [found.slug for found in finder.rank(rows, "hij")] == ["a"]


def test_more_matching_words_rank_higher():
    rows = [
        TreeIndex.of(tree("een", "Kaart gevallen")),
        TreeIndex.of(tree("twee", "Kaart getoond en gevallen")),
    ]
    assert finder.rank(rows, "kaart getoond gevallen")[0].slug == "twee"


def test_a_whole_finder_word_outranks_a_word_in_the_description():
    rows = [
        TreeIndex.of(tree("a", "Anders", description="de beurt van een ander")),
        TreeIndex.of(tree("b", "Bijzonder", finder="{nl: [beurt]}")),
    ]
    assert [found.slug for found in finder.rank(rows, "beurt")] == ["b", "a"]


def test_synonyms_find_the_tree_like_finder_words():
    plain = tree("plain", "Ongeoorloofde informatie", finder="{nl: [denkpauze]}")
    with_synonyms = tree(
        "synoniemen",
        "Ongeoorloofde informatie",
        finder='{nl: [denkpauze], synonyms: {nl: [pauze, "lang nadenken"], en: [slow]}}',
    )
    assert with_synonyms.finder.synonyms_nl == ("pauze", "lang nadenken")
    rows = [TreeIndex.of(plain), TreeIndex.of(with_synonyms)]
    for typed in ("nadenken", "slow"):
        assert [found.slug for found in finder.rank(rows, typed)] == ["synoniemen"], typed
    # "pauze" is also the end of "denkpauze", a weaker match.
    assert [found.slug for found in finder.rank(rows, "pauze")] == ["synoniemen", "plain"]
    assert rows[1].names(finder.Query.of("slow")[0])
    assert not rows[0].names(finder.Query.of("slow")[0])


def test_strafkaart_niet_gespeeld_opens_the_penalty_card_tree_at_the_question():
    """Issue 29: the question whether the penalty card had to be played."""
    found = {item.slug: item for item in finder.rank(shipped_2017(), "strafkaart niet gespeeld")}
    assert found["strafkaart"].question == "kon-spelen"
    assert "strafkaart" in ranked("strafkaart niet gespeeld")[:3]


def test_a_question_needs_two_typed_words_and_is_never_the_start():
    nodes = (
        "  begin:\n"
        '    question: {nl: "Wat gebeurde er?", en: ""}\n'
        "    choices:\n"
        '      - {key: a, label: {nl: "Een kaart viel", en: ""}, next: gevallen}\n'
        '      - {key: b, label: {nl: "Iets anders", en: ""}, next: klaar}\n'
        "  gevallen:\n"
        '    question: {nl: "Kon partner de gevallen kaart zien?", en: ""}\n'
        "    choices:\n"
        '      - {key: ja, label: {nl: "Ja", en: ""}, next: klaar}\n'
        '      - {key: nee, label: {nl: "Nee", en: ""}, next: klaar}\n'
        '  klaar: {outcome: {title: {nl: "Klaar", en: ""}, ruling: {nl: "K.", en: ""}, '
        'announce: {nl: "K.", en: ""}}}\n'
    )
    index = TreeIndex.of(tree("t", "Kaarten", nodes=nodes))
    assert finder.rank([index], "gevallen kaart partner")[0].question == "gevallen"
    assert finder.rank([index], "gevallen")[0].question == ""  # one word: the tree's start
    # The answer "Een kaart viel" leads to the question about the fallen card.
    assert finder.rank([index], "kaart viel")[0].question == "gevallen"
    assert finder.rank([index], "wat gebeurde")[0].question == ""  # the start itself


def test_nothing_meaningful_typed_lists_every_tree_by_title():
    rows = [TreeIndex.of(tree("b", "Beta")), TreeIndex.of(tree("a", "Alfa"))]
    assert [found.slug for found in finder.rank(rows, "")] == ["a", "b"]
    assert [found.slug for found in finder.rank(rows, " ?! ")] == ["a", "b"]


@pytest.mark.parametrize(
    ("description", "clause"),
    [
        (
            "Een speler past terwijl een ander aan de beurt is (artikelen 28 tot 32). De boom…",
            "Een speler past terwijl een ander aan de beurt is",
        ),
        ("Wat de blinde mag (artikelen 42 en 43): de blinde waarschuwt", "Wat de blinde mag"),
        ("Een uitleg die niet (of juist wel) klopte", "Een uitleg die niet klopte"),
        ("", ""),
    ],
)
def test_the_line_saying_when_a_tree_applies_is_the_descriptions_first_clause(description, clause):
    assert first_clause(description) == clause


def test_a_long_first_clause_is_cut_at_twenty_words():
    assert first_clause(" ".join(["woord"] * 30)) == " ".join(["woord"] * 20) + " …"


def test_every_tree_file_has_finder_words_and_synonyms_in_both_languages():
    for path in sorted(FILES.glob("*.yaml")):
        if not path.name.endswith(".cases.yaml"):
            spec = load_tree_file(path)
            assert spec.finder.nl, f"{path.name} has no Dutch finder words"
            assert spec.finder.en, f"{path.name} has no English finder words"
            assert spec.finder.synonyms_nl, f"{path.name} has no Dutch synonyms"
            assert spec.finder.synonyms_en, f"{path.name} has no English synonyms"
            assert first_clause(spec.description.nl), f"{path.name}: no line saying when"


def test_an_edition_without_the_tree_points_to_the_editions_that_have_one(
    shipped, client_director_a
):
    response = client_director_a.get("/arbitrage/nieuw/", {"q": "verzaakt", "editie": "1963"})
    html = response.content.decode()
    assert "Geen beslisboom gevonden" not in html
    assert "data-elsewhere" in html
    assert "editie=2017" in html
    assert "editie=2007" in html
