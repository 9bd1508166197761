"""Shared fixtures: clubs and named personas, logged-in clients, and Chromium for Playwright."""

import importlib
import os
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from types import SimpleNamespace

import hypothesis
import pytest
from django.conf import settings as django_settings
from django.db import connection
from django.test import Client
from django.utils import translation
from playwright.sync_api import Page, expect
from whitenoise.middleware import WhiteNoiseMiddleware

from clubs.models import Club, Membership, Role, User
from laws import edition_law
from rulings.templatetags import law_card_tags
from tests.support import shipped as shipped_data
from tests.support.factories import make_tree
from trees import snapshot
from trees.models import Tree

# Playwright's sync API runs an event loop in the test thread; Django's live_server and ORM
# calls from the same thread are safe here.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

# Debian's chromium-headless-shell (the build Playwright itself runs headless) when installed:
# the same Blink at about half the CPU of the full browser (docs/DEVELOPING.md, "Tests"); the
# full browser otherwise, and always where ``CHROMIUM`` names one (make bench uses it).
HEADLESS_SHELL = Path("/usr/lib/chromium/chromium-headless-shell")
FULL_CHROMIUM = Path("/usr/lib/chromium/chromium")
CHROMIUM = Path(
    os.environ.get("CHROMIUM") or (HEADLESS_SHELL if HEADLESS_SHELL.exists() else FULL_CHROMIUM)
)
ARTIFACTS = Path(__file__).resolve().parent.parent / "test-artifacts"

# A web-first assertion waits until the page shows what a person waits for; this is only the
# ceiling. Playwright's 5 s default was too short for a page load on a two-core CI machine
# running both database suites beside Chromium.
expect.set_options(timeout=20_000)
PASSWORD = "gr00t-Slem-7NT"

# Hypothesis: a moderate number of examples for ``make test`` ("dev"), a deeper run where time
# allows (HYPOTHESIS_PROFILE=ci, e.g. in continuous integration). The hostile-input tests of
# tests/security have their own count on top of this (tests/security/conftest.py).
HYPOTHESIS_PROFILE = os.environ.get("HYPOTHESIS_PROFILE", "dev")
# No deadline: an example's time says nothing about correctness, and on a shared two-core
# machine a slow example (a PBN file parsed twice, by us and by endplay) is not a failure.
hypothesis.settings.register_profile("dev", max_examples=50, deadline=None)
hypothesis.settings.register_profile("ci", max_examples=200, deadline=None)
hypothesis.settings.load_profile(HYPOTHESIS_PROFILE)
DEEP = HYPOTHESIS_PROFILE == "ci"


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings):
    # The personas get real passwords; PBKDF2 takes about a second per user, MD5 is enough
    # for test users (the browser tests still log in through the real form).
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(scope="session", autouse=True)
def _static_files_indexed_once():
    """Every test ``Client`` builds its own middleware chain, and WhiteNoise's middleware then
    indexes every static file found by the finders (``WHITENOISE_USE_FINDERS``, on outside
    production): about 30 ms of CPU per client, thousands of times per run. The files do not
    change during a run, so the index is made once per process and configuration and copied
    into each new middleware; requests for static files are still served by WhiteNoise."""
    indexed: dict[tuple, dict] = {}
    index_files = WhiteNoiseMiddleware.add_files_from_finders

    def add_files_from_finders(self) -> None:
        # What the index depends on: the middleware's options and the settings that choose
        # the files (finders) and their headers (immutable files, added headers).
        key = (
            self.static_prefix,
            self.max_age,
            self.charset,
            self.allow_all_origins,
            self.index_file,
            repr(
                [
                    getattr(django_settings, name, None)
                    for name in (
                        "INSTALLED_APPS",
                        "STATICFILES_DIRS",
                        "STATICFILES_FINDERS",
                        "STORAGES",
                        "WHITENOISE_ADD_HEADERS_FUNCTION",
                        "WHITENOISE_IMMUTABLE_FILE_TEST",
                    )
                ]
            ),
        )
        if key not in indexed:
            before = set(self.files)
            index_files(self)
            indexed[key] = {url: f for url, f in self.files.items() if url not in before}
        self.files.update(indexed[key])

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(WhiteNoiseMiddleware, "add_files_from_finders", add_files_from_finders)
        yield


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup, django_db_blocker):
    """Each test process's database (one per pytest-xdist worker, SQLite or PostgreSQL) holds
    the shipped laws, trees and training cases, loaded once as ``manage.py bootstrap`` loads
    them (tests/support/shipped.py)."""
    with django_db_blocker.unblock():
        shipped_data.load()


