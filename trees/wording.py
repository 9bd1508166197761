"""How the finder reads a word (pure Python, no Django): folded, in every form, near a typo.

- :func:`fold`: lower case without accents (``Één`` is ``een``).
- :func:`terms`: the words of a text that carry meaning; "hij", "de", "een", "the", "was"
  carry none (:data:`STOP_WORDS`, Dutch and English together, as directors type both).
- :func:`stem`: the Snowball stemmer of the language, so ``verzaakt``, ``verzaking`` and
  ``verzaken`` share ``verzaak``, and ``gealerteerd`` and ``alerteren`` share ``alerteer``.
- :func:`deletions` and :func:`near`: a word one typing error away (a letter missing, extra,
  wrong, or two swapped): ``verzaakr`` is near ``verzaakt``.

The Snowball stemmers keep their state in the stemmer object, so each thread has its own.
"""

from __future__ import annotations

import functools
import re
import threading
import unicodedata
from collections.abc import Iterator

import snowballstemmer

__all__ = ["LANGUAGES", "STOP_WORDS", "deletions", "fold", "near", "stem", "terms", "words"]

LANGUAGES = ("nl", "en")
_SNOWBALL = {"nl": "dutch", "en": "english"}
_WORD = re.compile(r"[^\W_]+")

# Words that say nothing about what happened at the table, and the pieces of English
# contractions ("didn't" is "didn" and "t"). Short on purpose: "niet", "geen", "not", "no" do
# (a revoke is a suit *not* followed), and so do "uit", "voor", "out" in "uitkomen", "voor de
# beurt" and "out of turn" (they count there as part of those words).
_STOP_WORDS = """
    aan al als ben bij dan dat de deze die dit door doen een en er had hadden heb hebben heeft
    hem het hier hij hun ik is je jij ja kan kon maar me men met mij mijn na naar nee nog nu of
    om ons ook op te tegen toch toen tot u was waren wat we wel werd werden wie wij wil wilde
    word wordt ze zei zich zij zijn zo zou zouden
    a about after an and are as at be been before but by did do does for from had has have he
    her him his i if in into is it its me my of on or she so than that the their them then there
    they this to too was we were what when which who will with would yes you your
    d didn doesn don hadn hasn haven isn ll m re s t ve wasn weren
"""
STOP_WORDS = frozenset(_STOP_WORDS.split())


def fold(text: str) -> str:
    """Lower case without accents: ``Één`` and ``een`` are the same word."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    return "".join(char for char in decomposed if not unicodedata.combining(char))


def words(text: str) -> list[str]:
    """Every folded word of ``text`` (letters and digits; punctuation and ``_`` split)."""
    return _WORD.findall(fold(text))


def terms(text: str) -> list[str]:
    """The folded words of ``text`` that carry meaning, each once, in order. A text of stop
    words only ("voor de"), keeps them all: it is all there is to search for."""
    found = list(dict.fromkeys(words(text)))
    meaningful = [word for word in found if word not in STOP_WORDS]
    return meaningful or found


_local = threading.local()


def _stemmer(language: str) -> snowballstemmer.Stemmer:
    stemmers = getattr(_local, "stemmers", None)
    if stemmers is None:
        stemmers = _local.stemmers = {
            code: snowballstemmer.stemmer(name) for code, name in _SNOWBALL.items()
        }
    return stemmers[language]


@functools.lru_cache(maxsize=65536)
def stem(word: str, language: str) -> str:
    """The Snowball stem of a folded ``word`` in ``language`` ('nl' or 'en')."""
    return str(_stemmer(language).stemWord(word))


def deletions(word: str) -> Iterator[str]:
    """``word`` with one letter left out, at every place."""
    for index in range(len(word)):
        yield word[:index] + word[index + 1 :]


def near(a: str, b: str) -> bool:
    """True when ``a`` and ``b`` differ by one typing error: one letter inserted, left out
    or replaced, or two neighbouring letters swapped (not when they are equal)."""
    if a == b or abs(len(a) - len(b)) > 1:
        return False
    if len(a) > len(b):
        a, b = b, a
    start = 0
    while start < len(a) and a[start] == b[start]:
        start += 1
    if len(a) < len(b):
        return a[start:] == b[start + 1 :]
    if a[start + 1 :] == b[start + 1 :]:
        return True
    return (
        start + 1 < len(a)
        and a[start] == b[start + 1]
        and a[start + 1] == b[start]
        and a[start + 2 :] == b[start + 2 :]
    )
