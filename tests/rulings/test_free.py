"""Free rulings without HTTP: the law search, the stored shape, drafts, finals, stale forms
and the audit chain."""

import uuid
from datetime import date

import pytest

from laws.models import Article, Edition, Provision
from rulings import audit, free
from rulings.audit import Action
from rulings.errors import WizardError
from rulings.free_forms import FreeForm, with_law
from rulings.models import Ruling, Status
from tests.support.rulings import begin_proef, refused
from transfer import shapes
from trees import citations

BOARD = {"played_on": date(2026, 3, 3), "board": 7, "table": 4}
CLAIM = free.Content(
    laws=("68", "70"),
    decision="De claim wordt betwist; de resterende slagen gaan naar de verdediging.",
    announcement="Ik bepaal het resultaat zo billijk mogelijk.",
)


@pytest.fixture
def edition(db) -> Edition:
    found = free.current_edition()
    assert found is not None
    return found


def make(club, director, edition, content=CLAIM, context=None, final=False) -> Ruling:
    return free.create(
        uuid=uuid.uuid4(),
        club=club,
        director=director,
        edition=edition,
        content=content,
        context=BOARD if context is None else context,
        final=final,
    )


def test_the_current_edition_is_2017(edition):
    assert edition.code == "2017"


def test_suggest_by_number_and_by_word(edition):
    by_key = free.suggest(edition, "16B")
    assert [s.key for s in by_key][:2] == ["16B", "16"]
    by_word = [s.key for s in free.suggest(edition, "claim")]
    assert "68" in by_word
    assert "70" in by_word
    assert free.suggest(edition, "") == []
    assert free.suggest(edition, "99") == []  # no such article


def test_suggestions_under_a_key_follow_the_key_grammar_not_its_spelling(edition):
    """Under 16B1 lie 16B1(a) and 16B1(b), not a 16B10 that merely starts with the same
    characters (the 2017 index stops at 16B3: 16B10 is added for the test)."""
    article = Article.objects.get(edition=edition, number="16")
    parent = Provision.objects.get(article=article, key="16B")
    Provision.objects.create(article=article, parent=parent, label="10", key="16B10", order=99)
    keys_found = [s.key for s in free.suggest(edition, "16B1")]
    assert keys_found == ["16B1", "16", "16B1(a)", "16B1(b)"]
    assert [s.key for s in free.suggest(edition, "16B10")] == ["16B10", "16"]


def test_unknown_laws_are_named_with_the_nearest_keys(edition):
    unknown = free.unknown_laws(edition, ["68", "99", "70B1", "64A1", "13E"])
    assert [(u.key, u.nearest_text) for u in unknown] == [("99", "93"), ("13E", "13A–13D")]


def test_a_final_free_ruling_has_the_shape_of_a_tree_outcome(club_a, director_a, edition):
    ruling = make(club_a, director_a, edition, final=True)
    ruling.refresh_from_db()
    assert ruling.status == Status.FINAL
    assert ruling.finalised_at is not None
    assert ruling.tree_slug == free.FREE_SLUG
    assert ruling.snapshot_id is None
    assert shapes.problems(ruling.outcome, shapes.OUTCOME) == []
    assert citations.decode(ruling.cited_articles) == ["68", "70"]
    cards = ruling.outcome["citations"]
    assert [c["key"] for c in cards] == ["68", "70"]
    assert cards[0]["kind"] == "summary"
    assert "claim" in cards[0]["text"]["nl"].lower()
    assert free.content_of(ruling) == CLAIM
    assert audit.verify(ruling) == []
    actions = list(ruling.audit_events.values_list("action", flat=True))
    assert actions == [Action.STARTED, Action.FREE_WRITTEN, Action.CONTEXT_EDITED, Action.SAVED]


