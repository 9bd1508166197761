"""The importer on pages of the wiki the seeds come from (laws/importer/pages.py and the
parser's page rules): page furniture, ``--start`` naming the page's own key, dash lists,
single-line-break paragraphs and footnotes written ``1)`` or ``*)``.

The fixtures reproduce the SHAPES of real pages (title line, tagline, revision lines, dash
lists, footnote lines); their sentences come from the seeds in laws/seeds/ or are invented.
No database: these tests only call the parser.
"""

from __future__ import annotations

import json

import pytest

from laws.importer import LawImportError, ParsedEdition, Provision, parse, parse_bytes
from laws.importer.pages import take_markers, title_key
from laws.importer.text import wrap_width

TAGLINE = "Uit Spelregels voor tafelarbiters"
REVISION = "Versie door Redacteur (overleg | bijdragen) op 2 sep 2019 om 12:08"
NAVIGATION = "(wijz) ← Oudere versie | Huidige versie (wijz) | Nieuwere versie → (wijz)"
SOURCE = 'Ontvangen van "https://example.org/index.php?title=Sjabloon:2017:76A"'


def page(key: str, body: str, edition: str = "2017") -> str:
    """A page as the browser shows an old revision: title, tagline, revision lines, text."""
    return f"Sjabloon:{edition}:{key}\n\n{TAGLINE}\n{REVISION}\n{NAVIGATION}\n\n\n{body}"


def provisions(parsed: ParsedEdition) -> dict[str, Provision]:
    return {p.key: p for article in parsed.articles for p in article.walk()}


def everything(parsed: ParsedEdition) -> str:
    return json.dumps(parsed.to_json_dict(), ensure_ascii=False)


# --------------------------------------------------------------------------------------------
# Page furniture and the page's own key


def test_section_page_without_label_is_the_start_provision():
    parsed = parse(
        page(
            "87A",
            "Een kaart is een strafkaart als de wedstrijdleider haar als zodanig aanwijst.",
        ),
        "2017",
        start="87A",
    )
    assert parsed.header == "Sjabloon:2017:87A"
    assert parsed.furniture == [TAGLINE, REVISION, NAVIGATION]
    assert parsed.skipped_preamble == []
    (article,) = parsed.articles
    assert (article.number, article.title, article.text) == ("87", None, "")
    (section,) = article.provisions
    assert (section.key, section.label, section.heading) == ("87A", "A", None)
    assert section.text == (
        "Een kaart is een strafkaart als de wedstrijdleider haar als zodanig aanwijst."
    )
    for furniture in ["Sjabloon", "Uit Spelregels", "Versie door", "Oudere versie", "wijz"]:
        assert furniture not in everything(parsed)


def test_item_page_without_label_is_the_start_item():
    parsed = parse(page("62D2", "Indien een tegenspeler verzaakt heeft."), "2017", start="62D2")
    assert [(p.key, p.text) for p in provisions(parsed).values()] == [
        ("62D", ""),
        ("62D2", "Indien een tegenspeler verzaakt heeft."),
    ]


def test_page_without_label_names_the_start_it_needs():
    with pytest.raises(LawImportError, match=r"unrecognisable input.*needs --start 87A$"):
        parse(page("87A", "Een kaart is een strafkaart."), "2017")


@pytest.mark.parametrize("start", ["87", "87A1", "74B", "87B"])
def test_start_that_names_another_key_than_the_page(start):
    with pytest.raises(LawImportError, match=rf"--start {start} does not fit this page.*87A"):
        parse(page("87A", "Een kaart is een strafkaart."), "2017", start=start)


def test_loose_spelling_of_the_page_key_is_accepted():
    parsed = parse(page("43B2", "Tekst van het item."), "2017", start="43 B 2")
    assert list(provisions(parsed)) == ["43B", "43B2"]


def test_page_with_its_own_section_label():
    body = (
        "B. Gedrag aan tafel\n"
        "Indien een tegenspeler een andere kaart voor- of bijspeelt, mag hij niet:\n"
        "- 1. de strafkaart opnemen;\n"
        "- 2. een andere kaart voorspelen."
    )
    parsed = parse(page("74B", body), "2017", start="74B")
    section = provisions(parsed)["74B"]
    assert (section.label, section.heading) == ("B", "Gedrag aan tafel")
    assert section.text.startswith("Indien een tegenspeler een andere kaart")
    assert [(c.key, c.label, c.text) for c in section.children] == [
        ("74B1", "1", "de strafkaart opnemen;"),
        ("74B2", "2", "een andere kaart voorspelen."),
    ]


