"""The one grammar for law keys (laws/keys.py): accepted, normalised and rejected keys, the
Key type (parents, ordering), cross-references in running text, and Hypothesis round trips.

Pure: no database. The key tables that used to live in test_importer.py (normalise_key,
find_references) and test_tree_engine.py (canonical_key, split_key) moved here with the code.
"""

from __future__ import annotations

import string

import pytest
from hypothesis import given
from hypothesis import strategies as st

from laws.keys import (
    MAX_ARTICLE,
    MAX_CLAUSE,
    MAX_ITEM,
    InvalidKey,
    Key,
    canonical,
    canonical_list,
    find_references,
    is_canonical,
    parse,
    reference_spans,
    roman,
    try_parse,
)

# --------------------------------------------------------------------------------------------
# Explicit examples


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("27", Key(27)),
        ("62D", Key(62, "D")),
        ("62D2", Key(62, "D", 2)),
        ("64A2", Key(64, "A", 2)),
        ("43B2(b)", Key(43, "B", 2, "b")),
        ("50D2(a)", Key(50, "D", 2, "a")),
        ("47A(a)", Key(47, "A", 0, "a")),
        ("52(a)", Key(52, "", 0, "a")),
        ("12C1(e)(i)", Key(12, "C", 1, "e", 1)),
        ("40B2(a)(iv)", Key(40, "B", 2, "a", 4)),
        ("12.3", Key(12, "", 3)),
        ("12.3(a)", Key(12, "", 3, "a")),
        ("623", Key(623)),  # article 623: an item needs a section letter or a dot
        ("6B2(c)", Key(6, "B", 2, "c")),
        ("62A10", Key(62, "A", 10)),
    ],
)
def test_canonical_keys_parse_and_print_back(text, key):
    assert parse(text) == key
    assert str(key) == text
    assert is_canonical(text)


@pytest.mark.parametrize(
    ("raw", "written"),
    [
        # from the old tree grammar (trees/spec.py canonical_key)
        ("43B2b", "43B2(b)"),
        ("45 C4(b)", "45C4(b)"),
        ("artikel 40 C", "40C"),
        ("Art. 52 a", "52(a)"),
        ("Law 64", "64"),
        # from the old importer grammar (laws/importer.py normalise_key)
        ("52a", "52(a)"),
        # spaces anywhere, a leading word in any case
        ("50 d 2 (a)", "50D2(a)"),
        ("  62 D 2  ", "62D2"),
        ("ARTIKEL 9", "9"),
        ("art 58", "58"),
        ("artikelen 50", "50"),
        ("wet 12C1", "12C1"),
        ("Article 16B", "16B"),
        # a small section letter is a section only when an item number follows it
        ("27b1a", "27B1(a)"),
        ("43b2(b)", "43B2(b)"),
        ("62d", "62(d)"),
        # a capital in parentheses can only be a sub-item or clause
        ("43B2(B)", "43B2(b)"),
        ("12C1(e)(II)", "12C1(e)(ii)"),
        ("12C1e(iv)", "12C1(e)(iv)"),
        ("12 . 3", "12.3"),
    ],
)
def test_accepted_variants_are_normalised(raw, written):
    assert canonical(raw) == written
    assert not is_canonical(raw)
    assert canonical(written) == written


@pytest.mark.parametrize(
    ("raw", "reason"),
    [
        ("", "it is empty"),
        ("   ", "it is empty"),
        ("artikel", "it has no article number"),
        ("zie boven", "it must start with an article number"),
        ("x", "it must start with an article number"),
        ("A1", "it must start with an article number"),
        ("B62", "it must start with an article number"),
        ("\u0666\u0662", "it must start with an article number"),  # Arabic-Indic 62
        ("1234", "an article number has at most 3 digits (1234)"),
        ("062", "an article number does not start with 0 (062)"),
        ("0", "there is no article 0"),
        ("62A100", "an item number has at most 2 digits (100)"),
        ("62A0", "there is no item 0"),
        ("62A01", "an item number does not start with 0 (01)"),
        ("62-D", "unexpected '-' after '62'"),
        ("62BB", "unexpected 'B' after '62B'"),
        ("62D2.3", "unexpected '.' after '62D2'"),
        ("62D2²", "unexpected '²' after '62D2'"),
        ("12.", "a '.' after 12 must be followed by an item number"),
        ("64A1(aa)", "a sub-item is a single letter such as (a), not (aa)"),
        ("12C1(ii)", "a deeper level follows in its own parentheses, as in 12C1(e)(i)"),
        ("52(2)", "(2) is not a sub-item"),
        ("43B2(b", "'(' after '43B2' is not closed"),
        ("12C1(e)(iiii)", "(iiii) after sub-item (e) must be a roman numeral"),
        ("62B2(b)(c)", "(c) after sub-item (b) must be a roman numeral"),
        ("12C1(e)(i)(a)", "unexpected '(' after '12C1(e)(i)'"),
        ("partikel 5", "it must start with an article number"),
    ],
)
def test_rejected_keys_say_why(raw, reason):
    with pytest.raises(InvalidKey) as info:
        parse(raw)
    assert reason in info.value.reason
    assert str(info.value) == f"{raw!r} is not a law reference: {info.value.reason}"
    assert try_parse(raw) is None
    assert not is_canonical(raw)


