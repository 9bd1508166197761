"""Training pages: cases, the case form, sessions (plain and htmx), feedback, history,
explore, and club isolation (another club's data answers 404)."""

import re
import uuid

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from clubs import throttle
from clubs.models import FailedAttempt
from lib.text import prose
from rulings import wizard
from rulings.models import AuditEvent, Mode, Ruling, Step
from tests.conftest import make_user
from training.grading import grade
from training.models import SessionParticipant, TrainingCase, TrainingResult, TrainingSession
from training.practice import begin_practice
from training.tags import english_names, tag_name

RIGHT = ["nee", "nee", "nee", "nee", "vergelijkbaar"]
WRONG = ["nee", "nee", "nee", "nee", "andere"]


@pytest.fixture
def cases(db):
    """The shipped data is in every test database (tests/conftest.py)."""


@pytest.fixture
def loaded(cases):
    """The shipped data is in every test database (tests/conftest.py)."""


def shipped(slug: str = "ob-stayman-via-cuebid") -> TrainingCase:
    return TrainingCase.objects.get(slug=slug, club__isnull=True)


def own_case(club, **extra) -> TrainingCase:
    fields = {
        "club": club,
        "slug": "eigen",
        "title_nl": "Eigen casus",
        "situation_nl": "**Noord** opent.<script>alert(1)</script>",
        "tree_slug": "strafkaart",
        "expected_outcomes": ["leider-kaart"],
        "explanation_nl": "Uitleg",
    }
    return TrainingCase.objects.create(**{**fields, **extra})


def practise(user, case, answers, session=None) -> Ruling:
    tree = wizard.start(case.tree_slug)
    ruling = begin_practice(user, case, session, tree.start, answers[0]).ruling
    for number, answer in enumerate(answers[1:], start=2):
        wizard.answer(ruling, ruling.current_node_key, number, answer, user)
    return ruling


# --- Overview ------------------------------------------------------------------------------


def test_overview_lists_shipped_and_own_cases(cases, client_director_a, club_a, club_b):
    own_case(club_a)
    own_case(club_b, title_nl="Casus van B")
    response = client_director_a.get("/oefenen/")
    assert response.status_code == 200
    body = response.content.decode()
    assert shipped().title_nl in body
    assert "Eigen casus" in body
    assert "Casus van B" not in body


def test_overview_filters_on_tree(cases, client_director_a):
    response = client_director_a.get("/oefenen/", {"boom": "verzaking"})
    body = response.content.decode()
    assert "Verzaakt in de twaalfde slag" in body
    assert shipped().title_nl not in body


def test_training_needs_a_login(cases, director_a):
    for url in ("/oefenen/", "/oefenen/verkennen/", f"/oefenen/casussen/{shipped().pk}/"):
        response = Client().get(url)
        assert response.status_code == 302
        assert response["Location"].startswith("/inloggen/")


# --- Cases ---------------------------------------------------------------------------------


def test_case_page_shows_the_situation_as_safe_markdown(cases, client_director_a, club_a):
    case = own_case(club_a)
    body = client_director_a.get(f"/oefenen/casussen/{case.pk}/").content.decode()
    assert "<strong>Noord</strong>" in body
    assert "<script>alert" not in body
    assert "Oefening" in body


def test_another_clubs_case_is_404(cases, client_director_b, club_a):
    case = own_case(club_a)
    assert client_director_b.get(f"/oefenen/casussen/{case.pk}/").status_code == 404
    assert client_director_b.post(f"/oefenen/casussen/{case.pk}/start/").status_code == 404
    assert client_director_b.get(f"/oefenen/casussen/{case.pk}/bewerken/").status_code == 404


def case_data(**changes) -> dict:
    data = {
        "title_nl": "Twee harten",
        "title_en": "Two hearts",
        "tree_slug": "onvoldoende-bod",
        "situation_nl": "Zuid biedt 1♥ over 1♠.",
        "situation_en": "",
        "expected_outcomes": ["b1a"],
        "path_answers": "nee, nee, nee, nee, laagste-zelfde",
        "explanation_nl": "Laagste voldoende bod.",
        "explanation_en": "",
        "cites_text": "27B1a, 27D",
        "difficulty": "2",
        "tags_text": "Onvoldoende bod, basis",
    }
    data.update(changes)
    return data


def test_trainer_creates_a_case(cases, client_trainer_a, trainer_a, club_a):
    response = client_trainer_a.post("/oefenen/casussen/nieuw/", case_data())
    case = TrainingCase.objects.get(club=club_a)
    assert response.status_code == 302
    assert response["Location"] == f"/oefenen/casussen/{case.pk}/"
    assert case.slug == "twee-harten"
    assert case.created_by == trainer_a
    assert case.expected_outcomes == ["b1a"]
    assert case.expected_path[-1] == ["vervanging", "laagste-zelfde"]
    assert len(case.expected_path) == 5
    assert case.cites == ["27B1(a)", "27D"]
    assert case.tags == ["onvoldoende-bod", "basis"]
    assert case.source == "web"


