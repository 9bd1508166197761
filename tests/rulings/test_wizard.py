"""Wizard transitions without HTTP (rulings/wizard.py) on the small test tree ``proef``.

onbedoeld ─ja──────────────► vervangen ─ja──► vrij-vervangen
    │ nee                        ▲     └nee──► straf
    ▼                            │ja
geaccepteerd ─nee──► afgewezen
"""

import uuid
from datetime import UTC, date, datetime

import pytest
from django.db import connection

from rulings import audit, wizard
from rulings.models import AuditEvent, Mode, Ruling, Status, Step
from rulings.steps import open_rulings, step_view
from rulings.wizard import WizardError
from tests.support.factories import make_tree
from trees import snapshot
from trees.models import Choice, Node, TreeSnapshot
from trees.spec import Text


@pytest.fixture
def frozen(proef_tree):
    return wizard.start("proef")


def begin(frozen, club, director, choice="nee", **extra):
    return wizard.begin(
        uuid=uuid.uuid4(),
        club=club,
        director=director,
        tree=frozen,
        node_key="onbedoeld",
        choice_key=choice,
        **extra,
    ).ruling


@pytest.fixture
def ruling(frozen, club_a, director_a):
    return begin(frozen, club_a, director_a)


def to_outcome(ruling, actor):
    """nee → ja → nee: the outcome 'straf'."""
    wizard.answer(ruling, "geaccepteerd", 2, "ja", actor, revision=ruling.revision)
    return wizard.answer(ruling, "vervangen", 3, "nee", actor, revision=ruling.revision)


def actions(ruling):
    return list(ruling.audit_events.order_by("sequence").values_list("action", flat=True))


def raises(code):
    return pytest.raises(WizardError, match=f"^{code}")


# --- start ---------------------------------------------------------------------------------


def test_start_freezes_the_tree_once_with_the_law_text(proef_tree):
    first = wizard.start("proef")
    again = wizard.start("proef")
    assert first.digest == again.digest
    assert TreeSnapshot.objects.count() == 1
    question = first.node("onbedoeld")
    assert question.text == Text(nl="Was het bod onbedoeld?", en="Was the call unintended?")
    assert [c.key for c in question.choices] == ["ja", "nee"]
    (citation,) = first.citations("onbedoeld")
    assert citation.kind == "official"
    assert "onbedoelde bieding vervangen" in citation.text.nl
    assert "Zolang zijn partner" in citation.text.nl  # the sub-item 25A1 is shown too
    summary, title = first.citations("straf")
    assert summary.kind == "summary"
    assert summary.text.en.startswith("Our summary")
    assert title.kind == "title"
    assert title.article_title == "Afspraken"


def test_start_writes_no_ruling(proef_tree):
    wizard.start("proef")
    assert Ruling.objects.count() == 0


def test_start_refuses_an_unknown_tree(db):
    with raises(WizardError.NO_TREE):
        wizard.start("bestaat-niet")


# --- begin ---------------------------------------------------------------------------------


def test_the_first_answer_creates_the_ruling(frozen, club_a, director_a):
    result = wizard.begin(
        uuid=uuid.uuid4(),
        club=club_a,
        director=director_a,
        tree=frozen,
        node_key="onbedoeld",
        choice_key="nee",
        played_on=date(2024, 5, 1),
    )
    ruling = Ruling.objects.get(pk=result.ruling.pk)
    assert result.number == 2
    assert result.recorded
    assert not result.outcome_reached
    assert ruling.status == Status.IN_PROGRESS
    assert ruling.mode == Mode.LIVE
    assert (ruling.tree_slug, ruling.tree_title, ruling.edition_code) == (
        "proef",
        "Proefboom",
        "1997",
    )
    assert ruling.tree_version == "v1-proef"
    assert ruling.snapshot_id == frozen.digest
    assert ruling.path == [["onbedoeld", "nee"]]
    assert ruling.revision == 1
    assert ruling.current_node_key == "geaccepteerd"
    assert ruling.played_on == date(2024, 5, 1)
    step = ruling.steps.get()
    assert (step.order, step.node_key, step.choice_key, step.superseded) == (
        1,
        "onbedoeld",
        "nee",
        False,
    )
    assert step.question["nl"] == "Was het bod onbedoeld?"
    assert step.answer == {
        "nl": "Nee",
        "en": "No",
    }
    assert step.citations[0]["key"] == "25A"
    assert actions(ruling) == ["started", "answered"]
    started = ruling.audit_events.get(sequence=1)
    assert started.data["snapshot"] == frozen.digest
    assert started.actor == director_a
    assert audit.verify(ruling) == []