def test_invalid_key_is_a_value_error():
    with pytest.raises(ValueError, match="is not a law reference"):
        canonical("zie boven")


@pytest.mark.parametrize(
    ("fields", "reason"),
    [
        ({"article": 0}, "article number must be 1 to 999"),
        ({"article": MAX_ARTICLE + 1}, "article number must be 1 to 999"),
        ({"article": 1, "section": "AB"}, "a section is one capital"),
        ({"article": 1, "section": "a"}, "a section is one capital"),
        ({"article": 1, "item": MAX_ITEM + 1}, "an item number must be 1 to 99"),
        ({"article": 1, "sub": "B"}, "a sub-item is one small letter"),
        ({"article": 1, "sub": "aa"}, "a sub-item is one small letter"),
        ({"article": 1, "sub": "a", "clause": MAX_CLAUSE + 1}, "a clause must be i to xxxix"),
        ({"article": 1, "clause": 1}, "a clause (i) needs a sub-item (a) above it"),
    ],
)
def test_a_key_cannot_be_built_outside_the_grammar(fields, reason):
    with pytest.raises(InvalidKey) as info:
        Key(**fields)
    assert reason in info.value.reason


def test_parent_ancestors_and_lineage():
    key = parse("62D2(a)(iii)")
    assert str(key.parent) == "62D2(a)"
    assert [str(k) for k in key.ancestors] == ["62D2(a)", "62D2", "62D", "62"]
    assert [str(k) for k in key.lineage] == ["62D2(a)(iii)", "62D2(a)", "62D2", "62D", "62"]
    assert [str(k) for k in parse("62D2").ancestors] == ["62D", "62"]
    assert [str(k) for k in parse("52(a)").ancestors] == ["52"]
    assert [str(k) for k in parse("12.3(a)").ancestors] == ["12.3", "12"]
    assert [str(k) for k in parse("47A(a)").ancestors] == ["47A", "47"]
    assert parse("62").parent is None
    assert parse("62").ancestors == ()


def test_levels_and_article_number():
    levels = {t: parse(t).level for t in ["62", "62D", "62D2", "52(a)", "12.3", "12C1(e)(i)"]}
    assert levels == {
        "62": "article",
        "62D": "section",
        "62D2": "item",
        "52(a)": "sub",
        "12.3": "item",
        "12C1(e)(i)": "clause",
    }
    assert parse("62D2").number == "62"
    assert parse("62").is_article
    assert not parse("62D").is_article


def test_contains():
    assert parse("62D").contains(parse("62D2(a)"))
    assert parse("62D").contains(parse("62D"))
    assert not parse("62D2").contains(parse("62D"))
    assert not parse("62D").contains(parse("62C1"))
    assert not parse("6").contains(parse("62"))


# The order of a law book, as printed: every provision right before its own sub-provisions.
LAW_BOOK = [
    "12",
    "12(a)",
    "12.1",
    "12.3",
    "12.3(a)",
    "12A",
    "12C1",
    "12C1(e)",
    "12C1(e)(i)",
    "12C1(e)(ii)",
    "12C1(e)(iv)",
    "12C1(e)(ix)",
    "12C1(e)(x)",
    "12C1(f)",
    "12C2",
    "43B2(b)",
    "52",
    "52(a)",
    "52(b)",
    "62",
    "62A",
    "62A1",
    "62A1(a)",
    "62A2",
    "62A10",
    "62B",
    "62D2",
    "63",
    "100",
]


