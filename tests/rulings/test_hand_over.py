"""An outcome that hands over to another tree goes on in the same ruling (issue 27C): both
trees' paths in order, one audit chain, one save, the legal basis the union in order."""

from __future__ import annotations

import uuid
from datetime import date

import pytest
from django.test import Client
from django.urls import reverse

from rulings import audit, hand_over, wizard
from rulings.audit import Action
from rulings.errors import WizardError
from rulings.models import AuditEvent, LegalBasis, Mode, Status, Step
from tests.support.rulings import ruling_along
from trees.validate import paths

FIRST = ("verzaakt", "strafkaart")  # "a defender did not play his penalty card"
HANDS_OVER = "zie-strafkaart"  # see_tree: strafkaart
PLAYED = date(2026, 12, 4)


def _second_path(outcome: str | None = None) -> list[tuple[str, str]]:
    tree = wizard.start("strafkaart")
    found = [p for p in paths(tree.tree) if outcome is None or p.outcome == outcome]
    return list(min(found, key=lambda p: (len(p.steps), p.outcome)).steps)


def _at_hand_over(club, director, mode=Mode.LIVE, **extra):
    result = wizard.begin(
        director=director,
        tree=wizard.start("verzaking"),
        node_key=FIRST[0],
        choice_key=FIRST[1],
        uuid=uuid.uuid4(),
        club=club,
        mode=mode,
        **extra,
    )
    assert result.ruling.outcome_key == HANDS_OVER
    return result.ruling


def _answer_all(ruling, director, steps, first=1):
    for number, (node_key, choice_key) in enumerate(steps, start=first):
        ruling = wizard.answer(
            ruling, node_key, number, choice_key, director, revision=ruling.revision
        ).ruling
    return ruling


def _basis(ruling) -> list[str]:
    return list(LegalBasis.objects.filter(ruling=ruling).values_list("key", flat=True))


# --------------------------------------------------------------------------------------------
# The planner, without HTTP


@pytest.mark.django_db
def test_a_hand_over_goes_on_in_the_same_ruling_and_saves_once(shipped, club_a, director_a):
    ruling = _at_hand_over(club_a, director_a)
    first_basis = _basis(ruling)
    revision = ruling.revision
    result = hand_over.hand_over(
        ruling, HANDS_OVER, revision, wizard.start("strafkaart"), director_a
    )
    assert result.recorded
    assert result.number == 1
    ruling.refresh_from_db()
    assert (ruling.tree_slug, ruling.path, ruling.outcome_key) == ("strafkaart", [], "")
    assert ruling.current_node_key == wizard.start("strafkaart").start
    (part,) = ruling.handed_over
    assert set(part) == set(hand_over.PART_KEYS)
    assert (part["tree"], part["outcome_key"], part["path"]) == (
        "verzaking",
        HANDS_OVER,
        [list(FIRST)],
    )
    assert part["basis"] == first_basis
    # Until the second tree decides, the legal basis is the first tree's.
    assert _basis(ruling) == first_basis

    second = _second_path()
    ruling = _answer_all(ruling, director_a, second)
    assert ruling.outcome_key
    steps = Step.objects.filter(ruling=ruling, superseded=False).order_by("order")
    assert [(s.order, s.node_key) for s in steps] == [
        (n, node) for n, (node, _choice) in enumerate([FIRST, *second], start=1)
    ]
    tree = wizard.start("strafkaart")
    own = wizard.legal_basis.tree_basis(tree, ruling.path, ruling.outcome_key)
    union = list(dict.fromkeys([*first_basis, *own]))
    assert _basis(ruling) == union
    assert ruling.cited_articles == wizard.legal_basis.articles(union)

    wizard.save(ruling, director_a, context={"played_on": PLAYED, "board": 4})
    ruling.refresh_from_db()
    assert ruling.status == Status.FINAL
    actions = list(ruling.audit_events.values_list("action", flat=True))
    assert actions.count(Action.SAVED) == 1
    assert actions.count(Action.STARTED) == 1
    assert actions[:4] == [
        Action.STARTED,
        Action.ANSWERED,
        Action.OUTCOME_REACHED,
        Action.HANDED_OVER,
    ]
    assert audit.verify(ruling) == []
    handed = ruling.audit_events.get(action=Action.HANDED_OVER).data
    assert handed["from"]["outcome"] == HANDS_OVER
    assert handed["to"]["tree"] == "strafkaart"
    answered = ruling.audit_events.filter(action=Action.ANSWERED).values_list("data", flat=True)
    assert [d["step"] for d in answered] == list(range(1, len(second) + 2))


