"""Board details that contradict the answers: flagged, never refused.

Some answers say who the offender is: a defender, or declarer's side (declarer or dummy).
The board details name the offender's seat and declarer's seat. When both are known and they
disagree with the answers (the answers say a defender led out of turn, the details put the
offender in declarer's seat), the outcome page and the check-your-answers summary warn the
director: one of the two is a slip, and the ruling may rest on the wrong one. A warning only:
the director knows the table, and either may be right.

Other details are not checked: a contract filled in while the answers say "during the
auction" is fine (the auction ended later, and the record wants the final contract).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from django.utils.translation import gettext as _

from lib.bridge import Seat

__all__ = ["DECLARER_SIDE", "DEFENDER", "OFFENDER_ROLES", "Contradiction", "contradictions"]

DEFENDER = "defender"
DECLARER_SIDE = "declarer_side"  # declarer, or dummy (declarer's partner)

# (tree slug, question, answer) -> who the offender is by that answer. Only answers that say
# it plainly; an answer that mixes both (verzaking "open": declarer's, dummy's or a defender's
# faced card) is left out. tests/rulings/test_consistency.py checks every entry against the
# tree files, so a renamed question or answer fails there instead of silently never matching.
OFFENDER_ROLES: dict[tuple[str, str, str], str] = {
    ("strafkaart", "wie", "tegenspeler"): DEFENDER,
    ("strafkaart", "wie", "leider-blinde"): DECLARER_SIDE,
    ("strafkaart", "bieding-afloop", "tegenspeler"): DEFENDER,
    ("strafkaart", "bieding-afloop", "leider-blinde"): DECLARER_SIDE,
    ("strafkaart-1963", "wie", "tegenspeler"): DEFENDER,
    ("strafkaart-1963", "wie", "leider-blinde"): DECLARER_SIDE,
    ("teruggenomen-kaart", "gespeeld", "nee-tegenspeler"): DEFENDER,
    ("teruggenomen-kaart", "gespeeld", "nee-leider"): DECLARER_SIDE,
    ("teruggenomen-kaart", "wie-onreglementair", "tegenspeler"): DEFENDER,
    ("teruggenomen-kaart", "wie-onreglementair", "leider"): DECLARER_SIDE,
    ("verzaking", "wiens-kaart", "tegenspeler"): DEFENDER,
    ("verzaking-2007", "wiens-kaart", "tegenspeler"): DEFENDER,
    ("voor-de-beurt-uitkomen", "wie-speelde-voor", "uitkomst-tegenspeler"): DEFENDER,
    ("voor-de-beurt-uitkomen", "wie-speelde-voor", "later-tegenspeler"): DEFENDER,
    ("voor-de-beurt-uitkomen", "wie-speelde-voor", "uitkomst-leidende-partij"): DECLARER_SIDE,
    ("voor-de-beurt-uitkomen", "wie-speelde-voor", "later-leider"): DECLARER_SIDE,
    ("voortijdig-spelen", "situatie", "voor-partner"): DEFENDER,
    ("voortijdig-spelen", "situatie", "voor-rechts"): DEFENDER,
    ("voortijdig-spelen", "situatie", "na-terugname"): DEFENDER,
    ("voortijdig-spelen", "situatie", "leider"): DECLARER_SIDE,
    ("voortijdig-spelen", "twee-wie", "tegenspeler"): DEFENDER,
    ("voortijdig-spelen", "twee-wie", "leider-blinde"): DECLARER_SIDE,
}


@dataclass(frozen=True)
class Contradiction:
    """One disagreement: the answer that says who offended, and what the details say."""

    node_key: str
    choice_key: str
    role: str
    message: str


def _seat(code: str) -> str:
    return str(Seat(code).label)


def offender_role(tree_slug: str, path: Iterable[Sequence[str]]) -> tuple[str, str, str] | None:
    """(question, answer, role) of the last answer on ``path`` that says who the offender
    is; None when no answer does."""
    found = None
    for node_key, choice_key in path:
        role = OFFENDER_ROLES.get((tree_slug, node_key, choice_key))
        if role is not None:
            found = (node_key, choice_key, role)
    return found


def contradictions(
    tree_slug: str,
    path: Iterable[Sequence[str]],
    offender_seat: str,
    declarer_seat: str,
) -> list[Contradiction]:
    """What the board details contradict in the answers (empty when they agree or when a
    seat is not filled in)."""
    said = offender_role(tree_slug, path)
    if said is None or offender_seat not in Seat.values or declarer_seat not in Seat.values:
        return []
    node_key, choice_key, role = said
    partner = Seat(declarer_seat).partner
    offender, declarer = _seat(offender_seat), _seat(declarer_seat)
    if role == DEFENDER and offender_seat == declarer_seat:
        message = _(
            "De antwoorden zeggen dat de overtreder een tegenspeler is, maar de overtreder "
            "(%(offender)s) zit op de plaats van de leider."
        ) % {"offender": offender}
    elif role == DEFENDER and offender_seat == partner:
        message = _(
            "De antwoorden zeggen dat de overtreder een tegenspeler is, maar de overtreder "
            "(%(offender)s) is de blinde: de partner van de leider (%(declarer)s)."
        ) % {"offender": offender, "declarer": declarer}
    elif role == DECLARER_SIDE and offender_seat not in (declarer_seat, partner):
        message = _(
            "De antwoorden zeggen dat de overtreder de leider of de blinde is, maar de "
            "overtreder (%(offender)s) is een tegenspeler van de leider (%(declarer)s)."
        ) % {"offender": offender, "declarer": declarer}
    else:
        return []
    return [Contradiction(node_key, choice_key, role, message)]