@pytest.fixture(autouse=True)
def _shipped_rows(request):
    """Before a test that uses the database: the shipped rows, put back from their copy when
    a transactional test's flush took them (one query otherwise)."""
    uses_db = request.node.get_closest_marker("django_db") or any(
        name in request.fixturenames for name in ("db", "transactional_db", "live_server")
    )
    if uses_db:
        request.getfixturevalue("_django_db_helper")
        shipped_data.ensure()


@pytest.fixture(autouse=True)
def _dutch_at_the_start():
    # The language middlewares activate a request's language in this thread and leave it (as
    # Django's own LocaleMiddleware does: the next request activates its own). A test that
    # reads gettext outside a request must not depend on what the test before it requested.
    translation.activate(django_settings.LANGUAGE_CODE)
    yield
    translation.activate(django_settings.LANGUAGE_CODE)


@pytest.fixture(autouse=True)
def _fresh_snapshot_cache():
    # Tree snapshots are cached per process by content; a test database rolled back between
    # tests must not leave a remembered snapshot whose row is gone.
    snapshot.clear_cache()
    edition_law.clear_cache()
    law_card_tags.clear_cache()
    yield
    snapshot.clear_cache()
    edition_law.clear_cache()
    law_card_tags.clear_cache()


def make_user(username: str, club: Club | None = None, *roles: str, **extra) -> User:
    user = User.objects.create_user(username=username, password=PASSWORD, **extra)
    for role in roles:
        Membership.objects.create(user=user, club=club, role=role)
    return user


@pytest.fixture
def club_a(db) -> Club:
    return Club.objects.create(name="BC De Troefkaart", slug="troefkaart")


@pytest.fixture
def club_b(db) -> Club:
    return Club.objects.create(name="BC Het Vrije Slagje", slug="vrije-slagje")


@pytest.fixture
def director_a(club_a) -> User:
    return make_user("anna", club_a, Role.DIRECTOR, first_name="Anna")


@pytest.fixture
def reviewer_a(club_a) -> User:
    return make_user("rik", club_a, Role.REVIEWER, first_name="Rik")


@pytest.fixture
def trainer_a(club_a) -> User:
    return make_user("tineke", club_a, Role.TRAINER, first_name="Tineke")


@pytest.fixture
def admin_a(club_a) -> User:
    return make_user("bert", club_a, Role.ADMIN, first_name="Bert")


@pytest.fixture
def director_b(club_b) -> User:
    return make_user("bas", club_b, Role.DIRECTOR, first_name="Bas")


def logged_in(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def client_director_a(director_a) -> Client:
    return logged_in(director_a)


@pytest.fixture
def client_reviewer_a(reviewer_a) -> Client:
    return logged_in(reviewer_a)


@pytest.fixture
def client_trainer_a(trainer_a) -> Client:
    return logged_in(trainer_a)


@pytest.fixture
def client_admin_a(admin_a) -> Client:
    return logged_in(admin_a)


@pytest.fixture
def client_director_b(director_b) -> Client:
    return logged_in(director_b)


# --- Hypothesis examples counted by the security tests ----------------------------------------

hypothesis_examples: Counter[str] = Counter()


def pytest_sessionfinish(session) -> None:
    # A pytest-xdist worker hands its counts to the controller (see pytest_testnodedown).
    workeroutput = getattr(session.config, "workeroutput", None)
    if workeroutput is not None:
        workeroutput["hypothesis_examples"] = dict(hypothesis_examples)


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node, error) -> None:
    hypothesis_examples.update(getattr(node, "workeroutput", {}).get("hypothesis_examples", {}))


def pytest_terminal_summary(terminalreporter) -> None:
    if hypothesis_examples:
        terminalreporter.write_line(
            f"hypothesis: {sum(hypothesis_examples.values())} examples generated across "
            f"{len(hypothesis_examples)} hostile-input tests"
        )


# --- Tests of one database's behaviour -----------------------------------------------------


def _deselect_other_databases(config, items):
    """A test marked ``database("sqlite")`` is about that database's own behaviour (its backup
    API, say): on the other one it is deselected, not skipped, since there is nothing to run.
    `.ci/run` runs the suite on both, so each such test runs once."""
    from django.db import connection

    other = [
        item
        for item in items
        if (marker := item.get_closest_marker("database")) and marker.args[0] != connection.vendor
    ]
    if other:
        config.hook.pytest_deselected(items=other)
        items[:] = [item for item in items if item not in other]


