"""The parts of the attack surface the other security tests do not walk (issue 28, item 5):
CSRF on every POST route, ``next=`` open redirects, the first-run page from outside and with
forged proxy headers, no traceback with DEBUG off, stored payloads on every page that shows
them (record, print, appeal form, audit trail, CSV, English), and a double-submitted
"Definitief opslaan". ``scripts/attack_surface.py`` runs these with the other security tests
and counts requests, server errors, leaks and half-written data per area.
"""

from __future__ import annotations

import csv
import io
from types import SimpleNamespace
from typing import Any
from urllib.parse import urlsplit

import pytest
from django.db import transaction
from django.test import Client, override_settings
from django.urls import reverse

from archive import stats
from archive.models import Review
from archive.reviews import record_review, set_appeal
from clubs import middleware as club_middleware
from clubs import views as club_views
from clubs.models import User
from rulings import audit
from rulings.models import AppealStatus, AuditEvent, Ruling
from scores.models import StoredDeal
from tests.conftest import PASSWORD
from tests.security.test_isolation_matrix import (
    CONTEXT,
    is_admin,
    routes,
    rules_for,
    url_for,
)
from tests.support.hostile import MARKUP, assert_inert
from tests.support.world import World
from training.models import TrainingSession

pytestmark = pytest.mark.django_db


class _Rollback(Exception):
    pass


def footprint() -> tuple[int, ...]:
    return (
        Ruling.objects.count(),
        AuditEvent.objects.count(),
        Review.objects.count(),
        User.objects.count(),
        TrainingSession.objects.count(),
        StoredDeal.objects.count(),
    )


def allowed_persona(expect: dict[str, Any]) -> str | None:
    """A persona for whom the POST works (a redirect or a page): the CSRF check must be what
    refuses it."""
    for persona, status in expect.items():
        if persona != "anonymous" and status in (200, 302):
            return persona
    return None


def post_cases() -> list[Any]:
    found = []
    for route in routes():
        if is_admin(route):
            continue  # Django's admin: its own CSRF protection, staff only
        for case in rules_for(route):
            persona = allowed_persona(case.expect) if case.method == "POST" else None
            if persona:
                found.append(pytest.param(route, case, persona, id=f"{route.key} {case.variant}"))
    return found


@pytest.mark.parametrize(("route", "case", "persona"), post_cases())
def test_every_post_without_the_token_is_refused_and_changes_nothing(
    world: World, client_as, route, case, persona
):
    client = client_as(persona)
    client.handler.enforce_csrf_checks = True
    url = url_for(route, case, world)
    try:
        with transaction.atomic():
            before = footprint()
            response = client.post(url, case.data(world))
            after = footprint()
            raise _Rollback
    except _Rollback:
        pass
    assert response.status_code == 403, (url, response.status_code)
    assert "Formulier verlopen" in response.content.decode()
    assert after == before


# --------------------------------------------------------------------------------------------
# Open redirects

NEXT = [
    "https://evil.example/",
    "//evil.example/",
    "/\\evil.example",
    "\\\\evil.example",
    "http:evil.example",
    "https:/evil.example",
    "javascript:alert(1)",
    " https://evil.example",
    "\thttps://evil.example",
    "/%2F%2Fevil.example",
    "https://testserver@evil.example/",
]


def local(location: str) -> bool:
    """A path on this site, as a browser reads it (backslashes as slashes, tabs dropped)."""
    read = location.replace("\\", "/").replace("\t", "").strip()
    parts = urlsplit(read)
    return read.startswith("/") and not read.startswith("//") and not parts.netloc


@pytest.mark.parametrize("target", NEXT)
def test_next_never_leads_off_the_site(world: World, target):
    login = Client().post(
        f"{reverse('login')}?next={target}", {"username": "anna", "password": PASSWORD}
    )
    assert login.status_code == 302
    assert local(login["Location"]), login["Location"]
    language = Client().post(reverse("set_language"), {"language": "en", "next": target})
    assert local(language["Location"]), language["Location"]
    client = Client()
    client.force_login(world.users["director_a"])
    logout = client.post(f"{reverse('logout')}?next={target}")
    assert local(logout["Location"]), logout["Location"]


