import pytest
from django.test import override_settings

from clubs.models import Club, Membership, Role, User

SETUP = {
    "username": "wl-admin",
    "password1": "Vier-Harten-Gemaakt-9",
    "password2": "Vier-Harten-Gemaakt-9",
    "club_name": "BC De Troefkaart",
}
# A browser on the machine itself: loopback peer, loopback host name, no proxy headers.
LOCAL = {"REMOTE_ADDR": "127.0.0.1", "HTTP_HOST": "127.0.0.1:8000"}


@pytest.mark.django_db
def test_a_fresh_install_leads_every_page_to_setup(client):
    for path in ["/", "/inloggen/", "/wetten/"]:
        response = client.get(path)
        assert response.status_code == 302, path
        assert response["Location"] == "/setup/"


@pytest.mark.django_db
def test_setup_from_localhost_creates_the_admin_and_the_club(client):
    response = client.post("/setup/", SETUP, **LOCAL)
    assert response.status_code == 302
    user = User.objects.get(username="wl-admin")
    assert user.is_superuser
    assert user.is_staff
    club = Club.objects.get()
    assert (club.name, club.slug) == ("BC De Troefkaart", "bc-de-troefkaart")
    assert Membership.objects.filter(user=user, club=club, role=Role.ADMIN).exists()
    assert client.get("/").status_code == 200  # logged in straight away


@pytest.mark.django_db
def test_setup_shows_errors_in_place_and_creates_nothing(client):
    response = client.post("/setup/", {**SETUP, "password2": "iets-anders-42"}, **LOCAL)
    assert response.status_code == 200
    assert b"data-form-errors" in response.content
    assert not User.objects.exists()
    assert not Club.objects.exists()


@pytest.mark.django_db
@pytest.mark.parametrize(
    "meta",
    [
        {"REMOTE_ADDR": "192.0.2.7"},
        {**LOCAL, "HTTP_X_FORWARDED_FOR": "192.0.2.7"},
        # A reverse proxy on this machine that nobody configured as trusted (issue 35, 1):
        {**LOCAL, "HTTP_FORWARDED": "for=192.0.2.7"},
        {**LOCAL, "HTTP_X_REAL_IP": "192.0.2.7"},
        {"REMOTE_ADDR": "127.0.0.1", "HTTP_HOST": "leidraad.example.org"},
    ],
)
@override_settings(ALLOWED_HOSTS=["*"])
def test_setup_is_refused_from_another_address(client, meta):
    assert client.get("/setup/", **meta).status_code == 403
    assert client.post("/setup/", SETUP, **meta).status_code == 403
    assert not User.objects.exists()


def test_setup_is_gone_once_a_user_exists(client, director_a):
    assert client.get("/setup/").status_code == 404
    assert client.post("/setup/", SETUP).status_code == 404
    assert client.get("/").status_code == 302
    assert client.get("/")["Location"].startswith("/inloggen/")


@pytest.mark.django_db
@override_settings(LEIDRAAD_TRUSTED_PROXIES=["127.0.0.1"], ALLOWED_HOSTS=["*"])
def test_behind_a_trusted_proxy_the_client_it_names_decides(client):
    outside = {"REMOTE_ADDR": "127.0.0.1", "HTTP_HOST": "leidraad.example.org"}
    for forwarded in ["192.0.2.7", "127.0.0.1, 192.0.2.7", ""]:
        meta = {**outside, "HTTP_X_FORWARDED_FOR": forwarded}
        assert client.post("/setup/", SETUP, **meta).status_code == 403, forwarded
    assert not User.objects.exists()
    meta = {**outside, "HTTP_X_FORWARDED_FOR": "127.0.0.1"}
    assert client.post("/setup/", SETUP, **meta).status_code == 302
    assert User.objects.get().username == "wl-admin"