@pytest.mark.django_db
def test_the_same_hand_over_sent_twice_is_made_once(shipped, club_a, director_a):
    ruling = _at_hand_over(club_a, director_a)
    revision = ruling.revision
    to = wizard.start("strafkaart")
    assert hand_over.hand_over(ruling, HANDS_OVER, revision, to, director_a).recorded
    again = hand_over.hand_over(ruling, HANDS_OVER, revision, to, director_a)
    assert not again.recorded
    # Even after an answer in the second tree, the old form changes nothing.
    node, choice = _second_path()[0]
    ruling = wizard.answer(ruling, node, 1, choice, director_a, revision=ruling.revision).ruling
    stale = hand_over.hand_over(ruling, HANDS_OVER, revision, to, director_a)
    assert not stale.recorded
    ruling.refresh_from_db()
    assert len(ruling.handed_over) == 1
    assert ruling.path == [[node, choice]]
    assert ruling.audit_events.filter(action=Action.HANDED_OVER).count() == 1


@pytest.mark.django_db
def test_a_stale_or_wrong_hand_over_is_refused_and_writes_nothing(shipped, club_a, director_a):
    ruling = _at_hand_over(club_a, director_a)
    to = wizard.start("strafkaart")
    before = (ruling.revision, ruling.audit_sequence)
    cases = [
        (HANDS_OVER, ruling.revision - 1, to, WizardError.STALE),
        ("geen-verzaking", ruling.revision, to, WizardError.STALE),
        (HANDS_OVER, ruling.revision, wizard.start("claim"), WizardError.NO_HAND_OVER),
    ]
    for outcome, revision, tree, code in cases:
        with pytest.raises(WizardError) as refused:
            hand_over.hand_over(ruling, outcome, revision, tree, director_a)
        assert refused.value.code == code
    wizard.defer(ruling, director_a)
    with pytest.raises(WizardError) as refused:
        hand_over.hand_over(ruling, HANDS_OVER, ruling.revision, to, director_a)
    assert refused.value.code == WizardError.DEFERRED
    ruling.refresh_from_db()
    assert ruling.handed_over == []
    assert ruling.revision == before[0]
    assert not AuditEvent.objects.filter(ruling=ruling, action=Action.HANDED_OVER).exists()


@pytest.mark.django_db
def test_a_practice_stays_in_its_case_tree(shipped, club_a, director_a):
    ruling = _at_hand_over(club_a, director_a, mode=Mode.TRAINING)
    with pytest.raises(WizardError) as refused:
        hand_over.hand_over(
            ruling, HANDS_OVER, ruling.revision, wizard.start("strafkaart"), director_a
        )
    assert refused.value.code == WizardError.NO_HAND_OVER


@pytest.mark.django_db
def test_changing_an_answer_in_the_second_tree_keeps_the_first(shipped, club_a, director_a):
    ruling = _at_hand_over(club_a, director_a)
    first_basis = _basis(ruling)
    hand_over.hand_over(ruling, HANDS_OVER, ruling.revision, wizard.start("strafkaart"), director_a)
    second = _second_path()
    ruling = _answer_all(ruling, director_a, second)
    tree = wizard.start("strafkaart")
    node, old = second[0]
    other = next(c.key for c in tree.node(node).choices if c.key != old)
    ruling = wizard.answer(ruling, node, 1, other, director_a, revision=ruling.revision).ruling
    live = Step.objects.filter(ruling=ruling, superseded=False).order_by("order")
    assert [(s.order, s.node_key, s.choice_key) for s in live][:2] == [
        (1, *FIRST),
        (2, node, other),
    ]
    gone = Step.objects.filter(ruling=ruling, superseded=True)
    assert {s.order for s in gone} == set(range(2, len(second) + 2))
    if not ruling.outcome_key:
        # Left the outcome: the basis is the first tree's again.
        assert _basis(ruling) == first_basis
    assert audit.verify(ruling) == []


# --------------------------------------------------------------------------------------------
# The page


@pytest.mark.django_db
def test_the_outcome_page_offers_the_hand_over_as_a_form(
    shipped, club_a, director_a, client_director_a
):
    ruling = _at_hand_over(club_a, director_a)
    page = client_director_a.get(reverse("wizard:ruling", args=[ruling.uuid])).content.decode()
    assert "data-hand-over" in page
    assert f'action="{reverse("wizard:hand_over", args=[ruling.uuid])}"' in page
    assert f'name="revision" value="{ruling.revision}"' in page
    assert "Verder met de beslisboom Strafkaart" in page
    assert 'name="csrfmiddlewaretoken"' in page


