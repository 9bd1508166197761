"""How the finder reads a word (trees/wording.py): folded, without stop words, stemmed, near a
typo."""

import threading

import pytest

from trees.wording import STOP_WORDS, deletions, fold, near, stem, terms, words


def test_fold_ignores_case_and_accents():
    assert fold("Één ÉÉN één") == "een een een"


def test_words_split_on_punctuation_and_underscores():
    assert words("didn't follow_suit, 2♥") == ["didn", "t", "follow", "suit", "2"]


def test_terms_drop_words_without_meaning_and_repeats():
    assert terms("Hij dacht lang na en de partner dacht") == ["dacht", "lang", "partner"]
    assert terms("he didn't follow suit") == ["follow", "suit"]
    # Negations and the particles of "uitkomen", "voor de beurt", "out of turn" carry meaning.
    assert terms("niet uit voor not out no") == ["niet", "uit", "voor", "not", "out", "no"]


def test_a_text_of_stop_words_only_keeps_them():
    assert terms("de een") == ["de", "een"]
    assert terms("voor de") == ["voor"]  # "voor" carries meaning


def test_stop_words_are_folded_words():
    assert all(word == fold(word) and words(word) == [word] for word in STOP_WORDS)


@pytest.mark.parametrize(
    ("language", "forms"),
    [
        ("nl", ["verzaakt", "verzaking", "verzaken"]),
        ("nl", ["uitgekomen", "uitkomen"]),
        ("nl", ["gealerteerd", "alerteren"]),
        ("nl", ["gespeeld", "spelen", "speelde"]),
        ("en", ["revoked", "revoking", "revoke"]),
        ("en", ["hesitation", "hesitated"]),
    ],
)
def test_the_snowball_stemmer_gives_the_forms_of_a_word_one_stem(language, forms):
    assert len({stem(form, language) for form in forms}) == 1


def test_each_thread_has_its_own_stemmer():
    """The Snowball stemmer keeps its state in the stemmer object: threads stemming at once
    must not mix their words."""
    expected = {word: stem(word, "nl") for word in ("verzaking", "aarzelingen", "gealerteerd")}
    stem.cache_clear()
    results: list[tuple[str, str]] = []

    def run(word: str) -> None:
        for _ in range(200):
            stem.cache_clear()
            results.append((word, stem(word, "nl")))

    threads = [threading.Thread(target=run, args=(word,)) for word in expected]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert {(word, result) for word, result in results} == set(expected.items())


def test_deletions_leave_out_one_letter_at_every_place():
    assert list(deletions("abc")) == ["bc", "ac", "ab"]


@pytest.mark.parametrize(
    ("a", "b", "close"),
    [
        ("verzaakt", "verzaakr", True),  # replaced
        ("verzaakt", "verzakt", True),  # left out
        ("verzaakt", "verzaaktt", True),  # extra
        ("aarzeling", "aarzleing", True),  # two swapped
        ("verzaakt", "verzaakt", False),  # the same is not a typo
        ("verzaakt", "verzkaat", False),  # two errors
        ("kaart", "kaarten", False),
    ],
)
def test_near_is_one_typing_error(a, b, close):
    assert near(a, b) is close
    assert near(b, a) is close