def test_a_first_answer_sent_again_is_an_answer_to_the_ruling_it_made(frozen, club_a, director_a):
    """The draft page's uuid is the ruling's: the same first answer again (a double click,
    the back button) changes nothing, another one is stale, and no second ruling is made."""
    first = dict(uuid=uuid.uuid4(), club=club_a, director=director_a, tree=frozen)
    made = wizard.begin(**first, node_key="onbedoeld", choice_key="nee")
    again = wizard.begin(**first, node_key="onbedoeld", choice_key="nee")
    assert again.ruling.pk == made.ruling.pk
    assert not again.recorded
    assert again.number == 2
    with raises(WizardError.STALE):
        wizard.begin(**first, node_key="onbedoeld", choice_key="ja")
    ruling = Ruling.objects.get()
    assert ruling.path == [["onbedoeld", "nee"]]
    assert actions(ruling) == ["started", "answered"]


def test_a_first_answer_never_writes_to_a_stored_ruling(frozen, club_a, director_a):
    """Planned at revision 0, as the draft page was rendered before the ruling existed: an
    answer to the stored ruling's current question is refused (a first answer is to the
    tree's first question), and another first answer is stale."""
    first = dict(uuid=uuid.uuid4(), club=club_a, director=director_a, tree=frozen)
    made = wizard.begin(**first, node_key="onbedoeld", choice_key="nee").ruling
    with raises(WizardError.WRONG_NODE):
        wizard.begin(**first, node_key="geaccepteerd", choice_key="ja")
    with raises(WizardError.STALE):
        wizard.begin(**first, node_key="onbedoeld", choice_key="ja")
    made.refresh_from_db()
    assert made.revision == 1


@pytest.mark.parametrize(
    ("node", "choice", "code"),
    [
        ("geaccepteerd", "ja", WizardError.WRONG_NODE),
        ("onbedoeld", "misschien", WizardError.NOT_A_CHOICE),
    ],
)
def test_a_wrong_first_answer_creates_nothing(frozen, club_a, director_a, node, choice, code):
    with raises(code):
        wizard.begin(
            uuid=uuid.uuid4(),
            club=club_a,
            director=director_a,
            tree=frozen,
            node_key=node,
            choice_key=choice,
        )
    assert not Ruling.objects.exists()
    assert not AuditEvent.objects.exists()


def test_a_ruling_recorded_for_an_earlier_time_keeps_that_time(frozen, club_a, director_a):
    at = datetime(2023, 3, 4, 19, 30, tzinfo=UTC)
    ruling = wizard.begin(
        uuid=uuid.uuid4(),
        club=club_a,
        director=director_a,
        tree=frozen,
        node_key="onbedoeld",
        choice_key="nee",
        at=at,
    ).ruling
    ruling.refresh_from_db()
    assert ruling.created_at == at
    assert ruling.steps.get().answered_at == at
    assert set(ruling.audit_events.values_list("at", flat=True)) == {at}


# --- answer ------------------------------------------------------------------------------


def test_answers_lead_to_the_outcome_with_a_snapshot(ruling, director_a):
    result = to_outcome(ruling, director_a)
    assert result.outcome_reached
    assert result.number == 4
    ruling.refresh_from_db()
    assert ruling.outcome_key == "straf" == ruling.current_node_key
    assert ruling.outcome["title"]["nl"] == "Vervangen met beperkingen"
    assert ruling.outcome["ruling"]["en"] == "Ruling: straf."
    assert ruling.outcome["options"]["nl"] == "De niet-overtredende partij kiest."
    assert ruling.outcome["chooser"] == "nos"
    assert ruling.outcome["adjusted_score"] is True
    assert [c["key"] for c in ruling.outcome["citations"]] == ["27", "40"]
    # The legal basis: the outcome's own citations; the question's card (25) is context only.
    assert list(ruling.legal_basis.values_list("key", "article", "position")) == [
        ("27", "27", 0),
        ("40", "40", 1),
    ]
    assert ruling.cited_articles == "|27|40|"
    assert actions(ruling) == ["started", "answered", "answered", "answered", "outcome_reached"]
    assert ruling.audit_events.get(sequence=5).data == {"step": 3, "outcome": "straf"}
    assert audit.verify(ruling) == []


