"""lib.text: one prose renderer, one law anchor, one de-duplication of cited law text."""

import hypothesis
import hypothesis.strategies as st
import markdown
import pytest

from lib.text import (
    _PLAIN,
    ARTICLE_ANCHOR,
    SUMMARY_ANCHOR,
    _markdown,
    law_anchor,
    law_link,
    prose,
    unique_citations,
)

# --- Prose -----------------------------------------------------------------------------------


def test_prose_joins_wrapped_lines_and_keeps_numbered_lists():
    html = prose(
        "Eerste <zin>\nloopt door:\n1. een item\n   dat doorloopt;\n2. tweede.\n"
        "Na de lijst.\n\nNieuw."
    )
    assert html == (
        "<p>Eerste &lt;zin&gt; loopt door:</p>"
        '<ul class="tree-list"><li>1. een item dat doorloopt;</li><li>2. tweede.</li></ul>'
        "<p>Na de lijst.</p><p>Nieuw.</p>"
    )


def test_prose_bullets_are_a_list_and_law_markers_stay():
    html = prose("De leider kiest:\n- hoogste\n- laagste\n(a) of <niets>\nb) nog een")
    assert html == (
        "<p>De leider kiest:</p><ul><li>hoogste</li><li>laagste</li></ul>"
        '<ul class="tree-list"><li>(a) of &lt;niets&gt;</li><li>b) nog een</li></ul>'
    )


def test_markdown_is_limited_and_sanitised():
    html = prose(
        "**vet** en *schuin*\n\n- een\n- twee\n\n<script>alert(1)</script>"
        '[link](https://example.org) <img src=x onerror="alert(1)"> ♥H ♦3 ♠A'
    )
    assert "<strong>vet</strong>" in html
    assert "<em>schuin</em>" in html
    assert "<ul><li>een</li><li>twee</li></ul>" in html
    # HTML is text: shown as typed, never a tag.
    assert "<script" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert "<img" not in html
    assert "&lt;img src=x" in html
    assert "<a " not in html
    assert "href" not in html
    assert "link" in html
    assert '<span class="suit-red">♥</span>H' in html
    assert '<span class="suit-red">♦</span>3' in html
    assert "♠A" in html


def test_prose_headings_quotes_and_code():
    html = prose("### Kop\nTekst `code`\n\n> geciteerd\n> verder\nna")
    assert html == (
        "<h3>Kop</h3><p>Tekst <code>code</code></p>"
        "<blockquote><p>geciteerd verder</p></blockquote><p>na</p>"
    )


def test_an_enumerated_item_is_not_a_markdown_list_inside():
    assert prose("1. - een\n2. * twee") == (
        '<ul class="tree-list"><li>1. - een</li><li>2. * twee</li></ul>'
    )


@pytest.mark.parametrize("text", [None, "", "  \n\n "])
def test_empty_prose_is_empty(text):
    assert prose(text) == ""


def test_prose_is_safe_for_templates():
    assert hasattr(prose("tekst"), "__html__")


# --- Anchors ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("key", "article", "kind", "anchor"),
    [
        ("62D2", "62", "official", "62D2"),
        ("27B1(a)", "27", "official", "27B1(a)"),
        ("50", "50", "official", ARTICLE_ANCHOR),
        ("64C", "64", "summary", "64C"),  # our summary of 64C, shown at 64C
        ("64", "64", "summary", SUMMARY_ANCHOR),
        ("64A1", "64", "title", ARTICLE_ANCHOR),
        ("99", "", "missing", ARTICLE_ANCHOR),
        ("", "25", "official", ARTICLE_ANCHOR),
    ],
)
def test_law_anchor(key, article, kind, anchor):
    assert law_anchor(key, article, kind) == anchor


def test_law_link():
    assert law_link("/wetten/2017/artikel/64/", "samenvatting") == (
        "/wetten/2017/artikel/64/#samenvatting"
    )
    assert law_link("/wetten/2017/artikel/64/", "") == "/wetten/2017/artikel/64/"
    assert law_link("", "64C") == ""


# --- Each law text once ----------------------------------------------------------------------


def test_same_text_citations_share_one_card():
    cards = unique_citations(
        [
            {"key": "64A1", "edition": "2017", "article": "64", "kind": "summary"},
            {"key": "63B", "edition": "2017", "article": "63", "kind": "summary"},
            {"key": "64C", "edition": "2017", "article": "64", "kind": "summary"},
            {"key": "62D2", "edition": "2007", "article": "62", "kind": "official"},
            {"key": "62D1", "edition": "2007", "article": "62", "kind": "official"},
        ]
    )
    assert [card["keys"] for card in cards] == [["64A1", "64C"], ["63B"], ["62D2"], ["62D1"]]
    assert [card["key"] for card in cards] == ["64A1", "63B", "62D2", "62D1"]


