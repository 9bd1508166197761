"""Training logic without HTTP: grading and the first divergence, Markdown, join codes,
practice rulings through the wizard functions, session grid and scores."""

import io
import shutil

import pytest

from rulings import wizard
from rulings.models import Mode, Status
from tests.support import recorded
from training import files as training_files
from training.files import tree_spec
from training.grading import first_divergence, grade, grade_path, ruling_path, ruling_tree
from training.models import SessionParticipant, TrainingCase, TrainingResult, TrainingSession
from training.practice import (
    CODE_LENGTH,
    begin_practice,
    new_join_code,
    normalise_code,
    session_grid,
    tree_scores,
)
from trees import snapshot
from trees.loading import TREES_DIR, load_trees

MODEL = [
    ["onbedoeld", "nee"],
    ["voor-de-beurt", "nee"],
    ["lho-accepteert", "nee"],
    ["al-vervangen", "nee"],
    ["vervanging", "vergelijkbaar"],
]


def case(**fields) -> TrainingCase:
    defaults = {
        "tree_slug": "onvoldoende-bod",
        "expected_outcomes": ["b1b"],
        "expected_path": MODEL,
    }
    return TrainingCase(**{**defaults, **fields})


# --- Paths and grading ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("trainee", "model", "expected"),
    [
        ([["a", "x"], ["b", "y"]], [["a", "x"], ["b", "y"]], None),
        ([["a", "x"], ["b", "n"]], [["a", "x"], ["b", "y"]], 1),
        ([["a", "n"]], [["a", "x"], ["b", "y"]], 0),
        ([["a", "x"]], [["a", "x"], ["b", "y"]], 1),
        ([], [["a", "x"]], 0),
    ],
)
def test_first_divergence(trainee, model, expected):
    assert first_divergence(trainee, model) == expected


def test_following_the_model_path_is_right():
    result = grade_path(case(), MODEL, "b1b", tree_spec("onvoldoende-bod"))
    assert result.correct
    assert result.divergence is None


def test_a_wrong_turn_is_wrong_and_found():
    trainee = [*MODEL[:4], ["vervanging", "andere"]]
    result = grade_path(case(), trainee, "b2", tree_spec("onvoldoende-bod"))
    assert not result.correct
    assert result.divergence == 4
    assert result.model_path == [tuple(step) for step in MODEL]


def test_with_a_model_path_the_right_outcome_by_another_route_is_wrong():
    # Same outcome b1b, but the trainee said the bid had already been replaced.
    trainee = [*MODEL[:3], ["al-vervangen", "ja"], ["vervangen-door", "vergelijkbaar"]]
    result = grade_path(case(), trainee, "b1b", tree_spec("onvoldoende-bod"))
    assert not result.correct
    assert result.divergence == 3


def test_without_a_model_path_any_route_to_an_expected_outcome_is_right():
    trainee = [*MODEL[:3], ["al-vervangen", "ja"], ["vervangen-door", "vergelijkbaar"]]
    result = grade_path(case(expected_path=[]), trainee, "b1b", tree_spec("onvoldoende-bod"))
    assert result.correct
    assert result.divergence is None
    assert result.model_path == [tuple(step) for step in trainee]


def test_without_a_model_path_the_closest_tree_path_is_the_model():
    trainee = [*MODEL[:4], ["vervanging", "andere"]]
    result = grade_path(case(expected_path=[]), trainee, "b2", tree_spec("onvoldoende-bod"))
    assert not result.correct
    assert result.model_path[:4] == [tuple(step) for step in MODEL[:4]]
    assert result.divergence == 4


def test_several_expected_outcomes():
    loose = case(expected_path=[], expected_outcomes=["b1a", "b1b"])
    path = [*MODEL[:4], ["vervanging", "laagste-zelfde"]]
    assert grade_path(loose, path, "b1a", tree_spec("onvoldoende-bod")).correct


# --- Codes ---------------------------------------------------------------------------------


def test_join_codes_are_short_and_unambiguous(db):
    codes = {new_join_code() for _ in range(50)}
    assert len(codes) == 50
    for code in codes:
        assert len(code) == CODE_LENGTH
        assert not set(code) & set("01IO")


def test_codes_are_normalised():
    assert normalise_code(" ab3-def ") == "AB3DEF"


# --- Practice rulings through the wizard --------------------------------------------------


@pytest.fixture
def loaded(db):
    recorded.shipped_laws_and_trees()
    recorded.shipped_cases()


def practise(user, training_case, answers, session=None):
    tree = wizard.start(training_case.tree_slug)
    ruling = begin_practice(user, training_case, session, tree.start, answers[0]).ruling
    for number, answer in enumerate(answers[1:], start=2):
        wizard.answer(ruling, ruling.current_node_key, number, answer, user)
    return ruling


def stayman() -> TrainingCase:
    return TrainingCase.objects.get(slug="ob-stayman-via-cuebid", club__isnull=True)


