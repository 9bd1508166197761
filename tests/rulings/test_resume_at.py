"""A ruling that waits for the end of play (issue 27C): deferred at its outcome, resumed at the
question the tree names (``resume_at``), where the director answers afresh."""

import uuid

import pytest
from django.urls import reverse

from rulings import wizard
from rulings.models import Status
from tests.support.tree_texts import GOOD, problems_of, replace, tree_from
from trees.hashing import canonical_data
from trees.spec import CitedLaw, Snapshot, content_hash

RESUMING = replace(
    "      unauthorised_information: true\n",
    "      unauthorised_information: true\n      resume_at: vraag-b\n",
)


def test_resume_at_is_parsed_hashed_frozen_and_checked():
    tree = tree_from(RESUMING)
    assert tree.node("uitkomst-b").outcome.resume_at == "vraag-b"
    assert content_hash(tree) != content_hash(tree_from(GOOD))
    assert all(
        "resume_at" not in (n["outcome"] or {}) for n in canonical_data(tree_from(GOOD))["nodes"]
    )
    keys = {k for n in tree.nodes for k in n.cites}
    frozen = Snapshot.of(tree, "v", {k: CitedLaw(key=k, edition="2017") for k in keys})
    again = Snapshot.from_json(frozen.to_json())
    assert again.node("uitkomst-b").outcome.resume_at == "vraag-b"
    assert problems_of(RESUMING) == []
    assert problems_of(RESUMING.replace("resume_at: vraag-b", "resume_at: uitkomst-a")) == [
        "node 'uitkomst-b': resume_at 'uitkomst-a' is not a question of this tree"
    ]
    # uitkomst-c is reached without vraag-b: a deferred ruling would not find it.
    moved = RESUMING.replace("      resume_at: vraag-b\n", "").replace(
        '      announce: {nl: "Zeg C.", en: "Say C."}\n',
        '      announce: {nl: "Zeg C.", en: "Say C."}\n      resume_at: vraag-b\n',
    )
    assert problems_of(moved) == [
        "node 'uitkomst-c': resume_at 'vraag-b' is not on the path weet-niet"
    ]


@pytest.mark.django_db
def test_an_established_revoke_during_play_resumes_at_when_it_was_noticed(
    shipped, club_a, director_a, client_director_a
):
    tree = wizard.start("verzaking")
    answers = [("verzaakt", "ja"), ("voldongen", "ja"), ("moment", "tijdens-spel")]
    ruling = wizard.begin(
        director=director_a,
        tree=tree,
        node_key="verzaakt",
        choice_key="ja",
        uuid=uuid.uuid4(),
        club=club_a,
    ).ruling
    for number, (node_key, choice_key) in enumerate(answers[1:], start=2):
        ruling = wizard.answer(ruling, node_key, number, choice_key, director_a).ruling
    assert ruling.outcome_key == "voldongen-doorspelen"
    page = client_director_a.get(reverse("wizard:ruling", args=[ruling.uuid])).content.decode()
    assert 'data-resume-at="moment"' in page
    client_director_a.post(reverse("wizard:defer", args=[ruling.uuid]), {"table": 2, "board": 5})
    ruling.refresh_from_db()
    assert ruling.status == Status.DEFERRED
    response = client_director_a.post(reverse("wizard:resume", args=[ruling.uuid]))
    assert response.status_code == 302
    assert response["Location"] == reverse("wizard:step", args=[ruling.uuid, 3])
    ruling.refresh_from_db()
    assert ruling.status == Status.IN_PROGRESS
    # Answered afresh after play: the same ruling goes on to the outcome that applies now.
    ruling = wizard.answer(ruling, "moment", 3, "na-spel", director_a).ruling
    assert ruling.outcome_key != "voldongen-doorspelen"
    assert ruling.path[:2] == [["verzaakt", "ja"], ["voldongen", "ja"]]
    assert wizard.resume_step(ruling) is None


@pytest.mark.django_db
def test_a_revoke_not_yet_certain_resumes_at_the_first_question_after_play(
    shipped, club_a, director_a, client_director_a
):
    """'Staat nog niet vast': play on, inspect the tricks after play, and answer "was there a
    revoke?" again in the same ruling, never the whole tree from a new one."""
    tree = wizard.start("verzaking")
    ruling = wizard.begin(
        director=director_a,
        tree=tree,
        node_key="verzaakt",
        choice_key="onduidelijk",
        uuid=uuid.uuid4(),
        club=club_a,
    ).ruling
    assert ruling.outcome_key == "later-vaststellen"
    assert ruling.outcome["resume_at"] == "verzaakt"
    wizard.defer(ruling, director_a)
    response = client_director_a.post(reverse("wizard:resume", args=[ruling.uuid]))
    assert response["Location"] == reverse("wizard:step", args=[ruling.uuid, 1])
    ruling.refresh_from_db()
    ruling = wizard.answer(ruling, "verzaakt", 1, "ja", director_a, revision=ruling.revision).ruling
    assert ruling.path == [["verzaakt", "ja"]]
    assert ruling.outcome_key == ""
    assert ruling.steps.filter(superseded=False).count() == 1
    assert ruling.steps.filter(superseded=True).count() == 1


@pytest.mark.django_db
def test_the_revoke_outcomes_that_wait_for_the_end_of_play_say_defer_not_walk_again(shipped):
    tree = wizard.start("verzaking")
    for key in ("voldongen-doorspelen", "later-vaststellen"):
        outcome = tree.node(key).outcome
        assert outcome.resume_at
        assert "opnieuw doorlopen" not in outcome.ruling.nl
        assert "boom opnieuw" not in outcome.ruling.nl
        assert "tree again" not in outcome.ruling.en
        assert "deze arbitrage nu uit" in " ".join(outcome.ruling.nl.lower().split())
        assert "defer this ruling now" in " ".join(outcome.ruling.en.lower().split())