def test_summaries_of_different_provisions_of_one_article_are_separate_cards():
    article = {"nl": "Samenvatting van 64.", "en": ""}
    cards = unique_citations(
        [
            {"key": "64A1", "edition": "2017", "article": "64", "kind": "summary", "text": article},
            {
                "key": "64A2",
                "edition": "2017",
                "article": "64",
                "kind": "summary",
                "text": {"nl": "Van 64A2.", "en": "Of 64A2."},
            },
            {"key": "64C", "edition": "2017", "article": "64", "kind": "summary", "text": article},
        ]
    )
    assert [card["keys"] for card in cards] == [["64A1", "64C"], ["64A2"]]


def test_a_key_cited_twice_shows_once_and_editions_stay_apart():
    cards = unique_citations(
        [
            {"key": "25A", "edition": "1997", "article": "25", "kind": "official", "text": "a"},
            {"key": "25A", "edition": "1997", "article": "25", "kind": "official", "text": "a"},
            {"key": "27", "edition": "1997", "article": "27", "kind": "summary"},
            {"key": "27B", "edition": "2017", "article": "27", "kind": "summary"},
            {"key": "27", "edition": "1997", "article": "27", "kind": "summary"},
        ]
    )
    assert [card["keys"] for card in cards] == [["25A"], ["27"], ["27B"]]
    assert cards[0]["text"] == "a"


def test_unique_citations_skips_what_is_no_citation():
    assert unique_citations(["27", {"edition": "2017"}, {"key": ""}, None]) == []


def test_unique_citations_leaves_its_input_alone():
    citation = {"key": "64A1", "edition": "2017", "article": "64", "kind": "summary"}
    unique_citations([citation, {**citation, "key": "64C"}])
    assert "keys" not in citation


def test_emphasis_at_the_start_of_an_item_stays_emphasis():
    assert prose("- *vet* woord\n1. **ook** zo") == (
        "<ul><li><em>vet</em> woord</li></ul>"
        '<ul class="tree-list"><li>1. <strong>ook</strong> zo</li></ul>'
    )


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        ("Typ `<b>` niet", "<code>&lt;b&gt;</code>"),
        ("- item `a < b`", "<code>a &lt; b</code>"),
        ("``x ` <i>``", "<code>x ` &lt;i&gt;</code>"),
    ],
)
def test_inline_code_shows_angle_brackets_once_escaped(text, shown):
    """Inline code in a training text showed ``&lt;b>``: the angle bracket was escaped before
    Markdown, which escapes code spans itself (issue 35, item 7)."""
    html = str(prose(text))
    assert shown in html
    assert "&amp;lt;" not in html


def test_angle_brackets_outside_code_are_still_text():
    assert str(prose("`x` en <script>alert(1)</script>")) == (
        "<p><code>x</code> en &lt;script&gt;alert(1)&lt;/script&gt;</p>"
    )


# --- The plain-line shortcut ----------------------------------------------------------------

# Words, spaces and every piece of syntax Markdown knows, put together at random.
_LINE_PARTS = [
    "De", "leider", "2♠", "3", "27B1(b)", "é", " ", "  ", "\t", "\u00a0", ".", ",", ":", "=",
    "*", "**", "_", "__", "`", "#", "## ", "1. ", "12.", "3)", "- ", "+ ", "> ", "&", "&amp;",
    "&lt;", "<", "<b>", "[", "](x)", "!", "\\", "http://a.nl", "---", "~~", "|", "'", "\"",
]  # fmt: skip


@hypothesis.example("* De leider")
@hypothesis.example("De *leider* kiest")
@hypothesis.example("1986. Een jaar")
@hypothesis.example("    code")
@hypothesis.given(st.lists(st.sampled_from(_LINE_PARTS), min_size=1, max_size=8).map("".join))
def test_a_line_converts_as_markdown_converts_it(line):
    """A line that skips Markdown (no syntax in it) comes out as Markdown would make it."""
    reference = markdown.Markdown(output_format="html").convert(line)
    assert _markdown(line) == reference


@pytest.mark.parametrize(
    "line",
    ["De leider kiest.", "2♠ is gespeeld; zie 27B1(b).", 'x - y = 3, ‘zo’ of "zo"'],
)
def test_an_ordinary_line_skips_markdown(line):
    assert _PLAIN.fullmatch(line)