def test_a_stale_form_changes_nothing(ruling, director_a):
    wizard.answer(ruling, "geaccepteerd", 2, "ja", director_a, revision=1)
    # A second tab still showing step 2 (revision 1) answers it differently.
    before = (Step.objects.count(), AuditEvent.objects.count())
    with raises(WizardError.STALE):
        wizard.answer(ruling, "geaccepteerd", 2, "nee", director_a, revision=1)
    assert (Step.objects.count(), AuditEvent.objects.count()) == before
    ruling.refresh_from_db()
    assert ruling.path == [["onbedoeld", "nee"], ["geaccepteerd", "ja"]]


def test_the_same_answer_twice_is_recorded_once(ruling, director_a):
    first = wizard.answer(ruling, "geaccepteerd", 2, "ja", director_a, revision=1)
    again = wizard.answer(ruling, "geaccepteerd", 2, "ja", director_a, revision=1)
    assert first.recorded
    assert not again.recorded
    assert again.number == 3
    assert ruling.steps.count() == 2
    assert ruling.revision == 2


def test_a_form_for_another_node_is_stale(ruling, director_a):
    with raises(WizardError.STALE):
        wizard.answer(ruling, "vervangen", 2, "ja", director_a, revision=1)
    with raises(WizardError.WRONG_NODE):
        wizard.answer(ruling, "verzonnen", 2, "ja", director_a, revision=1)
    assert ruling.steps.count() == 1


def test_a_choice_of_another_node_is_refused(ruling, director_a):
    with raises(WizardError.NOT_A_CHOICE):
        wizard.answer(ruling, "geaccepteerd", 2, "misschien", director_a, revision=1)
    assert ruling.steps.count() == 1


@pytest.mark.parametrize("number", [0, 3, 17])
def test_a_step_that_is_not_there_is_stale(ruling, director_a, number):
    with raises(WizardError.STALE):
        wizard.answer(ruling, "geaccepteerd", number, "ja", director_a, revision=1)


def test_an_outcome_cannot_be_answered(ruling, director_a):
    to_outcome(ruling, director_a)
    with raises(WizardError.WRONG_NODE):
        wizard.answer(ruling, "straf", 4, "ja", director_a, revision=ruling.revision)


def test_changing_an_answer_supersedes_the_later_steps(ruling, director_a):
    to_outcome(ruling, director_a)
    result = wizard.answer(ruling, "onbedoeld", 1, "ja", director_a, revision=3)
    assert result.recorded
    assert result.number == 2
    assert not result.outcome_reached
    ruling.refresh_from_db()
    assert ruling.path == [["onbedoeld", "ja"]]
    assert ruling.revision == 4
    assert ruling.current_node_key == "vervangen"
    assert ruling.outcome_key == ""
    assert ruling.outcome == {}
    steps = list(
        ruling.steps.order_by("answered_at", "pk").values_list("order", "choice_key", "superseded")
    )
    assert steps == [(1, "nee", True), (2, "ja", True), (3, "nee", True), (1, "ja", False)]
    assert all(s.superseded_at for s in ruling.steps.filter(superseded=True))
    change = ruling.audit_events.order_by("-sequence").first()
    assert change.action == "answer_changed"
    assert change.data == {
        "step": 1,
        "node": "onbedoeld",
        "from": "nee",
        "to": "ja",
        "superseded": [[1, "onbedoeld", "nee"], [2, "geaccepteerd", "ja"], [3, "vervangen", "nee"]],
    }
    assert audit.verify(ruling) == []


def test_the_earlier_answer_is_preselected_when_the_question_returns(ruling, director_a):
    to_outcome(ruling, director_a)  # vervangen was answered 'nee'
    wizard.answer(ruling, "onbedoeld", 1, "ja", director_a, revision=3)
    view = step_view(ruling)
    assert view.node_key == "vervangen"
    assert view.number == 2
    assert view.selected == "nee"
    assert view.selected_earlier
    assert not view.revisit
    assert [c.selected for c in view.choices] == [False, True]


