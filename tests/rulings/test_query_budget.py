"""The query budget of the wizard on a large archive: 2040 stored rulings (40 made through the
wizard, 2000 bulk-created) and a ruling 60 questions deep into a tree of 300 questions.

The archive takes about two seconds to build, so it is built once for the module, inside a
transaction rolled back at the module's end (tests/support/module_world.py); each
test runs in a savepoint inside it (the ``db`` fixture), so the answers one test gives are gone
for the next."""

import uuid
from types import SimpleNamespace

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from clubs.models import Club, Membership, Role, User
from laws import edition_law
from rulings import wizard
from rulings.models import Ruling, Status, Step
from tests.conftest import logged_in
from tests.rulings.test_views import (
    HTMX,
    TRANSACTION_CONTROL,
    answer,
    at_outcome,
    ruling_url,
    step_url,
)
from tests.support.factories import make_long_tree, make_tree
from tests.support.module_world import rolled_back_at_the_end
from tests.support.rulings import begin_proef
from trees import snapshot


def build_big_archive(club: Club, director: User) -> None:
    """Two thousand stored rulings with steps and audit events."""
    make_tree()
    for _ in range(40):
        at_outcome(begin_proef(club, director), director)
    template = Ruling.objects.first()
    Ruling.objects.bulk_create(
        Ruling(
            club=club,
            director=director,
            tree_slug="proef",
            tree_title="Proefboom",
            edition_code="1997",
            tree_version=template.tree_version,
            snapshot=template.snapshot,
            current_node_key="straf",
            path=template.path,
            status=Status.FINAL,
        )
        for _ in range(2000)
    )


def build_deep_ruling(club: Club, director: User) -> Ruling:
    """A ruling 60 questions deep into a tree of 300 questions."""
    make_long_tree(300)
    ruling = wizard.begin(
        uuid=uuid.uuid4(),
        club=club,
        director=director,
        tree=wizard.start("lang"),
        node_key="v0",
        choice_key="verder",
    ).ruling
    for number in range(2, 61):
        wizard.answer(ruling, f"v{number - 1}", number, "verder", director)
    return ruling


@pytest.fixture(scope="module")
def archive(django_db_setup, django_db_blocker) -> SimpleNamespace:
    with rolled_back_at_the_end(django_db_blocker):
        club = Club.objects.create(name="BC De Troefkaart", slug="troefkaart")
        # No password: the client logs in with force_login (and the function-scoped fast
        # hasher of tests/conftest.py does not apply here).
        director = User.objects.create(username="anna", first_name="Anna")
        Membership.objects.create(user=director, club=club, role=Role.DIRECTOR)
        build_big_archive(club, director)
        deep = build_deep_ruling(club, director)
        yield SimpleNamespace(club=club, director=director, deep_pk=deep.pk)


@pytest.fixture
def deep_ruling(archive, db) -> Ruling:
    # Read again for every test: the module's rows are back as they were after the last test's
    # rollback, an object kept in memory (its revision, path) might not be.
    ruling = Ruling.objects.get(pk=archive.deep_pk)
    # The budgets are for a process that has used the tree before (the snapshot and the frozen
    # tree in memory), as when the ruling was just made; tests/conftest.py emptied those caches
    # before this test. test_the_budget_holds_with_a_cold_snapshot_cache empties them itself.
    snapshot.get(ruling.snapshot_id)
    wizard.start("lang")
    return ruling


@pytest.fixture
def client_director_a(archive, db):
    """The archive's director (club A's "anna", as in tests/conftest.py), logged in."""
    return logged_in(archive.director)


def warm_law_cards(client, ruling) -> None:
    """The law text beside a step is read once per process and edition (laws.edition_law);
    the budgets below are for every step after that."""
    edition_law.law_of(ruling.edition_code)


def test_the_law_beside_a_step_is_read_once_per_process(
    client_director_a, deep_ruling, django_assert_max_num_queries
):
    edition_law.clear_cache()
    with CaptureQueriesContext(connection) as cold:
        client_director_a.get(ruling_url(deep_ruling))
    with CaptureQueriesContext(connection) as warm:
        client_director_a.get(ruling_url(deep_ruling))
    law = [q["sql"] for q in cold.captured_queries if "laws_" in q["sql"]]
    assert len(law) == 2, law
    assert not [q["sql"] for q in warm.captured_queries if "laws_" in q["sql"]]