# --------------------------------------------------------------------------------------------
# The first-run page

OUTSIDE = "203.0.113.66"
FORGED = [
    {"REMOTE_ADDR": OUTSIDE},
    {"REMOTE_ADDR": OUTSIDE, "HTTP_X_FORWARDED_FOR": "127.0.0.1"},
    {"REMOTE_ADDR": OUTSIDE, "HTTP_HOST": "127.0.0.1:8000"},
    {"REMOTE_ADDR": "127.0.0.1", "HTTP_X_FORWARDED_FOR": OUTSIDE},
    {"REMOTE_ADDR": "127.0.0.1", "HTTP_FORWARDED": f"for={OUTSIDE}"},
    {"REMOTE_ADDR": "127.0.0.1", "HTTP_X_REAL_IP": OUTSIDE},
    {"REMOTE_ADDR": "127.0.0.1", "HTTP_HOST": "leidraad.example.org"},
    {"REMOTE_ADDR": "127.0.0.1", "HTTP_X_FORWARDED_HOST": "localhost"},
]
TRUSTED_FORGED = [
    {"REMOTE_ADDR": "127.0.0.1", "HTTP_X_FORWARDED_FOR": OUTSIDE},
    {"REMOTE_ADDR": "127.0.0.1", "HTTP_X_FORWARDED_FOR": f"127.0.0.1, {OUTSIDE}"},
    {"REMOTE_ADDR": "127.0.0.1", "HTTP_X_FORWARDED_FOR": "garbage"},
    {"REMOTE_ADDR": "127.0.0.1"},
    {"REMOTE_ADDR": "127.0.0.1", "HTTP_X_REAL_IP": "127.0.0.1"},
]
SETUP = {
    "username": "eve",
    "password1": "Vier-Harten-Gemaakt-9",
    "password2": "Vier-Harten-Gemaakt-9",
    "club_name": "BC Overname",
}


@pytest.fixture
def fresh_install(monkeypatch):
    """The first-run page as on a fresh install: no user counts as existing."""
    nobody = SimpleNamespace(objects=SimpleNamespace(exists=lambda: False))
    monkeypatch.setattr(club_views, "get_user_model", lambda: nobody)
    monkeypatch.setattr(club_middleware, "get_user_model", lambda: nobody)


def setup_refused(meta: dict[str, str]) -> None:
    client = Client()
    assert client.get(reverse("setup"), **meta).status_code == 403
    assert client.post(reverse("setup"), SETUP, **meta).status_code == 403
    assert not User.objects.filter(username="eve").exists()


@override_settings(ALLOWED_HOSTS=["*"])
@pytest.mark.parametrize("meta", FORGED)
def test_setup_refuses_outsiders_and_forged_headers(world, fresh_install, meta):
    setup_refused(meta)


@override_settings(ALLOWED_HOSTS=["*"], LEIDRAAD_TRUSTED_PROXIES=["127.0.0.1"])
@pytest.mark.parametrize("meta", TRUSTED_FORGED)
def test_setup_behind_a_trusted_proxy_refuses_outsiders(world, fresh_install, meta):
    setup_refused(meta)


# --------------------------------------------------------------------------------------------
# DEBUG off: no traceback, no URL list, no exception text


def test_a_server_error_shows_no_traceback(world, session_cookies, monkeypatch, settings):
    assert settings.DEBUG is False

    def broken(*args, **kwargs):
        raise RuntimeError("geheim-detail uit de database")

    monkeypatch.setattr(stats, "summarise", broken)
    client = Client(raise_request_exception=False)
    client.cookies["sessionid"] = session_cookies["reviewer_a"]
    response = client.get(reverse("archive:statistics"))
    body = response.content.decode()
    assert response.status_code == 500
    assert 'data-error-page="500"' in body
    for secret in ("Traceback", "geheim-detail", "RuntimeError", "settings.py"):
        assert secret not in body
    missing = client.get("/bestaat/niet/").content.decode()
    assert "URLconf" not in missing
    assert "urlpatterns" not in missing