@pytest.mark.django_db
def test_the_hand_over_post_without_and_with_htmx(
    shipped, club_a, director_a, client_director_a, django_assert_max_num_queries
):
    ruling = _at_hand_over(club_a, director_a)
    url = reverse("wizard:hand_over", args=[ruling.uuid])
    form = {"outcome": HANDS_OVER, "revision": ruling.revision, "tree": "strafkaart"}
    wizard.start("strafkaart")  # the snapshot frozen once per process, as for a first answer
    # Session, user, ruling, tree row; the compare-and-swap, the event and the statistics'
    # row of the earlier tree: whatever the paths.
    with django_assert_max_num_queries(7):
        response = client_director_a.post(url, form)
    assert response.status_code == 302
    assert response["Location"] == reverse("wizard:step", args=[ruling.uuid, 1])
    # The second click of a double click: the same state, no second hand-over.
    response = client_director_a.post(url, form, headers={"HX-Request": "true"})
    assert response.status_code == 200
    page = response.content.decode()
    assert "data-handed-over" in page
    assert "Vervolg van de beslisboom Verzaking (1 antwoord)" in page
    ruling.refresh_from_db()
    assert len(ruling.handed_over) == 1
    assert ruling.audit_events.filter(action=Action.HANDED_OVER).count() == 1


@pytest.mark.django_db
def test_the_hand_over_is_refused_in_place(shipped, club_a, director_a, client_director_a):
    ruling = _at_hand_over(club_a, director_a)
    url = reverse("wizard:hand_over", args=[ruling.uuid])
    for form in (
        {"outcome": HANDS_OVER, "revision": ruling.revision, "tree": "claim"},
        {"outcome": HANDS_OVER, "revision": "x", "tree": "strafkaart"},
        {"outcome": HANDS_OVER, "revision": ruling.revision, "tree": "bestaat-niet"},
    ):
        response = client_director_a.post(url, form, follow=True)
        assert response.status_code == 200
        assert "data-hand-over" in response.content.decode()  # still at the outcome
    ruling.refresh_from_db()
    assert ruling.handed_over == []


@pytest.mark.django_db
def test_the_hand_over_needs_csrf_and_the_rulings_director(
    shipped, club_a, director_a, director_b, client_director_b
):
    ruling = _at_hand_over(club_a, director_a)
    url = reverse("wizard:hand_over", args=[ruling.uuid])
    form = {"outcome": HANDS_OVER, "revision": ruling.revision, "tree": "strafkaart"}
    strict = Client(enforce_csrf_checks=True)
    strict.force_login(director_a)
    assert strict.post(url, form).status_code == 403
    assert client_director_b.post(url, form).status_code == 404
    ruling.refresh_from_db()
    assert ruling.handed_over == []


@pytest.mark.django_db
def test_the_record_shows_both_trees_in_order_and_one_trail(
    shipped, club_a, director_a, client_director_a, client_reviewer_a
):
    ruling = _at_hand_over(club_a, director_a)
    hand_over.hand_over(ruling, HANDS_OVER, ruling.revision, wizard.start("strafkaart"), director_a)
    ruling = _answer_all(ruling, director_a, _second_path())
    outcome_page = client_director_a.get(reverse("wizard:ruling", args=[ruling.uuid]))
    assert f'data-legal-basis="{" ".join(_basis(ruling))}"' in outcome_page.content.decode()
    wizard.save(ruling, director_a, context={"played_on": PLAYED, "board": 4})
    page = client_reviewer_a.get(reverse("archive:detail", args=[ruling.uuid])).content.decode()
    first, second = page.index('data-tree-part="1"'), page.index('data-tree-part="2"')
    assert first < page.index("Is er verzaakt?") < page.index("data-handed-over-outcome") < second
    assert "Strafkaart niet gespeeld" in page[first:second]  # the first tree's outcome
    assert "verder in de beslisboom strafkaart, in deze arbitrage" in page
    # The trail words each event in its own tree: the first answer in the revoke tree's words,
    # the second tree's first answer numbered on.
    assert "Vraag 1 ‘Is er verzaakt?’: Ja: een tegenspeler speelde niet zijn strafkaart" in page
    second_question = wizard.start("strafkaart").node(_second_path()[0][0]).text.nl
    assert f"Vraag 2 ‘{second_question}’" in page
    # The outcome page, the record and its print show the same basis: both trees', in order.
    shown = f'data-legal-basis="{" ".join(_basis(ruling))}"'
    assert page.count(shown) == 2  # the record's section and its print
    assert "Artikel 52</span> – " in page  # the first tree's law, titled from its snapshot


