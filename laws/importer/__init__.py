"""Parse Dutch law text in the formats of the seed files into plain dataclasses.

Pure package: no Django, no database. ``parse()`` turns text into a ``ParsedEdition``;
``ParsedEdition.to_json_dict()`` is the exact dry-run JSON of ``import_laws --dry-run --json``.

Canonical keys
--------------
A provision's key is how directors cite it (``62D2``, ``43B2(b)``, ``52(a)``, ``47A(a)``;
an item directly under an article is ``12.3``). The grammar, its accepted variants and the
cross-references found in the text (``artikel 43B2b`` -> ``43B2(b)``, ``artikelen 50 en
51``) are defined once, in :mod:`laws.keys`; the parser builds every provision key with it.

Formats handled
---------------
* Wiki template export (seeds 000 and 002): a header line ``Sjabloon:1987:47`` (not law
  text, reported as ``header``), part headings such as ``STRAFKAART. Art. 50 t/m 52`` (kept
  as the articles' ``group``), article headings ``Artikel 50. Title.`` / ``Artikel 47 Title``,
  paragraphs separated by blank lines.
* A wiki page as the browser shows it, one page per article or provision (``Sjabloon:2017:
  87A``): the title line is the ``header`` and may name the page's key; the tagline right
  after it (``Uit Spelregels voor tafelarbiters``), revision lines (``Versie door … op … om
  12:08``, ``(wijz) ← Oudere versie | Huidige versie …``) and a printable page's ``Ontvangen
  van "https://…"`` are page furniture (``furniture``), never law text. Lists come as dash
  lines: ``- 1.``/``- (a)`` are labels; a bare ``- …`` item under a lettered provision is its
  next numbered item (64B: 64B1, 64B2 …), under an item its next lettered one, elsewhere a
  paragraph of its own; a dash after a line that ends in mid-sentence continues that
  sentence. A wiki list item is one line, so a new sentence after it is the parent's closing.
  Footnotes ``1)``/``*)``: a marker after a word (``tafel1)``, ``kaarten *)``, or a flattened
  superscript ``tafel1``) and the footnote lines at the end of the page; they count only when
  the text carries the first footnote's marker, a ``)`` closing a parenthesis or a key
  (``16C2)``) is no marker, and each footnote belongs to the provision with its marker.
* PDF-extracted text (seed 001): no blank lines, headings ``ARTIKEL 63`` with the title on
  the next line, words hyphenated across lines (``han-``/``den``), headings wrapped over two
  lines, page-number lines, running titles (``Operation Manual``) and footnotes marked
  ``hand*`` whose text follows the page number.

Labels: sections ``A.``, items ``1.``, sub-items ``(a)``, ``a.`` or ``a)``. A label is only
taken as a label when it continues the numbering where it is (``C.`` after ``B.``, ``2.``
after ``1.``, ``(a)`` first); otherwise the line is text and a note says so. A short
labelled line (at most three physical lines, starting with a capital, no sentence
punctuation) followed by a paragraph or by sub-provisions is a heading; a labelled line that
carries a sentence is text.

Paragraphs before the first label of an article or provision are its text. A list of
sentence-continuing items (``Indien ...:`` / ``a. mag ...; of`` / ``b. mag ...``) may be
followed by a closing paragraph starting with a capital: that belongs to the list's parent
(``closing``), not to the last item.

Paragraphs: a blank line always separates two. Lines without a blank line between them are
joined, except where a line ends a sentence (``.``, ``!``, ``?``) and the next starts with a
capital: in wiki text (no hard-wrapped lines, a paragraph per line) that is a paragraph
break; in hard-wrapped text (PDF text, or a page pasted from one) it is one only when the
line is shorter than three quarters of the text's line width (the median length of lines
that surely run on: the next starts in lowercase, or they end in a hyphenated word part),
because a full line that happens to end a sentence was wrapped, not broken.

Lines before the first recognisable label (article heading, part heading or provision label)
are returned as ``skipped_preamble`` and never become law text; a later line identical to a
short preamble line is a running title and is dropped.

``start``: where the text begins. Text that starts inside an article (seed 001 starts in
62B) continues the numbering of that article and section: its first label is a child of the
start key or a later sibling (``2.`` or ``C.`` for ``62B``). A wiki page (a title line or page
furniture) holds all of its start provision: ``start`` must be the key its title names
(``87A`` on ``Sjabloon:2017:87A``), the page's first label may be the provision's own (``B.``
on page 74B) or a child of it numbered from the first, and unlabelled text (a section page
without label, the opening sentence of 31B) is the start provision's own text, without a
heading. Without ``start`` such a page is refused with the key it needs.

Modules: ``model`` (the result dataclasses and ``LawImportError``), ``text`` (decoding, line
normalising, joining and paragraphs, the line patterns), ``pages`` (wiki page furniture, the
title's key, the ``1)`` footnote block), ``units`` (articles and provisions being collected,
label numbering), ``footnotes`` (markers and footnotes while parsing) and ``parser`` (the
line-by-line state machine).
Callers import from ``laws.importer`` only; the names below are the public interface.
"""

from laws.importer.model import (
    Article,
    Footnote,
    LawImportError,
    Level,
    ParsedEdition,
    Provision,
    Reference,
)
from laws.importer.parser import parse, parse_bytes
from laws.importer.text import decode_source

__all__ = [
    "Article",
    "Footnote",
    "LawImportError",
    "Level",
    "ParsedEdition",
    "Provision",
    "Reference",
    "decode_source",
    "parse",
    "parse_bytes",
]