def test_case_form_refuses_an_outcome_of_another_tree(cases, client_trainer_a):
    response = client_trainer_a.post(
        "/oefenen/casussen/nieuw/", case_data(expected_outcomes=["grote-strafkaart"])
    )
    body = response.content.decode()
    assert response.status_code == 200
    assert "Niet opgeslagen" in body
    assert "grote-strafkaart is geen beschikbare keuze" in body
    assert not TrainingCase.objects.filter(club__isnull=False).exists()


@pytest.mark.parametrize(
    ("answers", "message"),
    [
        ("nee, misschien", "Dit pad bestaat niet"),
        ("nee, nee", "eindigt bij een vraag"),
        ("nee, nee, ja", "niet bij een van de gekozen uitkomsten"),
    ],
)
def test_case_form_checks_the_model_path(cases, client_trainer_a, answers, message):
    response = client_trainer_a.post("/oefenen/casussen/nieuw/", case_data(path_answers=answers))
    assert response.status_code == 200
    assert message in response.content.decode()
    assert not TrainingCase.objects.filter(club__isnull=False).exists()


def test_case_form_without_path_is_fine(cases, client_trainer_a, club_a):
    client_trainer_a.post("/oefenen/casussen/nieuw/", case_data(path_answers=""))
    assert TrainingCase.objects.get(club=club_a).expected_path == []


def test_changing_the_tree_reloads_the_outcomes_with_htmx(cases, client_trainer_a):
    response = client_trainer_a.get(
        "/oefenen/casussen/nieuw/",
        {"tree_slug": "strafkaart", "title_nl": "Bewaard"},
        HTTP_HX_REQUEST="true",
    )
    body = response.content.decode()
    assert response.status_code == 200
    assert "<html" not in body
    assert body.strip().startswith('<div id="case-form-wrapper"')
    assert 'value="grote-strafkaart"' in body
    assert 'value="b1a"' not in body
    assert 'value="Bewaard"' in body


def test_a_director_cannot_write_cases(cases, client_director_a):
    assert client_director_a.get("/oefenen/casussen/nieuw/").status_code == 403
    assert client_director_a.post("/oefenen/casussen/nieuw/", case_data()).status_code == 403


def test_trainer_edits_own_case_but_not_shipped_ones(cases, client_trainer_a, club_a):
    case = own_case(club_a)
    data = case_data(tree_slug="strafkaart", expected_outcomes=["leider-kaart"], path_answers="")
    response = client_trainer_a.post(f"/oefenen/casussen/{case.pk}/bewerken/", data)
    assert response.status_code == 302
    case.refresh_from_db()
    assert case.title_nl == "Twee harten"
    assert case.slug == "eigen"
    assert client_trainer_a.get(f"/oefenen/casussen/{shipped().pk}/bewerken/").status_code == 404


def test_copying_a_shipped_case_prefills_the_form(cases, client_trainer_a):
    body = client_trainer_a.get(f"/oefenen/casussen/nieuw/?van={shipped().pk}").content.decode()
    assert shipped().title_nl.replace('"', "&quot;") in body
    assert "nee, nee, nee, nee, vergelijkbaar" in body


# --- Sessions ------------------------------------------------------------------------------


def make_session(club, trainer, cases, code="K7MW2Q") -> TrainingSession:
    session = TrainingSession.objects.create(club=club, trainer=trainer, title="Dinsdag", code=code)
    session.cases.set(cases)
    return session


def test_trainer_starts_a_session_with_a_code(cases, client_trainer_a, club_a):
    ids = [shipped().pk, shipped("sk-hartenheer-valt").pk]
    response = client_trainer_a.post("/oefenen/sessies/nieuw/", {"title": "Cursus", "cases": ids})
    session = TrainingSession.objects.get()
    assert response["Location"] == f"/oefenen/sessies/{session.pk}/"
    assert session.club == club_a
    assert re.fullmatch(r"[A-Z2-9]{6}", session.code)
    body = client_trainer_a.get(response["Location"]).content.decode()
    assert session.code in body
    assert 'hx-trigger="every 3s"' in body


def test_a_director_cannot_start_a_session(cases, client_director_a):
    assert client_director_a.get("/oefenen/sessies/nieuw/").status_code == 403


