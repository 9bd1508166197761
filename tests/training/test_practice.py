"""Practising (training/practice.py): join codes, practice rulings through the wizard, the
session grid and the scores per tree."""

from rulings.models import Mode
from tests.support.practice import RIGHT, WRONG, practise, stayman
from training.grading import grade
from training.models import SessionParticipant, TrainingCase, TrainingSession
from training.practice import (
    CODE_LENGTH,
    new_join_code,
    normalise_code,
    session_grid,
    tree_scores,
)


def test_join_codes_are_short_and_unambiguous(db):
    codes = {new_join_code() for _ in range(50)}
    assert len(codes) == 50
    for code in codes:
        assert len(code) == CODE_LENGTH
        assert not set(code) & set("01IO")


def test_codes_are_normalised():
    assert normalise_code(" ab3-def ") == "AB3DEF"


def test_a_practice_ruling_is_a_training_ruling_linked_to_its_case(loaded, director_a, club_a):
    ruling = practise(director_a, stayman(), RIGHT[:2])
    assert ruling.mode == Mode.TRAINING
    assert ruling.club == club_a
    assert ruling.training_case == stayman()
    assert ruling.training_session is None


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