# --- Browser tests -------------------------------------------------------------------------


def pytest_collection_modifyitems(config, items):
    _deselect_other_databases(config, items)
    if CHROMIUM.exists():
        return
    browser_tests = [item for item in items if "browser" in item.keywords]
    if not browser_tests:
        return
    if os.environ.get("CI") == "true":
        raise pytest.UsageError(f"CI=true but Chromium is missing at {CHROMIUM}")
    marker = pytest.mark.skip(
        reason=f"Chromium not found at {CHROMIUM} (apt-get install chromium-headless-shell)"
    )
    for item in browser_tests:
        item.add_marker(marker)


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    return {
        **browser_type_launch_args,
        "executable_path": str(CHROMIUM),
        "headless": True,
        "args": [
            "--no-sandbox",
            "--disable-gpu",
            "--disable-dev-shm-usage",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
        ],
    }


@pytest.fixture(scope="session")
def browser(launch_browser, live_server):
    """pytest-playwright's browser, started after the live server so that it is closed before
    the server stops. Otherwise Chromium's kept-alive connections ended in server threads after
    the server had stopped sharing the in-memory SQLite connection, and each such thread
    raised an error at the end of a worker's run."""
    browser = launch_browser()
    yield browser
    browser.close()


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args):
    return {**browser_context_args, "locale": "nl-NL", "viewport": {"width": 1280, "height": 900}}


@pytest.fixture
def artifacts() -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS


@pytest.fixture
def screenshot() -> Callable[..., None]:
    """``screenshot(page, name)``: a picture of the page in ``test-artifacts/`` for a person
    to look at, with SCREENSHOTS=1 only. A picture asserts nothing, and two dozen of them
    were seconds of every ``make test``."""

    def take(page: Page, name: str, full_page: bool = True) -> None:
        if os.environ.get("SCREENSHOTS") == "1":
            ARTIFACTS.mkdir(exist_ok=True)
            page.screenshot(path=ARTIFACTS / name, full_page=full_page)

    return take


@pytest.fixture
def login(live_server):
    """Log a user in through the real login form of the live server."""

    def do_login(page, user: User) -> None:
        page.goto(f"{live_server.url}/inloggen/")
        page.get_by_label("Gebruikersnaam").fill(user.username)
        page.get_by_label("Wachtwoord").fill(PASSWORD)
        page.get_by_role("button", name="Inloggen").last.click()
        page.wait_for_url(f"{live_server.url}/")

    return do_login


@pytest.fixture
def sign_in(live_server):
    """Log a user in without the form: the session a real login makes (Django's ``login``,
    with its ``user_logged_in`` signals), handed to the browser as its session cookie.

    The page stays where it is; the next ``goto`` is logged in. Three page loads cheaper than
    ``login``: each module keeps one test that logs in through the real form (``login``),
    the others use this."""

    def do_sign_in(page, user: User) -> None:
        client = Client()
        client.force_login(user)
        cookie = client.cookies[django_settings.SESSION_COOKIE_NAME]
        page.context.add_cookies(
            [{"name": cookie.key, "value": cookie.value, "url": live_server.url}]
        )

    return do_sign_in


# --- Trees in the database, and the archive app's frozen migrations


@pytest.fixture
def proef_tree(db):
    return make_tree()


@pytest.fixture
def shipped(db) -> dict[str, Tree]:
    """The shipped trees (trees/files/*.yaml) on the seed law text, by slug: every test
    database has them (``django_db_setup`` above)."""
    return {tree.slug: tree for tree in Tree.objects.select_related("edition")}


@pytest.fixture
def without_shipped_data(db) -> None:
    """No shipped laws, trees or cases, as in a new installation before ``bootstrap``: for the
    tests of the loaders themselves (rolled back with the test)."""
    shipped_data.empty()


@pytest.fixture
def statements_editor():
    """Stands in for a schema editor in a migration's RunPython: runs each statement in the
    test's transaction (Django's SQLite schema editor cannot be opened inside one)."""
    with connection.cursor() as cursor:
        yield SimpleNamespace(
            connection=connection, execute=lambda sql, params: cursor.execute(sql)
        )


def migration_operation(name: str):
    """The RunPython operation of a migration of the archive app whose SQL is frozen in the
    file: the tests run that SQL, not a live copy of it."""
    module = importlib.import_module(f"archive.migrations.{name}")
    (operation,) = module.Migration.operations
    return operation