def test_trainee_joins_with_the_code(cases, client_director_a, director_a, club_a, trainer_a):
    session = make_session(club_a, trainer_a, [shipped()])
    response = client_director_a.post("/oefenen/meedoen/", {"code": " k7mw-2q "})
    assert response["Location"] == f"/oefenen/sessies/{session.pk}/oefenen/"
    assert SessionParticipant.objects.filter(session=session, user=director_a).exists()
    body = client_director_a.get(response["Location"]).content.decode()
    assert shipped().title_nl in body
    assert f"?sessie={session.pk}" in body
    # Joining twice keeps one participant.
    client_director_a.post("/oefenen/meedoen/", {"code": "K7MW2Q"})
    assert SessionParticipant.objects.count() == 1


def test_a_wrong_or_foreign_or_closed_code_is_refused(
    cases, client_director_a, client_director_b, club_a, trainer_a
):
    session = make_session(club_a, trainer_a, [shipped()])
    response = client_director_a.post("/oefenen/meedoen/", {"code": "ZZZZZZ"})
    assert "geen open sessie" in response.content.decode()
    response = client_director_b.post("/oefenen/meedoen/", {"code": session.code})
    assert "geen open sessie" in response.content.decode()
    client_trainer = Client()
    client_trainer.force_login(trainer_a)
    client_trainer.post(f"/oefenen/sessies/{session.pk}/sluiten/")
    response = client_director_a.post("/oefenen/meedoen/", {"code": session.code})
    assert "geen open sessie" in response.content.decode()
    assert not SessionParticipant.objects.exists()


def test_session_pages_are_isolated(cases, client_director_a, client_director_b, club_a, trainer_a):
    session = make_session(club_a, trainer_a, [shipped()])
    assert client_director_b.get(f"/oefenen/sessies/{session.pk}/").status_code == 404
    assert client_director_b.get(f"/oefenen/sessies/{session.pk}/oefenen/").status_code == 404
    assert client_director_b.post(f"/oefenen/sessies/{session.pk}/sluiten/").status_code == 404
    # A member who is no trainer may not watch the results; a non-participant has no page.
    assert client_director_a.get(f"/oefenen/sessies/{session.pk}/").status_code == 403
    assert client_director_a.get(f"/oefenen/sessies/{session.pk}/oefenen/").status_code == 404


def test_results_poll_returns_the_partial_with_both_results(
    loaded, client_trainer_a, trainer_a, director_a, reviewer_a, club_a
):
    other = shipped("sk-hartenheer-valt")
    session = make_session(club_a, trainer_a, [shipped(), other])
    for user in (director_a, reviewer_a):
        SessionParticipant.objects.create(session=session, user=user)
    grade(practise(director_a, shipped(), RIGHT, session))
    grade(practise(director_a, other, ["kaart-getoond", "spel", "leider-blinde"], session))
    practise(reviewer_a, shipped(), RIGHT[:2], session)

    response = client_trainer_a.get(f"/oefenen/sessies/{session.pk}/", HTTP_HX_REQUEST="true")
    body = response.content.decode()
    assert "<html" not in body
    assert body.strip().startswith('<div id="session-results"')
    assert 'hx-trigger="every 3s"' in body
    anna = re.search(r'data-participant="anna".*?</tr>', body, re.S).group(0)
    assert re.findall(r'data-status="(\w+)"', anna) == ["wrong", "right"]
    rik = re.search(r'data-participant="rik".*?</tr>', body, re.S).group(0)
    assert re.findall(r'data-status="(\w+)"', rik) == ["todo", "busy"]


def test_a_closed_session_stops_polling(cases, client_trainer_a, trainer_a, club_a):
    session = make_session(club_a, trainer_a, [shipped()])
    client_trainer_a.post(f"/oefenen/sessies/{session.pk}/sluiten/")
    session.refresh_from_db()
    assert session.closed_at is not None
    body = client_trainer_a.get(f"/oefenen/sessies/{session.pk}/").content.decode()
    assert "every 3s" not in body


# --- Feedback ------------------------------------------------------------------------------


def test_feedback_shows_both_paths_and_the_first_divergence(loaded, client_director_a, director_a):
    ruling = practise(director_a, shipped(), WRONG)
    response = client_director_a.post(f"/oefenen/pogingen/{ruling.uuid}/beoordelen/")
    assert response["Location"] == f"/oefenen/pogingen/{ruling.uuid}/"
    body = client_director_a.get(response["Location"]).content.decode()
    assert 'data-result="wrong"' in body
    assert body.count("data-divergence") == 1
    assert "Andere bieding: partner past de hele bieding" in body  # the trainee's outcome
    assert "Vergelijkbare bieding" in body  # the right one
    assert "hetzelfde doel" in body  # the explanation
    assert "27B1(b)" in body  # the law text of the right outcome
    result = TrainingResult.objects.get(ruling=ruling)
    assert result.divergence == 4