def test_page_with_its_own_item_label():
    parsed = parse(
        page("62D2", "2. Partner van de overtreder\nIndien een tegenspeler verzaakt heeft."),
        "2017",
        start="62D2",
    )
    item = provisions(parsed)["62D2"]
    assert (item.heading, item.text) == (
        "Partner van de overtreder",
        "Indien een tegenspeler verzaakt heeft.",
    )
    assert list(provisions(parsed)) == ["62D", "62D2"]


def test_own_label_is_only_the_page_itself_on_a_page():
    # Without a title line the text is a fragment that starts INSIDE the start key (PDF text):
    # "B." cannot follow 74B there.
    with pytest.raises(LawImportError, match=r"unknown start key '74B'.*'B\.'.*cannot follow"):
        parse("B. Gedrag aan tafel\nTekst.", "2017", start="74B")


def test_page_label_that_does_not_fit_the_start_key():
    with pytest.raises(LawImportError, match=r"'C\.' \(line 8\) cannot follow 74B"):
        parse(page("74B", "C. Kop\nTekst."), "2017", start="74B")


def test_page_starting_inside_an_article_suggests_its_own_key():
    with pytest.raises(LawImportError, match=r"first label 'B\.'.*e\.g\. --start 74B$"):
        parse(page("74B", "B. Gedrag aan tafel\nTekst."), "2017")


def test_article_page_with_its_own_heading():
    body = (
        "ARTIKEL 62 Verzaking\n\n"
        "A. Eerste kop\n\n"
        "De kaart mag straffeloos worden teruggenomen.\n\n"
        "B. Tweede kop\n\n"
        "Een gespeelde kaart mag teruggenomen worden.\n"
        "  1. Door de niet-overtredende partij (zie artikel 16C).\n"
        "  2. De kaart wordt een strafkaart (zie artikel 16C2)."
    )
    parsed = parse(page("62", body), "2017")
    assert parsed.articles[0].title == "Verzaking"
    by_key = provisions(parsed)
    assert list(by_key) == ["62A", "62B", "62B1", "62B2"]
    assert by_key["62B"].text == "Een gespeelde kaart mag teruggenomen worden."
    assert [r.key for r in by_key["62B2"].references] == ["16C2"]
    with pytest.raises(LawImportError, match="leave --start out"):
        parse(page("62", body), "2017", start="62")


@pytest.mark.parametrize(
    ("title", "key"),
    [
        ("Sjabloon:2017:74B", "74B"),
        ("Sjabloon:2017:62D2", "62D2"),
        ("Sjabloon:1987:47", "47"),
        ("Template:2017:13D", "13D"),
        ("Sjabloon:1963:HVI STRAFKAART", None),
        ("Sjabloon:2017:Leider", None),
        ("Sjabloon:1936:28-3", None),
        (None, None),
    ],
)
def test_title_key(title, key):
    found = title_key(title)
    assert (str(found) if found else None) == key


@pytest.mark.parametrize(
    "line",
    [
        "Huidige versie van 15 aug 2019 om 10:12",
        "Versie van 27 aug 2019 om 17:25",
        NAVIGATION,
        SOURCE,
    ],
)
def test_revision_and_source_lines_are_furniture_anywhere(line):
    parsed = parse(
        page("87A", f"Een kaart is een strafkaart.\n{line}\nZij blijft open liggen."),
        "2017",
        start="87A",
    )
    assert line in parsed.furniture
    assert provisions(parsed)["87A"].text == (
        "Een kaart is een strafkaart.\n\nZij blijft open liggen."
    )


def test_a_sentence_starting_with_uit_is_law_text():
    # The tagline is a short line right after the title; a law sentence may start with "Uit".
    parsed = parse(
        "Sjabloon:1987:74B\nB. Gedrag aan tafel\n"
        "Uit de gespeelde slagen mag niemand een kaart nemen:\n- 1. behalve de leider.",
        "1987",
        start="74B",
    )
    assert parsed.furniture == []
    assert provisions(parsed)["74B"].text == "Uit de gespeelde slagen mag niemand een kaart nemen:"


