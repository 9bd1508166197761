"""The one record page of a saved ruling, its print version and the appeal form: what they
show, the old URL leading there, no hashes or messages on paper, constant queries."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from archive.reviews import record_review, set_appeal
from rulings.models import AppealStatus, Ruling, Verdict
from tests.support.rulings import make_ruling


@pytest.fixture
def ruling(club_a, director_a) -> Ruling:
    made = make_ruling(club_a, director_a, ("ja", "nee"), table=5, board=17)
    Ruling.objects.filter(pk=made.pk).update(
        round=2, offender_seat="E", declarer_seat="S", contract_level=3, contract_strain="NT"
    )
    director_a.last_name = "de Vries"
    director_a.save()
    made.refresh_from_db()
    return made


def record(ruling: Ruling) -> str:
    return reverse("archive:detail", args=[ruling.uuid])


def section(page: str, marker: str) -> str:
    """The HTML of the element opening at ``marker`` up to the next section."""
    start = page.index(marker)
    return page[start : page.index("</section>", start)]


def test_the_old_wizard_url_leads_to_the_record_for_good(client_director_a, ruling):
    response = client_director_a.get(f"/arbitrage/{ruling.uuid}/")
    assert (response.status_code, response["Location"]) == (301, record(ruling))


def test_the_record_holds_the_whole_ruling(client_director_a, reviewer_a, ruling):
    record_review(ruling, reviewer_a, Verdict.CONFIRMED, "Juist beslist.")
    set_appeal(ruling, reviewer_a, AppealStatus.OPEN, "NZ gaan in beroep.")
    page = client_director_a.get(record(ruling)).content.decode()
    context = section(page, 'id="gegevens"')
    for text in (
        "BC De Troefkaart",  # the club
        "Dinsdagavond",
        "1 maart 2025",
        "2 · 5 · 17",  # round, table, board
        "Oost",  # offender
        "Zuid",  # declarer
        "3SA",
        "Anna de Vries",  # the director by full name
    ):
        assert text in context, text
    facts = section(page, 'id="feiten"')
    assert facts.count('class="ruling-step"') == 2
    decision = section(page, 'id="beslissing"')
    assert "Zeg aan tafel" in decision
    assert "Artikel 27" in section(page, 'id="wetsartikelen"')
    assert "Juist beslist." in section(page, 'id="beoordelingen"')
    assert "In beroep" in section(page, 'id="beroep"') or "in beroep" in section(
        page, 'id="beroep"'
    )
    # The sections come in the order a committee reads them.
    order = ["gegevens", "feiten", "beslissing", "wetsartikelen", "beoordelingen", "beroep"]
    positions = [page.index(f'id="{name}"') for name in order]
    assert positions == sorted(positions)


def test_one_date_format_on_the_whole_page(client_director_a, reviewer_a, ruling):
    record_review(ruling, reviewer_a, Verdict.CONFIRMED, "Goed.")
    page = client_director_a.get(record(ruling)).content.decode()
    # DATE_FORMAT and DATETIME_FORMAT ("1 maart 2025", "1 maart 2025 19:30"): no abbreviated
    # months, no numeric dates, no times with seconds.
    assert "1 maart 2025 19:3" in page
    assert not re.search(r"\b\d{1,2} (mrt|jan|feb|apr|jun|jul|aug|sep|okt|nov|dec)\b", page)
    assert not re.search(r"\b\d{2}-\d{2}-\d{4}\b", page)
    assert not re.search(r"\b\d{2}:\d{2}:\d{2}\b", page)


def test_the_audit_trail_is_behind_a_toggle_and_printed_without_hashes(client_director_a, ruling):
    page = client_director_a.get(record(ruling)).content.decode()
    trail = section(page, 'id="verslag"')
    toggle = trail[trail.index("<details") : trail.index("</details>")]
    printed = trail[trail.index("data-audit-print") :]
    hashes = list(ruling.audit_events.values_list("hash", flat=True))
    assert all(h in toggle for h in hashes)  # on screen, behind the toggle
    assert not any(h[:8] in printed for h in hashes)  # never on paper
    assert printed.count("data-audit-event=") == len(hashes)  # the whole trail, in words
    assert '<div class="audit-print d-none d-print-block" data-audit-print>' in trail
    assert '<details class="no-print" data-audit-toggle>' in trail
    # A committee reads the tree's title, not its slug or version hash (issue 30).
    context = section(page, 'id="gegevens"')
    assert "v1-proef" not in context
    assert "data-tree-link>Proefboom</a>" in context
    # Each event names its actor by full name, the user name only where none is known.
    assert "Anna" in toggle


def test_messages_and_hashes_are_left_out_of_print(client_director_a):
    css = client_director_a.get("/static/css/print.css")
    text = b"".join(css.streaming_content).decode() if css.streaming else css.content.decode()
    rule = next(
        line for line in text.splitlines() if "display: none" in line and ".messages" in line
    )
    assert "[data-hash]" in rule
    assert "@page { size: A4 portrait" in text


def test_the_appeal_form(client_director_a, ruling, django_assert_max_num_queries):
    url = reverse("archive:appeal_form", args=[ruling.uuid])
    with django_assert_max_num_queries(8):
        response = client_director_a.get(url)
    assert response.status_code == 200
    page = response.content.decode()
    assert '<h1 class="h3 mb-0">Beroepsformulier</h1>' in page
    assert "data-club>BC De Troefkaart<" in page
    for text in ("Dinsdagavond", "1 maart 2025", "2 · 5 · 17", "Anna de Vries"):
        assert text in page, text
    assert page.count("→ <strong>") == 2  # the facts
    assert ruling.outcome["title"]["nl"] in page  # the decision
    assert page.count('class="write-line"') == 8 + 4  # reasons, then four signatures
    for role in ("Appellant", "Aanvoerder of partner", "Wedstrijdleider", "Beroepscommissie"):
        assert f"{role} — naam en handtekening" in page
    assert f'href="{url}"' in client_director_a.get(record(ruling)).content.decode()


def test_the_appeal_form_of_another_club_is_404(client_director_b, ruling):
    url = reverse("archive:appeal_form", args=[ruling.uuid])
    assert client_director_b.get(url).status_code == 404


def test_the_record_page_has_constant_queries(
    client_director_a, reviewer_a, ruling, django_assert_max_num_queries
):
    for n in range(3):
        record_review(ruling, reviewer_a, Verdict.CONFIRMED, f"Review {n}")
    # Ten for the record and its reviews, one for the board's stored deal, one for the legal
    # basis.
    with django_assert_max_num_queries(12):
        assert client_director_a.get(record(ruling)).status_code == 200
