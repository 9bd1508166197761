"""Times already stored out of range (a bundle of before issue 35, an edited database) never
break a page: the CSV stream, the record page and its print, the wizard's view of the ruling,
the archive and the statistics show them (issue 35 item 6)."""

from __future__ import annotations

import csv
import io
from datetime import UTC, datetime

import pytest
from django.urls import reverse

from archive.models import Review
from rulings.models import AuditEvent, Ruling, Step, Verdict
from tests.support.rulings import make_ruling


@pytest.mark.parametrize(
    "when",
    [datetime(9999, 12, 31, 23, 59, tzinfo=UTC), datetime(1, 1, 1, 0, 0, tzinfo=UTC)],
    ids=["year-9999", "year-1"],
)
def test_pages_show_any_stored_time(client_admin_a, club_a, director_a, reviewer_a, when):
    ruling = make_ruling(club_a, director_a)
    Ruling.objects.filter(pk=ruling.pk).update(
        created_at=when, updated_at=when, finalised_at=when, played_on=when.date()
    )
    Step.objects.filter(ruling=ruling).update(answered_at=when)
    Review.objects.create(
        ruling=ruling, reviewer=reviewer_a, verdict=Verdict.CONFIRMED, comment="Ok", created_at=when
    )
    pages = [
        reverse("archive:detail", args=[ruling.uuid]),
        reverse("archive:detail", args=[ruling.uuid]) + "?print=1",
        reverse("wizard:ruling", args=[ruling.uuid]),
        reverse("archive:list"),
        reverse("archive:statistics"),
    ]
    for page in pages:
        response = client_admin_a.get(page, follow=True)
        assert response.status_code == 200, page

    response = client_admin_a.get(reverse("archive:csv"))
    rows = list(csv.reader(io.StringIO(b"".join(response.streaming_content).decode("utf-8-sig"))))
    assert len(rows) == 2  # the header and the ruling: the stream did not break off
    assert any(cell.startswith(f"{when.year:04d}-") for cell in rows[1])
    # Shown as stored (UTC), and the chain still verifies on the stored times.
    detail = client_admin_a.get(reverse("archive:detail", args=[ruling.uuid])).content.decode()
    assert str(when.year) in detail
    assert AuditEvent.objects.filter(ruling=ruling).exists()
