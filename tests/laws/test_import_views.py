"""The site administrator's page for importing official text (laws/import_views.py): staff
only, the dry run, the confirmation, a stale confirmation, bad files; the edition page shows
the imports. Every sentence of law-like text is invented."""

from __future__ import annotations

import hashlib

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from laws.models import LawImport, Provision
from tests.conftest import logged_in, make_user
from tests.laws.test_official import ARTICLE_63

pytestmark = pytest.mark.django_db

URL = reverse("laws:import", args=["2017"])


@pytest.fixture
def staff(club_a):
    return make_user("sietske", club_a, first_name="Sietske", last_name="Smit", is_staff=True)


@pytest.fixture
def client_staff(staff):
    return logged_in(staff)


def upload(text: str = ARTICLE_63, name: str = "art63.txt") -> SimpleUploadedFile:
    return SimpleUploadedFile(name, text.encode("utf-8"), content_type="text/plain")


def check(client, text: str = ARTICLE_63, name: str = "art63.txt", **extra):
    return client.post(URL, {"action": "check", "file": upload(text, name), **extra})


def confirm(client, text: str = ARTICLE_63):
    sha256 = hashlib.sha256(text.encode("utf-8")).hexdigest()
    return client.post(URL, {"action": "confirm", "sha256": sha256})


def official(key: str = "63A1") -> str:
    return Provision.objects.get(article__edition__code="2017", key=key).text


def test_only_staff_may_import(shipped, client, client_director_a, client_admin_a):
    for other in (client, client_director_a, client_admin_a):  # a club's administrator too
        assert other.get(URL).status_code == 302
        assert check(other).status_code == 302
    assert official() == ""
    assert not LawImport.objects.filter(edition__code="2017").exists()


def test_the_dry_run_shows_what_would_change_and_writes_nothing(shipped, client_staff):
    assert client_staff.get(URL).status_code == 200
    response = check(client_staff)
    assert response.status_code == 200
    html = response.content.decode()
    assert "63A, 63A1, 63A2, 63A3, 63A4, 63B" in html
    assert 'name="action" value="confirm"' in html
    sha256 = hashlib.sha256(ARTICLE_63.encode()).hexdigest()
    assert f'name="sha256" value="{sha256}"' in html
    assert official() == ""


def test_the_confirmation_imports_and_the_edition_page_says_by_whom(shipped, client_staff):
    check(client_staff)
    response = confirm(client_staff)
    assert response.status_code == 302
    assert response["Location"] == reverse("laws:edition", args=["2017"])
    assert official() == "Een zelfbedachte eerste zin over een volgende slag."
    record = LawImport.objects.get(edition__code="2017")
    assert (record.file_name, record.user.username) == ("art63.txt", "sietske")
    page = client_staff.get(response["Location"]).content.decode()
    assert "art63.txt" in page
    assert "Sietske Smit" in page
    assert "Officiële tekst van 6 bepalingen geïmporteerd uit art63.txt." in page
    assert URL in page  # the link to this page, for staff
    # Confirming again finds no waiting file.
    assert confirm(client_staff).status_code == 409


def test_a_stale_confirmation_imports_nothing(shipped, client_staff):
    other = ARTICLE_63.replace("eerste zin", "gewijzigde zin")
    check(client_staff)  # the dry run the administrator reads…
    check(client_staff, other, "ander.txt")  # …and another file checked in a second tab
    response = confirm(client_staff)  # confirms the first one's SHA-256
    assert response.status_code == 409
    assert "Dit is niet het bestand dat u hebt gecontroleerd" in response.content.decode()
    assert official() == ""
    assert not LawImport.objects.filter(edition__code="2017").exists()
    assert confirm(client_staff, other).status_code == 302  # the file that waits is the other
    assert official() == "Een zelfbedachte gewijzigde zin over een volgende slag."


def test_a_confirmation_without_a_dry_run_imports_nothing(shipped, client_staff):
    assert confirm(client_staff).status_code == 409
    assert official() == ""


def test_a_file_with_keys_the_index_lacks_cannot_be_confirmed(shipped, client_staff):
    text = ARTICLE_63 + "\nC. Een zelfbedachte sectie\n\nDie 2017 niet kent.\n"
    html = check(client_staff, text).content.decode()
    assert "Deze sleutel staat niet in de bepalingenindex van 2017: 63C." in html
    assert 'value="confirm"' not in html
    assert confirm(client_staff, text).status_code == 400
    assert official() == ""


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "binary"),
        ("Artikel 63 één".encode("latin-1"), "not UTF-8"),
        (b"", "bestand is leeg"),
    ],
)
def test_a_bad_file_is_refused_in_place(shipped, client_staff, data, message):
    response = client_staff.post(
        URL, {"action": "check", "file": SimpleUploadedFile("x.txt", data)}
    )
    assert response.status_code == 400
    assert message in response.content.decode()
    assert official() == ""


def test_the_edition_page_shows_no_import_link_to_others(shipped, client_director_a, client):
    for other in (client_director_a, client):
        page = other.get(reverse("laws:edition", args=["2017"])).content.decode()
        assert URL not in page
        assert "Geïmporteerde officiële tekst" in page
