"""lib.htmx: a fragment only for htmx requests that do not restore history; always Vary."""

from pathlib import Path

import pytest
from django.template import engines
from django.test import RequestFactory
from django_htmx.middleware import HtmxMiddleware

from lib import htmx

TEMPLATES = Path(__file__).resolve().parent / "templates"
HTMX = {"HTTP_HX_REQUEST": "true"}
HISTORY_RESTORE = {**HTMX, "HTTP_HX_HISTORY_RESTORE_REQUEST": "true"}


@pytest.fixture(autouse=True)
def _test_templates():
    engine = engines["django"].engine
    dirs = engine.dirs
    engine.dirs = [*dirs, TEMPLATES]
    yield
    engine.dirs = dirs


def request(**headers):
    made = RequestFactory().get("/pagina/", **headers)
    HtmxMiddleware(lambda r: None)(made)
    return made


@pytest.mark.parametrize(
    ("headers", "partial"), [({}, False), (HTMX, True), (HISTORY_RESTORE, False)]
)
def test_is_partial_only_for_htmx_that_does_not_restore_history(headers, partial):
    assert htmx.is_partial(request(**headers)) is partial
    assert htmx.is_htmx(request(**headers)) is bool(headers)


def test_a_request_without_the_middleware_is_a_full_page():
    assert htmx.is_partial(RequestFactory().get("/", **HTMX)) is False


def test_partial_name_in_the_template_or_elsewhere():
    assert htmx.partial_name("a.html", "results") == "a.html#results"
    assert htmx.partial_name("child.html", "parent.html#step") == "parent.html#step"


@pytest.mark.parametrize(("headers", "whole"), [({}, True), (HTMX, False), (HISTORY_RESTORE, True)])
def test_render_gives_the_partial_or_the_page_and_always_varies(headers, whole):
    response = htmx.render(request(**headers), "lib_tests/page.html", {"v": 1}, partial="part")
    body = response.content.decode()
    assert ("<html>" in body) is whole
    assert '<div id="part">' in body
    vary = [part.strip() for part in response["Vary"].split(",")]
    assert vary[:2] == ["HX-Request", "HX-History-Restore-Request"]


def test_render_finds_a_partial_of_the_parent_template():
    response = htmx.render(
        request(**HTMX), "lib_tests/child.html", {"value": "x"}, partial="lib_tests/page.html#part"
    )
    assert response.content.decode().strip() == '<div id="part">x</div>'


def test_render_keeps_the_status():
    response = htmx.render(request(), "lib_tests/page.html", partial="part", status=400)
    assert response.status_code == 400


def test_redirect_is_hx_redirect_for_htmx_and_302_otherwise():
    plain = htmx.redirect(request(), "/elders/")
    assert plain.status_code == 302
    assert plain["Location"] == "/elders/"
    swapped = htmx.redirect(request(**HTMX), "/elders/")
    assert swapped.status_code == 200
    assert swapped["HX-Redirect"] == "/elders/"


# --- Through the whole middleware stack with the test client --------------------------------


@pytest.mark.urls("tests.lib.urls")
@pytest.mark.parametrize(("headers", "whole"), [({}, True), (HTMX, False), (HISTORY_RESTORE, True)])
def test_the_client_gets_the_page_for_a_history_restore(client, django_user_model, headers, whole):
    django_user_model.objects.create(username="lid")  # past the first-run page
    response = client.get("/pagina/", **headers)
    body = response.content.decode()
    assert response.status_code == 200
    assert ("<html>" in body) is whole
    assert '<div id="part">waarde</div>' in body
    assert "HX-Request" in response["Vary"]