def test_final_needs_laws_decision_date_and_board(club_a, director_a, edition):
    with pytest.raises(WizardError) as raised:
        make(club_a, director_a, edition, content=free.Content(decision="x"), final=True)
    assert raised.value.code == WizardError.INCOMPLETE
    with pytest.raises(WizardError):
        make(club_a, director_a, edition, context={"played_on": date(2026, 3, 3)}, final=True)
    assert not Ruling.objects.exists()


def test_a_draft_is_kept_then_made_final(club_a, director_a, edition):
    draft = make(club_a, director_a, edition, content=free.Content(laws=("68",)), context={})
    assert draft.status == Status.IN_PROGRESS
    free.record(draft, CLAIM, BOARD, director_a, revision=draft.audit_sequence, final=True)
    draft.refresh_from_db()
    assert draft.status == Status.FINAL
    assert draft.board == 7
    assert free.content_of(draft) == CLAIM
    assert audit.verify(draft) == []
    with pytest.raises(WizardError) as raised:
        free.record(draft, CLAIM, BOARD, director_a, revision=draft.audit_sequence, final=False)
    assert raised.value.code == WizardError.FINAL


def test_a_stale_form_changes_nothing_and_a_repeated_one_is_accepted_once(
    club_a, director_a, edition
):
    draft = make(club_a, director_a, edition)
    seen = draft.audit_sequence
    free.record(draft, CLAIM, {**BOARD, "board": 8}, director_a, revision=seen, final=False)
    events = draft.audit_events.count()
    # the same form again (a double click): nothing to do, nothing refused
    again = {**BOARD, "board": 8}
    result = free.record(draft, CLAIM, again, director_a, revision=seen, final=False)
    assert not result.recorded
    # an older form with other text: refused
    other = free.Content(laws=("70",), decision="Anders.")
    with pytest.raises(WizardError) as raised:
        free.record(draft, other, BOARD, director_a, revision=seen, final=False)
    assert raised.value.code == WizardError.STALE
    draft.refresh_from_db()
    assert draft.board == 8
    assert free.content_of(draft) == CLAIM
    assert draft.audit_events.count() == events
    assert draft.revision == 0  # the wizard's count of steps: a free ruling has none


def test_the_same_id_twice_is_a_save_of_that_ruling_as_its_form_was_rendered(
    club_a, director_a, edition
):
    """The second of two first saves at once (a double click) finds the ruling the first one
    made and saves it at revision 0: the same draft again changes nothing, more is stale."""
    ruling = make(club_a, director_a, edition)
    events = ruling.audit_sequence
    again = dict(uuid=ruling.uuid, club=club_a, director=director_a, edition=edition)
    same = free.create(**again, content=CLAIM, context=BOARD, final=False)
    assert same.pk == ruling.pk
    with refused(WizardError.STALE):
        free.create(**again, content=CLAIM, context=BOARD, final=True)
    assert Ruling.objects.count() == 1
    assert Ruling.objects.get().audit_sequence == events


def test_record_refuses_a_tree_ruling(proef_tree, club_a, director_a, edition):
    tree_ruling = begin_proef(club_a, director_a)
    with pytest.raises(WizardError):
        free.record(tree_ruling, CLAIM, BOARD, director_a, revision=1, final=False)


def test_adding_a_law_to_the_typed_list():
    assert with_law("", "68") == "68"
    assert with_law("68", "70") == "68, 70"
    assert with_law("68, 70", "70") == "68, 70"  # once
    assert with_law("43B2b", "43B2(b)") == "43B2b"  # the same key, typed another way
    assert with_law("68", "no key") == "68"


def test_the_form_names_unknown_and_malformed_laws(edition):
    def errors(laws: str, *, for_save: bool = False) -> list[str]:
        form = FreeForm({"laws": laws, "revision": "0"}, edition=edition, for_save=for_save)
        form.is_valid()
        return form.errors.get("laws", [])

    assert errors("68; 70b1") == []
    assert "99" in errors("68, 99")[0]
    assert "64A1(aa)" in errors("64A1(aa)")[0]
    assert errors("", for_save=True) == ["Kies minstens één wetsartikel."]
    assert errors("") == []