def test_sorting_follows_the_law_book():
    assert [str(k) for k in sorted(parse(t) for t in reversed(LAW_BOOK))] == LAW_BOOK


@pytest.mark.parametrize(("number", "numeral"), [(1, "i"), (4, "iv"), (9, "ix"), (39, "xxxix")])
def test_roman(number, numeral):
    assert roman(number) == numeral


@pytest.mark.parametrize("number", [0, MAX_CLAUSE + 1])
def test_roman_out_of_range(number):
    with pytest.raises(ValueError, match="no clause numeral"):
        roman(number)


# --------------------------------------------------------------------------------------------
# Cross-references in running law text


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("zie artikel 49", [("artikel 49", "49")]),
        ("zoals in art. 50, mag", [("art. 50", "50")]),
        ("is artikel 40 C van toepassing", [("artikel 40 C", "40C")]),
        ("(zie artikel 16C).", [("artikel 16C", "16C")]),
        ("Onderworpen aan artikel 43B2b, als", [("artikel 43B2b", "43B2(b)")]),
        ("toegestaan in artikel 45 C4(b).", [("artikel 45 C4(b)", "45C4(b)")]),
        ("volgens artikel 66C.", [("artikel 66C", "66C")]),
        ("zie artikel 64 C", [("artikel 64 C", "64C")]),
        ("artikel 12C1 geldt", [("artikel 12C1", "12C1")]),
        ("Art. 58 en verder", [("Art. 58", "58")]),
        ("Artikel 12 C 1 (b)", [("Artikel 12 C 1 (b)", "12C1(b)")]),
        ("ARTIKEL 9", [("ARTIKEL 9", "9")]),
        ("zie artikel 52(a)", [("artikel 52(a)", "52(a)")]),
        ("Law 12C1(e) applies", [("Law 12C1(e)", "12C1(e)")]),
        ("Law 12C1(e)(ii) applies", [("Law 12C1(e)(ii)", "12C1(e)(ii)")]),
        ("Law 12C1(e)(iiii)", [("Law 12C1(e)", "12C1(e)")]),
        ("artikelen 50 en 51", [("artikelen 50", "50"), ("51", "51")]),
        ("artikelen 50, 51 of 52C", [("artikelen 50", "50"), ("51", "51"), ("52C", "52C")]),
        ("zie artikel 49 - strafkaart", [("artikel 49", "49")]),
        ("artikel 49 De speler", [("artikel 49", "49")]),
        ("artikel 58 voor gelijktijdig; artikel 49", [("artikel 58", "58"), ("artikel 49", "49")]),
    ],
)
def test_find_references(text, expected):
    assert find_references(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "herstel volgens (a) hierboven",
        "de punten C, D of E",
        "start 5 kaarten",
        "partikel 5",
        # numbers that are no article: a leading zero, digits of another script
        "artikel 05",
        "artikel \u0665",
    ],
)
def test_not_references(text):
    assert find_references(text) == []


def test_reference_spans_cover_the_raw_text():
    text = "zie artikelen 50 en 51C."
    assert [(text[s:e], key) for s, e, key in reference_spans(text)] == [
        ("artikelen 50", "50"),
        ("51C", "51C"),
    ]


# --------------------------------------------------------------------------------------------
# Hypothesis


@st.composite
def keys(draw: st.DrawFn) -> Key:
    article = draw(st.integers(1, MAX_ARTICLE))
    section = draw(st.sampled_from(["", *string.ascii_uppercase]))
    item = draw(st.integers(0, MAX_ITEM))
    sub = draw(st.sampled_from(["", *string.ascii_lowercase]))
    clause = draw(st.integers(1, MAX_CLAUSE)) if sub and draw(st.booleans()) else 0
    return Key(article, section, item, sub, clause)


