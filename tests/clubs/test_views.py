from tests.conftest import PASSWORD


def test_login_page_and_login(client, director_a):
    response = client.get("/inloggen/")
    assert response.status_code == 200
    assert "Gebruikersnaam" in response.content.decode()
    response = client.post("/inloggen/", {"username": "anna", "password": PASSWORD})
    assert response.status_code == 302
    assert response["Location"] == "/"
    assert client.get("/").status_code == 200


def test_wrong_password_shows_an_error_in_place(client, director_a):
    response = client.post("/inloggen/", {"username": "anna", "password": "fout"})
    assert response.status_code == 200
    assert b"data-form-errors" in response.content


def test_logout_needs_post(client_director_a):
    assert client_director_a.post("/uitloggen/").status_code == 302
    assert client_director_a.get("/").status_code == 302


def test_pages_are_dutch_by_default(client_director_a):
    response = client_director_a.get("/")
    assert 'lang="nl"' in response.content.decode()
    assert "Uitloggen" in response.content.decode()


def test_language_switch_is_kept_per_user(client_director_a, director_a, client):
    response = client_director_a.post("/taal/", {"language": "en", "next": "/"})
    assert response.status_code == 302
    page = client_director_a.get("/").content.decode()
    assert 'lang="en"' in page
    assert "Log out" in page
    director_a.refresh_from_db()
    assert director_a.language == "en"
    # A fresh login elsewhere comes up in English too.
    client.post("/inloggen/", {"username": "anna", "password": PASSWORD})
    assert 'lang="en"' in client.get("/").content.decode()


def test_language_switch_refuses_foreign_redirects(client_director_a):
    response = client_director_a.post("/taal/", {"language": "en", "next": "https://evil.example"})
    assert response["Location"] == "/"


def test_every_page_has_csrf_in_hx_headers_and_landmarks(client_director_a):
    html = client_director_a.get("/").content.decode()
    assert 'hx-headers=\'{"X-CSRFToken": "' in html
    for landmark in ("<header", "<nav", "<main", "<footer"):
        assert landmark in html
