"""Board details that contradict the answers: flagged, never refused.

Some answers say who the offender is: a defender, or declarer's side (declarer or dummy).
The tree file says it of such an answer (``offender: defender`` or ``offender: declarer_side``,
docs/TREE_FORMAT.md; ``ChoiceSpec.offender``), and the ruling's frozen tree carries it. The
board details name the offender's seat and declarer's seat. When both are known and they
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
from trees.spec import OFFENDER_ROLES, TreeSpec

__all__ = ["DECLARER_SIDE", "DEFENDER", "Contradiction", "contradictions", "offender_role"]

DEFENDER, DECLARER_SIDE = OFFENDER_ROLES  # declarer's side: declarer, or dummy


@dataclass(frozen=True)
class Contradiction:
    """One disagreement: the answer that says who offended, and what the details say."""

    node_key: str
    choice_key: str
    role: str
    message: str


def _seat(code: str) -> str:
    return str(Seat(code).label)


def offender_role(tree: TreeSpec, path: Iterable[Sequence[str]]) -> tuple[str, str, str] | None:
    """(question, answer, role) of the last answer on ``path`` that says who the offender
    is in ``tree``; None when no answer does."""
    found = None
    for node_key, choice_key in path:
        choice = tree.node(node_key).choice(choice_key) if tree.has_node(node_key) else None
        if choice is not None and choice.offender:
            found = (node_key, choice_key, choice.offender)
    return found


def contradictions(
    tree: TreeSpec,
    path: Iterable[Sequence[str]],
    offender_seat: str,
    declarer_seat: str,
) -> list[Contradiction]:
    """What the board details contradict in the answers (empty when they agree or when a
    seat is not filled in)."""
    said = offender_role(tree, path)
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
