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

Lines before the first recognisable label (article heading, part heading or provision label)
are returned as ``skipped_preamble`` and never become law text; a later line identical to a
short preamble line is a running title and is dropped. Text that starts inside an article
(seed 001 starts in 62B) needs ``start`` (``62B``): the parser then continues the numbering
of that article and section.

Modules: ``model`` (the result dataclasses and ``LawImportError``), ``text`` (decoding, line
normalising and joining, the line patterns) and ``parser`` (the line-by-line state machine).
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
