"""In Chromium: a reviewer filters the archive, opens a ruling, reviews it and exports CSV."""

from __future__ import annotations

import re
from datetime import timedelta
from pathlib import Path

import pytest
from playwright.sync_api import expect

from archive.models import Review
from rulings import audit
from rulings.models import Ruling
from tests.support.rulings import START, make_ruling

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_reviewer_filters_opens_reviews_and_exports(
    page, live_server, login, club_a, director_a, reviewer_a, screenshot
):
    target = make_ruling(
        club_a,
        director_a,
        ("ja", "nee"),
        change_first_to="nee",
        then=("nee",),
        board=4,
        table=2,
        notes="Oost liet een kaart zien",
    )
    for day in range(1, 4):
        make_ruling(
            club_a, director_a, ("ja", "ja"), at=START + timedelta(days=day), board=10 + day
        )
    swaps: list[str | None] = []
    page.on(
        "request",
        lambda r: "/arbitrages/?" in r.url and swaps.append(r.headers.get("hx-request")),
    )
    login(page, reviewer_a)

    page.goto(f"{live_server.url}/arbitrages/")
    results = page.locator("#results")
    expect(results.get_by_role("heading", level=2)).to_have_text("4 arbitrages")
    page.evaluate("window.stillTheSamePage = true")
    page.get_by_label("Spel").fill("4")
    page.get_by_label("Spel").press("Tab")  # a change event: htmx swaps the list
    expect(results.get_by_role("heading", level=2)).to_have_text("1 arbitrage")
    expect(page).to_have_url(re.compile(r"board=4"))
    assert page.evaluate("window.stillTheSamePage") is True
    assert swaps
    assert all(header == "true" for header in swaps)
    screenshot(page, "archive-filtered.png")

    results.get_by_role("link", name="Proefboom").click()
    expect(page).to_have_url(re.compile(rf"/arbitrages/{target.uuid}/"))
    expect(page.get_by_role("heading", level=1)).to_contain_text("Proefboom")
    expect(page.locator(".ruling-step.superseded")).to_have_count(2)
    expect(page.get_by_text("keten intact")).to_be_visible()

    # Corrections are asked for only when the verdict is not 'confirmed'.
    form = page.locator(".review-form")
    form.get_by_label("bevestigd").check()
    expect(page.get_by_label("Gecorrigeerde uitspraak", exact=True)).to_be_hidden()
    form.get_by_label("aangepast").check()
    form.get_by_label("Toelichting").fill("Het bod had vervangen mogen worden.")
    page.get_by_label("Gecorrigeerde uitspraak", exact=True).fill(
        "Vervangen zonder gevolgen (25A)."
    )
    # A key the edition lacks: the form comes back with its error (a 400) in place.
    page.get_by_label("Wetsartikelen van de gecorrigeerde uitspraak").fill("99Z")
    page.get_by_role("button", name="Controleren").click()
    expect(page.locator("#review-box")).to_contain_text("99Z bestaat niet in 1997")
    expect(page).to_have_url(re.compile(rf"/arbitrages/{target.uuid}/$"))
    page.get_by_label("Wetsartikelen van de gecorrigeerde uitspraak").fill("25a")
    page.get_by_role("button", name="Controleren").click()
    # The confirmation swaps in place: the key as it will be stored, with its title.
    confirmation = page.locator("#review-box [data-confirmed-laws]")
    expect(confirmation).to_contain_text("25A – Geoorloofde en ongeoorloofde veranderingen")
    expect(page).to_have_url(re.compile(rf"/arbitrages/{target.uuid}/$"))
    assert not Review.objects.exists()
    page.get_by_role("button", name="Bevestigen").click()
    expect(page.get_by_text("De beoordeling is opgeslagen.")).to_be_visible()
    expect(page.locator("#beoordelingen")).to_contain_text("Het bod had vervangen mogen worden.")
    screenshot(page, "ruling-reviewed.png")
    review = Review.objects.get()
    assert (review.verdict, review.corrected_citations) == ("amended", ["25A"])
    assert audit.verify(Ruling.objects.get(pk=target.pk)) == []

    # Back to the filtered archive with the back button (past the ruling page as it was before
    # the review): the filter pushed into the URL by htmx is still there. Then the CSV.
    page.go_back()
    expect(page).to_have_url(re.compile(rf"/arbitrages/{target.uuid}/$"))
    page.go_back()
    expect(page).to_have_url(re.compile(r"board=4"))
    expect(page.locator("#results").get_by_role("heading", level=2)).to_have_text("1 arbitrage")
    with page.expect_download() as info:
        page.locator("#results").get_by_role("link", name="CSV", exact=True).click()
    download = info.value
    assert re.fullmatch(
        r"arbitrages-troefkaart-\d{4}-\d{2}-\d{2}\.csv", download.suggested_filename
    )
    text = Path(download.path()).read_text(encoding="utf-8")
    lines = text.splitlines()
    assert lines[0].startswith("\ufeffuuid,")
    assert len(lines) == 2
    assert str(target.uuid) in lines[1]
    assert ",amended," in lines[1]

    # The statistics of the same selection: charts with their numbers.
    page.locator("#results").get_by_role("link", name="Statistiek van deze selectie").click()
    expect(page).to_have_url(re.compile(r"/arbitrages/statistiek/\?.*board=4"))
    expect(page.get_by_role("img", name="Per geciteerd wetsartikel")).to_be_visible()
    expect(page.locator("#stat-article + figure + table")).to_contain_text("Artikel 27")
    screenshot(page, "statistics.png")
