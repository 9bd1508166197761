"""A ruling's legal basis (issue 27A2, issue 26.4): the plain module, the one writer's rows,
the same basis on the outcome page, the record and the CSV, and the migration that fills it."""

from __future__ import annotations

import csv
import importlib
import io
import re

import pytest
from django.apps import apps
from django.urls import reverse

from archive import tally
from rulings import legal_basis
from rulings.models import LegalBasis, Ruling, Status
from tests.support.rulings import make_ruling, ruling_along
from tests.support.tree_texts import replace, tree_from
from trees.spec import CitedLaw, Snapshot, Text

FILL = importlib.import_module("rulings.migrations.0008_fill_legal_basis")

# vraag-b's "nee" establishes 64A1 and 63A1 (64A1 is the outcome's own, so it counts once).
CITING = replace(
    '        label: {nl: "Nee", en: "No"}\n        next: uitkomst-b\n',
    '        label: {nl: "Nee", en: "No"}\n        next: uitkomst-b\n'
    '        cites: ["63A1", "64B3"]\n',
)


def snapshot_of(text: str) -> Snapshot:
    tree = tree_from(text)
    keys = {
        key
        for node in tree.nodes
        for key in (*node.cites, *(k for c in node.choices for k in c.cites))
    }
    law = {
        key: CitedLaw(key=key, edition="2017", article=key[:2], kind="summary", text=Text(key, ""))
        for key in keys
    }
    return Snapshot.of(tree, "v", law)


def test_the_outcome_comes_first_then_what_the_answers_established_each_once():
    assert legal_basis.basis_keys(["64B3"], ["63A1", "64B3"]) == ["64B3", "63A1"]
    tree = snapshot_of(CITING)
    path = [["vraag-a", "ja"], ["vraag-b", "nee"]]
    assert legal_basis.tree_basis(tree, path, "uitkomst-b") == ["64B3", "63A1"]
    # The question card (61A on vraag-a) is context, never basis.
    assert "61A" not in legal_basis.tree_basis(tree, path, "uitkomst-b")
    assert legal_basis.tree_basis(tree, [["vraag-a", "ja"], ["vraag-b", "ja"]], "uitkomst-a") == [
        "62A",
        "64A1",
    ]


def test_a_stored_ruling_gets_its_basis_from_its_outcome_and_its_snapshot():
    outcome = {"citations": [{"key": "64B3"}]}
    path = [["vraag-a", "ja"], ["vraag-b", "nee"]]
    assert legal_basis.keys_of_ruling(outcome, path, None) == ["64B3"]
    assert legal_basis.keys_of_ruling(outcome, path, snapshot_of(CITING)) == ["64B3", "63A1"]
    assert legal_basis.keys_of_ruling({}, path, snapshot_of(CITING)) == []


def test_the_articles_column_follows_the_basis():
    assert legal_basis.articles(["64B3", "63A1", "64A1"]) == "|63|64|"
    assert legal_basis.articles([]) == ""


def test_shown_takes_the_recorded_text_and_marks_the_decisive_provision():
    outcome = {
        "citations": [
            {
                "key": "64B3",
                "article": "64",
                "kind": "official",
                "text": {"nl": "Eigen kopie", "en": ""},
            }
        ]
    }
    shown = legal_basis.shown(["64B3", "63A1"], outcome, snapshot_of(CITING), "nl")
    assert [(e["key"], e["article"], e["decisive"]) for e in shown] == [
        ("64B3", "64", True),
        ("63A1", "63", False),
    ]
    assert shown[0]["shown_text"] == "Eigen kopie"
    assert shown[1]["shown_text"] == "63A1"  # from the snapshot's law
    assert legal_basis.shown(["12C1(e)"], {}, None)[0]["article"] == "12"


