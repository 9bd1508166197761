import pytest

from clubs.models import Club, Membership, Role, User

SETUP = {
    "username": "wl-admin",
    "password1": "Vier-Harten-Gemaakt-9",
    "password2": "Vier-Harten-Gemaakt-9",
    "club_name": "BC De Troefkaart",
}


@pytest.mark.django_db
def test_a_fresh_install_leads_every_page_to_setup(client):
    for path in ["/", "/inloggen/", "/wetten/"]:
        response = client.get(path)
        assert response.status_code == 302, path
        assert response["Location"] == "/setup/"


@pytest.mark.django_db
def test_setup_from_localhost_creates_the_admin_and_the_club(client):
    response = client.post("/setup/", SETUP, REMOTE_ADDR="127.0.0.1")
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
    response = client.post("/setup/", {**SETUP, "password2": "iets-anders-42"})
    assert response.status_code == 200
    assert b"data-form-errors" in response.content
    assert not User.objects.exists()
    assert not Club.objects.exists()


@pytest.mark.django_db
@pytest.mark.parametrize(
    "meta",
    [
        {"REMOTE_ADDR": "192.0.2.7"},
        {"REMOTE_ADDR": "127.0.0.1", "HTTP_X_FORWARDED_FOR": "192.0.2.7"},
    ],
)
def test_setup_is_refused_from_another_address(client, meta):
    assert client.get("/setup/", **meta).status_code == 403
    assert client.post("/setup/", SETUP, **meta).status_code == 403
    assert not User.objects.exists()


def test_setup_is_gone_once_a_user_exists(client, director_a):
    assert client.get("/setup/").status_code == 404
    assert client.post("/setup/", SETUP).status_code == 404
    assert client.get("/").status_code == 302
    assert client.get("/")["Location"].startswith("/inloggen/")
