"""Official text over the provision index (laws/official.py) through ``manage.py import_laws
FILE --edition 2017``: the dry run, the real import, the same file twice, several files one after
another, refused keys and bad input, and bootstrap afterwards. Every sentence of law-like text
below is invented."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from laws.loading import bootstrap_laws
from laws.models import (
    Article,
    ArticleSummary,
    CrossReference,
    Edition,
    Footnote,
    LawImport,
    Provision,
)

pytestmark = pytest.mark.django_db

ARTICLE_63 = """Sjabloon:2017:63

Artikel 63 Voldongen verzaking

A. Wanneer de verzaking vaststaat

1. Een zelfbedachte eerste zin over een volgende slag.

2. Een zelfbedachte tweede zin over een vraag aan de partner.

3. Een zelfbedachte derde zin, zie artikel 62.

4. Een zelfbedachte vierde zin over een claim.

B. Geen herstel meer

Een zelfbedachte zin over wat daarna gebeurt.
"""

# A page that starts inside article 63, at its section A (--start 63A): items 1 and 2 only.
SECTION_63A = """1. Een andere zelfbedachte zin over een volgende slag.

2. Een andere zelfbedachte zin over de partner.
"""


def write(tmp_path: Path, text: str, name: str = "art63.txt") -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def run(*args: str) -> str:
    out = io.StringIO()
    call_command("import_laws", *args, "--edition", "2017", stdout=out, stderr=io.StringIO())
    return out.getvalue()


def state() -> tuple:
    """Everything an import may write."""
    return (
        list(
            Provision.objects.order_by("pk").values_list(
                "pk",
                "key",
                "label",
                "heading",
                "text",
                "closing_text",
                "imported_from",
                "our_title_nl",
                "our_summary_nl",
            )
        ),
        list(Article.objects.order_by("pk").values_list("pk", "text", "closing_text", "title")),
        list(Footnote.objects.order_by("pk").values_list("pk", "text")),
        list(CrossReference.objects.order_by("pk").values_list("pk", "raw", "target_article")),
        list(LawImport.objects.order_by("pk").values_list("pk", "file_name")),
        list(Edition.objects.order_by("pk").values_list("pk", "imported_at")),
        list(ArticleSummary.objects.order_by("pk").values_list("pk", "text_nl")),
    )


def provision(key: str) -> Provision:
    return Provision.objects.get(article__edition__code="2017", key=key)


def test_the_dry_run_says_what_would_change_and_writes_nothing(shipped, tmp_path):
    before = state()
    out = run(write(tmp_path, ARTICLE_63), "--dry-run")
    assert "Dry run for edition 2017 (provision index): nothing is written." in out
    assert "Official text for 6 provisions: 63A, 63A1, 63A2, 63A3, 63A4, 63B" in out
    # The trees cite 63A1 (whole branch of Law 63 imported now) and e.g. 62A: still summaries.
    cited = next(line for line in out.splitlines() if line.startswith("Cited keys still"))
    assert "62A" in cited
    assert "63A1" not in cited
    assert state() == before


def test_the_dry_run_as_json(shipped, tmp_path):
    plan = json.loads(run(write(tmp_path, ARTICLE_63), "--dry-run", "--json"))
    assert plan["edition"] == "2017"
    assert plan["new"] == ["63A", "63A1", "63A2", "63A3", "63A4", "63B"]
    assert plan["refused"] == []
    assert plan["parsed"]["articles"][0]["number"] == "63"
    assert len(plan["sha256"]) == 64


def test_an_import_fills_official_text_over_the_summaries(shipped, tmp_path):
    summary_63a1 = provision("63A1").our_summary_nl
    article_summary = ArticleSummary.objects.get(
        article__edition__code="2017", article__number="63"
    )
    imported_before = Edition.objects.get(code="2017").imported_at
    out = run(write(tmp_path, ARTICLE_63))
    assert "official text for 6 provisions in 1 articles imported from art63.txt" in out
    record = LawImport.objects.get(edition__code="2017")
    assert (record.file_name, record.user, record.shipped, record.provisions) == (
        "art63.txt",
        None,
        False,
        6,
    )
    assert len(record.sha256) == 64
    item = provision("63A1")
    assert (item.label, item.text, item.imported_from) == (
        "1",
        "Een zelfbedachte eerste zin over een volgende slag.",
        record,
    )
    assert provision("63A").heading == "Wanneer de verzaking vaststaat"
    # Our words stay, and so does every other provision's summary.
    assert item.our_summary_nl == summary_63a1
    assert ArticleSummary.objects.get(pk=article_summary.pk).text_nl == article_summary.text_nl
    assert provision("62A").text == ""
    assert Article.objects.get(edition__code="2017", number="63").title == (
        "Voldongen worden van een verzaking"
    )
    # The reference in 63A3 points at article 62 of 2017.
    reference = CrossReference.objects.get(provision=provision("63A3"))
    assert (reference.target_key, reference.target_article.number) == ("62", "62")
    assert Edition.objects.get(code="2017").imported_at > imported_before


def test_the_same_file_twice_changes_nothing(shipped, tmp_path):
    path = write(tmp_path, ARTICLE_63)
    run(path)
    before = state()
    out = run(path)
    assert "nothing changed" in out
    assert state() == before
    assert LawImport.objects.filter(edition__code="2017").count() == 1
    assert "This file was imported before" in run(path, "--dry-run")


def test_several_files_one_after_another(shipped, tmp_path):
    run(write(tmp_path, ARTICLE_63))
    article_text = Article.objects.get(edition__code="2017", number="63").text
    out = run(write(tmp_path, SECTION_63A, "63A.txt"), "--start", "63A")
    assert "official text for 2 provisions" in out
    assert provision("63A1").text == "Een andere zelfbedachte zin over een volgende slag."
    assert provision("63A3").text == "Een zelfbedachte derde zin, zie artikel 62."  # kept
    assert provision("63B").heading == "Geen herstel meer"  # kept
    # The section page does not hold the article's own text: it is left alone.
    assert Article.objects.get(edition__code="2017", number="63").text == article_text
    assert list(
        LawImport.objects.filter(edition__code="2017").values_list("file_name", flat=True)
    ) == [
        "63A.txt",
        "art63.txt",
    ]


def test_keys_the_index_lacks_are_refused_and_nothing_is_written(shipped, tmp_path):
    text = ARTICLE_63 + "\nC. Een zelfbedachte sectie\n\nDie het jaar 2017 niet kent.\n"
    path = write(tmp_path, text)
    before = state()
    with pytest.raises(CommandError) as error:
        run(path)
    assert error.value.returncode == 2
    message = str(error.value)
    assert "\n" not in message
    assert "not in the provision index of edition 2017: 63C; nothing imported" in message
    assert state() == before
    # The dry run lists them.
    assert "Refused: 1 key(s) in art63.txt are not in the provision index" in run(path, "--dry-run")


@pytest.mark.parametrize(
    ("data", "extra", "message"),
    [
        (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", [], "binary"),
        ("Artikel 63 Voldongen één".encode("latin-1"), [], "not UTF-8"),
        (b"Een boodschappenlijst\nmelk, brood", [], "unrecognisable input"),
        (ARTICLE_63.encode(), ["--replace"], "without --replace"),
    ],
)
def test_bad_input_is_one_line_exit_2_and_nothing_changed(shipped, tmp_path, data, extra, message):
    path = tmp_path / "bad.txt"
    path.write_bytes(data)
    before = state()
    with pytest.raises(CommandError, match=message) as error:
        run(str(path), *extra)
    assert error.value.returncode == 2
    assert "\n" not in str(error.value)
    assert state() == before


def test_bootstrap_keeps_the_imported_text_and_the_trees_still_load(shipped, tmp_path):
    run(write(tmp_path, ARTICLE_63))
    Edition.objects.filter(code="2017").update(source_hash="")  # as if our words changed
    out = io.StringIO()
    call_command("bootstrap", stdout=out)
    assert "Bootstrap complete." in out.getvalue()
    assert provision("63A1").text == "Een zelfbedachte eerste zin over een volgende slag."
    assert LawImport.objects.filter(edition__code="2017").count() == 1
    assert "Tree problem" not in out.getvalue()
    bootstrap_laws(io.StringIO())
    assert provision("63B").heading == "Geen herstel meer"


def test_after_an_import_and_a_bootstrap_a_rulings_cards_show_the_official_text(
    shipped, tmp_path, club_a, director_a, client_director_a
):
    import uuid

    from django.urls import reverse

    from rulings import wizard

    run(write(tmp_path, ARTICLE_63))
    call_command("bootstrap", stdout=io.StringIO())
    ruling = wizard.begin(
        uuid=uuid.uuid4(),
        club=club_a,
        director=director_a,
        tree=wizard.start("verzaking"),
        node_key="verzaakt",
        choice_key="ja",
    ).ruling
    html = client_director_a.get(reverse("wizard:step", args=[ruling.uuid, 2])).content.decode()
    card = html[html.index('data-key="63A1"') :]
    card = card[: card.index("</article>")]
    assert "Officiële tekst" in card
    assert "Een zelfbedachte eerste zin over een volgende slag." in card
    assert "Samenvatting in eigen woorden" not in card
    # The first question cites 61A and 61B, which the file did not hold: our summaries.
    first = client_director_a.get(reverse("wizard:step", args=[ruling.uuid, 1])).content.decode()
    assert "Samenvatting in eigen woorden – geen officiële wettekst" in first
    assert "Officiële tekst" not in first
