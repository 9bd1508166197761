"""The tree files themselves: valid, citing what their edition holds, with the outcome flags the
law requires. (The cases beside every tree are run by ``test_cases_files.py``.)

No database: only the YAML files are read.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import pytest

from laws.current_edition import index_from_files
from laws.index import ProvisionIndex
from trees.loading import citation_problem
from trees.parse import load_tree_file
from trees.validate import validate

ROOT = Path(__file__).resolve().parents[2]
TREES_DIR = ROOT / "trees" / "files"


def tree_files() -> list[Path]:
    return sorted(p for p in TREES_DIR.glob("*.yaml") if not p.name.endswith(".cases.yaml"))


def load(slug: str):
    return load_tree_file(TREES_DIR / f"{slug}.yaml")


@cache
def index_2017() -> ProvisionIndex:
    """The 2017 provision index as its files give it (no database)."""
    return index_from_files()


@pytest.mark.parametrize("tree_file", tree_files(), ids=lambda p: p.stem)
def test_tree_is_valid_and_see_tree_names_a_tree(tree_file):
    tree = load_tree_file(tree_file)
    assert tree.slug == tree_file.stem
    # 2017 against its provision index: every key must exist (the one key checker).
    unknown = citation_problem(index_2017()) if tree.edition == "2017" else None
    slugs = {p.stem for p in tree_files()}
    assert validate(tree, unknown=unknown, trees=slugs) == []


@pytest.mark.parametrize("tree_file", tree_files(), ids=lambda p: p.stem)
def test_every_outcome_states_who_chooses_when_there_are_options(tree_file):
    tree = load_tree_file(tree_file)
    for node in tree.outcomes:
        if node.outcome.options is not None:
            assert node.outcome.chooser != "none", f"{tree.slug}: {node.key}"


# Flags and fields of single outcomes, pinned where the law decides them (moved from the old
# per-case tables): who chooses, where the director continues, whether he considers an adjusted
# score (Law 12 and the laws that point to it) and whether there is unauthorised information.
OUTCOME_FIELDS = [
    ("onvoldoende-bod", "b1a", "adjusted_score", True),
    ("onvoldoende-bod", "b1a", "unauthorised_information", False),
    ("onvoldoende-bod", "geaccepteerd", "chooser", "lho"),
    ("onvoldoende-bod", "naar-25a", "see_tree", None),
    ("onvoldoende-bod", "b1b", "adjusted_score", True),
    ("onvoldoende-bod", "b2", "chooser", "declarer"),
    ("onvoldoende-bod", "b2", "unauthorised_information", True),
    ("onvoldoende-bod", "b2", "adjusted_score", True),
    ("onvoldoende-bod", "b4-geaccepteerd", "chooser", "declarer"),
    ("onvoldoende-bod", "b4-geaccepteerd", "unauthorised_information", True),
    ("teruggenomen-kaart", "verkeerde-uitleg-terug", "unauthorised_information", True),
    ("teruggenomen-kaart", "verkeerde-uitleg-te-laat", "adjusted_score", True),
    ("teruggenomen-kaart", "aanduiding", "chooser", "nos"),
    ("teruggenomen-kaart", "verkeerd-beurt", "unauthorised_information", True),
    ("teruggenomen-kaart", "naar-verzaking", "see_tree", "verzaking"),
    ("teruggenomen-kaart", "niet-gespeeld-leider", "unauthorised_information", False),
    ("teruggenomen-kaart", "naar-strafkaart", "see_tree", "strafkaart"),
    ("teruggenomen-kaart", "onreglementair-tegenspeler", "see_tree", "strafkaart"),
    ("voor-de-beurt-uitkomen", "uitkomst-eist-kleur", "chooser", "declarer"),
    ("voor-de-beurt-uitkomen", "uitkomst-eist-kleur", "unauthorised_information", True),
    ("voor-de-beurt-uitkomen", "uitkomst-vrij", "adjusted_score", True),
    ("voor-de-beurt-uitkomen", "leider-wordt-blinde", "chooser", "declarer"),
    ("voor-de-beurt-uitkomen", "dicht-terug", "unauthorised_information", False),
    ("voor-de-beurt-uitkomen", "leider-terug-andere-hand", "chooser", "defenders"),
    ("voor-de-beurt-uitkomen", "leider-terug-andere-hand", "adjusted_score", True),
    ("voor-de-beurt-uitkomen", "later-leider-aan-slag", "unauthorised_information", True),
    ("bod-voor-de-beurt", "geaccepteerd", "chooser", "lho"),
    ("bod-voor-de-beurt", "in-rotatie", "adjusted_score", False),
    ("bod-voor-de-beurt", "rechts-niet-vergelijkbaar", "chooser", "declarer"),
    ("bod-voor-de-beurt", "rechts-vergelijkbaar", "adjusted_score", True),
    ("bod-voor-de-beurt", "rechts-vergelijkbaar", "unauthorised_information", False),
    ("bod-voor-de-beurt", "ander-vergelijkbaar", "unauthorised_information", True),
    ("bod-voor-de-beurt", "wijziging", "see_tree", "bod-gewijzigd"),
    ("bod-gewijzigd", "vervangen-lho-terug", "chooser", "lho"),
    ("bod-gewijzigd", "te-laat-partner", "unauthorised_information", False),
    ("bod-gewijzigd", "bedoeld-vervalt", "unauthorised_information", True),
    ("bod-gewijzigd", "naar-voor-de-beurt", "see_tree", "bod-voor-de-beurt"),
    ("spellen-en-handen", "hersteld-normaal", "adjusted_score", False),
    ("spellen-en-handen", "niet-speelbaar-gezien", "adjusted_score", True),
    ("spellen-en-handen", "foutief-paren", "adjusted_score", False),
    ("spellen-en-handen", "opnieuw-bieden", "unauthorised_information", True),
    ("spellen-en-handen", "spel-vervalt", "adjusted_score", True),
    # a minor penalty card alone gives no adjusted score; a major one brings 50E
    ("strafkaart", "kleine-strafkaart", "adjusted_score", False),
    ("strafkaart", "grote-strafkaart", "unauthorised_information", True),
    # Law 16: called during the auction, the director only records the facts (16B2, 16B3);
    # he adjusts after play only when the information was used and caused damage (12)
    ("ongeoorloofde-informatie", "vastgelegd-doorspelen", "adjusted_score", False),
    ("ongeoorloofde-informatie", "vastgelegd-doorspelen", "unauthorised_information", True),
    ("ongeoorloofde-informatie", "geen-ui", "unauthorised_information", False),
    ("ongeoorloofde-informatie", "resultaat-blijft", "adjusted_score", False),
    ("ongeoorloofde-informatie", "arbitrale-score", "adjusted_score", True),
    ("ongeoorloofde-informatie", "arbitrale-score-eigen-fout", "adjusted_score", True),
    # Laws 21 and 75: no redress for one's own misunderstanding or a mistaken call; the misled
    # player chooses whether to change his last call (21B1)
    ("verkeerde-uitleg", "eigen-misverstand", "adjusted_score", False),
    ("verkeerde-uitleg", "verkeerd-bod", "adjusted_score", False),
    ("verkeerde-uitleg", "verkeerd-bod", "unauthorised_information", True),
    ("verkeerde-uitleg", "verborgen-afspraak", "adjusted_score", True),
    ("verkeerde-uitleg", "bod-gewijzigd", "chooser", "nos"),
    ("verkeerde-uitleg", "bod-gewijzigd", "unauthorised_information", True),
    ("verkeerde-uitleg", "bod-blijft-staan", "chooser", "nos"),
    ("verkeerde-uitleg", "arbitrale-score", "adjusted_score", True),
    ("verkeerde-uitleg", "resultaat-blijft", "adjusted_score", False),
    # claims: the director rules on the tricks (69-71), not a Law 12 adjusted score
    ("claim", "troef-slag", "adjusted_score", False),
    ("claim", "concessie-bezwaar", "unauthorised_information", True),
    ("claim", "claim-verzaking", "see_tree", "verzaking"),
    ("claim", "concessie-geannuleerd", "chooser", "none"),
    # premature play: the same flags as the same rulings in strafkaart
    ("voortijdig-spelen", "voortijdig-hoogste", "chooser", "declarer"),
    ("voortijdig-spelen", "voortijdig-hoogste", "adjusted_score", False),
    ("voortijdig-spelen", "rechts-gespeeld", "unauthorised_information", True),
    ("voortijdig-spelen", "recht-vervallen", "unauthorised_information", False),
    # dummy: a 43A2 violation gives the defenders the choice of hand (43B2(a)); a suggestion is
    # extraneous information and may be adjusted (45F, 16B); 43B3 adjusts the defenders only
    ("blinde", "tegenspelers-kiezen-leider", "chooser", "defenders"),
    ("blinde", "tegenspelers-kiezen-blinde", "adjusted_score", False),
    ("blinde", "blinde-suggereert", "adjusted_score", True),
    ("blinde", "blinde-suggereert", "unauthorised_information", True),
    ("blinde", "geen-rectificatie-tegenspelers", "adjusted_score", True),
    ("blinde", "naar-voor-de-beurt", "see_tree", "voor-de-beurt-uitkomen"),
    ("blinde", "verkeerde-kaart-terug", "unauthorised_information", True),
    ("blinde", "aanduiding-blijft", "unauthorised_information", False),
    # a defective trick found late is a deemed revoke (67B1, 64A2, 64C); recording errors and
    # disagreements are no adjusted score (Law 79)
    ("slagen-en-uitslag", "later-kleur-bijleggen", "adjusted_score", True),
    ("slagen-en-uitslag", "kaart-alsnog-bijspelen", "adjusted_score", False),
    ("slagen-en-uitslag", "tegelijk-gespeeld", "unauthorised_information", True),
    ("slagen-en-uitslag", "schrijffout-verbeterd", "adjusted_score", False),
    ("slagen-en-uitslag", "na-ronde-niet-overtuigd", "adjusted_score", False),
    # conduct: a warning or procedural penalty is no adjusted score; a board not played gets an
    # artificial one (12C2); UI from a violation of procedure falls under 16B; 91 is the director's
    ("gedrag-en-procedure", "langzaam-straf", "adjusted_score", False),
    ("gedrag-en-procedure", "bord-niet-gespeeld", "adjusted_score", True),
    ("gedrag-en-procedure", "kunstmatige-score", "adjusted_score", True),
    ("gedrag-en-procedure", "procedure-ongeoorloofde-informatie", "unauthorised_information", True),
    ("gedrag-en-procedure", "procedure-waarschuwing", "unauthorised_information", False),
    ("gedrag-en-procedure", "diskwalificatie", "chooser", "director"),
]


@pytest.mark.parametrize(("slug", "outcome", "field", "value"), OUTCOME_FIELDS)
def test_outcome_field(slug, outcome, field, value):
    node = load(slug).node(outcome)
    assert node.is_outcome
    assert getattr(node.outcome, field) == value


def test_yes_is_always_the_first_answer_and_no_the_second():
    """A director pressing "1" by habit answers yes, in every question of every tree: where a
    question has yes answers ("Ja", "Ja, ...") the first choice is one, and every yes answer
    comes before every no answer ("Nee", "Nee, ...")."""

    def kind(label: str) -> str:
        word = label.strip().casefold().replace(",", " ").split(" ")[0]
        return {"ja": "yes", "nee": "no"}.get(word, "other")

    wrong = []
    for path in sorted(TREES_DIR.glob("*.yaml")):
        if path.name.endswith(".cases.yaml"):
            continue
        spec = load_tree_file(path)
        for node in spec.questions:
            kinds = [kind(choice.label.nl) for choice in node.choices]
            yes = [i for i, k in enumerate(kinds) if k == "yes"]
            no = [i for i, k in enumerate(kinds) if k == "no"]
            if (yes and yes[0] != 0) or (yes and no and max(yes) > min(no)):
                wrong.append(f"{spec.slug}:{node.key} {kinds}")
    assert wrong == []