# --------------------------------------------------------------------------------------------
# Opening sentences and dash lists


def test_opening_sentence_before_the_first_label_is_the_parents_text():
    body = (
        "Indien een tegenspeler een andere kaart voorspeelt:\n"
        "1. De kaart wordt een strafkaart.\n"
        "2. De leider kiest."
    )
    parsed = parse(page("31B", body), "2017", start="31B")
    section = provisions(parsed)["31B"]
    assert (section.heading, section.text) == (
        None,
        "Indien een tegenspeler een andere kaart voorspeelt:",
    )
    assert [(c.key, c.text) for c in section.children] == [
        ("31B1", "De kaart wordt een strafkaart."),
        ("31B2", "De leider kiest."),
    ]


def test_a_page_of_the_provision_numbers_its_children_from_the_start():
    # The page holds all of 31B, so its first item must be "1.", not any number.
    parsed = parse(page("31B", "Opening.\n2. De leider kiest."), "2017", start="31B")
    section = provisions(parsed)["31B"]
    assert section.children == []
    assert section.text == "Opening. 2. De leider kiest."
    assert any("breaks the numbering" in note for note in parsed.notes)


def test_bare_dash_items_under_a_section_are_its_numbered_items():
    body = (
        "- In de twaalfde slag moet een verzaking hersteld worden.\n"
        "- Indien een tegenspeler verzaakt heeft, mag de partner geen speelwijze kiezen."
    )
    parsed = parse(page("62D", body), "2017", start="62D")
    section = provisions(parsed)["62D"]
    assert section.text == ""
    assert [(c.key, c.label, c.heading, c.text) for c in section.children] == [
        ("62D1", "1", None, "In de twaalfde slag moet een verzaking hersteld worden."),
        (
            "62D2",
            "2",
            None,
            "Indien een tegenspeler verzaakt heeft, mag de partner geen speelwijze kiezen.",
        ),
    ]


def test_a_single_bare_dash_item_is_item_one():
    body = "- Wanneer een tegenspeler verzuimt een strafkaart te spelen. Er volgt een score."
    parsed = parse(page("13D", body), "2017", start="13D")
    assert [(p.key, p.text) for p in provisions(parsed).values()] == [
        ("13D", ""),
        ("13D1", "Wanneer een tegenspeler verzuimt een strafkaart te spelen. Er volgt een score."),
    ]


def test_bare_dash_list_after_a_section_heading_and_its_closing():
    body = (
        "B. Eigen kop\n"
        "De leider laat het resultaat staan:\n"
        "- als de blinde nog niet heeft gespeeld;\n"
        "- als de leider dit aanvaardt.\n"
        "Zie ook artikel 64C."
    )
    parsed = parse(page("64B", body, "2007"), "2007", start="64B")
    section = provisions(parsed)["64B"]
    assert section.heading == "Eigen kop"
    assert section.text == "De leider laat het resultaat staan:"
    assert section.closing == "Zie ook artikel 64C."
    assert [(c.key, c.text) for c in section.children] == [
        ("64B1", "als de blinde nog niet heeft gespeeld;"),
        ("64B2", "als de leider dit aanvaardt."),
    ]
    assert [r.key for r in section.references] == ["64C"]


def test_bare_dash_list_directly_after_a_heading_line():
    parsed = parse(
        "Sjabloon:2007:62D\nD. Verzaking in de twaalfde slag\n- Moet hersteld worden.\n"
        "- Mag niet kiezen.",
        "2007",
        start="62D",
    )
    section = provisions(parsed)["62D"]
    assert section.heading == "Verzaking in de twaalfde slag"
    assert [c.key for c in section.children] == ["62D1", "62D2"]


def test_bare_dash_items_under_an_item_are_lettered():
    parsed = parse(
        "Artikel 9 Titel\n\nA. Kop\n\n1. De leider mag:\n- dit doen, of\n- dat doen.", "2017"
    )
    item = provisions(parsed)["9A1"]
    assert [(c.key, c.label, c.text) for c in item.children] == [
        ("9A1(a)", "(a)", "dit doen, of"),
        ("9A1(b)", "(b)", "dat doen."),
    ]