@pytest.mark.django_db
def test_the_csv_names_the_earlier_tree_and_the_whole_basis(
    shipped, club_a, director_a, client_reviewer_a
):
    import csv
    import io

    ruling = _at_hand_over(club_a, director_a)
    hand_over.hand_over(ruling, HANDS_OVER, ruling.revision, wizard.start("strafkaart"), director_a)
    ruling = _answer_all(ruling, director_a, _second_path())
    wizard.save(ruling, director_a, context={"played_on": PLAYED, "board": 4})
    text = b"".join(client_reviewer_a.get(reverse("archive:csv")).streaming_content)
    (row,) = list(csv.DictReader(io.StringIO(text.decode("utf-8-sig"))))
    assert row["handed_over"] == f"verzaking:{HANDS_OVER}"
    assert row["tree"] == "strafkaart"
    assert row["legal_basis"].split() == _basis(ruling)


def _saved_hand_over(club, director):
    ruling = _at_hand_over(club, director)
    hand_over.hand_over(ruling, HANDS_OVER, ruling.revision, wizard.start("strafkaart"), director)
    ruling = _answer_all(ruling, director, _second_path())
    wizard.save(ruling, director, context={"played_on": PLAYED, "board": 4})
    ruling.refresh_from_db()
    return ruling


@pytest.mark.django_db
def test_statistics_count_the_ruling_once_per_tree_and_once_in_all(shipped, club_a, director_a):
    from archive import stats
    from rulings.models import HandOver, Ruling

    ruling = _saved_hand_over(club_a, director_a)
    assert list(HandOver.objects.values_list("ruling", "tree_slug", "outcome_key")) == [
        (ruling.pk, "verzaking", HANDS_OVER)
    ]
    rulings = Ruling.objects.filter(club=club_a)
    counts = stats.Counts.of(stats.groups(rulings))
    total, breakdowns = stats.summarise(counts, rulings, {"verzaking": "V", "strafkaart": "S"})
    assert total == 1
    per_tree = next(b.rows for b in breakdowns if b.key == "irregularity")
    assert sorted(per_tree) == [("S", 1), ("V", 1)]
    assert next(b.rows for b in breakdowns if b.key == "director")[0][1] == 1


@pytest.mark.django_db
def test_a_bundle_carries_both_trees_and_imports_them_again(shipped, club_a, director_a):
    import json

    from django.db import connection

    from rulings.models import HandOver
    from tests.support.transfer import import_text
    from transfer import bundles

    ruling = _saved_hand_over(club_a, director_a)
    basis, parts = _basis(ruling), ruling.handed_over
    text = "".join(bundles.iter_bundle(club_a))
    data = json.loads(text)
    (sent,) = data["rulings"]
    assert sent["handed_over"] == parts
    digests = {item["digest"] for item in data["snapshots"]}
    assert digests == {ruling.snapshot_id, parts[0]["snapshot"]}

    # A hand-edited part is refused by name; nothing is imported.
    broken = json.loads(text)
    del broken["rulings"][0]["handed_over"][0]["basis"]
    with connection.cursor() as cursor:
        cursor.execute("DELETE FROM rulings_auditevent WHERE ruling_id = %s", [ruling.pk])
    ruling.delete()
    with pytest.raises(Exception, match="handed_over"):
        import_text(json.dumps(broken), club_a)

    import_text(text, club_a)
    again = type(ruling).objects.get(uuid=ruling.uuid)
    assert again.handed_over == parts
    assert _basis(again) == basis
    assert list(HandOver.objects.filter(ruling=again).values_list("tree_slug", flat=True)) == [
        "verzaking"
    ]
    assert audit.verify(again) == []