@st.composite
def spellings(draw: st.DrawFn, key: Key) -> str:
    """One way a director may write ``key``: spaces, a leading word, looser letters."""

    def gap() -> str:
        return draw(st.sampled_from(["", "", " ", "  ", "\t"]))

    prefix = draw(st.sampled_from(["", "artikel ", "Art. ", "art", "ARTIKEL", "Law ", "wet "]))
    text = prefix + gap() + str(key.article) + gap()
    if key.section:
        lower = key.item > 0 and draw(st.booleans())  # "27b1a" only when an item follows
        text += (key.section.lower() if lower else key.section) + gap()
    if key.item:
        text += (str(key.item) if key.section else "." + gap() + str(key.item)) + gap()
    if key.sub:
        bare = draw(st.booleans())
        letter = key.sub.upper() if not bare and draw(st.booleans()) else key.sub
        text += (key.sub if bare else f"({letter})") + gap()
    if key.clause:
        numeral = roman(key.clause)
        text += "(" + (numeral.upper() if draw(st.booleans()) else numeral) + ")" + gap()
    return text


@given(keys())
def test_every_key_survives_str_and_parse(key):
    text = str(key)
    assert parse(text) == key
    assert is_canonical(text)


@given(keys())
def test_canonical_then_parse_then_str_is_the_identity(key):
    text = canonical(str(key))
    assert str(parse(text)) == text
    assert canonical(text) == text


@given(keys().flatmap(lambda key: st.tuples(st.just(key), spellings(key))))
def test_every_accepted_spelling_means_its_key(pair):
    key, text = pair
    assert parse(text) == key
    assert canonical(text) == str(key)


@given(keys())
def test_a_provision_comes_right_before_its_sub_provisions(key):
    for ancestor in key.ancestors:
        assert ancestor < key
        assert ancestor.contains(key)


@given(keys(), keys(), keys(), keys())
def test_order_is_document_order(a, b, inside_a, inside_b):
    """When ``a`` precedes ``b`` and does not contain it, all of ``a`` precedes all of ``b``."""
    if a == b or a.contains(b) or b.contains(a):
        return
    first, second = sorted([a, b])
    # Graft the deeper levels of two random keys under first and second.
    deeper_first = _graft(first, inside_a)
    deeper_second = _graft(second, inside_b)
    assert first.contains(deeper_first)
    assert second.contains(deeper_second)
    assert deeper_first < deeper_second


LEVELS = ("article", "section", "item", "sub", "clause")


def _graft(base: Key, extra: Key) -> Key:
    """``base`` with the levels below its own taken from ``extra``: a key inside ``base``."""
    depth = LEVELS.index(base.level)
    fields = {
        name: getattr(base if index <= depth else extra, name) for index, name in enumerate(LEVELS)
    }
    if not fields["sub"]:
        fields["clause"] = 0  # extra's clause without a sub-item to hang under
    return Key(**fields)


@given(st.permutations(LAW_BOOK))
def test_any_shuffle_of_the_law_book_sorts_back(shuffled):
    assert [str(k) for k in sorted(map(parse, shuffled))] == LAW_BOOK


REFERENCE_PIECES = st.sampled_from(
    [
        "artikel ",
        "artikelen ",
        "art.",
        "Law ",
        " en ",
        ", ",
        " t/m ",
        "(",
        ")",
        "(a)",
        "(ii)",
        " ",
        ".",
        "0",
        "05",
        "7",
        "43",
        "123",
        "1234",
        "B",
        "b",
        "2",
        "iv",
        "x",
        "\u0665",
        "²",
    ]
)


@given(st.lists(REFERENCE_PIECES, max_size=12).map("".join))
def test_references_in_any_text_are_canonical_keys(text):
    spans = reference_spans(text)
    position = 0
    for start, end, key in spans:
        assert position <= start < end <= len(text)
        assert is_canonical(key)
        assert str(parse(key).article) in text[start:end]
        position = end


@given(st.text(max_size=40))
def test_parse_either_returns_a_canonical_key_or_raises_invalid_key(text):
    key = try_parse(text)
    if key is None:
        with pytest.raises(InvalidKey) as raised:
            parse(text)
        assert raised.value.reason
    else:
        assert is_canonical(str(key))
        assert parse(text) == key


def test_a_typed_list_of_keys_becomes_canonical_keys():
    assert canonical_list("27B1a; 50 d 2 (a), ,64C") == ["27B1(a)", "50D2(a)", "64C"]
    assert canonical_list("  ") == []
    with pytest.raises(InvalidKey) as error:
        canonical_list("27B1, zie boven ")
    assert error.value.text == " zie boven "  # the item as typed, for the form's message
