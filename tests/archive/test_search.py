"""Free-text search in the archive (archive/search.py): the database's text index."""

from __future__ import annotations

import pytest
from django.db import connection

from archive import search
from rulings.models import Ruling
from tests.conftest import migration_operation
from tests.support.rulings import make_ruling


def found(text: str) -> set[int]:
    return set(search.matching(Ruling.objects.all(), text).values_list("pk", flat=True))


@pytest.fixture
def ruling(club_a, director_a) -> Ruling:
    return make_ruling(
        club_a,
        director_a,
        ("ja", "nee"),
        notes="Noord heeft één kaart te weinig",
        event="Dinsdagavond",
    )


def test_words_are_found_whole_or_by_their_start(ruling, club_a, director_a):
    other = make_ruling(club_a, director_a, ("nee", "nee"), notes="Zuid speelde door", event="")
    assert found("dinsdag") == {ruling.pk}  # the start of Dinsdagavond
    assert found("avond") == set()  # not inside a word
    assert found("KAART noord") == {ruling.pk}  # every word, any case
    assert found("kaart zuid") == set()
    assert found("beperkingen") == {ruling.pk}  # the outcome's title, from its JSON
    assert found("Vervangen") == {ruling.pk}
    assert found("blijft staan") == {other.pk}  # the other outcome
    assert found("één") == {ruling.pk}
    if connection.vendor == "sqlite":  # FTS5 folds accents; PostgreSQL's 'simple' does not
        assert found("een") == {ruling.pk}


def test_the_index_follows_changes_and_deletions(ruling, club_a, director_a):
    Ruling.objects.filter(pk=ruling.pk).update(notes="West verzaakte")
    assert found("verzaakte") == {ruling.pk}
    assert found("weinig") == set()
    loose = Ruling.objects.create(club=club_a, director=director_a, notes="Losse notitie")
    assert found("notitie") == {loose.pk}
    loose.delete()  # made outside the wizard, no audit chain: it may go
    assert found("notitie") == set()


@pytest.mark.parametrize(
    "text",
    ['"', "*", "kaart*", 'NOT "x', "a:*&!|()", "OR AND NEAR", "\x00", "²³", "' OR 1=1 --"],
)
def test_search_syntax_in_the_words_is_only_text(ruling, text):
    """Words are taken as words: the text index's operators in a search do nothing."""
    result = found(text)
    assert result <= {ruling.pk}
    if not search.words(text):
        assert result == {ruling.pk}  # nothing to search for: every ruling


def test_words_split_like_the_index():
    assert search.words("kaart, zien! ♠A 3SA") == ["kaart", "zien", "A", "3SA"]
    assert search.words("snake_case") == ["snake", "case"]
    assert len(search.words("a b c d e f g h i j")) == search.MAX_WORDS


# Outside a test transaction: PostgreSQL refuses CREATE INDEX on a table with deferred checks
# pending in the same transaction, which a migration never has.
@pytest.mark.django_db(transaction=True)
def test_migrating_a_database_with_rulings_indexes_them(ruling, statements_editor):
    frozen = migration_operation("0003_free_text_search")
    frozen.reverse_code(None, statements_editor)
    frozen.code(None, statements_editor)
    assert found("weinig") == {ruling.pk}