def test_a_right_answer(loaded, client_director_a, director_a):
    ruling = practise(director_a, shipped(), RIGHT)
    client_director_a.post(f"/oefenen/pogingen/{ruling.uuid}/beoordelen/")
    body = client_director_a.get(f"/oefenen/pogingen/{ruling.uuid}/").content.decode()
    assert 'data-result="right"' in body
    assert "data-divergence" not in body


def test_feedback_is_for_the_trainee_and_the_clubs_trainers_only(
    loaded, director_a, client_reviewer_a, client_trainer_a, client_director_b
):
    ruling = practise(director_a, shipped(), RIGHT)
    grade(ruling)
    url = f"/oefenen/pogingen/{ruling.uuid}/"
    assert client_director_b.get(url).status_code == 404
    assert client_reviewer_a.get(url).status_code == 404
    assert client_trainer_a.get(url).status_code == 200
    assert client_trainer_a.post(f"{url}beoordelen/").status_code == 404


def test_history_shows_score_per_tree(loaded, client_director_a, director_a):
    grade(practise(director_a, shipped(), WRONG))
    grade(practise(director_a, shipped(), RIGHT))
    body = client_director_a.get("/oefenen/geschiedenis/").content.decode()
    assert "1 / 2" in body
    assert "50" in body


# --- Explore -------------------------------------------------------------------------------


def test_explore_walks_the_path_from_the_url_and_saves_nothing(loaded, client_director_a):
    response = client_director_a.get("/oefenen/verkennen/onvoldoende-bod/", {"pad": "nee,nee"})
    body = response.content.decode()
    assert response.status_code == 200
    assert "Heeft de linkertegenstander" in body  # the third question
    assert 'href="?pad=nee,nee,ja"' in body  # a choice
    assert 'data-explore-back href="?pad=nee"' in body
    assert 'class="node question highlight"' in body  # the diagram marks the current node
    assert "27A1" in body  # law text of this step
    assert not Ruling.objects.exists()
    assert not Step.objects.exists()
    assert not AuditEvent.objects.exists()


def test_explore_shows_an_outcome(loaded, client_director_a):
    body = client_director_a.get(
        "/oefenen/verkennen/onvoldoende-bod/", {"pad": "nee,nee,ja"}
    ).content.decode()
    assert "Onvoldoende bod geaccepteerd" in body
    assert "Wat u tegen de spelers zegt" in body


def test_explore_shows_tree_text_as_the_wizard_does(loaded, client_director_a):
    """The outcome's text goes through the one prose renderer, as beside a live ruling: a
    text of two paragraphs is two paragraphs, not one with a line break."""
    tree = wizard.start("blinde")
    target = "naar-voor-de-beurt"
    paths = {tree.start: []}
    queue = [tree.start]
    while target not in paths:
        node = queue.pop(0)
        for choice in tree.node(node).choices:
            if choice.target not in paths:
                paths[choice.target] = [*paths[node], choice.key]
                queue.append(choice.target)
    outcome = tree.node(target).outcome
    assert outcome is not None
    assert "\n\n" in outcome.ruling.nl.strip()  # the case this test is about
    body = client_director_a.get(
        "/oefenen/verkennen/blinde/", {"pad": ",".join(paths[target])}
    ).content.decode()
    assert str(prose(outcome.ruling.nl)) in body


def test_explore_cuts_a_wrong_path(loaded, client_director_a):
    response = client_director_a.get("/oefenen/verkennen/onvoldoende-bod/", {"pad": "nee,kaas,ja"})
    assert response.status_code == 302
    assert response["Location"] == "/oefenen/verkennen/onvoldoende-bod/?pad=nee"


def test_explore_htmx_returns_the_main_part(loaded, client_director_a):
    response = client_director_a.get(
        "/oefenen/verkennen/onvoldoende-bod/", {"pad": "nee"}, HTTP_HX_REQUEST="true"
    )
    body = response.content.decode()
    assert body.strip().startswith('<div id="explore-main"')
    assert "<html" not in body


def test_explore_unknown_tree_is_404(loaded, client_director_a):
    assert client_director_a.get("/oefenen/verkennen/bestaat-niet/").status_code == 404


def test_explore_diagram_boxes_jump_to_their_node(loaded, client_director_a):
    body = client_director_a.get("/oefenen/verkennen/onvoldoende-bod/").content.decode()
    # The first path to an outcome deep in the tree, as a link on its box.
    assert 'href="?pad=nee,nee,nee,ja,laagste-zelfde"' in body
    assert 'class="node question start highlight"' in body


def test_explore_lists_the_trees(loaded, client_director_a):
    body = client_director_a.get("/oefenen/verkennen/").content.decode()
    assert "/oefenen/verkennen/verzaking/" in body