def test_dash_labelled_sub_items():
    parsed = parse(
        "Artikel 9 Titel\n\nA. Kop\n\n1. De leider mag:\n- (a) dit doen, of\n- (b) dat doen.",
        "2017",
    )
    assert list(provisions(parsed)) == ["9A", "9A1", "9A1(a)", "9A1(b)"]
    assert provisions(parsed)["9A1(b)"].text == "dat doen."


def test_dash_list_directly_under_an_article_keeps_one_paragraph_per_item():
    parsed = parse(
        "Sjabloon:1975:10\nArtikel 10. Een straf kiezen\n"
        "- De leider kiest een kaart.\n- De leider kiest opnieuw.",
        "1975",
    )
    (article,) = parsed.articles
    assert article.provisions == []
    assert article.text == "- De leider kiest een kaart.\n\n- De leider kiest opnieuw."


def test_a_dash_that_continues_a_sentence_is_text():
    parsed = parse(
        page("47A", "Een teruggenomen kaart kan een strafkaart worden\n- zie artikel 49."),
        "1987",
        start="47A",
    )
    section = provisions(parsed)["47A"]
    assert section.children == []
    assert section.text == "Een teruggenomen kaart kan een strafkaart worden - zie artikel 49."


def test_a_new_sentence_after_a_dash_item_is_the_parents_closing():
    parsed = parse(
        page("62D", "- Moet hersteld worden.\nDe tegenspeler mag niet spelen."),
        "2017",
        start="62D",
    )
    section = provisions(parsed)["62D"]
    assert section.closing == "De tegenspeler mag niet spelen."
    assert section.children[0].text == "Moet hersteld worden."


# --------------------------------------------------------------------------------------------
# Paragraphs split by a single line break


def test_wiki_text_a_line_break_after_a_sentence_is_a_paragraph_break():
    body = (
        "Een kaart is een strafkaart.\n"
        "Zij moet open op tafel blijven liggen, totdat zij is gespeeld\n"
        "of totdat een andere straf is gekozen.\n"
        "(De tegenspeler mag niet spelen.)\n"
        "De leider kiest."
    )
    parsed = parse(page("50A", body, "1963"), "1963", start="50A")
    assert provisions(parsed)["50A"].text.split("\n\n") == [
        "Een kaart is een strafkaart.",
        "Zij moet open op tafel blijven liggen, totdat zij is gespeeld of totdat een andere "
        "straf is gekozen.",
        "(De tegenspeler mag niet spelen.)",
        "De leider kiest.",
    ]


def test_hard_wrapped_text_breaks_a_paragraph_only_at_a_short_line():
    body = (
        "Een kaart is een strafkaart als de wedstrijdleider haar aanwijst.\n"
        "Zij moet open op tafel blijven liggen, totdat zij is gespeeld\n"
        "of totdat een mogelijke andere straf is gekozen. Een strafkaart\n"
        "moet worden gespeeld, zodra dit reglementair mogelijk is.\n"
        "Zo is het.\n"
        "De tegenspeler mag niet spelen, voordat de leider zijn keus\n"
        "heeft bekend gemaakt."
    )
    parsed = parse(page("50A", body, "1963"), "1963", start="50A")
    assert parsed.articles[0].provisions[0].text.split("\n\n") == [
        "Een kaart is een strafkaart als de wedstrijdleider haar aanwijst. Zij moet open op "
        "tafel blijven liggen, totdat zij is gespeeld of totdat een mogelijke andere straf is "
        "gekozen. Een strafkaart moet worden gespeeld, zodra dit reglementair mogelijk is. "
        "Zo is het.",
        "De tegenspeler mag niet spelen, voordat de leider zijn keus heeft bekend gemaakt.",
    ]


def test_wrap_width_is_measured_on_lines_that_surely_run_on():
    assert wrap_width(["Een kaart is", "een strafkaart.", "Zij moet open", "op tafel."]) == 13
    # One paragraph per line (wiki text): no width.
    assert wrap_width(["Een kaart is een strafkaart.", "Zij moet open liggen."]) is None
    assert wrap_width(["Een han-", "den tekst."]) is None  # one sample says nothing


# --------------------------------------------------------------------------------------------
# Footnotes written "1)" or "*)"


