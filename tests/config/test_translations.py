"""The English catalogue is complete, consistent with its placeholders, and compiled.

The .po file is parsed with plain Python (no polib): entries are separated by blank lines,
strings may continue on following lines, plural entries have ``msgstr[n]``.
"""

from __future__ import annotations

import gettext
import re
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from django.utils import translation

ROOT = Path(__file__).resolve().parents[2]
PO = ROOT / "locale" / "en" / "LC_MESSAGES" / "django.po"
MO = PO.with_suffix(".mo")

ESCAPES = {"n": "\n", "t": "\t", "r": "\r", '"': '"', "\\": "\\"}
KEYWORD = re.compile(r"^(msgctxt|msgid_plural|msgid|msgstr(?:\[(\d+)\])?)\s+(\".*\")\s*$")
# %(name)s / %(n)d, bare %s / %d, and {name} / {{ name }} style fields ("%%" is a literal).
PLACEHOLDER = re.compile(
    r"%\([^)]+\)[-#0+]*\d*(?:\.\d+)?[a-z]|%[-#0+]*\d*(?:\.\d+)?[sdifr]|\{[^{}]*\}"
)


@dataclass
class Entry:
    line: int
    flags: set[str] = field(default_factory=set)
    msgctxt: str | None = None
    msgid: str = ""
    msgid_plural: str | None = None
    msgstr: dict[int, str] = field(default_factory=dict)

    @property
    def is_header(self) -> bool:
        return self.msgid == "" and self.msgctxt is None

    def __str__(self) -> str:
        return f"line {self.line}: {self.msgid!r}"


def unquote(text: str) -> str:
    text = text.strip()
    assert text.startswith('"'), text
    assert text.endswith('"'), text
    body, out, i = text[1:-1], [], 0
    while i < len(body):
        if body[i] == "\\" and i + 1 < len(body):
            out.append(ESCAPES.get(body[i + 1], body[i : i + 2]))
            i += 2
        else:
            out.append(body[i])
            i += 1
    return "".join(out)


def parse_po(path: Path) -> list[Entry]:
    entries: list[Entry] = []
    entry: Entry | None = None
    target: tuple[str, int | None] | None = None

    def append(text: str) -> None:
        assert entry is not None
        assert target is not None
        name, index = target
        if name == "msgstr":
            entry.msgstr[index] = entry.msgstr.get(index, "") + text
        else:
            setattr(entry, name, (getattr(entry, name) or "") + text)

    for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        line = raw.strip()
        if not line:
            entry, target = None, None
            continue
        if line.startswith("#~"):  # obsolete entry: not part of the catalogue
            entry, target = None, None
            continue
        if entry is None:
            entry = Entry(line=number)
            entries.append(entry)
        if line.startswith("#,"):
            entry.flags.update(flag.strip() for flag in line[2:].split(",") if flag.strip())
            continue
        if line.startswith("#"):
            continue
        match = KEYWORD.match(line)
        if match:
            keyword, index, text = match.groups()
            if keyword.startswith("msgstr"):
                target = ("msgstr", int(index) if index is not None else 0)
            else:
                target = (keyword, None)
            if target[0] in ("msgid_plural", "msgctxt"):
                setattr(entry, target[0], "")
            append(unquote(text))
        elif line.startswith('"'):
            assert target is not None, f"{path.name}:{number}: continuation without keyword"
            append(unquote(line))
        else:
            raise AssertionError(f"{path.name}:{number}: cannot parse {raw!r}")
    return entries


def placeholders(text: str) -> Counter:
    return Counter(PLACEHOLDER.findall(text))


@pytest.fixture(scope="module")
def entries() -> list[Entry]:
    parsed = parse_po(PO)
    assert parsed
    assert parsed[0].is_header
    return [entry for entry in parsed if not entry.is_header]


