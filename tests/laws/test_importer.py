"""The pure law-text importer (laws/importer/): the three seeds in detail, every format
rule on small synthetic inputs, cross-references, errors and the dry-run JSON shape (the
wiki-page format is in test_importer_pages.py).

No database and no Django: these tests only call the parser.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from laws import keys
from laws.importer import (
    Article,
    LawImportError,
    ParsedEdition,
    Provision,
    decode_source,
    parse,
    parse_bytes,
)

SEEDS = Path(__file__).resolve().parents[2] / "laws" / "seeds"


def seed(name: str, edition: str, start: str | None = None) -> ParsedEdition:
    return parse_bytes((SEEDS / name).read_bytes(), edition, start)


def provisions(parsed: ParsedEdition) -> dict[str, Provision]:
    return {p.key: p for article in parsed.articles for p in article.walk()}


def article(parsed: ParsedEdition, number: str) -> Article:
    return next(a for a in parsed.articles if a.number == number)


# --------------------------------------------------------------------------------------------
# Seed 000: 1963, wiki template, Art. 50-52


@pytest.fixture(scope="module")
def seed_1963() -> ParsedEdition:
    return seed("000_c0d9362b67ea3467.txt", "1963")


def test_1963_header_and_group(seed_1963):
    assert seed_1963.header == "Sjabloon:1963:HVI STRAFKAART"
    assert seed_1963.skipped_preamble == []
    assert [a.number for a in seed_1963.articles] == ["50", "51", "52"]
    assert {a.group for a in seed_1963.articles} == {"STRAFKAART. Art. 50 t/m 52"}


def test_1963_titles_lose_their_final_period(seed_1963):
    assert [a.title for a in seed_1963.articles] == [
        "Behandeling van een strafkaart",
        "Twee of meer strafkaarten",
        "Verzuim een strafkaart voor- of bij te spelen",
    ]


def test_1963_unlabelled_paragraphs_are_article_text(seed_1963):
    art50 = article(seed_1963, "50")
    paragraphs = art50.text.split("\n\n")
    assert len(paragraphs) == 3
    assert paragraphs[0].startswith("Een kaart is een strafkaart als de wedstrijdleider")
    assert "om voor- of bij te spelen volgens een opgelegde straf" in paragraphs[0]
    assert (
        paragraphs[2]
        == "De tegenspeler mag niet spelen, voordat de leider zijn keus heeft bekend gemaakt."
    )
    assert art50.provisions == []
    assert art50.references == []
    art51 = article(seed_1963, "51")
    assert len(art51.text.split("\n\n")) == 2
    assert "strafkaarten in meer dan één kleur" in art51.text


def test_1963_lettered_items_directly_under_the_article(seed_1963):
    art52 = article(seed_1963, "52")
    assert [(p.label, p.key, p.heading) for p in art52.provisions] == [
        ("a", "52(a)", None),
        ("b", "52(b)", None),
    ]
    # The two intro paragraphs stay with the article, before the items.
    intro = art52.text.split("\n\n")
    assert intro[0].endswith(
        "zoals voorgeschreven in art. 50, mag hij niet uit eigen beweging "
        "enige kaart terugnemen, die hij mocht hebben gespeeld."
    )
    assert intro[1].endswith("had kunnen voor- of bijspelen:")
    a, b = art52.provisions
    assert a.text.startswith("mag de leider hiermede genoegen nemen en de leider móét dit")
    assert a.text.endswith("blijft strafkaart; of")
    assert b.text.endswith("tijdens het begaan van de onregelmatigheid wordt een strafkaart.")
    assert a.children == []
    assert b.children == []


def test_1963_references(seed_1963):
    # "zoals voorgeschreven in art. 50" is a reference; the group heading "Art. 50 t/m 52" is not.
    assert [r.key for r in article(seed_1963, "52").references] == ["50"]
    assert [r.raw for r in article(seed_1963, "52").references] == ["art. 50"]
    assert all(a.references == [] for a in seed_1963.articles[:2])
    assert seed_1963.reference_count == 1
    assert seed_1963.footnote_count == 0


# --------------------------------------------------------------------------------------------
# Seed 001: 2007, PDF text, end of Art. 62 and start of Art. 63


@pytest.fixture(scope="module")
def seed_2007() -> ParsedEdition:
    return seed("001_e9318628a0090252.txt", "2007", start="62B")


def test_2007_needs_start():
    with pytest.raises(LawImportError, match="--start"):
        seed("001_e9318628a0090252.txt", "2007")


def test_2007_running_title_is_a_skipped_preamble(seed_2007):
    assert seed_2007.skipped_preamble == ["Operation Manual"]
    assert seed_2007.header is None
    everything = json.dumps(seed_2007.to_json_dict(), ensure_ascii=False)
    assert "Operation Manual" not in everything


def test_2007_articles(seed_2007):
    assert [(a.number, a.title, a.group) for a in seed_2007.articles] == [
        ("62", None, None),
        ("63", "Voldongen worden van een verzaking", None),
    ]
    assert seed_2007.articles[0].text == ""
    assert seed_2007.articles[1].text == ""


def test_2007_provision_tree(seed_2007):
    tree = [
        (p.key, [(c.key, [g.key for g in c.children]) for c in p.children])
        for a in seed_2007.articles
        for p in a.provisions
    ]
    assert tree == [
        ("62B", [("62B2", [])]),
        ("62C", [("62C1", []), ("62C2", [])]),
        ("62D", [("62D1", []), ("62D2", [])]),
        ("63A", [("63A1", [])]),
    ]
    assert [p.label for p in provisions(seed_2007).values()] == [
        "B",
        "2",
        "C",
        "1",
        "2",
        "D",
        "1",
        "2",
        "A",
        "1",
    ]


def test_2007_headings_including_wrapped_ones(seed_2007):
    headings = {key: p.heading for key, p in provisions(seed_2007).items()}
    assert headings == {
        "62B": None,  # the text starts inside 62B: its heading is not in the source
        "62B2": "Kaart van de leider of de blinde, of openliggende kaart van een tegenspeler",
        "62C": "Volgende kaarten in die slag gespeeld",
        "62C1": "Door de niet-overtredende partij",
        "62C2": "Door de partner van de overtreder",
        "62D": "Verzaking in de twaalfde slag",
        "62D1": "Moet hersteld worden",
        "62D2": "Partner van de overtreder had nog niet bijgespeeld in de twaalfde slag",
        "63A": "Verzaking wordt voldongen",
        "63A1": "Overtredende partij speelt voor of speelt in de volgende slag",
    }


def test_2007_text_is_dehyphenated_and_marker_free(seed_2007):
    by_key = provisions(seed_2007)
    assert by_key["62B2"].text == (
        "De kaart mag straffeloos worden teruggenomen indien ze uit de hand van de leider of "
        "van de blinde werd gespeeld, of indien het een openliggende kaart van een tegenspeler was."
    )
    assert by_key["62C2"].text == (
        "Nadat een niet in overtreding zijnde speler aldus een kaart terugneemt, mag de "
        "opvolgende speler van de overtredende partij zijn gespeelde kaart eveneens terugnemen. "
        "Betreft dit een tegenspeler, dan wordt deze kaart een strafkaart (zie artikel 16C)."
    )
    assert "voordat de vier handen in het bord" in by_key["62D1"].text
    assert "geen speelwijze kiezen" in by_key["62D2"].text
    assert "(strafbepaling) mag de partner" in by_key["62D2"].text
    assert "(elk spelen, reglementair of onreglementair, maakt" in by_key["63A1"].text
    for provision in by_key.values():
        assert "*" not in provision.text
        assert "-\n" not in provision.text
        assert "- " not in provision.text
    # Sections that only hold items have no text of their own.
    assert by_key["62C"].text == by_key["62D"].text == by_key["63A"].text == ""


def test_2007_page_number_is_dropped(seed_2007):
    everything = json.dumps(seed_2007.to_json_dict())
    assert '"78' not in everything
    assert " 78" not in everything
    assert any("page number '78'" in note for note in seed_2007.notes)


def test_2007_footnotes(seed_2007):
    art62, art63 = seed_2007.articles
    assert [f.to_json_dict() for f in art62.footnotes] == [
        {
            "marker": "*",
            "text": "Onderworpen aan artikel 43B2b, als de blinde zijn rechten heeft verspeeld.",
            "key": "62B2",
        }
    ]
    # The unmarked footer paragraph is a footnote of the page too, joined across its lines.
    assert [f.to_json_dict() for f in art63.footnotes] == [
        {
            "marker": "",
            "text": "Een bewering dat verzaakt is, rechtvaardigt niet het inzien van "
            "dichtgelegde slagen tenzij toegestaan volgens artikel 66C.",
            "key": None,
        }
    ]
    assert [r.key for r in art62.footnotes[0].references] == ["43B2(b)"]
    assert [r.key for r in art63.footnotes[0].references] == ["66C"]
    assert "Een bewering" not in provisions(seed_2007)["63A1"].text


def test_2007_references(seed_2007):
    refs = {key: [r.key for r in p.references] for key, p in provisions(seed_2007).items()}
    assert refs["62C1"] == ["16C"]
    assert refs["62C2"] == ["16C"]
    assert all(refs[key] == [] for key in refs if key not in {"62C1", "62C2"})
    assert seed_2007.reference_count == 4  # two in the text, two in the footnotes
    assert seed_2007.provision_count == 10
    assert seed_2007.footnote_count == 2


# --------------------------------------------------------------------------------------------
# Seed 002: 1987, wiki template, Art. 47


@pytest.fixture(scope="module")
def seed_1987() -> ParsedEdition:
    return seed("002_a0057157c6d8e1b2.txt", "1987")


def test_1987_article(seed_1987):
    assert seed_1987.header == "Sjabloon:1987:47"
    assert [(a.number, a.title, a.group, a.text) for a in seed_1987.articles] == [
        ("47", "Terugnemen van gespeelde kaart", None, "")
    ]


def test_1987_sections_items_and_sub_items(seed_1987):
    by_key = provisions(seed_1987)
    assert [(key, p.label, p.heading) for key, p in by_key.items()] == [
        ("47A", "A", "Om te voldoen aan een straf"),
        ("47B", "B", "Om een onreglementair spelen te herstellen"),
        ("47C", "C", "Om een onopzettelijke aanduiding te wijzigen"),
        ("47D", "D", "Na wijziging van het spelen door een tegenstander"),
        ("47E", "E", "Wijziging van het spelen op basis van verkeerde informatie"),
        ("47E1", "1", "Voor de beurt voorgespeelde kaart"),
        ("47E2", "2", "Terugnemen van gespeelde kaart"),
        ("47E2(a)", "(a)", "Niemand heeft daarna bijgespeeld"),
        ("47E2(b)", "(b)", "Eén of meer kaarten zijn daarna bijgespeeld"),
        ("47F", "F", "Door de benadeelde partij getoonde en teruggenomen kaart"),
        ("47G", "G", "Onreglementair terugnemen"),
    ]
    assert [c.key for c in by_key["47E"].children] == ["47E1", "47E2"]
    assert [c.key for c in by_key["47E2"].children] == ["47E2(a)", "47E2(b)"]
    assert by_key["47E"].text == by_key["47E2"].text == ""
    assert by_key["47G"].text.startswith("Tenzij een van de bepalingen onder A tot en met E")
    assert by_key["47E2(b)"].text == (
        "Wanneer het te laat is voor herstel volgens (a) hierboven, is artikel 40 C van toepassing."
    )


def test_1987_real_dashes_survive(seed_1987):
    by_key = provisions(seed_1987)
    assert "strafkaart worden - zie artikel 49)." in by_key["47A"].text
    assert "artikel 49 - strafkaart)." in by_key["47B"].text
    assert "conventionele bied- of speelwijze" in by_key["47E2(a)"].text


def test_1987_references(seed_1987):
    refs = {key: [r.key for r in p.references] for key, p in provisions(seed_1987).items()}
    assert refs == {
        "47A": ["49"],
        "47B": ["58", "49"],
        "47C": ["45C4(b)"],
        "47D": [],
        "47E": [],
        "47E1": [],
        "47E2": [],
        "47E2(a)": [],
        "47E2(b)": ["40C"],
        "47F": [],
        "47G": [],
    }
    assert [r.raw for r in provisions(seed_1987)["47C"].references] == ["artikel 45 C4(b)"]


# --------------------------------------------------------------------------------------------
# Format rules on small inputs


def test_wiki_header_is_not_law_text():
    parsed = parse("Sjabloon:2017:12\n\nArtikel 12 Titel\n\nTekst.", "2017")
    assert parsed.header == "Sjabloon:2017:12"
    assert parsed.articles[0].text == "Tekst."
    assert parsed.skipped_preamble == []


def test_header_year_that_differs_from_the_edition_is_noted():
    parsed = parse("Sjabloon:1963:X\n\nArtikel 1 Titel\n\nTekst.", "1987")
    assert any("1963" in note and "1987" in note for note in parsed.notes)


def test_part_headings_group_the_following_articles():
    parsed = parse(
        "STRAFKAART. Art. 50 t/m 52\n\nArtikel 50. Een.\n\nTekst.\n\n"
        "HOOFDSTUK 7 HET SPEL\n\nArtikel 60. Twee.\n\nTekst.",
        "1963",
    )
    assert [(a.number, a.group) for a in parsed.articles] == [
        ("50", "STRAFKAART. Art. 50 t/m 52"),
        ("60", "HOOFDSTUK 7 HET SPEL"),
    ]
    assert all(a.references == [] for a in parsed.articles)
    assert "HOOFDSTUK" not in parsed.articles[0].text


@pytest.mark.parametrize(
    ("heading", "number", "title"),
    [
        ("Artikel 50. Behandeling van een strafkaart.", "50", "Behandeling van een strafkaart"),
        ("Artikel 47 Terugnemen van gespeelde kaart", "47", "Terugnemen van gespeelde kaart"),
        ("Art. 12 - Bevoegdheden", "12", "Bevoegdheden"),
        ("ARTIKEL 9: Procedure", "9", "Procedure"),
    ],
)
def test_article_heading_forms(heading, number, title):
    parsed = parse(f"{heading}\n\nTekst van het artikel.", "2017")
    assert (parsed.articles[0].number, parsed.articles[0].title) == (number, title)
    assert parsed.articles[0].text == "Tekst van het artikel."


def test_article_title_on_the_next_line():
    pdf = parse("ARTIKEL 63\nVoldongen worden\nA. Kop\nTekst.", "2007")
    wiki = parse("ARTIKEL 63\n\nVoldongen worden\n\nIntro.\n\nA. Kop\n\nTekst.", "2007")
    assert pdf.articles[0].title == wiki.articles[0].title == "Voldongen worden"
    assert pdf.articles[0].text == ""
    assert wiki.articles[0].text == "Intro."


def test_article_without_title_keeps_a_sentence_as_text():
    parsed = parse("ARTIKEL 63\nEen verzaking wordt voldongen als dit gebeurt.", "2007")
    assert parsed.articles[0].title is None
    assert parsed.articles[0].text == "Een verzaking wordt voldongen als dit gebeurt."


def test_sentence_starting_with_artikel_is_not_a_heading():
    parsed = parse("Artikel 47 Titel\n\nA. Kop\n\nArtikel 49 is dan van toepassing.", "1987")
    assert [a.number for a in parsed.articles] == ["47"]
    assert parsed.articles[0].provisions[0].text == "Artikel 49 is dan van toepassing."
    assert [r.key for r in parsed.articles[0].provisions[0].references] == ["49"]


def test_labelled_sentence_is_text_and_short_labelled_line_is_heading():
    parsed = parse(
        "Artikel 7 Titel\n\n"
        "A. Een korte kop\n\nDe tekst van A.\n\n"
        "B. De speler mag de kaart terugnemen.\n\nEn dit ook.\n\n"
        "C. Alleen een kop zonder iets erna",
        "2017",
    )
    a, b, c = parsed.articles[0].provisions
    assert (a.heading, a.text) == ("Een korte kop", "De tekst van A.")
    assert (b.heading, b.text) == (None, "De speler mag de kaart terugnemen.\n\nEn dit ook.")
    # Nothing follows C, so the short line is its text rather than a heading.
    assert (c.heading, c.text) == (None, "Alleen een kop zonder iets erna")


def test_heading_followed_by_sub_provisions_only():
    parsed = parse("Artikel 7 Titel\n\nA. Kop van A\n\n1. Kop van 1\n\nTekst.", "2017")
    section = parsed.articles[0].provisions[0]
    assert (section.heading, section.text) == ("Kop van A", "")
    assert (section.children[0].key, section.children[0].heading) == ("7A1", "Kop van 1")


def test_wrapped_pdf_heading_and_wrapped_pdf_sentence():
    parsed = parse(
        "ARTIKEL 8\nTitel\nA. Kop\n"
        "1. Partner van de overtreder had nog niet bijgespeeld in de\ntwaalfde slag\n"
        "Indien een tegenspeler verzaakt heeft.\n"
        "2. Iedere speler mag straffeloos\nelke kaart terugnemen, maar\nalleen nu.\n",
        "2007",
    )
    one, two = parsed.articles[0].provisions[0].children
    assert one.heading == "Partner van de overtreder had nog niet bijgespeeld in de twaalfde slag"
    assert one.text == "Indien een tegenspeler verzaakt heeft."
    assert two.heading is None
    assert two.text == "Iedere speler mag straffeloos elke kaart terugnemen, maar alleen nu."


@pytest.mark.parametrize(
    ("lines", "joined"),
    [
        ("voordat de vier han-\nden in het bord", "voordat de vier handen in het bord"),
        ("een kaart te-\nrugneemt", "een kaart terugneemt"),
        ("om voor-\nof bij te spelen", "om voor- of bij te spelen"),
        ("bied-\nen speelwijze", "bied- en speelwijze"),
        ("een strafkaart worden -\nzie artikel 49", "een strafkaart worden - zie artikel 49"),
        ("de niet-\novertredende partij", "de niet-overtredende partij"),
        ("de Noord-\nZuid spelers", "de Noord-Zuid spelers"),
        ("een ge\u00ad\nbroken woord", "een gebroken woord"),
    ],
)
def test_line_break_hyphens(lines, joined):
    parsed = parse(f"Artikel 1 Titel\n{lines}.", "2007")
    assert parsed.articles[0].text == f"{joined}."


def test_page_number_lines_are_dropped_and_footer_becomes_footnotes():
    parsed = parse(
        "Handleiding\nARTIKEL 5\nTitel\nA. Kop\nDe hand* van de leider.\n"
        "12\n* Eerste voetnoot, zie artikel 43B2b.\nTweede, ongemarkeerde\nvoetnoot.\n"
        "Handleiding\nB. Volgende kop\nMeer tekst.\n",
        "2007",
    )
    art = parsed.articles[0]
    assert parsed.skipped_preamble == ["Handleiding"]
    a, b = art.provisions
    assert a.text == "De hand van de leider."
    assert (b.heading, b.text) == ("Volgende kop", "Meer tekst.")
    assert [f.to_json_dict() for f in art.footnotes] == [
        {"marker": "*", "text": "Eerste voetnoot, zie artikel 43B2b.", "key": "5A"},
        {"marker": "", "text": "Tweede, ongemarkeerde voetnoot.", "key": None},
    ]
    assert [r.key for r in art.footnotes[0].references] == ["43B2(b)"]
    assert any("running title 'Handleiding'" in note for note in parsed.notes)


def test_page_break_mid_sentence_continues_the_text():
    parsed = parse(
        "ARTIKEL 5\nTitel\nA. Kop\nDe speler die\n13\nnog niet heeft gespeeld.\n", "2007"
    )
    art = parsed.articles[0]
    assert art.provisions[0].text == "De speler die nog niet heeft gespeeld."
    assert art.footnotes == []


def test_footnote_markers_are_matched_by_kind_and_order():
    parsed = parse(
        "ARTIKEL 5\nTitel\nIntro met teken*.\nA. Kop\nTekst met twee** tekens.\n"
        "7\n** Voor A.\n* Voor het artikel.\n",
        "2007",
    )
    art = parsed.articles[0]
    assert art.text == "Intro met teken."
    assert art.provisions[0].text == "Tekst met twee tekens."
    assert [(f.marker, f.key) for f in art.footnotes] == [("**", "5A"), ("*", "5")]


def test_footnote_of_an_earlier_article_is_attached_there():
    parsed = parse(
        "ARTIKEL 5\nTitel\nA. Kop\nDe hand* telt.\nARTIKEL 6\nAnder\nA. Kop\nTekst.\n"
        "9\n* Bij vijf.\n",
        "2007",
    )
    five, six = parsed.articles
    assert [(f.key, f.text) for f in five.footnotes] == [("5A", "Bij vijf.")]
    assert six.footnotes == []


def test_marker_without_footnote_is_noted():
    parsed = parse("ARTIKEL 5\nTitel\nA. Kop\nDe hand* telt.\n", "2007")
    assert parsed.articles[0].provisions[0].text == "De hand telt."
    assert any("'*'" in note and "5A" in note for note in parsed.notes)


def test_closing_paragraph_after_a_sentence_list_belongs_to_the_parent():
    wiki = parse(
        "Artikel 52. Verzuim.\n\nIndien een tegenspeler dit doet:\n\n"
        "a. mag de leider dit; of\n\nb. mag de leider dat.\n\nElke kaart wordt strafkaart.",
        "1963",
    )
    art = wiki.articles[0]
    assert art.text == "Indien een tegenspeler dit doet:"
    assert art.closing == "Elke kaart wordt strafkaart."
    assert art.to_json_dict()["text"] == (
        "Indien een tegenspeler dit doet:\n\nElke kaart wordt strafkaart."
    )
    assert art.provisions[1].text == "mag de leider dat."
    pdf = parse(
        "ARTIKEL 9\nTitel\nA. Kop\nDe leider mag:\n(a) dit doen, of\n(b) dat doen.\n"
        "Daarna speelt men verder.\n",
        "2007",
    )
    section = pdf.articles[0].provisions[0]
    assert section.text == "De leider mag:"
    assert section.closing == "Daarna speelt men verder."
    assert [c.text for c in section.children] == ["dit doen, of", "dat doen."]


def test_more_paragraphs_of_a_headed_item_stay_in_the_item():
    parsed = parse("Artikel 9 Titel\n\nA. Kop\n\nEerste alinea.\n\nTweede alinea.", "2017")
    assert parsed.articles[0].provisions[0].text == "Eerste alinea.\n\nTweede alinea."


def test_out_of_sequence_label_is_text_with_a_note():
    parsed = parse("ARTIKEL 9\nTitel\nA. Kop\nZie ook de regel\nC. Jansen en anderen.\n", "2007")
    art = parsed.articles[0]
    assert [p.key for p in art.walk()] == ["9A"]
    assert art.provisions[0].text == "Zie ook de regel C. Jansen en anderen."
    assert any("breaks the numbering" in note for note in parsed.notes)


def test_sub_items_under_a_section_and_items_under_an_article():
    parsed = parse(
        "Artikel 9 Titel\n\nA. Kop\n\n(a) Subkop\n\nTekst.\n\n"
        "Artikel 12 Ander\n\n1. Kop\n\nTekst.\n\n2. Kop\n\nTekst.",
        "2017",
    )
    assert [p.key for a in parsed.articles for p in a.walk()] == ["9A", "9A(a)", "12.1", "12.2"]


def test_every_provision_key_is_a_canonical_law_key():
    """The parser builds keys with laws.keys, so every key it makes can be cited again."""
    parsed = parse(
        "Artikel 9 Titel\n\nA. Kop\n\n1. Sub\n\n(a) Subkop\n\nTekst.\n\n"
        "Artikel 12 Ander\n\n1. Kop\n\n(a) Tekst.\n\n(b) Meer.",
        "2017",
    )
    made = [p.key for a in parsed.articles for p in a.walk()]
    assert made == ["9A", "9A1", "9A1(a)", "12.1", "12.1(a)", "12.1(b)"]
    assert all(keys.is_canonical(key) for key in made)
    for seed_name, code, start in [
        ("000_c0d9362b67ea3467.txt", "1963", None),
        ("001_e9318628a0090252.txt", "2007", "62B"),
        ("002_a0057157c6d8e1b2.txt", "1987", None),
    ]:
        made = [p.key for a in seed(seed_name, code, start).articles for p in a.walk()]
        assert made, seed_name
        assert all(keys.is_canonical(key) for key in made), seed_name


@pytest.mark.parametrize("heading", ["Artikel 05 Titel", "Artikel 0 Titel", "Artikel \u0665 Titel"])
def test_a_number_that_is_no_article_number_is_no_heading(heading):
    # The key grammar has no article 0, no leading zero and only ASCII digits.
    parsed = parse(f"Artikel 4 Eerst\n\nTekst.\n\n{heading}\n\nMeer.", "2017")
    assert [a.number for a in parsed.articles] == ["4"]
    assert heading in parsed.articles[0].text


def test_later_articles_must_have_a_higher_number():
    parsed = parse("Artikel 9 Titel\n\nTekst.\n\nArtikel 3 Terug\n\nMeer.", "2017")
    assert [a.number for a in parsed.articles] == ["9"]
    assert parsed.articles[0].text == "Tekst.\n\nArtikel 3 Terug\n\nMeer."


def test_preamble_before_the_first_heading_is_skipped():
    parsed = parse("Inhoud\nVoorwoord van de redactie.\n\nArtikel 1 Titel\n\nTekst.", "2017")
    assert parsed.skipped_preamble == ["Inhoud", "Voorwoord van de redactie."]
    assert parsed.articles[0].text == "Tekst."


def test_windows_line_endings_bom_and_form_feed():
    parsed = parse_bytes(
        (
            "\ufeffArtikel 1 Titel\r\n\r\nEen han-\r\nden tekst.\f\r\nArtikel 2 Twee\r\n\r\nTekst."
        ).encode(),
        "2017",
    )
    assert [(a.number, a.title, a.text) for a in parsed.articles] == [
        ("1", "Titel", "Een handen tekst."),
        ("2", "Twee", "Tekst."),
    ]


# --------------------------------------------------------------------------------------------
# --start


def test_start_at_section_continues_its_numbering():
    parsed = parse("Kop van pagina\n2. Kop\nTekst.\nC. Volgende\nTekst.\n", "2007", start="62B")
    assert [p.key for p in parsed.articles[0].walk()] == ["62B", "62B2", "62C"]
    assert parsed.skipped_preamble == ["Kop van pagina"]


def test_start_accepts_loose_keys():
    parsed = parse("(c) Kop\nTekst.\n", "2007", start="43 B2")
    assert [p.key for p in parsed.articles[0].walk()] == ["43B", "43B2", "43B2(c)"]
    parsed = parse("(c) Kop\nTekst.\n", "2007", start="43b2b")
    assert [p.key for p in parsed.articles[0].walk()] == ["43B", "43B2", "43B2(b)", "43B2(c)"]


def test_start_inside_an_item_directly_under_the_article():
    parsed = parse("(b) Kop\nTekst.\n", "1963", start="12.3")
    assert [p.key for p in parsed.articles[0].walk()] == ["12.3", "12.3(b)"]


@pytest.mark.parametrize(
    "start", ["xyz", "B62", "62BB", "", "62B2(b)(c)", "64A1(aa)", "12C1(e)(i)", "062B"]
)
def test_invalid_start_key(start):
    with pytest.raises(LawImportError, match="unknown start key"):
        parse("2. Kop\nTekst.\n", "2007", start=start)


def test_start_whose_numbering_does_not_fit_the_text():
    with pytest.raises(LawImportError, match=r"unknown start key '62B2'.*'2\.'"):
        parse("2. Kop\nTekst.\n", "2007", start="62B2")


def test_start_for_text_that_has_its_own_heading():
    with pytest.raises(LawImportError, match="leave --start out"):
        parse("Artikel 47 Titel\n\nA. Kop\n\nTekst.", "1987", start="46B")


def test_text_starting_with_a_section_needs_start():
    with pytest.raises(LawImportError, match=r"first label 'C\.' on line 2.*--start"):
        parse("Operation Manual\nC. Kop\nTekst.", "2007")


# --------------------------------------------------------------------------------------------
# Errors


@pytest.mark.parametrize("text", ["", "   \n\n\t\n", "\ufeff"])
def test_empty_input(text):
    with pytest.raises(LawImportError, match="empty") as error:
        parse(text, "2017")
    assert "\n" not in str(error.value)


@pytest.mark.parametrize("data", [b"", b"  \n", b"\xef\xbb\xbf"])
def test_empty_bytes(data):
    with pytest.raises(LawImportError, match="empty"):
        parse_bytes(data, "2017")


@pytest.mark.parametrize(
    "data",
    [b"Artikel 1\x00 Titel", "Artikel 1 Titel".encode("utf-16"), b"\x89PNG\r\n\x1a\n\x00\x00"],
)
def test_binary_input(data):
    with pytest.raises(LawImportError, match="binary"):
        parse_bytes(data, "2017")


def test_control_characters_are_binary():
    with pytest.raises(LawImportError, match="binary"):
        parse("Artikel 1 Titel\x01\x02", "2017")


def test_undecodable_input():
    with pytest.raises(LawImportError, match="not UTF-8") as error:
        parse_bytes("Artikel 1 Één".encode("latin-1"), "2017")
    assert "offset 10" in str(error.value)


def test_utf8_with_bom_is_accepted():
    assert decode_source(b"\xef\xbb\xbfArtikel 1") == "Artikel 1"


@pytest.mark.parametrize(
    "text", ["Zomaar wat tekst zonder structuur.", "Sjabloon:1987:47\n\nAlleen dit.", "78\n"]
)
def test_unrecognisable_input(text):
    with pytest.raises(LawImportError, match="unrecognisable"):
        parse(text, "2017")


# --------------------------------------------------------------------------------------------
# Cross-references


# The reference grammar itself (find_references, reference_spans) is tested with the key
# grammar in test_keys.py; here only that the parser collects references everywhere.


def test_references_in_headings_and_titles_are_found():
    parsed = parse("Artikel 9 Zie artikel 8\n\nA. Volgens artikel 7B\n\nTekst.", "2017")
    art = parsed.articles[0]
    assert [r.key for r in art.references] == ["8"]
    assert [r.key for r in art.provisions[0].references] == ["7B"]


# --------------------------------------------------------------------------------------------
# Dry-run JSON


def _check_provision(node: dict) -> None:
    assert set(node) == {"label", "key", "heading", "text", "references", "children"}
    assert isinstance(node["label"], str)
    assert node["label"]
    assert isinstance(node["key"], str)
    assert node["key"]
    assert node["heading"] is None or isinstance(node["heading"], str)
    assert isinstance(node["text"], str)
    assert all(isinstance(ref, str) for ref in node["references"])
    for child in node["children"]:
        _check_provision(child)


@pytest.mark.parametrize(
    ("name", "edition", "start"),
    [
        ("000_c0d9362b67ea3467.txt", "1963", None),
        ("001_e9318628a0090252.txt", "2007", "62B"),
        ("002_a0057157c6d8e1b2.txt", "1987", None),
    ],
)
def test_json_shape(name, edition, start):
    data = seed(name, edition, start).to_json_dict()
    # It must survive a JSON round trip unchanged: only JSON types inside.
    assert json.loads(json.dumps(data)) == data
    assert set(data) == {"edition", "articles"}
    assert data["edition"] == edition
    assert data["articles"]
    for art in data["articles"]:
        assert set(art) == {
            "number",
            "title",
            "group",
            "text",
            "references",
            "provisions",
            "footnotes",
        }
        assert isinstance(art["number"], str)
        assert art["title"] is None or isinstance(art["title"], str)
        assert art["group"] is None or isinstance(art["group"], str)
        assert isinstance(art["text"], str)
        assert all(isinstance(ref, str) for ref in art["references"])
        for provision in art["provisions"]:
            _check_provision(provision)
        for footnote in art["footnotes"]:
            assert set(footnote) == {"marker", "text", "key"}
            assert isinstance(footnote["marker"], str)
            assert isinstance(footnote["text"], str)
            assert footnote["key"] is None or isinstance(footnote["key"], str)


def test_json_of_the_1987_seed_in_full(seed_1987):
    data = seed_1987.to_json_dict()
    e2 = data["articles"][0]["provisions"][4]["children"][1]
    assert e2 == {
        "label": "2",
        "key": "47E2",
        "heading": "Terugnemen van gespeelde kaart",
        "text": "",
        "references": [],
        "children": [
            {
                "label": "(a)",
                "key": "47E2(a)",
                "heading": "Niemand heeft daarna bijgespeeld",
                "text": "Een speler mag een kaart, gespeeld nadat van een conventionele bied- of "
                "speelwijze een verkeerde uitleg was gegeven maar voordat die verbeterd werd, "
                "terugnemen maar alleen als er in die slag geen volgende kaart is gespeeld.",
                "references": [],
                "children": [],
            },
            {
                "label": "(b)",
                "key": "47E2(b)",
                "heading": "Eén of meer kaarten zijn daarna bijgespeeld",
                "text": "Wanneer het te laat is voor herstel volgens (a) hierboven, is artikel "
                "40 C van toepassing.",
                "references": ["40C"],
                "children": [],
            },
        ],
    }


def test_capitalised_part_name_before_an_article_is_a_group():
    parsed = parse(
        "Artikel 52. Een.\n\nTekst.\n\nVERZAKING\n\nArtikel 53. Twee.\n\nDE LEIDER BESLIST.",
        "1963",
    )
    assert [(a.number, a.group) for a in parsed.articles] == [("52", None), ("53", "VERZAKING")]
    assert parsed.articles[0].text == "Tekst."
    # Capitals that are not followed by an article heading stay text.
    assert parsed.articles[1].text == "DE LEIDER BESLIST."


def test_list_introduced_on_the_label_line():
    parsed = parse(
        "ARTIKEL 9\nTitel\nA. De leider mag:\n(a) dit doen, of\n(b) dat doen.\nSlot.\n", "2007"
    )
    section = parsed.articles[0].provisions[0]
    assert (section.heading, section.text, section.closing) == (None, "De leider mag:", "Slot.")