@pytest.mark.parametrize("htmx", [False, True])
def test_an_answer_stays_within_the_query_budget(
    client_director_a, deep_ruling, django_assert_max_num_queries, htmx
):
    headers = HTMX if htmx else {}
    warm_law_cards(client_director_a, deep_ruling)
    # Session, user, the ruling (with the user's clubs as a subquery), its update, the step,
    # the audit event.
    with django_assert_max_num_queries(6):
        response = answer(client_director_a, deep_ruling, "v60", 61, "verder", **headers)
    assert response.status_code == (200 if htmx else 302)
    assert Ruling.objects.get(pk=deep_ruling.pk).path[-1] == ["v60", "verder"]


@pytest.mark.parametrize("htmx", [False, True])
def test_a_changed_answer_stays_within_the_query_budget(
    client_director_a, deep_ruling, django_assert_max_num_queries, htmx
):
    headers = HTMX if htmx else {}
    warm_law_cards(client_director_a, deep_ruling)
    # One more than an answer: the later steps are marked superseded; and one for the legal
    # basis of the outcome this answer reaches (rulings/legal_basis.py).
    with django_assert_max_num_queries(8):
        answer(client_director_a, deep_ruling, "v10", 11, "stop", **headers)
    assert Ruling.objects.get(pk=deep_ruling.pk).outcome_key == "einde"
    assert Step.objects.filter(ruling=deep_ruling, superseded=True).count() == 50


@pytest.mark.parametrize("htmx", [False, True])
def test_a_step_page_stays_within_the_query_budget(
    client_director_a, deep_ruling, django_assert_max_num_queries, htmx
):
    headers = HTMX if htmx else {}
    with django_assert_max_num_queries(5 if htmx else 6):
        current = client_director_a.get(ruling_url(deep_ruling), **headers)
    with django_assert_max_num_queries(5 if htmx else 6):
        earlier = client_director_a.get(step_url(deep_ruling, 30), **headers)
    assert "Vraag 60?" in current.content.decode()
    assert "Vraag 29?" in earlier.content.decode()


def test_the_budget_holds_with_a_cold_snapshot_cache(
    client_director_a, deep_ruling, django_assert_max_num_queries
):
    from trees import snapshot

    snapshot.clear_cache()
    edition_law.clear_cache()
    # + 1: the snapshot, read once per process; + 2: the edition's law text for the cards
    # beside the step, read once per process.
    with django_assert_max_num_queries(6 + 1 + 2):
        answer(client_director_a, deep_ruling, "v60", 61, "verder", **HTMX)


def test_the_first_answer_creates_the_ruling_without_reading_first(
    client_director_a, deep_ruling, django_assert_max_num_queries
):
    warm_law_cards(client_director_a, deep_ruling)
    draft = wizard.start("lang")
    url = reverse("wizard:draft", args=["lang", uuid.uuid4()])
    data = {"node": "v0", "step": 1, "revision": 0, "choice": "verder", "snapshot": draft.digest}
    # Session, user, memberships (the club), the ruling, its step, its audit events.
    with CaptureQueriesContext(connection) as captured:
        response = client_director_a.post(url, {**data, "club": "troefkaart"}, **HTMX)
    assert response.status_code == 200
    statements = [q["sql"] for q in captured.captured_queries]
    queries = [sql for sql in statements if not sql.startswith(TRANSACTION_CONTROL)]
    assert len(queries) <= 6, queries
    assert not [sql for sql in queries if sql.startswith("SELECT") and "rulings_ruling" in sql]
    # The same form again (the back button) is an answer to the ruling it made.
    again = client_director_a.post(url, {**data, "club": "troefkaart"}, **HTMX)
    assert again.status_code == 200
    assert "data-wizard-error" not in again.content.decode()
    assert Ruling.objects.filter(tree_slug="lang").count() == 2


def test_the_first_question_page_stays_within_the_query_budget(
    client_director_a, deep_ruling, django_assert_max_num_queries
):
    url = reverse("wizard:draft", args=["lang", uuid.uuid4()])
    with django_assert_max_num_queries(8):
        page = client_director_a.get(url)
    assert "Vraag 0?" in page.content.decode()
