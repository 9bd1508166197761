"""The one key checker (laws/index.py): which keys an edition holds, the nearest ones for a key it
does not, and what a card shows (official text throughout, nearest summary). Pure: no database
except where the shipped index is loaded for the checkers that must agree."""

from __future__ import annotations

import pytest
from django.utils import translation

from laws.index import (
    ArticleEntry,
    ProvisionEntry,
    ProvisionIndex,
    Unknown,
    Words,
    key_range,
    message,
)


def make_index(
    *provisions: str, articles: tuple[str, ...] = ("13", "62"), text=()
) -> ProvisionIndex:
    return ProvisionIndex.build(
        "2017",
        [ArticleEntry(number, pk=int(number)) for number in articles],
        [
            ProvisionEntry(key, pk=index, has_text=key in text)
            for index, key in enumerate(provisions, start=100)
        ],
    )


LAW_13 = ("13A", "13A1", "13A2", "13B", "13B1", "13B2", "13C", "13D")


def test_a_whole_article_is_held_when_the_edition_has_the_article():
    index = make_index(*LAW_13)
    assert index.holds("13")
    assert index.holds("62")  # an article without provisions still answers for itself
    assert not index.holds("64")


def test_a_precise_key_is_held_only_when_the_edition_has_exactly_that_provision():
    index = make_index(*LAW_13)
    assert index.holds("13A2")
    # The old rule let any key of an article without provisions resolve to the article: no more.
    assert not index.holds("62A1")
    assert not index.holds("13E")
    assert not index.holds("13A2(a)")


def test_only_canonical_keys_are_held():
    index = make_index(*LAW_13)
    assert not index.holds("13 A 2")
    assert not index.holds("Law 13")
    assert not index.holds("nonsense")


def test_target_gives_the_article_and_provision_rows():
    index = make_index(*LAW_13)
    assert index.target("13") == (13, None)
    assert index.target("13A") == (13, 100)
    assert index.target("13E") == (None, None)


@pytest.mark.parametrize(
    ("key", "nearest", "text"),
    [
        # Beside it under its nearest existing ancestor: the sections of Law 13.
        ("13E", ("13A", "13B", "13C", "13D"), "13A–13D"),
        ("13F", ("13A", "13B", "13C", "13D"), "13A–13D"),
        # The items of 13A.
        ("13A5", ("13A1", "13A2"), "13A1, 13A2"),
        # 13D has nothing below it: 13D itself.
        ("13D1", ("13D",), "13D"),
        ("13D2(a)", ("13D",), "13D"),
        # An article without provisions: the article.
        ("62B1", ("62",), "62"),
        # A missing article: the articles on either side.
        ("40", ("13", "62"), "13, 62"),
        ("70", ("62",), "62"),
    ],
)
def test_an_unknown_key_names_the_nearest_existing_keys(key, nearest, text):
    unknown = make_index(*LAW_13).unknown(key)
    assert unknown == Unknown(key, "2017", nearest)
    assert unknown.nearest_text == text


def test_the_messages_say_it_in_dutch_and_english():
    unknown = make_index(*LAW_13).unknown("13E")
    assert unknown.english() == "13E does not exist in 2017; did you mean 13A–13D?"
    with translation.override("nl"):
        assert message(unknown) == "13E bestaat niet in 2017; bedoelt u 13A–13D?"
    with translation.override("en"):
        assert message(unknown) == "13E does not exist in 2017; did you mean 13A–13D?"
    empty = ProvisionIndex.build("1997", [], []).unknown("13E")
    assert empty.nearest == ()
    with translation.override("nl"):
        assert message(empty) == "13E bestaat niet in 1997."


def test_key_ranges_compress_three_or_more_consecutive_siblings():
    assert key_range(["13A", "13B", "13C", "13D"]) == "13A–13D"
    assert key_range(["13A", "13B"]) == "13A, 13B"
    assert key_range(["12C1(a)", "12C1(b)", "12C1(c)", "12C1(e)"]) == "12C1(a)–12C1(c), 12C1(e)"
    assert key_range(["62D1", "62D2", "62D3", "63A"]) == "62D1–62D3, 63A"
    assert key_range(["12C1(e)(i)", "12C1(e)(ii)", "12C1(e)(iii)"]) == "12C1(e)(i)–12C1(e)(iii)"
    assert key_range(["50", "51", "52"]) == "50–52"
    long = [f"40B{n}" for n in range(1, 30, 2)]  # never consecutive: a list, cut short
    assert key_range(long).endswith(", …")


def test_official_means_every_innermost_provision_below_holds_imported_text():
    index = make_index(*LAW_13, text=("13A1", "13B", "13B1", "13C"))
    assert not index.official("13A")  # 13A2 has no official text yet
    assert index.official("13A1")
    assert index.official("13B") is False  # 13B2 is missing
    assert index.official("13C")
    assert not index.official("13")
    complete = make_index(*LAW_13, text=LAW_13)
    assert complete.official("13")
    assert complete.official("13A")


def test_a_whole_article_without_provisions_is_official_by_its_own_text():
    index = ProvisionIndex.build(
        "1963", [ArticleEntry("50", has_text=True), ArticleEntry("51")], []
    )
    assert index.official("50")
    assert not index.official("51")


def test_the_nearest_summary_is_the_keys_own_else_its_parents_else_the_articles():
    index = ProvisionIndex.build(
        "2017",
        [ArticleEntry("63", title=Words("Voldongen", "Established"), summary=Words("Art."))],
        [
            ProvisionEntry("63A", title=Words("Wanneer", "When"), summary=Words("Van 63A.")),
            ProvisionEntry("63A1", title=Words("Weer gespeeld", "Played again")),
            ProvisionEntry("63B", summary=Words("Van 63B.")),
            ProvisionEntry("63B1"),
        ],
    )
    assert index.summary_for("63A1") == ("63A", Words("Van 63A."))
    assert index.summary_for("63A") == ("63A", Words("Van 63A."))
    assert index.summary_for("63") == ("63", Words("Art."))
    assert index.summary_for("63C") == ("63", Words("Art."))  # not held: the article's
    assert index.lineage("63A1") == ["63A1", "63A", "63"]
    assert index.title("63A1").get("en") == "Played again"
    assert index.title("63").get("nl") == "Voldongen"


# --------------------------------------------------------------------------------------------
# The checkers that disagreed (issue 25) agree: trees, reviews, free rulings, training cases


@pytest.mark.django_db
@pytest.mark.parametrize("key", ["64A1", "27B1(a)", "12C1(c)", "16B1(a)", "13E"])
def test_every_checker_gives_the_same_answer(key, shipped):
    from archive import review_laws
    from laws.edition_law import index_of
    from laws.models import Edition
    from rulings import free
    from training.files import citation_problems
    from trees.loading import citation_problem

    edition = Edition.objects.get(code="2017")
    index = index_of(edition)
    held = key != "13E"
    assert index.holds(key) is held
    assert (citation_problem(index)(key) is None) is held  # check_trees and the tree loader
    assert (citation_problems([key], index) == []) is held  # training cases
    assert (free.unknown_laws(edition, [key]) == []) is held  # free rulings
    if held:  # reviews
        assert [law.key for law in review_laws.check("2017", key)] == [key]
    else:
        with pytest.raises(review_laws.UnknownLaw) as refused:
            review_laws.check("2017", key)
        assert refused.value.unknown.nearest_text == "13A–13D"