# --------------------------------------------------------------------------------------------
# Stored payloads on every page that shows user text

FORMULAS = ['=HYPERLINK("http://evil.example")', "＝1+1", "+31 6", "@SUM(A1)", " =2*3"]


def store_payloads(world: World) -> list[str]:
    payloads = [*MARKUP[:6], *FORMULAS]
    text = " ".join(MARKUP[:6])
    ruling = world.final
    Ruling.objects.filter(pk=ruling.pk).update(notes=text, event=MARKUP[0][:200])
    ruling.refresh_from_db()
    record_review(ruling, world.users["reviewer_a"], "confirmed", text)
    set_appeal(ruling, world.users["reviewer_a"], AppealStatus.OPEN, text)
    Ruling.objects.filter(pk=world.at_outcome.pk).update(notes=FORMULAS[0], event=FORMULAS[1])
    return payloads


def pages(world: World) -> list[str]:
    detail = reverse("archive:detail", args=[world.final.uuid])
    return [
        detail,
        f"{detail}?afdruk=audit",
        reverse("archive:appeal_form", args=[world.final.uuid]),
        f"{reverse('archive:list')}?mode=all&status=",
        reverse("archive:statistics"),
        reverse("wizard:ruling", args=[world.at_outcome.uuid]),
        reverse("home"),
    ]


@pytest.mark.parametrize("language", ["nl", "en"])
def test_stored_payloads_are_text_on_every_page(world: World, client_as, language):
    payloads = store_payloads(world)
    for persona in ("director_a", "reviewer_a", "admin_a"):
        client = client_as(persona)
        client.post(reverse("set_language"), {"language": language, "next": "/"})
        for page in pages(world):
            response = client.get(page)
            assert response.status_code in (200, 302, 403), (page, response.status_code)
            assert_inert(response, payloads)
    audit.verify(Ruling.objects.get(pk=world.final.pk))


def test_csv_cells_never_start_a_formula(world: World, client_as):
    store_payloads(world)
    response = client_as("admin_a").get(reverse("archive:csv"), {"mode": "all", "status": ""})
    body = b"".join(response.streaming_content).decode("utf-8-sig")
    for row in csv.reader(io.StringIO(body)):
        for cell in row:
            stripped = cell.lstrip(" \u3000")
            assert not stripped.startswith(("=", "+", "@", "＝", "＋", "＠")), cell


# --------------------------------------------------------------------------------------------
# Double submits: "Definitief opslaan" twice, two browsers on one ruling


def test_definitief_opslaan_twice_saves_once(world: World, client_as):
    ruling = world.at_outcome
    url = reverse("wizard:save", args=[ruling.uuid])
    first, second = client_as("director_a"), client_as("director_a")
    responses = [first.post(url, CONTEXT), second.post(url, CONTEXT), first.post(url, CONTEXT)]
    assert [r.status_code < 500 for r in responses] == [True, True, True]
    saved = ruling.audit_events.filter(action=audit.Action.SAVED).count()
    assert saved == 1
    assert audit.verify(ruling) == []


def test_two_browsers_edit_and_save_the_same_ruling(world: World, client_as):
    """Both pages were loaded before either sent: the second save is refused as stale, the
    context of the first is what is on the record."""
    ruling = world.at_outcome
    save = reverse("wizard:save", args=[ruling.uuid])
    laptop, phone = client_as("director_a"), client_as("admin_a")
    assert laptop.post(save, {**CONTEXT, "table": "5"}).status_code == 302
    response = phone.post(save, {**CONTEXT, "table": "9"})
    assert response.status_code < 500
    ruling.refresh_from_db()
    assert ruling.table == 5
    assert ruling.audit_events.filter(action=audit.Action.SAVED).count() == 1
    assert audit.verify(ruling) == []