RIGHT = ["nee", "nee", "nee", "nee", "vergelijkbaar"]
WRONG = ["nee", "nee", "nee", "nee", "andere"]


def test_a_practice_ruling_is_a_training_ruling_linked_to_its_case(loaded, director_a, club_a):
    ruling = practise(director_a, stayman(), RIGHT[:2])
    assert ruling.mode == Mode.TRAINING
    assert ruling.club == club_a
    assert ruling.training_case == stayman()
    assert ruling.training_session is None


def test_grading_fixes_the_result_and_finishes_the_ruling(loaded, director_a):
    ruling = practise(director_a, stayman(), WRONG)
    result = grade(ruling)
    assert not result.correct
    assert result.divergence == 4
    assert result.outcome_key == "b2"
    ruling.refresh_from_db()
    assert ruling.status == Status.FINAL
    # Grading again keeps the first result.
    assert grade(ruling) == result
    assert TrainingResult.objects.count() == 1
    with pytest.raises(wizard.WizardError):
        wizard.answer(ruling, "vervanging", 5, "vergelijkbaar", director_a)


def test_a_practice_is_graded_on_its_snapshot_not_on_the_tree_as_edited_later(
    loaded, director_a, tmp_path, monkeypatch
):
    """Editing and reloading the tree after a practice changes neither its grade nor its
    model path: the practice is graded against the snapshot its ruling ran on."""
    loose = TrainingCase.objects.create(
        slug="los", tree_slug="onvoldoende-bod", expected_outcomes=["b1b"], expected_path=[]
    )
    ruling = practise(director_a, loose, WRONG)  # ends in b2
    # The tree is edited and reloaded: 'andere' now leads to b1b, 'vergelijkbaar' to b2.
    trees = tmp_path / "trees"
    shutil.copytree(TREES_DIR, trees)
    source = trees / "onvoldoende-bod.yaml"
    text = source.read_text(encoding="utf-8")
    swapped = text.replace("next: b1b", "next: TMP").replace("next: b2", "next: b1b")
    source.write_text(swapped.replace("next: TMP", "next: b2"), encoding="utf-8")
    assert load_trees(trees, stdout=io.StringIO()).loaded == ["onvoldoende-bod"]
    monkeypatch.setattr(training_files, "TREES_DIR", trees)
    snapshot.clear_cache()  # as in a fresh process
    edited = tree_spec("onvoldoende-bod")
    # Graded on the edited tree, the trainee's path would be the model path itself.
    assert grade_path(loose, ruling_path(ruling), "b2", edited).divergence is None

    result = grade(ruling)

    assert not result.correct
    assert result.outcome_key == "b2"
    assert result.model_path == [list(step) for step in MODEL]
    assert result.divergence == 4
    assert ruling_tree(ruling).node("vervanging").choice("andere").target == "b2"


def test_an_unfinished_practice_cannot_be_graded(loaded, director_a):
    ruling = practise(director_a, stayman(), RIGHT[:3])
    with pytest.raises(wizard.WizardError):
        grade(ruling)
    assert not TrainingResult.objects.exists()


def test_session_grid_counts_the_first_graded_attempt(
    loaded, trainer_a, director_a, reviewer_a, club_a, django_assert_max_num_queries
):
    session = TrainingSession.objects.create(
        club=club_a, trainer=trainer_a, title="Dinsdag", code="ABCDEF"
    )
    other = TrainingCase.objects.get(slug="sk-hartenheer-valt", club__isnull=True)
    session.cases.set([stayman(), other])
    for user in (director_a, reviewer_a):
        SessionParticipant.objects.create(session=session, user=user)
    grade(practise(director_a, stayman(), WRONG, session))
    grade(practise(director_a, stayman(), RIGHT, session))
    practise(reviewer_a, stayman(), RIGHT[:2], session)

    with django_assert_max_num_queries(3):
        cases, rows = session_grid(session)
    assert [c.slug for c in cases] == ["sk-hartenheer-valt", "ob-stayman-via-cuebid"]
    anna, rik = rows
    assert anna.user == director_a
    assert [c.status for c in anna.cells] == ["todo", "wrong"]
    assert anna.cells[1].attempts == 2
    assert [c.status for c in rik.cells] == ["todo", "busy"]
    assert (anna.right, anna.done) == (0, 1)


def test_scores_per_tree(loaded, director_a):
    grade(practise(director_a, stayman(), WRONG))
    grade(practise(director_a, stayman(), RIGHT))
    heart = TrainingCase.objects.get(slug="sk-hartenheer-valt", club__isnull=True)
    path = [choice for _node, choice in heart.expected_path]
    grade(practise(director_a, heart, path))
    scores = {score.tree_slug: score for score in tree_scores(director_a)}
    assert (scores["onvoldoende-bod"].attempts, scores["onvoldoende-bod"].right) == (2, 1)
    assert scores["onvoldoende-bod"].percentage == 50
    assert (scores["strafkaart"].attempts, scores["strafkaart"].right) == (1, 1)