def test_a_question_never_answered_has_nothing_preselected(ruling):
    view = step_view(ruling)
    assert view.node_key == "geaccepteerd"
    assert view.selected is None


def test_looking_back_shows_the_given_answer_and_changes_nothing(ruling, director_a):
    to_outcome(ruling, director_a)
    view = step_view(ruling, 2)
    assert view.revisit
    assert view.node_key == "geaccepteerd"
    assert view.selected == "ja"
    assert [entry.choice_key for entry in view.path] == ["nee", "ja", "nee"]
    # Answering it the same moves on to step 3 without writing anything.
    result = wizard.answer(ruling, "geaccepteerd", 2, "ja", director_a, revision=3)
    assert not result.recorded
    assert result.number == 3
    assert ruling.steps.count() == 3
    assert ruling.audit_events.count() == 5


def test_step_view_clamps_to_the_current_step(ruling):
    assert step_view(ruling, 40).number == 2
    with pytest.raises(ValueError, match=r"^0$"):
        step_view(ruling, 0)


# --- context, defer, resume, save ---------------------------------------------------------


def test_editing_the_context_records_only_the_changes(ruling, director_a):
    result = wizard.edit_context(ruling, {"table": 4, "board": 12, "event": ""}, director_a)
    assert result.recorded
    ruling.refresh_from_db()
    assert (ruling.table, ruling.board) == (4, 12)
    event = ruling.audit_events.order_by("-sequence").first()
    assert event.action == "context_edited"
    assert event.data == {"changes": {"table": [None, 4], "board": [None, 12]}}
    assert not wizard.edit_context(ruling, {"table": 4}, director_a).recorded
    assert audit.verify(ruling) == []


def test_defer_and_resume(ruling, director_a):
    wizard.defer(ruling, director_a)
    assert Ruling.objects.get(pk=ruling.pk).status == Status.DEFERRED
    assert not wizard.defer(ruling, director_a).recorded
    with raises(WizardError.DEFERRED):
        wizard.answer(ruling, "geaccepteerd", 2, "ja", director_a, revision=1)
    wizard.resume(ruling, director_a)
    assert Ruling.objects.get(pk=ruling.pk).status == Status.IN_PROGRESS
    assert not wizard.resume(ruling, director_a).recorded
    assert step_view(ruling).node_key == "geaccepteerd"
    assert actions(ruling)[-2:] == ["deferred", "resumed"]
    assert audit.verify(ruling) == []


def test_save_needs_an_outcome(ruling, director_a):
    with raises(WizardError.NO_OUTCOME):
        wizard.save(ruling, director_a, {"played_on": date(2024, 5, 1), "board": 3})


def test_save_needs_date_and_board_for_a_live_ruling(ruling, director_a):
    to_outcome(ruling, director_a)
    with raises(WizardError.INCOMPLETE):
        wizard.save(ruling, director_a, {"played_on": date(2024, 5, 1)})
    assert Ruling.objects.get(pk=ruling.pk).status == Status.IN_PROGRESS


def test_save_makes_the_ruling_final_with_its_context(ruling, director_a):
    to_outcome(ruling, director_a)
    wizard.save(ruling, director_a, {"played_on": date(2024, 5, 1), "board": 3, "table": 2})
    ruling.refresh_from_db()
    assert ruling.status == Status.FINAL
    assert ruling.finalised_at is not None
    assert (ruling.played_on, ruling.board, ruling.table) == (date(2024, 5, 1), 3, 2)
    assert actions(ruling)[-2:] == ["context_edited", "saved"]
    assert ruling.audit_events.order_by("-sequence").first().data == {
        "outcome": "straf",
        "steps": 3,
    }
    with raises(WizardError.FINAL):
        wizard.answer(ruling, "onbedoeld", 1, "ja", director_a, revision=ruling.revision)
    with raises(WizardError.FINAL):
        wizard.edit_context(ruling, {"board": 4}, director_a)
    with raises(WizardError.FINAL):
        wizard.defer(ruling, director_a)
    with raises(WizardError.FINAL):
        wizard.save(ruling, director_a)
    assert audit.verify(ruling) == []


