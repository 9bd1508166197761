"""A review's law references, checked against the ruling's edition (archive.review_laws)."""

from __future__ import annotations

import pytest

from archive.review_laws import CheckedLaw, UnknownLaw, check, readings
from laws import keys
from laws.models import Article, Edition, Provision
from tests.support.factories import make_edition


@pytest.fixture
def editions(db) -> None:
    """1997 (tests.support.factories): articles 25 (sections 25A, 25A1), 27 and 40. A
    1963-style edition beside it, whose article 25 has lettered items: 25(a)."""
    make_edition("1997")
    old = Edition.objects.create(code="1962")
    article = Article.objects.create(edition=old, number="25", title="Verandering van bod")
    Provision.objects.create(article=article, label="a.", key="25(a)", order=1)


def test_readings_add_the_section_reading_of_a_small_letter():
    assert [str(k) for k in readings("50d")] == ["50(d)", "50D"]
    assert [str(k) for k in readings("Art. 50 d")] == ["50(d)", "50D"]
    assert [str(k) for k in readings("50D")] == ["50D"]
    assert [str(k) for k in readings("27B1a")] == ["27B1(a)"]
    assert [str(k) for k in readings("23")] == ["23"]
    with pytest.raises(keys.InvalidKey):
        readings("zomaar")


def test_a_loose_key_becomes_what_the_edition_holds(editions):
    # The same keystrokes: a section in 1997, a lettered item in the 1963-style edition.
    assert [law.key for law in check("1997", "25a")] == ["25A"]
    assert [law.key for law in check("1962", "25a")] == ["25(a)"]
    assert [law.key for law in check("1997", "25 a 1, artikel 27")] == ["25A1", "27"]


def test_titles_come_from_the_edition_and_duplicates_collapse(editions):
    title = "Geoorloofde en ongeoorloofde veranderingen"
    checked = check("1997", "25A, 25 a; 25")
    assert checked == [CheckedLaw("25A", title), CheckedLaw("25", title)]
    assert check("1962", "25a") == [CheckedLaw("25(a)", "Verandering van bod")]


def test_a_key_the_edition_lacks_is_named(editions):
    with pytest.raises(UnknownLaw) as error:
        check("1997", "25A, 99Z")
    assert (error.value.typed, error.value.key, error.value.edition) == ("99Z", "99Z", "1997")
    # The article exists, the provision does not (in either reading).
    with pytest.raises(UnknownLaw) as error:
        check("1997", " 25 q ")
    assert (error.value.typed, error.value.key) == ("25 q", "25(q)")
    # Article 40 exists in 1997 but not in the other edition.
    assert check("1997", "40") == [CheckedLaw("40", "Afspraken")]
    with pytest.raises(UnknownLaw):
        check("1962", "40")


def test_a_typo_is_not_a_key(editions):
    with pytest.raises(keys.InvalidKey) as error:
        check("1997", "25A, zie boven")
    assert error.value.text.strip() == "zie boven"


def test_blank_cites_nothing(editions):
    assert check("1997", " , ; ") == []


def test_an_edition_without_law_text_cannot_refute(db):
    Edition.objects.create(code="1949")
    assert check("1949", "50d, 99Z") == [CheckedLaw("50(d)", ""), CheckedLaw("99Z", "")]