def test_footnotes_with_a_parenthesis_at_the_end_of_a_page():
    body = (
        "1. Een speler aan tafel1) blijft stil.\n"
        "2. De leider kiest de kaart *) (zie artikel 16C2) en speelt.\n"
        "\n"
        "1) Als tafel geldt de plaats\n"
        "waar gespeeld wordt.\n"
        "*) Zie artikel 50."
    )
    parsed = parse(page("76A", body), "2017", start="76A")
    by_key = provisions(parsed)
    assert by_key["76A1"].text == "Een speler aan tafel blijft stil."
    assert by_key["76A2"].text == "De leider kiest de kaart (zie artikel 16C2) en speelt."
    assert [r.key for r in by_key["76A2"].references] == ["16C2"]
    (article,) = parsed.articles
    assert [f.to_json_dict() for f in article.footnotes] == [
        {"marker": "1", "text": "Als tafel geldt de plaats waar gespeeld wordt.", "key": "76A1"},
        {"marker": "*", "text": "Zie artikel 50.", "key": "76A2"},
    ]
    assert [r.key for r in article.footnotes[1].references] == ["50"]
    assert "1)" not in everything(parsed).replace("16C2)", "")
    assert parsed.notes == []


def test_a_flattened_superscript_marker_without_parenthesis():
    parsed = parse(
        page(
            "76A",
            f"Een speler aan tafel1 blijft stil bij 16C2 en B2.\n\n1) Als tafel geldt.\n{SOURCE}",
        ),
        "2017",
        start="76A",
    )
    section = provisions(parsed)["76A"]
    assert section.text == "Een speler aan tafel blijft stil bij 16C2 en B2."
    assert [(f.marker, f.key, f.text) for f in parsed.articles[0].footnotes] == [
        ("1", "76A", "Als tafel geldt.")
    ]
    assert parsed.furniture[-1] == SOURCE


def test_a_numbered_line_without_a_marker_in_the_text_is_no_footnote():
    parsed = parse(page("9A", "De leider kiest.\n1) dit is tekst."), "2017", start="9A")
    assert parsed.articles[0].footnotes == []
    assert "1) dit is tekst." in provisions(parsed)["9A"].text


def test_footnote_marker_in_the_opening_text_belongs_to_the_start_provision():
    parsed = parse(
        page("87A", "Een kaart *) is een strafkaart.\n\n*) Zie artikel 50.\n"), "2017", start="87A"
    )
    assert provisions(parsed)["87A"].text == "Een kaart is een strafkaart."
    assert [(f.marker, f.key, f.text) for f in parsed.articles[0].footnotes] == [
        ("*", "87A", "Zie artikel 50.")
    ]


@pytest.mark.parametrize(
    ("line", "cleaned", "found"),
    [
        ("de tafel1) blijft", "de tafel blijft", ["1"]),
        ("de kaart *) en", "de kaart en", ["*"]),
        ("gespeeld. 2)", "gespeeld.", ["2"]),
        ("(zie artikel 16C2) en", "(zie artikel 16C2) en", []),
        ("artikel 16C2) en", "artikel 16C2) en", []),
        ("1) aan het begin", "1) aan het begin", []),
        ("de tafel1) en de stoel3)", "de tafel en de stoel3)", ["1"]),
    ],
)
def test_take_markers(line, cleaned, found):
    assert take_markers(line, frozenset({"1", "2", "*"})) == (cleaned, found)


# --------------------------------------------------------------------------------------------
# Bad input


def test_html_page_is_refused():
    with pytest.raises(LawImportError, match="HTML page, not text") as error:
        parse("<!DOCTYPE html>\n<html><body><p>Artikel 47</p></body></html>", "1987")
    assert "\n" not in str(error.value)


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-le", "utf-16-be"])
def test_utf16_input_says_so(encoding):
    with pytest.raises(LawImportError, match=r"UTF-16 text, not UTF-8.*save the file as UTF-8"):
        parse_bytes("Artikel 47 Terugnemen van gespeelde kaart".encode(encoding), "1987")


def test_windows_1252_input_says_so():
    with pytest.raises(LawImportError, match=r"not UTF-8.*Windows-1252.*save the file as UTF-8"):
        parse_bytes("Artikel 47 Één kaart".encode("cp1252"), "1987")


def test_a_page_with_only_furniture_is_unrecognisable():
    with pytest.raises(LawImportError, match="unrecognisable input"):
        parse(page("87A", ""), "2017", start="87A")
