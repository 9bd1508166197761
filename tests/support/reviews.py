"""Reviewing a ruling through its two steps, as a reviewer does: check, then confirm."""

from __future__ import annotations

from archive.models import Review


def review_url(ruling) -> str:
    return f"/arbitrages/{ruling.uuid}/beoordelen/"


def confirm(client, ruling, data, **kwargs):
    """Both steps of a review: check (the confirmation page), then confirm what it shows."""
    shown = client.post(review_url(ruling), data)
    assert shown.status_code == 200
    assert not Review.objects.filter(ruling=ruling, comment=data["comment"]).exists()
    hidden = {
        "verdict": shown.context["form"].cleaned_data["verdict"],
        "comment": shown.context["form"].cleaned_data["comment"],
        "corrected_ruling": shown.context["form"].cleaned_data["corrected_ruling"],
        "corrected_citations": shown.context["citations_text"],
        "seen": shown.context["seen"],
    }
    return client.post(review_url(ruling), {**hidden, "confirmed": "1"}, **kwargs)
