"""Grading a practice (training/grading.py): the first divergence from the model path, right
and wrong routes, the grade kept once and made on the practice's own snapshot."""

import io
import shutil

import pytest

from rulings import wizard
from rulings.models import Status
from tests.support.practice import MODEL, RIGHT, WRONG, case, practise, stayman
from training import files as training_files
from training.files import tree_spec
from training.grading import first_divergence, grade, grade_path, ruling_path, ruling_tree
from training.models import TrainingCase, TrainingResult
from trees import snapshot
from trees.loading import TREES_DIR, load_trees

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
