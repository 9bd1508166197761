"""Free-text search in the archive (archive/search.py): the database's text index."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import connection
from django.db.models import Exists, OuterRef
from django.test.utils import CaptureQueriesContext

from archive import search
from archive import views as archive_views
from clubs.models import Club
from rulings.models import Ruling
from tests.conftest import migration_operation
from tests.support.factories import make_tree
from tests.support.rulings import START, make_ruling
from trees.models import Tree


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


def test_a_search_can_be_a_subquery(ruling, club_a, director_a):
    """The statistics count adjusted scores among the rulings found: the search then runs
    under the subquery's own table alias (PostgreSQL failed with 'missing FROM-clause entry
    for table rulings_ruling' when the condition named the table)."""
    other = make_ruling(club_a, director_a, ("nee", "nee"), notes="Zuid speelde door")
    inner = search.matching(Ruling.objects.all(), "dinsdag kaart")
    assert set(Club.objects.filter(Exists(inner.filter(club=OuterRef("pk"))))) == {club_a}
    # Every ruling of a club where one was found: the condition is on the inner ruling, not
    # on the outer one that has the same table.
    same_club = Ruling.objects.filter(Exists(inner.filter(club=OuterRef("club"))))
    assert set(same_club.values_list("pk", flat=True)) == {ruling.pk, other.pk}


def test_the_index_follows_changes_and_deletions(ruling, club_a, director_a):
    Ruling.objects.filter(pk=ruling.pk).update(notes="West verzaakte")
    assert found("verzaakte") == {ruling.pk}
    assert found("weinig") == set()
    loose = Ruling.objects.create(club=club_a, director=director_a, notes="Losse notitie")
    assert found("notitie") == {loose.pk}
    loose.delete()  # made outside the wizard, no audit chain: it may go
    assert found("notitie") == set()


def documents() -> set[int] | None:
    """The rulings the SQLite text index holds a document for (None on PostgreSQL, whose
    search vector is a column of the ruling)."""
    if connection.vendor != "sqlite":
        return None
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT rowid FROM {search.FTS_TABLE}_docsize")  # noqa: S608
        return {row[0] for row in cursor.fetchall()}


def test_the_index_follows_a_ruling_from_no_text_to_text_and_back(club_a, director_a):
    """A ruling stored at its first answer has nothing to find: on SQLite no document is
    written (a fifth of the first answer's INSERT, make bench). Notes make it found; clearing
    every text makes it unfound again; deleting rulings with and without a document leaves
    the index consistent."""
    sqlite = connection.vendor == "sqlite"
    bare = Ruling.objects.create(club=club_a, director=director_a)
    if sqlite:
        assert bare.pk not in documents()
    Ruling.objects.filter(pk=bare.pk).update(notes="Noord zag de kaart")
    assert found("kaart") == {bare.pk}
    Ruling.objects.filter(pk=bare.pk).update(notes="")
    assert found("kaart") == set()
    if sqlite:
        assert bare.pk not in documents()
    Ruling.objects.filter(pk=bare.pk).update(event="Clubavond")
    assert found("clubavond") == {bare.pk}
    untouched = Ruling.objects.create(club=club_a, director=director_a)
    Ruling.objects.filter(pk__in=[bare.pk, untouched.pk]).delete()
    assert found("clubavond") == set()
    if sqlite:
        assert documents() == set()
        with connection.cursor() as cursor:  # the contentless index is still consistent
            cursor.execute(
                f"INSERT INTO {search.FTS_TABLE}({search.FTS_TABLE}, rank) "  # noqa: S608
                "VALUES ('integrity-check', 0)"
            )


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
    # The last migration that wrote each database's index (0005 changed SQLite's only).
    latest = {"sqlite": "0005_search_skips_rulings_without_text"}
    frozen = migration_operation(latest.get(connection.vendor, "0004_search_prefixes_and_vector"))
    frozen.reverse_code(None, statements_editor)
    frozen.code(None, statements_editor)
    assert found("weinig") == {ruling.pk}


# --------------------------------------------------------------------------------------------
# The archive list with free text counts at most COUNT_CAP + 1 matches (make bench: 200,000
# rulings). The cap is lowered here so that a handful of rulings goes over it.

ARCHIVE = "/arbitrages/"


@pytest.fixture
def five_with_a_word(club_a, director_a) -> list[str]:
    """Five live rulings whose notes say "kaart", newest first."""
    made = [
        make_ruling(club_a, director_a, notes=f"Kaart {n}", at=START + timedelta(days=n))
        for n in range(5)
    ]
    return [str(ruling.uuid) for ruling in reversed(made)]


def in_english(client) -> None:
    """The user's language switch, kept in the session (clubs.middleware)."""
    session = client.session
    session["language"] = "en"
    session.save()


def listed(response) -> list[str]:
    return [str(ruling.uuid) for ruling in response.context["rulings"]]


@pytest.fixture
def small_cap(monkeypatch):
    monkeypatch.setattr(search, "COUNT_CAP", 3)
    monkeypatch.setattr(archive_views, "PER_PAGE", 2)


