"""``{% auction_diagram ruling %}``: the ruling's auction as a bidding diagram with the notes
of its calls (``lib.auction_view``), on the outcome, the record and its print. Where the
ruling is about an explanation, the notes line up the explanation given against the agreement
and mark where they differ (issue 33.4)."""

from __future__ import annotations

from typing import Any

from django import template

from lib.auction_view import diagram
from lib.i18n import active_language

register = template.Library()

# The trees about an explanation (misinformation): there the notes are a comparison.
EXPLANATION_TREES = frozenset({"verkeerde-uitleg", "partner-bij-uitleg"})


def about_explanation(ruling: Any) -> bool:
    return ruling.tree_slug in EXPLANATION_TREES


@register.inclusion_tag("rulings/_auction.html")
def auction_diagram(ruling: Any, part: object = "all") -> dict[str, Any]:
    """``part``: "all" (the screen); on paper the record prints the parts apart so the page
    stays one A4 sheet: "diagram" (the table with its legend and notes, beside the details)
    and "compare" (a misinformation ruling's comparison, after the decision)."""
    # Anything with ``parsed_auction`` and ``tree_slug`` (a training case too); a part this
    # tag does not know (an older call's heading level) shows it all.
    part = part if part in ("diagram", "compare") else "all"
    auction = ruling.parsed_auction
    compare = about_explanation(ruling)
    return {
        "ruling": ruling,
        "diagram": diagram(auction, active_language()) if auction is not None else None,
        "compare": compare,
        "show_diagram": part in ("all", "diagram"),
        "show_legend": part in ("all", "diagram"),
        "show_notes": part == "all" or part == ("compare" if compare else "diagram"),
    }