# --- Practising through the wizard ---------------------------------------------------------


def first_answer(client, url, choice="nee"):
    """Post the first answer of the draft page at ``url`` as its form does."""
    body = client.get(url).content.decode()
    fields = dict(re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)"', body))
    return client.post(url, {**fields, "choice": choice})


def test_a_practice_runs_in_the_wizard_in_training_mode(loaded, client_director_a, director_a):
    case = shipped()
    response = client_director_a.post(f"/oefenen/casussen/{case.pk}/start/")
    draft_url = response["Location"]
    assert re.fullmatch(rf"/oefenen/casussen/{case.pk}/oefening/[0-9a-f-]{{36}}/", draft_url)
    body = client_director_a.get(draft_url).content.decode()
    assert "data-training-banner" in body
    assert "Stayman" in body  # the situation beside the first question
    assert not Ruling.objects.exists()

    response = first_answer(client_director_a, draft_url)
    ruling = Ruling.objects.get()
    assert response["Location"] == f"/oefenen/pogingen/{ruling.uuid}/"
    assert ruling.mode == Mode.TRAINING
    assert ruling.training_case == case
    assert ruling.director == director_a
    # Going back to the draft finds the practice instead of starting another.
    assert client_director_a.get(draft_url)["Location"] == f"/oefenen/pogingen/{ruling.uuid}/"

    body = client_director_a.get(f"/oefenen/pogingen/{ruling.uuid}/").content.decode()
    assert "data-training-banner" in body
    assert f'action="/arbitrage/{ruling.uuid}/antwoord/"' in body
    for number, choice in enumerate(RIGHT[1:], start=2):
        wizard.answer(ruling, ruling.current_node_key, number, choice, director_a)
    response = client_director_a.post(f"/oefenen/pogingen/{ruling.uuid}/beoordelen/")
    body = client_director_a.get(response["Location"]).content.decode()
    assert 'data-result="right"' in body


def test_a_first_answer_sent_twice_makes_one_practice(loaded, client_director_a, director_a):
    """The wizard's one first-answer flow: the second of two first answers (a double click
    whose halves both passed the draft page's check) finds the practice the first made; the
    same answer changes nothing, another is refused as stale."""
    case = shipped()
    draft_url = client_director_a.post(f"/oefenen/casussen/{case.pk}/start/")["Location"]
    practice_uuid = uuid.UUID(draft_url.rstrip("/").rsplit("/", 1)[1])
    tree = wizard.start(case.tree_slug)
    other = next(c.key for c in tree.node(tree.start).choices if c.key != RIGHT[0])

    def answer(choice):
        return begin_practice(
            director_a, case, None, tree.start, choice, tree=tree, ruling_uuid=practice_uuid
        )

    first, again = answer(RIGHT[0]), answer(RIGHT[0])
    assert again.ruling.pk == first.ruling.pk
    assert not again.recorded
    with pytest.raises(wizard.WizardError, match=r"^stale"):
        answer(other)
    ruling = Ruling.objects.get()
    assert (ruling.mode, ruling.training_case, ruling.revision) == (Mode.TRAINING, case, 1)
    # The page's own form posted again goes to the practice, not to a second one.
    response = first_answer(client_director_a, draft_url)
    assert response["Location"] == f"/oefenen/pogingen/{ruling.uuid}/"
    assert Ruling.objects.count() == 1


def test_grading_before_the_outcome_is_refused(loaded, client_director_a, director_a):
    ruling = practise(director_a, shipped(), RIGHT[:2])
    response = client_director_a.post(f"/oefenen/pogingen/{ruling.uuid}/beoordelen/", follow=True)
    assert "beantwoord eerst de vragen" in response.content.decode()
    assert not TrainingResult.objects.exists()


def test_a_session_practice_is_linked_to_the_session(
    loaded, client_director_a, director_a, club_a, trainer_a
):
    session = make_session(club_a, trainer_a, [shipped()])
    SessionParticipant.objects.create(session=session, user=director_a)
    response = client_director_a.post(
        f"/oefenen/casussen/{shipped().pk}/start/", {"sessie": session.pk}
    )
    assert response["Location"].endswith(f"?sessie={session.pk}")
    first_answer(client_director_a, response["Location"])
    assert Ruling.objects.get().training_session == session


def test_a_case_outside_the_session_cannot_be_practised_in_it(
    loaded, client_director_a, director_a, club_a, trainer_a
):
    session = make_session(club_a, trainer_a, [shipped()])
    SessionParticipant.objects.create(session=session, user=director_a)
    other = shipped("sk-hartenheer-valt")
    response = client_director_a.post(
        f"/oefenen/casussen/{other.pk}/start/", {"sessie": session.pk}
    )
    assert response.status_code == 404