def test_a_deferred_ruling_at_its_outcome_can_be_saved(ruling, director_a):
    to_outcome(ruling, director_a)
    wizard.defer(ruling, director_a)
    wizard.save(ruling, director_a, {"played_on": date(2024, 5, 1), "board": 9})
    assert Ruling.objects.get(pk=ruling.pk).status == Status.FINAL


def test_a_training_ruling_is_saved_without_table_context(frozen, club_a, director_a):
    ruling = begin(frozen, club_a, director_a, mode=Mode.TRAINING)
    to_outcome(ruling, director_a)
    wizard.save(ruling, director_a)
    assert Ruling.objects.get(pk=ruling.pk).status == Status.FINAL


def test_open_rulings_lists_the_directors_unfinished_live_rulings(
    frozen, club_a, director_a, admin_a
):
    unfinished = begin(frozen, club_a, director_a)
    deferred = begin(frozen, club_a, director_a)
    wizard.defer(deferred, director_a)
    final = begin(frozen, club_a, director_a)
    to_outcome(final, director_a)
    wizard.save(final, director_a, {"played_on": date(2024, 5, 1), "board": 1})
    begin(frozen, club_a, director_a, mode=Mode.TRAINING)
    begin(frozen, club_a, admin_a)
    listed = open_rulings(director_a, [club_a.pk])
    assert {r.pk for r in listed} == {unfinished.pk, deferred.pk}
    assert open_rulings(director_a, []) == []


# --- snapshots: a later change to the tree never changes a ruling ---------------------------


def test_a_reloaded_tree_does_not_change_a_past_or_unfinished_ruling(
    ruling, director_a, proef_tree
):
    final = Ruling.objects.get(pk=ruling.pk)
    to_outcome(final, director_a)
    unfinished = begin(wizard.start("proef"), final.club, director_a)

    # The tree is reloaded with new wording and a new version (as load_trees does).
    Node.objects.filter(tree=proef_tree, key="geaccepteerd").update(text_nl="NIEUW: geaccepteerd?")
    Node.objects.filter(tree=proef_tree, key="straf").update(ruling_nl="NIEUWE beslissing.")
    Choice.objects.filter(node__tree=proef_tree, key="ja").update(label_nl="Jazeker")
    proef_tree.version, proef_tree.loaded_at = "v2-proef", datetime.now(UTC)
    proef_tree.save()
    snapshot.clear_cache()  # as in a fresh process

    final.refresh_from_db()
    assert final.outcome["ruling"]["nl"] == "Beslissing: vervangen met beperkingen."
    assert final.steps.get(order=2).question["nl"] == "Is het bod geaccepteerd?"
    assert [e.answer.nl for e in step_view(final).path] == ["Nee", "Ja", "Nee"]

    unfinished.refresh_from_db()
    view = step_view(unfinished)
    assert view.node.text.nl == "Is het bod geaccepteerd?"
    to_outcome(unfinished, director_a)
    assert unfinished.outcome["ruling"]["nl"] == "Beslissing: vervangen met beperkingen."
    assert unfinished.tree_version == "v1-proef"

    fresh = begin(wizard.start("proef"), final.club, director_a)
    assert fresh.tree_version == "v2-proef"
    assert fresh.snapshot_id != final.snapshot_id
    assert step_view(fresh).node.text.nl == "NIEUW: geaccepteerd?"


def test_two_trees_share_nothing(frozen, club_a, director_a):
    make_tree(slug="ander", title="Andere boom")
    other = wizard.start("ander")
    assert other.digest != frozen.digest
    ruling = begin(other, club_a, director_a)
    assert ruling.tree_slug == "ander"


# --- queries -------------------------------------------------------------------------------


def test_an_answer_costs_three_queries(ruling, director_a, django_assert_num_queries):
    # The compare-and-swap update, the step, the audit events (on PostgreSQL one statement,
    # lib.sql.update_then_insert); the tree comes from memory.
    with django_assert_num_queries(1 if connection.vendor == "postgresql" else 3):
        wizard.answer(ruling, "geaccepteerd", 2, "ja", director_a, revision=1)


def test_changing_an_answer_costs_four_queries(ruling, director_a, django_assert_num_queries):
    wizard.answer(ruling, "geaccepteerd", 2, "ja", director_a, revision=1)
    with django_assert_num_queries(4):
        wizard.answer(ruling, "onbedoeld", 1, "ja", director_a, revision=2)