@pytest.mark.django_db
def test_hostile_hand_over_forms_change_nothing(shipped, club_a, director_a, client_director_a):
    """Odd outcome keys, revisions and tree names (texts, huge or negative numbers, other
    trees, stale revisions): answered in place, never a second tree or a broken chain."""
    from hypothesis import HealthCheck, assume, given, settings
    from hypothesis import strategies as st

    from tests.support.hostile import hostile_text, number_like

    ruling = _at_hand_over(club_a, director_a)
    url = reverse("wizard:hand_over", args=[ruling.uuid])
    keys = st.sampled_from([HANDS_OVER, "geen-verzaking", "strafkaart", "verzaakt", ""])
    trees = st.sampled_from(["strafkaart", "claim", "verzaking", "vrij", "", "STRAFKAART"])

    @settings(
        max_examples=25,
        deadline=None,
        suppress_health_check=[HealthCheck.function_scoped_fixture],
    )
    @given(
        outcome=st.one_of(keys, hostile_text),
        revision=st.one_of(st.sampled_from([0, ruling.revision - 1, -1, 10**12]), number_like),
        tree=st.one_of(trees, hostile_text),
        htmx=st.booleans(),
    )
    def post(outcome, revision, tree, htmx):
        # The one valid form (this very hand-over) is not hostile.
        valid = (outcome.strip(), str(revision).strip(), tree.strip())
        assume(valid != (HANDS_OVER, str(ruling.revision), "strafkaart"))
        form = {"outcome": outcome, "revision": revision, "tree": tree}
        headers = {"HX-Request": "true"} if htmx else {}
        response = client_director_a.post(url, form, headers=headers)
        assert response.status_code in (200, 302)
        stored = type(ruling).objects.get(pk=ruling.pk)
        assert stored.handed_over == []
        assert stored.tree_slug == "verzaking"
        assert audit.verify(stored) == []

    post()


@pytest.mark.django_db
def test_a_practice_at_a_hand_over_names_the_next_tree_and_is_graded_there(
    shipped, club_a, director_a, client_director_a
):
    from tests.support.practice import case, practise
    from training import grading

    practice_case = case(
        tree_slug="verzaking",
        expected_outcomes=[HANDS_OVER],
        expected_path=[list(FIRST)],
        club=club_a,
        slug="vz-strafkaart-niet-gespeeld",
        title_nl="Strafkaart niet gespeeld",
        title_en="Penalty card not played",
    )
    practice_case.save()
    ruling = practise(director_a, practice_case, [FIRST[1]])
    ruling.refresh_from_db()
    page = client_director_a.get(reverse("training:attempt", args=[ruling.uuid]))
    text = page.content.decode()
    assert "data-hand-over-tree" in text
    assert reverse("wizard:hand_over", args=[ruling.uuid]) not in text
    result = grading.grade(ruling)
    assert result.correct
    assert result.outcome_key == HANDS_OVER


@pytest.mark.django_db
def test_the_appeal_form_names_both_trees(shipped, club_a, director_a, client_reviewer_a):
    ruling = _saved_hand_over(club_a, director_a)
    page = client_reviewer_a.get(reverse("archive:appeal_form", args=[ruling.uuid]))
    text = page.content.decode()
    assert "Verzaking (Strafkaart niet gespeeld) → Strafkaart" in text
    assert "Is er verzaakt?" in text  # the first tree's fact, before the second tree's


def _handing_outcomes() -> list[tuple[str, str, str]]:
    """Every shipped outcome that names another tree (``see_tree``), from the files."""
    from pathlib import Path

    from trees.parse import load_tree_file

    root = Path(__file__).resolve().parents[2] / "trees" / "files"
    found = []
    for path in sorted(root.glob("*.yaml")):
        if path.name.endswith(".cases.yaml"):
            continue
        tree = load_tree_file(path)
        found += [
            (tree.slug, node.key, node.outcome.see_tree)
            for node in tree.nodes
            if node.outcome is not None and node.outcome.see_tree
        ]
    return found


@pytest.mark.django_db
@pytest.mark.parametrize(("slug", "outcome", "target"), _handing_outcomes())
def test_every_outcome_that_names_another_tree_hands_over(
    shipped, club_a, director_a, slug, outcome, target
):
    tree = wizard.start(slug)
    path = min((p for p in paths(tree.tree) if p.outcome == outcome), key=lambda p: len(p.steps))
    ruling = ruling_along(club_a, director_a, tree, list(path.steps))
    assert ruling.outcome_key == outcome
    result = hand_over.hand_over(ruling, outcome, ruling.revision, wizard.start(target), director_a)
    assert result.recorded
    ruling.refresh_from_db()
    assert (ruling.tree_slug, ruling.path, ruling.handed_over[0]["outcome_key"]) == (
        target,
        [],
        outcome,
    )
    assert audit.verify(ruling) == []