def test_someone_elses_practice_is_not_continued(loaded, director_a, client_trainer_a):
    ruling = practise(director_a, shipped(), RIGHT[:2])
    assert client_trainer_a.get(f"/oefenen/pogingen/{ruling.uuid}/").status_code == 404


def test_after_the_session_closed_practice_goes_on_outside_it(
    loaded, client_director_a, director_a, club_a, trainer_a
):
    session = make_session(club_a, trainer_a, [shipped()])
    SessionParticipant.objects.create(session=session, user=director_a)
    session.closed_at = session.created_at
    session.save()
    response = client_director_a.post(
        f"/oefenen/casussen/{shipped().pk}/start/", {"sessie": session.pk}, follow=True
    )
    assert "De sessie is gesloten" in response.content.decode()
    first_answer(client_director_a, response.redirect_chain[-1][0])
    assert Ruling.objects.get().training_session is None


def test_polling_costs_the_same_whatever_the_number_of_trainees(
    loaded, client_trainer_a, trainer_a, club_a, django_assert_num_queries
):
    session = make_session(club_a, trainer_a, [shipped(), shipped("sk-hartenheer-valt")])
    url = f"/oefenen/sessies/{session.pk}/"

    def add_trainee(name: str) -> None:
        user = make_user(name, club_a, "director")
        SessionParticipant.objects.create(session=session, user=user)
        grade(practise(user, shipped(), RIGHT, session))

    add_trainee("een")
    client_trainer_a.get(url, HTTP_HX_REQUEST="true")  # warm the session and caches
    with CaptureQueriesContext(connection) as one:
        client_trainer_a.get(url, HTTP_HX_REQUEST="true")
    for name in ("twee", "drie", "vier"):
        add_trainee(name)
    with django_assert_num_queries(len(one)):
        response = client_trainer_a.get(url, HTTP_HX_REQUEST="true")
    assert response.content.decode().count("data-participant=") == 4
    assert len(one) <= 8


# --- The wizard's own addresses lead a practice back to its case ---------------------------


def test_the_ruling_address_of_a_practice_leads_to_the_attempt(
    loaded, client_director_a, director_a
):
    ruling = practise(director_a, shipped(), RIGHT[:2])
    response = client_director_a.get(f"/arbitrage/{ruling.uuid}/")
    assert response.status_code == 302
    assert response["Location"] == f"/oefenen/pogingen/{ruling.uuid}/"


def test_a_step_of_a_practice_keeps_its_number(loaded, client_director_a, director_a):
    ruling = practise(director_a, shipped(), RIGHT[:2])
    response = client_director_a.get(f"/arbitrage/{ruling.uuid}/stap/2/")
    assert response.status_code == 302
    assert response["Location"] == f"/oefenen/pogingen/{ruling.uuid}/?stap=2"
    page = client_director_a.get(response["Location"])
    assert page.status_code == 200
    assert "Oefening" in page.content.decode()


def test_the_wizard_addresses_of_a_practice_stay_404_for_other_clubs(
    loaded, director_a, client_director_b
):
    ruling = practise(director_a, shipped(), RIGHT[:2])
    assert client_director_b.get(f"/arbitrage/{ruling.uuid}/").status_code == 404
    assert client_director_b.get(f"/arbitrage/{ruling.uuid}/stap/2/").status_code == 404


# --- htmx: fragments only where htmx swaps them, never a page inside a page ----------------

HTMX = {"HTTP_HX_REQUEST": "true"}
HISTORY_RESTORE = {**HTMX, "HTTP_HX_HISTORY_RESTORE_REQUEST": "true"}


def test_the_htmx_previous_question_of_a_practice_swaps_only_the_step(
    loaded, client_director_a, director_a
):
    # The "Vorige vraag" link is hx-get to the wizard's step address with hx-target="#wizard";
    # for a practice that address redirects to the attempt, and htmx follows the redirect with
    # the same headers. The answer must be the #wizard element, not a page with <html> in it.
    ruling = practise(director_a, shipped(), RIGHT[:3])
    response = client_director_a.get(f"/arbitrage/{ruling.uuid}/stap/2/", follow=True, **HTMX)
    assert response.redirect_chain == [(f"/oefenen/pogingen/{ruling.uuid}/?stap=2", 302)]
    body = response.content.decode()
    assert response.status_code == 200
    assert "<html" not in body
    assert body.strip().startswith('<div id="wizard"')
    assert 'name="step" value="2"' in body
    assert "data-training-banner" in body  # the banner belongs to the swapped step
    assert "HX-Request" in response["Vary"]