def test_a_search_counts_up_to_the_cap_and_says_more(
    client_reviewer_a, five_with_a_word, small_cap
):
    response = client_reviewer_a.get(ARCHIVE, {"q": "kaart"})
    page = response.content.decode()
    assert response.context["capped"] is True
    assert response.context["page"].paginator.count == 3
    assert "Meer dan 3 arbitrages" in page
    assert "5 arbitrages" not in page
    assert "data-capped" in page
    assert "de eerste 3 treffers" in page
    assert listed(response) == five_with_a_word[:2]
    # The pages stop at the cap: the second page holds the third match, and no further link.
    assert "Pagina 1 van 2" in page
    assert "page=2" in page
    second = client_reviewer_a.get(ARCHIVE, {"q": "kaart", "page": "2"})
    assert listed(second) == five_with_a_word[2:3]
    assert "page=3" not in second.content.decode()
    beyond = client_reviewer_a.get(ARCHIVE, {"q": "kaart", "page": "3"})
    assert beyond.status_code == 200
    assert listed(beyond) == five_with_a_word[2:3]


def test_the_count_query_stops_after_the_cap(client_reviewer_a, five_with_a_word, small_cap):
    with CaptureQueriesContext(connection) as captured:
        client_reviewer_a.get(ARCHIVE, {"q": "kaart"})
    counts = [q["sql"] for q in captured.captured_queries if "COUNT(" in q["sql"].upper()]
    assert len(counts) == 1
    assert "LIMIT 4" in counts[0]
    assert "ORDER BY" not in counts[0].upper()


def test_up_to_the_cap_the_count_is_exact(client_reviewer_a, five_with_a_word, small_cap):
    response = client_reviewer_a.get(ARCHIVE, {"q": "kaart 4"})  # notes "Kaart 4" only
    assert response.context["capped"] is False
    assert listed(response) == five_with_a_word[:1]
    assert "1 arbitrage" in response.content.decode()
    exactly = five_with_a_word[:3]
    Ruling.objects.exclude(uuid__in=exactly).update(notes="Anders")
    response = client_reviewer_a.get(ARCHIVE, {"q": "kaart"})
    page = response.content.decode()
    assert response.context["capped"] is False
    assert "3 arbitrages" in page
    assert "Meer dan" not in page
    assert "data-capped" not in page


def test_without_free_text_every_ruling_is_counted(client_reviewer_a, five_with_a_word, small_cap):
    for query in ({}, {"q": "  "}, {"q": "*"}):  # no words to search for: no cap
        response = client_reviewer_a.get(ARCHIVE, query)
        assert response.context["capped"] is False
        assert response.context["page"].paginator.count == 5
        assert "5 arbitrages" in response.content.decode()


def test_the_capped_count_in_english(client_reviewer_a, five_with_a_word, small_cap, monkeypatch):
    monkeypatch.setattr(search, "COUNT_CAP", 1000)
    monkeypatch.setattr(archive_views, "PER_PAGE", 2)
    Ruling.objects.update(notes="Kaart")
    in_english(client_reviewer_a)
    assert "5 rulings" in client_reviewer_a.get(ARCHIVE, {"q": "kaart"}).content.decode()
    monkeypatch.setattr(search, "COUNT_CAP", 4)
    page = client_reviewer_a.get(ARCHIVE, {"q": "kaart"}).content.decode()
    assert "More than 4 rulings" in page
    assert "You can page through the first 4 matches" in page


def test_the_cap_is_written_in_the_language_of_the_page(client_reviewer_a, five_with_a_word):
    assert search.COUNT_CAP == 1000  # the cap: 1,001 matches counted at most
    dutch = client_reviewer_a.get(ARCHIVE, {"q": "kaart"})
    assert dutch.context["cap"] == "1.000"
    assert dutch.context["capped"] is False
    in_english(client_reviewer_a)
    english = client_reviewer_a.get(ARCHIVE, {"q": "kaart"})
    assert english.context["cap"] == "1,000"


def test_a_ruling_is_found_by_its_trees_names_in_both_languages(ruling, club_a, director_a):
    """Issue 29: "denkpauze" finds the rulings of "Ongeoorloofde informatie (denkpauze)",
    though their texts never say it; and so do the tree's finder words and synonyms in either
    language. The other words must still be in the ruling's text."""
    make_tree("ander", edition=Tree.objects.get(slug="proef").edition, title="Iets anders")
    other = make_ruling(club_a, director_a, ("ja", "nee"), tree_slug="ander", notes="Dinsdag")
    Tree.objects.filter(slug="proef").update(
        title_nl="Ongeoorloofde informatie (denkpauze)",
        title_en="Unauthorised information (hesitation)",
        finder_en="tempo\nbreak in tempo",
        synonyms_nl="pauze\naarzelen",
        version="with-names",  # a new version: the tree's index is made again
    )
    for word in ("denkpauze", "Denkpauze", "hesitation", "tempo", "pauze", "aarzeling"):
        assert found(word) == {ruling.pk}, word
    assert found("denkpauze dinsdag") == {ruling.pk}  # dinsdag: in the text
    assert found("denkpauze zwaluw") == set()  # zwaluw: nowhere
    assert found("break") == set()  # one word of a finder phrase names no tree
    assert found("dinsdag") == {ruling.pk, other.pk}
    assert found("tafel 3 denkpauze") == {ruling.pk}
    assert found("denkpauzr") == set()  # a typo names no tree: the archive finds what is typed


def test_a_tree_name_search_is_one_query_more_and_no_more_per_word(
    ruling, django_assert_max_num_queries
):
    search.matching(Ruling.objects.all(), "proefboom")  # makes the tree's index
    with django_assert_max_num_queries(2):  # the tree rows, then the rulings
        assert (
            set(search.matching(Ruling.objects.all(), "proefboom uitgelegd beperkingen")) >= set()
        )
