"""``{% adjusted_score_panel ruling as panel %}``: what the record and print pages show of a
ruling's adjusted score, so each page needs one include line and no view of its own; and the
filters that write a contract, a seat and a count of results in the reader's language."""

from __future__ import annotations

from typing import Any

from django import template

from clubs.access import roles_in
from lib.bridge import Seat
from rulings.models import Ruling
from scores import adjusted, board_result, deals, recording, result_views
from scores.adjusted_views import AMEND_ROLES, RECORD_ROLES
from scores.importing import event_name
from scores.models import Event, StoredDeal

register = template.Library()


@register.simple_tag(takes_context=True)
def adjusted_score_panel(
    context: template.Context, ruling: Ruling, deal: deals.DealView | None = None
) -> dict[str, Any] | None:
    """The stored score with both sides' results and what the user may do; None when the
    ruling neither has a score nor allows one."""
    allowed = recording.allows_adjustment(ruling)
    score = recording.of(ruling)
    if score is None and not allowed:
        return None
    request = context.get("request")
    roles = roles_in(request, ruling.club_id) if request is not None else set()
    # Pages without a deal in their context pass the template engine's empty value.
    shown = deal if isinstance(deal, deals.DealView) else None
    vulnerability = deals.vulnerability_of(ruling, shown)
    return {
        "score": score,
        "results": adjusted.evaluate(score.adjustment(), vulnerability) if score else None,
        "vulnerability": vulnerability,
        "can_record": allowed and score is None and bool(roles & set(RECORD_ROLES)),
        "can_amend": allowed and score is not None and bool(roles & set(AMEND_ROLES)),
    }


@register.filter
def contract(notation: str) -> str:
    """``4HX-1`` → ``4♥X-1``, ``3NT=`` → ``3SA=`` in Dutch (``3NT=`` in English)."""
    return deals.contract_text(notation or "")


@register.filter
def seat_letter(code: str) -> str:
    """A stored seat code as the reader writes it: ``S`` → ``Z`` in Dutch; "" stays ""."""
    return Seat(code).letter if code in Seat.values else code or ""


@register.filter
def result_count(stored_results: list[dict[str, Any]]) -> int:
    """The number of tables in a stored board's results (a row may stand for several)."""
    return sum(int(item.get("count", 1)) for item in stored_results)


@register.simple_tag(takes_context=True)
def board_result_panel(
    context: template.Context, ruling: Ruling, deal: deals.DealView | None = None
) -> dict[str, Any] | None:
    """The board's result as the record shows it: the contract, the tricks made and after the
    rectification with their scores, and the form when the user may record it. None when the
    ruling has neither a contract nor a result."""
    contract = result_views.contract_of(ruling)
    stored = result_views.current(ruling)
    if contract is None and stored is None:
        return None
    request = context.get("request")
    roles = roles_in(request, ruling.club_id) if request is not None else set()
    shown = deal if isinstance(deal, deals.DealView) else None
    vulnerability = deals.vulnerability_of(ruling, shown)
    lines = []
    if stored is not None and contract is not None:
        lines.append(("made", board_result.line(contract, stored.tricks_made, vulnerability)))
        if stored.rectified_tricks is not None:
            rectified = board_result.line(contract, stored.rectified_tricks, vulnerability)
            lines.append(("rectified", rectified))
    can_record = result_views.recordable(ruling) and bool(roles & set(result_views.RESULT_ROLES))
    return {
        "contract": contract,
        "stored": stored,
        "lines": lines,
        "vulnerability": vulnerability,
        "form": result_views.form_for(ruling) if can_record else None,
    }


@register.filter
def contract_strain(code: str) -> str:
    """A stored strain (``S``, ``NT``) as the reader writes it: ``♠``, ``SA``/``NT``."""
    return deals.denomination_text("N" if code == "NT" else code) if code else ""


@register.simple_tag
def club_event_names(club_id: int) -> list[str]:
    """The club's imported (or typed) events, newest first, for the board form's event field."""
    return list(
        Event.objects.filter(club_id=club_id)
        .exclude(name="")
        .order_by("-pk")
        .values_list("name", flat=True)[:30]
    )


@register.simple_tag
def deal_missing(ruling: Ruling, event_names: list[str]) -> bool:
    """Whether the ruling names a board but no stored deal matches its event and board while
    the club has imported events: the form then says so (a typo in the event name)."""
    if not ruling.board or not event_names:
        return False
    return deals.deal_for(ruling) is None


@register.simple_tag
def event_boards(ruling: Ruling) -> list[int]:
    """The board numbers with a stored deal in the ruling's event (same name in any case), for
    the board form; none while no event is named."""
    if not ruling.event:
        return []
    name = event_name(ruling.event)
    rows = StoredDeal.objects.filter(club_id=ruling.club_id, event__iexact=name)
    return sorted(set(rows.values_list("board", flat=True)))