@pytest.mark.django_db
def test_the_writer_replaces_the_basis_when_the_outcome_changes(club_a, director_a):
    ruling = make_ruling(club_a, director_a, ("ja", "nee"), change_first_to="nee", then=("nee",))
    ruling.refresh_from_db()
    assert ruling.outcome_key == "afgewezen"
    assert list(ruling.legal_basis.values_list("key", "position")) == [("27", 0)]
    assert ruling.cited_articles == "|27|"
    assert tally.differences() == []


def basis_on(page: str) -> str:
    found = re.search(r'data-legal-basis="([^"]*)"', page)
    assert found, "the page shows no legal basis"
    return found.group(1)


@pytest.mark.django_db
def test_outcome_page_record_and_csv_show_the_same_basis(
    client_director_a, client_reviewer_a, club_a, director_a
):
    open_ruling = make_ruling(club_a, director_a, ("ja", "nee"), final=False)
    final = make_ruling(club_a, director_a, ("ja", "nee"))
    assert open_ruling.status != Status.FINAL
    assert final.status == Status.FINAL
    outcome_page = client_director_a.get(reverse("wizard:ruling", args=[open_ruling.uuid]))
    record = client_reviewer_a.get(reverse("archive:detail", args=[final.uuid]))
    export = client_reviewer_a.get(reverse("archive:csv"))
    text = b"".join(export.streaming_content).decode("utf-8-sig")
    rows = {row["uuid"]: row for row in csv.DictReader(io.StringIO(text))}
    assert basis_on(outcome_page.content.decode()) == "27 40"
    assert basis_on(record.content.decode()) == "27 40"
    assert rows[str(final.uuid)]["legal_basis"] == "27 40"
    assert rows[str(open_ruling.uuid)]["legal_basis"] == "27 40"


@pytest.mark.django_db
def test_the_migration_fills_the_basis_of_stored_rulings(club_a, director_a):
    made = make_ruling(club_a, director_a, ("ja", "nee"))
    open_ruling = make_ruling(club_a, director_a, ("ja",), final=False)
    # As before the migration: no rows, and the articles of every card on the path.
    LegalBasis.objects.all().delete()
    Ruling.objects.filter(pk=made.pk).update(cited_articles="|25|27|40|")
    Ruling.objects.filter(pk=open_ruling.pk).update(cited_articles="|25|")
    FILL.fill(apps, None)
    made.refresh_from_db()
    open_ruling.refresh_from_db()
    assert list(made.legal_basis.values_list("key", "article", "position")) == [
        ("27", "27", 0),
        ("40", "40", 1),
    ]
    assert made.cited_articles == "|27|40|"
    assert open_ruling.cited_articles == ""
    assert not open_ruling.legal_basis.exists()
    # The tally triggers followed the UPDATEs.
    assert tally.differences() == []


@pytest.mark.django_db
def test_an_answer_that_establishes_a_provision_puts_it_on_the_outcome_record_and_csv(
    shipped, club_a, director_a, client_director_a, client_reviewer_a
):
    """In the shipped tree, "yes, there was a logical alternative" establishes 16B1(b): the
    outcome page, the record and the CSV all show it after the outcome's own provisions."""

    from rulings import wizard
    from trees.validate import paths

    tree = wizard.start("ongeoorloofde-informatie")
    path = next(p for p in paths(tree.tree) if ("logisch-alternatief", "ja") in p.steps)
    ruling = ruling_along(club_a, director_a, tree, path.steps)
    expected = [*dict.fromkeys([*tree.node(path.outcome).cites, "16B1(b)"])]
    assert list(ruling.legal_basis.values_list("key", flat=True)) == expected
    outcome_page = client_director_a.get(reverse("wizard:ruling", args=[ruling.uuid]))
    assert basis_on(outcome_page.content.decode()) == " ".join(expected)
    record = client_reviewer_a.get(reverse("archive:detail", args=[ruling.uuid]))
    assert basis_on(record.content.decode()) == " ".join(expected)
    text = b"".join(client_reviewer_a.get(reverse("archive:csv")).streaming_content)
    rows = list(csv.DictReader(io.StringIO(text.decode("utf-8-sig"))))
    assert rows[0]["legal_basis"] == " ".join(expected)