def test_a_practice_step_without_htmx_is_the_whole_page(loaded, client_director_a, director_a):
    ruling = practise(director_a, shipped(), RIGHT[:3])
    for headers in ({}, HISTORY_RESTORE):
        response = client_director_a.get(f"/oefenen/pogingen/{ruling.uuid}/?stap=2", **headers)
        body = response.content.decode()
        assert "<html" in body
        assert 'id="wizard"' in body
        assert "De situatie" in body  # the situation above the swapped part
        assert "HX-Request" in response["Vary"]


def test_explore_answers_a_history_restore_with_the_whole_page(loaded, client_director_a):
    url = "/oefenen/verkennen/onvoldoende-bod/"
    response = client_director_a.get(url, {"pad": "nee"}, **HISTORY_RESTORE)
    body = response.content.decode()
    assert response.status_code == 200
    assert "<html" in body
    assert 'id="explore-main"' in body
    assert "HX-Request" in response["Vary"]


def test_explore_says_it_varies_on_htmx(loaded, client_director_a):
    url = "/oefenen/verkennen/onvoldoende-bod/"
    for headers in ({}, HTMX):
        response = client_director_a.get(url, {"pad": "nee"}, **headers)
        assert "HX-Request" in response["Vary"]


def test_tags_that_give_away_the_answer_show_only_once_graded(
    loaded, client_director_a, director_a
):
    case = shipped()
    assert case.tags, "the shipped case needs tags for this test"
    tag = case.tags[-1]
    index = client_director_a.get("/oefenen/").content.decode()
    page = client_director_a.get(f"/oefenen/casussen/{case.pk}/").content.decode()
    assert tag not in index
    assert tag not in page
    ruling = practise(director_a, case, RIGHT)
    client_director_a.post(f"/oefenen/pogingen/{ruling.uuid}/beoordelen/")
    graded = client_director_a.get(f"/oefenen/pogingen/{ruling.uuid}/").content.decode()
    assert "data-case-tags" in graded
    dutch = tag_name(tag)
    assert dutch in graded
    client_director_a.post("/taal/", {"language": "en", "next": "/"})
    english = client_director_a.get(f"/oefenen/pogingen/{ruling.uuid}/").content.decode()
    assert english_names()[tag] in english
    assert dutch not in english


def test_joining_with_a_code_comes_first_on_the_training_page(cases, client_director_a):
    html = client_director_a.get("/oefenen/").content.decode()
    assert "data-join" in html
    assert html.index("data-join") < html.index('id="cases-heading"')


def test_the_session_form_groups_the_cases_by_tree(cases, client_trainer_a, club_a):
    own_case(club_a)
    html = client_trainer_a.get("/oefenen/sessies/nieuw/").content.decode()
    visible = TrainingCase.objects.filter(club__isnull=True) | TrainingCase.objects.filter(
        club=club_a
    )
    slugs = set(visible.values_list("tree_slug", flat=True))
    assert len(slugs) > 1, "the shipped cases need more than one tree for this test"
    groups = re.findall(r'<fieldset[^>]*data-tree="([^"]+)"', html)
    assert sorted(groups) == sorted(slugs)  # one group per tree, none twice
    # Each checkbox sits in the group of its own tree, under the tree's title.
    for case in visible:
        group = re.search(rf'data-tree="{case.tree_slug}".*?</fieldset>', html, re.S)
        assert group is not None
        assert f'value="{case.pk}"' in group.group(0)
    strafkaart = re.search(r'data-tree="strafkaart">\s*<legend[^>]*>([^<]+)</legend>', html)
    assert strafkaart is not None
    assert strafkaart.group(1).startswith("Strafkaart")


def test_the_grouped_session_form_keeps_the_choice_after_an_error(cases, client_trainer_a):
    case = shipped()
    response = client_trainer_a.post("/oefenen/sessies/nieuw/", {"title": "", "cases": [case.pk]})
    assert response.status_code == 200
    html = response.content.decode()
    assert re.search(rf'value="{case.pk}" id="[^"]+" checked', html)
    assert "data-form-errors" in html


def test_case_form_refuses_a_law_its_trees_edition_lacks(loaded, client_trainer_a):
    response = client_trainer_a.post("/oefenen/casussen/nieuw/", case_data(cites_text="27B1a, 13E"))
    assert response.status_code == 200
    assert "13E bestaat niet in 2017; bedoelt u 13A–13D?" in response.content.decode()
    assert not TrainingCase.objects.filter(club__isnull=False).exists()


