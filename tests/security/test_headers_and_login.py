"""Security headers on real responses, and throttled logins."""

import re

import pytest
from axes.models import AccessAttempt
from django.conf import settings
from django.test import override_settings

from tests.conftest import PASSWORD


def csp(response) -> dict[str, str]:
    policy = response["Content-Security-Policy"]
    return dict(part.strip().split(" ", 1) for part in policy.split(";"))


def test_static_files_carry_the_policy_too(client):
    response = client.get("/static/css/leidraad.css")
    assert response.status_code == 200
    assert csp(response)["script-src"] == "'self'"
    assert response["X-Content-Type-Options"] == "nosniff"


@pytest.mark.parametrize("path", ["/inloggen/"])
def test_public_pages_send_a_strict_policy(client, director_a, path):
    response = client.get(path, follow=True)
    assert response.status_code == 200
    policy = csp(response)
    assert policy["script-src"] == "'self'"
    assert "unsafe-inline" not in policy["script-src"]
    assert "unsafe-eval" not in policy["script-src"]
    assert policy["frame-ancestors"] == "'none'"
    assert policy["object-src"] == "'none'"
    assert response["X-Frame-Options"] == "DENY"
    assert response["X-Content-Type-Options"] == "nosniff"
    assert response["Referrer-Policy"] == "same-origin"
    assert "camera=()" in response["Permissions-Policy"]


def test_logged_in_pages_carry_no_inline_script(client_director_a):
    html = client_director_a.get("/").content.decode()
    assert client_director_a.get("/").has_header("Content-Security-Policy")
    # Every <script> has a src; no on* handler attributes anywhere.
    for tag in re.findall(r"<script\b[^>]*>", html):
        assert "src=" in tag, tag
    assert not re.search(r"\son[a-z]+\s*=", html)


def test_failed_logins_lock_out_with_a_clear_message(client, director_a):
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        response = client.post("/inloggen/", {"username": "anna", "password": "fout"})
        assert response.status_code == 200
    assert client.post("/inloggen/", {"username": "anna", "password": "fout"}).status_code == 429
    # Locked out: even the right password does not get in now.
    response = client.post("/inloggen/", {"username": "anna", "password": PASSWORD})
    assert response.status_code == 429
    page = response.content.decode()
    assert "Te veel mislukte pogingen" in page
    assert "15 minuten" in page


def test_a_user_name_longer_than_any_column_is_refused_by_the_form(client, director_a):
    """Django's login form only sets ``maxlength`` on the field; without a validator the name
    reached django-axes, whose 255-character column PostgreSQL enforces (a server error)."""
    response = client.post("/inloggen/", {"username": "a" * 300, "password": "fout"})
    assert response.status_code == 200
    assert "niet meer dan 150 tekens" in response.content.decode()
    assert not AccessAttempt.objects.exists()


def test_a_lock_out_is_per_user_name(client, director_a, reviewer_a):
    for _ in range(settings.AXES_FAILURE_LIMIT):
        client.post("/inloggen/", {"username": "anna", "password": "fout"})
    response = client.post("/inloggen/", {"username": "rik", "password": PASSWORD})
    assert response.status_code == 302


@override_settings(LEIDRAAD_TRUSTED_PROXIES=["127.0.0.1"])
def test_behind_a_proxy_a_stranger_cannot_lock_a_director_out(client, director_a):
    """Issue 35, item 4: the lockout was keyed on the connecting address, the proxy's for
    everyone behind it. Now on the user name with the client's address the proxy names."""
    stranger = {"REMOTE_ADDR": "127.0.0.1", "HTTP_X_FORWARDED_FOR": "203.0.113.9"}
    for _ in range(settings.AXES_FAILURE_LIMIT):
        client.post("/inloggen/", {"username": "anna", "password": "fout"}, **stranger)
    response = client.post("/inloggen/", {"username": "anna", "password": PASSWORD}, **stranger)
    assert response.status_code == 429  # the stranger's own address is locked for that name
    director = {"REMOTE_ADDR": "127.0.0.1", "HTTP_X_FORWARDED_FOR": "198.51.100.4"}
    response = client.post("/inloggen/", {"username": "anna", "password": PASSWORD}, **director)
    assert response.status_code == 302
    assert AccessAttempt.objects.get().ip_address == "203.0.113.9"


def test_weak_passwords_are_refused_at_setup(client, db):
    response = client.post(
        "/setup/",
        {"username": "wl", "password1": "12345678", "password2": "12345678", "club_name": "BC X"},
        HTTP_HOST="127.0.0.1:8000",
    )
    assert response.status_code == 200
    assert "data-form-errors" in response.content.decode()
