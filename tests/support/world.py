"""A small club world for the security tests: the shipped laws, trees and cases, two clubs with
the named personas, and real objects of club A in every state that matters (rulings unfinished,
deferred, at the outcome and final; a practice in progress and a graded one; a club case; a
trainer's session with a trainee), all made through the app's own functions. The shipped data
is in every test database (tests/support/shipped.py).
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import date

from django.test import override_settings

from clubs.models import Club, Role, User
from laws.models import Article
from rulings import free, wizard
from rulings.models import Ruling
from tests.conftest import make_user
from tests.support import shipped as shipped_data
from training import grading, practice
from training.models import SessionParticipant, TrainingCase, TrainingSession
from trees.models import Tree

TREE = "onvoldoende-bod"
# A path through ``onvoldoende-bod`` to the outcome ``vergelijkbaar`` (the shipped case
# ``ob-stayman-via-cuebid`` expects it).
PATH = ["nee", "nee", "nee", "nee", "vergelijkbaar"]
SHIPPED_CASE = "ob-stayman-via-cuebid"
PERSONAS = ("director_a", "reviewer_a", "trainer_a", "admin_a", "director_b", "anonymous")
FAST_HASHER = override_settings(PASSWORD_HASHERS=["django.contrib.auth.hashers.MD5PasswordHasher"])


@dataclass
class World:
    club_a: Club
    club_b: Club
    users: dict[str, User]
    open: Ruling  # one answer given, in progress
    deferred: Ruling
    at_outcome: Ruling  # every question answered, not saved
    final: Ruling
    final_b: Ruling  # a final ruling of club B
    case: TrainingCase  # club A's own case
    shipped_case: TrainingCase
    session: TrainingSession  # club A, trainer_a's, director_a joined
    attempt: Ruling  # director_a's practice of ``case``, in progress
    graded: Ruling  # director_a's graded practice of ``case``
    article: Article
    tree: Tree
    free_draft: Ruling  # a free ruling (no tree) kept as a draft
    free_final: Ruling

    def user(self, persona: str) -> User | None:
        return self.users.get(persona)


def answer_all(ruling: Ruling, answers: list[str], actor: User) -> Ruling:
    for number, choice in enumerate(answers, start=len(ruling.path) + 1):
        wizard.answer(ruling, ruling.current_node_key, number, choice, actor)
    return ruling


def begin(club: Club, director: User, first: str = PATH[0]) -> Ruling:
    tree = wizard.start(TREE)
    return wizard.begin(
        uuid=uuid.uuid4(),
        club=club,
        director=director,
        tree=tree,
        node_key=tree.start,
        choice_key=first,
    ).ruling


def build_world() -> World:
    with FAST_HASHER:
        shipped_data.ensure()  # after a flush by a transactional test
        club_a = Club.objects.create(name="BC De Troefkaart", slug="troefkaart")
        club_b = Club.objects.create(name="BC Het Vrije Slagje", slug="vrije-slagje")
        users = {
            "director_a": make_user("anna", club_a, Role.DIRECTOR, first_name="Anna"),
            "reviewer_a": make_user("rik", club_a, Role.REVIEWER, first_name="Rik"),
            "trainer_a": make_user("tineke", club_a, Role.TRAINER, first_name="Tineke"),
            "admin_a": make_user("bert", club_a, Role.ADMIN, first_name="Bert"),
            "director_b": make_user("bas", club_b, Role.DIRECTOR, first_name="Bas"),
        }
    anna, tineke = users["director_a"], users["trainer_a"]

    open_ruling = begin(club_a, anna)
    deferred = answer_all(begin(club_a, anna), PATH[1:2], anna)
    wizard.defer(deferred, anna)
    at_outcome = answer_all(begin(club_a, anna), PATH[1:], anna)
    final = answer_all(begin(club_a, anna), PATH[1:], anna)
    wizard.save(final, anna, context={"played_on": date(2026, 3, 3), "board": 7, "table": 2})
    bas = users["director_b"]
    final_b = answer_all(begin(club_b, bas), PATH[1:], bas)
    wizard.save(final_b, bas, context={"played_on": date(2026, 3, 3), "board": 9})

    shipped = TrainingCase.objects.get(slug=SHIPPED_CASE, club__isnull=True)
    case = TrainingCase.objects.create(
        club=club_a,
        slug="eigen-casus",
        title_nl="Eigen casus van de club",
        situation_nl="**Noord** opent 1♥, Oost biedt 1♠ onvoldoende.",
        tree_slug=TREE,
        expected_outcomes=list(shipped.expected_outcomes),
        expected_path=[],
        explanation_nl="Uitleg van de trainer.",
        created_by=tineke,
    )
    session = TrainingSession.objects.create(
        club=club_a, trainer=tineke, title="Dinsdagles", code=practice.new_join_code()
    )
    session.cases.set([case, shipped])
    SessionParticipant.objects.create(session=session, user=anna)
    tree = wizard.start(TREE)
    attempt = practice.begin_practice(anna, case, session, tree.start, PATH[0]).ruling
    graded = practice.begin_practice(anna, case, None, tree.start, PATH[0]).ruling
    answer_all(graded, PATH[1:], anna)
    grading.grade(graded)

    edition = free.current_edition()
    assert edition is not None
    claim = free.Content(laws=("68", "70"), decision="Betwiste claim.", announcement="Zo.")
    board = {"played_on": date(2026, 3, 3), "board": 5}
    free_draft, free_final = (
        free.create(
            uuid=uuid.uuid4(),
            club=club_a,
            director=anna,
            edition=edition,
            content=claim,
            context=board,
            final=final_free,
        )
        for final_free in (False, True)
    )
    for ruling in (open_ruling, deferred, at_outcome, final, final_b, attempt, graded):
        ruling.refresh_from_db()
    article = (
        Article.objects.filter(provisions__isnull=False)
        .select_related("edition")
        .order_by("edition__code", "order")
        .first()
    )
    return World(
        club_a=club_a,
        club_b=club_b,
        users=users,
        open=open_ruling,
        deferred=deferred,
        at_outcome=at_outcome,
        final=final,
        final_b=final_b,
        case=case,
        shipped_case=shipped,
        session=session,
        attempt=attempt,
        graded=graded,
        article=article,
        tree=Tree.objects.get(slug=TREE),
        free_draft=free_draft,
        free_final=free_final,
    )