def test_guessing_join_codes_is_throttled_like_the_login(
    cases, client_director_a, director_a, club_a, trainer_a, settings
):
    """Issue 28, item 4: six letters and digits can be guessed; after as many wrong codes as
    the login allows, joining is refused from that client for the login's cool-off, even with
    the right code. Another user, or the same one elsewhere, is not locked."""
    session = make_session(club_a, trainer_a, [shipped()])
    for _ in range(settings.AXES_FAILURE_LIMIT):
        response = client_director_a.post("/oefenen/meedoen/", {"code": "ZZZZZZ"})
        assert response.status_code == 400
    response = client_director_a.post("/oefenen/meedoen/", {"code": session.code})
    assert response.status_code == 429
    assert "data-join-locked" in response.content.decode()
    assert not SessionParticipant.objects.exists()
    elsewhere = client_director_a.post(
        "/oefenen/meedoen/", {"code": session.code}, REMOTE_ADDR="192.0.2.8"
    )
    assert elsewhere.status_code == 302
    FailedAttempt.objects.update(at=timezone.now() - settings.AXES_COOLOFF_TIME)
    assert client_director_a.post("/oefenen/meedoen/", {"code": session.code}).status_code == 302


def test_one_user_trying_many_clients_is_stopped_too(cases, client_director_a, settings):
    for number in range(settings.AXES_FAILURE_LIMIT * throttle.PER_USER_FACTOR):
        address = f"192.0.2.{number % 250 + 1}"
        client_director_a.post("/oefenen/meedoen/", {"code": "ZZZZZZ"}, REMOTE_ADDR=address)
    response = client_director_a.post("/oefenen/meedoen/", {"code": "ZZZZZZ"}, REMOTE_ADDR="::1")
    assert response.status_code == 429


def test_a_session_opened_to_guests_lets_another_clubs_member_practise(
    loaded, client_director_b, director_b, club_a, club_b, trainer_a, client_trainer_a
):
    """Issue 28, item 4: codes are for the club's own members unless the trainer ticks "ook
    voor gasten". A guest practises the session's own club case under his own club; his
    practice shows in the trainer's session, and nothing else of club A opens for him."""
    case = own_case(club_a, tree_slug=shipped().tree_slug, expected_outcomes=["x"])
    session = make_session(club_a, trainer_a, [case])
    refused = client_director_b.post("/oefenen/meedoen/", {"code": session.code})
    assert "geen open sessie" in refused.content.decode()
    assert client_director_b.get(f"/oefenen/casussen/{case.pk}/").status_code == 404
    session.open_to_guests = True
    session.save()
    joined = client_director_b.post("/oefenen/meedoen/", {"code": session.code})
    assert joined["Location"] == f"/oefenen/sessies/{session.pk}/oefenen/"

    start = client_director_b.post(f"/oefenen/casussen/{case.pk}/start/?sessie={session.pk}")
    response = first_answer(client_director_b, start["Location"], RIGHT[0])
    ruling = Ruling.objects.get()
    assert response["Location"] == f"/oefenen/pogingen/{ruling.uuid}/"
    assert (ruling.club, ruling.director, ruling.training_session) == (club_b, director_b, session)
    assert client_director_b.get(response["Location"]).status_code == 200
    grid = client_trainer_a.get(f"/oefenen/sessies/{session.pk}/").content.decode()
    assert director_b.username in grid or director_b.get_full_name() in grid
    assert 'data-guests="open"' in grid
    # The trainer opens the guest's practice from the session; a trainer of no such session
    # (club B's own practice outside it) does not.
    for number, choice in enumerate(RIGHT[1:], start=2):
        wizard.answer(ruling, ruling.current_node_key, number, choice, director_b)
    client_director_b.post(f"/oefenen/pogingen/{ruling.uuid}/beoordelen/")
    assert client_trainer_a.get(f"/oefenen/pogingen/{ruling.uuid}/").status_code == 200
    assert client_trainer_a.post(f"/oefenen/pogingen/{ruling.uuid}/beoordelen/").status_code == 404
    outside = practise(director_b, shipped(), ["nee"])
    assert client_trainer_a.get(f"/oefenen/pogingen/{outside.uuid}/").status_code == 404
    # Only the session's cases: the club's archive and its other cases stay closed.
    other = own_case(club_a, slug="ander")
    assert client_director_b.get(f"/oefenen/casussen/{other.pk}/").status_code == 404
    assert client_director_b.get("/arbitrages/?club=troefkaart").status_code == 404


def test_the_session_form_offers_the_guest_checkbox(cases, client_trainer_a, club_a):
    response = client_trainer_a.post(
        "/oefenen/sessies/nieuw/",
        {"title": "Open les", "cases": [shipped().pk], "open_to_guests": "on"},
    )
    assert response.status_code == 302
    assert TrainingSession.objects.get().open_to_guests
    form = client_trainer_a.get("/oefenen/sessies/nieuw/").content.decode()
    assert 'name="open_to_guests"' in form
