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
    # an insufficient bid out of rotation is a call out of rotation first (27A2, Law 31)
    ("onvoldoende-bod", "naar-31", "see_tree", "bod-voor-de-beurt"),
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
    # after a comparable call Law 16C2 no longer applies (23B); 23C covers any help gained
    ("bod-voor-de-beurt", "ander-vergelijkbaar", "unauthorised_information", False),
    ("bod-voor-de-beurt", "pas-vergelijkbaar", "unauthorised_information", False),
    # the pass the offender would have made before RHO called is unauthorised for partner (16C2)
    ("bod-voor-de-beurt", "pas-rechts", "unauthorised_information", True),
    ("bod-voor-de-beurt", "wijziging", "see_tree", "bod-gewijzigd"),
    ("bod-gewijzigd", "vervangen-lho-terug", "chooser", "lho"),
    ("bod-gewijzigd", "te-laat-partner", "unauthorised_information", False),
    ("bod-gewijzigd", "bedoeld-vervalt", "unauthorised_information", True),
    ("bod-gewijzigd", "naar-voor-de-beurt", "see_tree", "bod-voor-de-beurt"),
    # replacing one's own insufficient bid is a premature replacement (27C), not a 25B change
    ("bod-gewijzigd", "naar-onvoldoende-bod", "see_tree", "onvoldoende-bod"),
    ("spellen-en-handen", "hersteld-normaal", "adjusted_score", False),
    # 2017 13A2: a card seen is no reason not to play; adjust after play if it mattered
    ("spellen-en-handen", "spelen-met-informatie", "adjusted_score", True),
    # 13C: a surplus card is removed without an adjusted score unless it was played
    ("spellen-en-handen", "extra-kaart-verwijderd", "adjusted_score", False),
    ("spellen-en-handen", "extra-kaart-gespeeld", "adjusted_score", True),
    ("spellen-en-handen", "foutief-paren", "adjusted_score", False),
    ("spellen-en-handen", "opnieuw-bieden", "unauthorised_information", True),
    ("spellen-en-handen", "spel-vervalt", "adjusted_score", True),
    # a minor penalty card alone gives no adjusted score; a major one brings 50E
    ("strafkaart", "kleine-strafkaart", "adjusted_score", False),
    ("strafkaart", "grote-strafkaart", "unauthorised_information", True),
    ("strafkaart", "claim", "see_tree", "claim"),
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
    # the misled player decides whether to take back a card played on the explanation (47E2(a));
    # a partner's correction during the auction is unauthorised information (20F5(a), 16B1(a))
    ("verkeerde-uitleg", "correctie-tijdens-spel", "chooser", "nos"),
    ("verkeerde-uitleg", "partner-verbeterde", "unauthorised_information", True),
    ("verkeerde-uitleg", "partner-verbeterde", "chooser", "nos"),
    # claims: the director rules on the tricks (69-71), not a Law 12 adjusted score
    ("claim", "troef-slag", "adjusted_score", False),
    ("claim", "concessie-bezwaar", "unauthorised_information", True),
    ("claim", "claim-verzaking", "see_tree", "verzaking"),
    ("claim", "concessie-geannuleerd", "chooser", "none"),
    # a revoke found at a claim and not yet established (63A4, 69A) is corrected, not handed over
    ("claim", "claim-verzaking-herstellen", "see_tree", None),
    ("claim", "claim-verzaking-herstellen", "adjusted_score", False),
    # premature play: the same flags as the same rulings in strafkaart
    ("voortijdig-spelen", "voortijdig-hoogste", "chooser", "declarer"),
    ("voortijdig-spelen", "voortijdig-hoogste", "adjusted_score", False),
    ("voortijdig-spelen", "rechts-gespeeld", "unauthorised_information", True),
    ("voortijdig-spelen", "recht-vervallen", "unauthorised_information", False),
    # 57D: Law 16 may apply to the early card, so an adjusted score for the declaring side
    ("voortijdig-spelen", "rechts-gespeeld", "adjusted_score", True),
    ("strafkaart", "rechts-gespeeld", "adjusted_score", True),
    # declarer's proper lead after his right-hand opponent's lead out of turn: 60A1 forfeits the
    # rectification, 53B returns the card without penalty card, 16C for its information
    ("voor-de-beurt-uitkomen", "later-tegenspeler-juist-vervallen", "chooser", "none"),
    (
        "voor-de-beurt-uitkomen",
        "later-tegenspeler-juist-vervallen",
        "unauthorised_information",
        True,
    ),
    ("voor-de-beurt-uitkomen", "later-tegenspeler-juist-voorgespeeld", "chooser", "declarer"),
    ("voor-de-beurt-uitkomen", "dertiende-slag", "adjusted_score", False),
    ("teruggenomen-kaart", "juiste-voorspel-vervallen", "see_tree", None),
    ("teruggenomen-kaart", "juiste-voorspel-strafkaart", "see_tree", "strafkaart"),
    # 57C3: declarer's premature play stands; a defender's other exposed card is a penalty card
    ("teruggenomen-kaart", "leider-voortijdig", "unauthorised_information", False),
    ("teruggenomen-kaart", "aanduiding-strafkaart", "see_tree", "strafkaart"),
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
    ("slagen-en-uitslag", "later-bijleggen-geen-overdracht", "adjusted_score", True),
    ("slagen-en-uitslag", "naar-claim", "see_tree", "claim"),
    # conduct: a warning or procedural penalty is no adjusted score; a board not played gets an
    # artificial one (12C2); UI from a violation of procedure falls under 16B; 91 is the director's
    ("gedrag-en-procedure", "langzaam-straf", "adjusted_score", False),
    ("gedrag-en-procedure", "bord-niet-gespeeld", "adjusted_score", True),
    ("gedrag-en-procedure", "kunstmatige-score", "adjusted_score", True),
    ("gedrag-en-procedure", "procedure-ongeoorloofde-informatie", "unauthorised_information", True),
    ("gedrag-en-procedure", "procedure-waarschuwing", "unauthorised_information", False),
    ("gedrag-en-procedure", "diskwalificatie", "chooser", "director"),
    # the score of a procedural error follows its own law: wrong board and fouled board in
    # spellen-en-handen (15, 87), an overheard result under 16D2 (the director's choice)
    ("gedrag-en-procedure", "procedurefout-verkeerd-bord", "see_tree", "spellen-en-handen"),
    ("gedrag-en-procedure", "procedurefout-onklaar-bord", "see_tree", "spellen-en-handen"),
    ("gedrag-en-procedure", "procedurefout-gehoord", "chooser", "director"),
    ("gedrag-en-procedure", "bord-niet-gespeeld-geen-schuld", "adjusted_score", True),
    # Law 46 fixes dummy's card: no adjustment; who designates follows 46B3(b), 46B4, 46B5
    ("blinde-kaart-genoemd", "kaart-niet-in-blinde", "chooser", "declarer"),
    ("blinde-kaart-genoemd", "tegenspelers-kiezen", "chooser", "defenders"),
    ("blinde-kaart-genoemd", "laagste-kaart", "adjusted_score", False),
    ("blinde-kaart-genoemd", "bedoelde-kaart", "unauthorised_information", True),
    # inadmissible calls: 72C only where the law names it (36B3, 36B4, 37B2, 38D without LHO)
    ("ontoelaatbare-bieding", "doublet-vervangen", "adjusted_score", True),
    ("ontoelaatbare-bieding", "doublet-vervangen", "chooser", "declarer"),
    ("ontoelaatbare-bieding", "doublet-lt-vervalt", "adjusted_score", False),
    ("ontoelaatbare-bieding", "verboden-bieding-blijft", "adjusted_score", False),
    ("ontoelaatbare-bieding", "boven-zeven-na-lt", "adjusted_score", False),
    ("ontoelaatbare-bieding", "na-slotpas-voorspeelbeperking", "adjusted_score", False),
    ("ontoelaatbare-bieding", "na-slotpas-voorspeelbeperking", "chooser", "declarer"),
    # opening lead: 47E2(b) adjusts for the misinformed defenders; a faced lead out of turn
    # without declarer's cards spread goes on in voor-de-beurt-uitkomen (Law 54)
    ("openingsuitkomst", "te-laat-arbitraal", "adjusted_score", True),
    ("openingsuitkomst", "uitkomst-terug-misinformatie", "chooser", "defenders"),
    ("openingsuitkomst", "naar-voor-de-beurt", "see_tree", "voor-de-beurt-uitkomen"),
    ("openingsuitkomst", "dicht-verkeerde-terug", "unauthorised_information", False),
    # board turned round: 16D and 15A are ruled in their own trees; 87 and 12A2 adjust
    ("bord-verkeerd-om", "naar-informatie-van-elders", "see_tree", "informatie-van-elders"),
    ("bord-verkeerd-om", "naar-ander-bord", "see_tree", "spellen-en-handen"),
    ("bord-verkeerd-om", "bord-rechtleggen", "adjusted_score", False),
    ("bord-verkeerd-om", "kunstmatige-score", "adjusted_score", True),
    # A board turned round is not fouled: the result stands (pairs: pair numbers swapped).
    ("bord-verkeerd-om", "half-om", "adjusted_score", False),
    ("bord-verkeerd-om", "kwartslag-paren", "adjusted_score", False),
    ("bord-verkeerd-om", "kwartslag-viertallen-kunstmatig", "adjusted_score", True),
]


@pytest.mark.parametrize(("slug", "outcome", "field", "value"), OUTCOME_FIELDS)
def test_outcome_field(slug, outcome, field, value):
    node = load(slug).node(outcome)
    assert node.is_outcome
    assert getattr(node.outcome, field) == value


def test_premature_play_rules_alike_in_strafkaart_and_voortijdig_spelen():
    """Both trees rule premature play (57, 58B, 60A) with outcomes of the same key: each such
    outcome gives the same legal basis and the same flags in both, so the tree a director
    happens to open does not change the ruling."""
    penalty_cards, premature = load("strafkaart"), load("voortijdig-spelen")
    shared = {n.key for n in penalty_cards.outcomes} & {n.key for n in premature.outcomes}
    assert {"rechts-gespeeld", "recht-vervallen", "voortijdig-hoogste", "twee-te-laat"} <= shared
    differ = []
    for key in sorted(shared):
        a, b = penalty_cards.node(key), premature.node(key)
        flags = ("adjusted_score", "unauthorised_information", "chooser", "see_tree")
        if a.cites != b.cites or any(getattr(a.outcome, f) != getattr(b.outcome, f) for f in flags):
            differ.append(key)
    assert differ == []


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
