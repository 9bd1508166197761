"""Outcomes that list every option when a side chooses (issue 27A3): parsed, hashed, frozen,
validated, and shown with the chosen one marked."""

import csv
import io
import re
from pathlib import Path

import pytest
from django.urls import reverse

from tests.support.rulings import ruling_along
from tests.support.tree_texts import GOOD, problems_of, replace, tree_from
from trees import options
from trees.hashing import canonical_data
from trees.spec import CitedLaw, Snapshot, content_hash

LISTED = replace(
    "      chooser: declarer\n",
    "      chooser: declarer\n"
    "      option_list:\n"
    '        - label: {nl: "Eerste", en: "First"}\n'
    '          cites: ["62A"]\n'
    "          chosen_by: declarer\n"
    "          chosen_if: vraag-b/ja\n"
    '        - label: {nl: "Tweede", en: "Second"}\n'
    '          cites: ["64 a 1"]\n'
    "          chosen_by: declarer\n",
)


def test_an_option_list_is_parsed_and_hashed_only_when_present():
    tree = tree_from(LISTED)
    listed = tree.node("uitkomst-a").outcome.option_list
    assert [(o.label.nl, o.cites, o.chosen_by, o.chosen_if) for o in listed] == [
        ("Eerste", ("62A",), "declarer", "vraag-b/ja"),
        ("Tweede", ("64A1",), "declarer", ""),
    ]
    assert content_hash(tree) != content_hash(tree_from(GOOD))
    plain = canonical_data(tree_from(GOOD))
    assert all("option_list" not in (n["outcome"] or {}) for n in plain["nodes"])


def test_a_snapshot_keeps_the_option_list():
    tree = tree_from(LISTED)
    keys = {k for n in tree.nodes for k in n.cites}
    frozen = Snapshot.of(tree, "v", {k: CitedLaw(key=k, edition="2017") for k in keys})
    data = frozen.to_json()
    assert "option_list" not in data["nodes"]["uitkomst-b"]["outcome"]
    again = Snapshot.from_json(data)
    assert again.node("uitkomst-a").outcome == tree.node("uitkomst-a").outcome
    assert again.to_json() == data


def test_the_option_list_is_validated():
    assert problems_of(LISTED) == []
    bad = LISTED.replace("chosen_if: vraag-b/ja", "chosen_if: vraag-b/misschien")
    bad = bad.replace("          chosen_by: declarer\n", "          chosen_by: none\n", 1)
    bad = bad.replace('cites: ["64 a 1"]', "cites: []")
    assert sorted(problems_of(bad)) == [
        "node 'uitkomst-a': option 1: chosen_by 'none' is not one of declarer, defenders,"
        " nos, lho, offender, director",
        "node 'uitkomst-a': option 1: chosen_if 'vraag-b/misschien' is not an answer of this tree",
        "node 'uitkomst-a': option 2: an option cites the law that gives it",
    ]


def test_the_chosen_option_follows_the_path():
    stored = {
        "option_list": options.options_json(
            tree_from(LISTED).node("uitkomst-a").outcome.option_list
        )
    }
    shown = options.shown(stored, [["vraag-a", "nee"], ["vraag-b", "ja"]], "en")
    assert [(o["label"], o["chosen"]) for o in shown] == [("First", True), ("Second", False)]
    assert options.csv_text(shown) == "62A*; 64A1"
    assert not any(o["chosen"] for o in options.shown(stored, [], "nl"))


@pytest.mark.django_db
def test_a_lead_out_of_turn_lists_every_option_on_outcome_record_and_csv(
    shipped, club_a, director_a, client_director_a, client_reviewer_a
):
    from rulings import wizard
    from trees.validate import paths

    tree = wizard.start("voor-de-beurt-uitkomen")
    path = next(p for p in paths(tree.tree) if p.outcome == "uitkomst-eist-kleur")
    ruling = ruling_along(club_a, director_a, tree, path.steps)
    for url, client in (
        (reverse("wizard:ruling", args=[ruling.uuid]), client_director_a),
        (reverse("archive:detail", args=[ruling.uuid]), client_reviewer_a),
    ):
        page = client.get(url).content.decode()
        listed = re.findall(r'data-option="([^"]*)"( data-chosen)?', page)
        assert listed == [
            ("54A", ""),
            ("54B", ""),
            ("54D 56 50D2(a)", " data-chosen"),
            ("54D 56 50D2(a)", ""),
            ("54D 56 50D2(b)", ""),
        ], url
    text = b"".join(client_reviewer_a.get(reverse("archive:csv")).streaming_content)
    row = next(csv.DictReader(io.StringIO(text.decode("utf-8-sig"))))
    assert row["option_list"] == "54A; 54B; 54D 56 50D2(a)*; 54D 56 50D2(a); 54D 56 50D2(b)"


