"""Changing a ruling's auction (issue 33): a planner written by the one writer
(``rulings.transitions.run``), so the change is an ``auction_edited`` audit event in the same
transaction, before and after the final save alike.

At the outcome the auction is typed with the other table details (``wizard.CONTEXT_FIELDS``,
a ``context_edited`` event); this planner is the record page's form, which also serves a final
ruling: the auction is often written down after the ruling was given and saved, and a
committee reads it later. A discarded ruling is not changed.
"""

from __future__ import annotations

from datetime import datetime

from rulings import audit, transitions
from rulings.errors import WizardError
from rulings.models import Ruling, Status
from rulings.transitions import Planned, Planner

__all__ = ["StaleAuction", "plan_auction"]


class StaleAuction(Exception):
    """The ruling's chain moved on since the form was shown: nothing was written."""


def plan_auction(stored: str, sequence: int | None) -> Planner:
    """Store ``stored`` (``lib.auction.Auction.stored()``, or "" to clear it). ``sequence``
    is the chain's length when the form was shown; a form from before a later change raises
    :class:`StaleAuction` (None: no such check, for scripts and tests)."""

    def plan(ruling: Ruling, at: datetime) -> Planned:
        if ruling.status == Status.DISCARDED:
            raise WizardError(WizardError.DISCARDED)
        if sequence is not None and ruling.audit_sequence != sequence:
            raise StaleAuction
        if ruling.auction == stored:
            return transitions.UNCHANGED
        old, ruling.auction = ruling.auction, stored
        data = {"from": old, "to": stored}
        return Planned(("auction",), [(audit.Action.AUCTION_EDITED, data)])

    return plan