def test_the_parser_reads_multiline_strings_and_plurals(tmp_path):
    po = tmp_path / "x.po"
    po.write_text(
        'msgid ""\nmsgstr ""\n"Language: en\\n"\n\n'
        "#: a.py\n#, fuzzy, python-format\n"
        'msgid ""\n"Een lange "\n"zin met \\"%(x)s\\""\n'
        'msgstr "A long sentence with \\"%(x)s\\""\n\n'
        'msgid "%(n)s spel"\nmsgid_plural "%(n)s spellen"\n'
        'msgstr[0] "%(n)s board"\nmsgstr[1] ""\n"%(n)s boards"\n\n'
        '#~ msgid "weg"\n#~ msgstr "gone"\n',
        encoding="utf-8",
    )
    header, single, plural = parse_po(po)
    assert header.is_header
    assert header.msgstr == {0: "Language: en\n"}
    assert single.msgid == 'Een lange zin met "%(x)s"'
    assert "fuzzy" in single.flags
    assert single.msgstr == {0: 'A long sentence with "%(x)s"'}
    assert plural.msgid_plural == "%(n)s spellen"
    assert plural.msgstr == {0: "%(n)s board", 1: "%(n)s boards"}
    assert placeholders("%(a)s, %s, {b} en 100%% {{ c }}") == Counter(
        ["%(a)s", "%s", "{b}", "{ c }"]
    )


def test_the_header_declares_english_and_two_plural_forms():
    header = parse_po(PO)[0]
    assert "fuzzy" not in header.flags
    assert "Language: en\n" in header.msgstr[0]
    assert "Plural-Forms: nplurals=2; plural=(n != 1);" in header.msgstr[0]


def test_every_entry_is_translated(entries):
    untranslated = [
        str(entry)
        for entry in entries
        if not entry.msgstr or not all(text.strip() for text in entry.msgstr.values())
    ]
    assert not untranslated, "untranslated entries:\n" + "\n".join(untranslated)


def test_plural_entries_have_both_forms(entries):
    wrong = [
        str(entry)
        for entry in entries
        if (entry.msgid_plural is not None and sorted(entry.msgstr) != [0, 1])
        or (entry.msgid_plural is None and sorted(entry.msgstr) != [0])
    ]
    assert not wrong, "wrong msgstr forms:\n" + "\n".join(wrong)


def test_no_entry_is_fuzzy(entries):
    fuzzy = [str(entry) for entry in entries if "fuzzy" in entry.flags]
    assert not fuzzy, "fuzzy entries:\n" + "\n".join(fuzzy)


def test_placeholders_match(entries):
    wrong = []
    for entry in entries:
        for index, text in entry.msgstr.items():
            source = entry.msgid if index == 0 or entry.msgid_plural is None else entry.msgid_plural
            if placeholders(text) != placeholders(source):
                wrong.append(f"{entry} [{index}]: {text!r}")
    assert not wrong, "placeholders differ:\n" + "\n".join(wrong)


def test_the_committed_mo_matches_the_po(entries):
    with MO.open("rb") as handle:
        compiled = gettext.GNUTranslations(handle)
    stale = []
    for entry in entries:
        if entry.msgid_plural is None:
            if entry.msgctxt is None:
                got = [compiled.gettext(entry.msgid)]
            else:
                got = [compiled.pgettext(entry.msgctxt, entry.msgid)]
        elif entry.msgctxt is None:
            got = [compiled.ngettext(entry.msgid, entry.msgid_plural, n) for n in (1, 2)]
        else:
            got = [
                compiled.npgettext(entry.msgctxt, entry.msgid, entry.msgid_plural, n)
                for n in (1, 2)
            ]
        expected = [entry.msgstr[index] for index in sorted(entry.msgstr)]
        if got != expected:
            stale.append(f"{entry}: .mo has {got!r}, .po has {expected!r}")
    assert not stale, "recompile (manage.py compilemessages):\n" + "\n".join(stale)


def test_django_serves_the_english_catalogue():
    with translation.override("en"):
        assert translation.gettext("Zoeken") == "Search"
        assert translation.ngettext("%(counter)s arbitrage", "%(counter)s arbitrages", 3) == (
            "%(counter)s rulings"
        )
    with translation.override("nl"):
        assert translation.gettext("Zoeken") == "Zoeken"