def test_an_option_may_be_chosen_by_either_of_two_answers():
    stored = {
        "option_list": [
            {
                "label": {"nl": "Accepteren", "en": "Accept"},
                "cites": ["53A"],
                "chosen_by": "declarer",
                "chosen_if": "keuze/ja reactie/speelde",
            }
        ]
    }
    assert options.shown(stored, [["reactie", "speelde"]])[0]["chosen"]
    assert options.shown(stored, [["keuze", "ja"]])[0]["chosen"]
    assert not options.shown(stored, [["keuze", "nee"]])[0]["chosen"]
    bad = LISTED.replace("chosen_if: vraag-b/ja", "chosen_if: vraag-b/ja vraag-x/ja")
    assert problems_of(bad) == [
        "node 'uitkomst-a': option 1: chosen_if 'vraag-x/ja' is not an answer of this tree"
    ]


# Issue 27A3 for the revoke: where a side chooses about a card after a revoke (62B1's penalty
# card, 62C's later cards, 62C3, 52B), the outcome lists every option with its law.
REVOKE_OPTIONS = {
    "herstel-vrij-later": ["62C1", "62C1", "62C2"],
    "twaalfde-herstel": ["62C1", "62C1", "62C2"],
    "herstel-strafkaart": ["50D2(a)", "50D2(a)", "50D2(b)"],
    "herstel-strafkaart-later": ["62C1", "62C1", "62C2", "50D2(a)", "50D2(a)", "50D2(b)"],
    "beide-herstellen": [
        "50D2(a)",
        "50D2(a)",
        "50D2(b)",
        "51A",
        "51B1(a)",
        "51B1(b)",
        "50D2(b)",
        "51B2(a)",
        "51B2(b)",
        "51B2(c)",
    ],
    "zie-strafkaart": ["52B1(a) 52B1(b) 52B1(c)", "52B2"],
}


def test_every_revoke_outcome_where_a_side_chooses_lists_its_options():
    from trees.parse import load_tree_file
    from trees.validate import paths

    tree = load_tree_file(Path(__file__).resolve().parents[2] / "trees/files/verzaking.yaml")
    listed = {
        node.key: [" ".join(option.cites) for option in node.outcome.option_list]
        for node in tree.nodes
        if node.outcome is not None and node.outcome.option_list
    }
    assert listed == REVOKE_OPTIONS
    choosing = {n.key for n in tree.nodes if n.outcome is not None and n.outcome.chooser != "none"}
    assert choosing <= set(listed)
    # Nothing in this tree says which option the side took: none may claim to be chosen.
    for node in tree.nodes:
        for option in node.outcome.option_list if node.outcome else ():
            assert option.chosen_if == ""
    assert {p.outcome for p in paths(tree)} >= set(listed)


@pytest.mark.django_db
def test_a_corrected_revoke_lists_every_option_on_outcome_record_and_csv(
    shipped, club_a, director_a, client_director_a, client_reviewer_a
):
    from rulings import wizard
    from trees.validate import paths

    tree = wizard.start("verzaking")
    path = next(p for p in paths(tree.tree) if p.outcome == "herstel-strafkaart-later")
    ruling = ruling_along(club_a, director_a, tree, path.steps)
    expected = [(keys, "") for keys in REVOKE_OPTIONS["herstel-strafkaart-later"]]
    for url, client in (
        (reverse("wizard:ruling", args=[ruling.uuid]), client_director_a),
        (reverse("archive:detail", args=[ruling.uuid]), client_reviewer_a),
    ):
        page = client.get(url).content.decode()
        assert re.findall(r'data-option="([^"]*)"( data-chosen)?', page) == expected, url
        assert "tegenspeler: strafkaart" in page
    text = b"".join(client_reviewer_a.get(reverse("archive:csv")).streaming_content)
    row = next(csv.DictReader(io.StringIO(text.decode("utf-8-sig"))))
    assert row["option_list"] == "62C1; 62C1; 62C2; 50D2(a); 50D2(a); 50D2(b)"
