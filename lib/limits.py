"""The limits every way in shares: the forms, the models' validators and the transfer bundle
reader read them from here, so a value a form refuses is refused in a bundle too.

Texts: every edit of a ruling is copied into its audit trail, which never forgets, so a text
without a limit grows the database and the record page without end (four 2.4 MB notes once
added 18 MB). The limits are generous for what is typed at a table or in a review; a longer
text is refused with a message, never cut.

Dates and times: a date of play in the year 1 or 9999 is a typo or a crafted file, and the
year 9999 does not survive a conversion to local time (the CSV export, the record page). A
date follows the forms' rule (``lib.fields``: 1900 to 2099); a moment a ruling was made,
answered or reviewed lies between 1990 and a year from now (a laptop clock may be off).
"""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

from django.utils import timezone

from lib.fields import day_in_range

# What the director writes at the table (notes) and what the wizard records was said.
NOTES_MAX = 4000
SAID_MAX = 2000
# A ruling's auction as stored (lib.auction: the calls with their notes, each note at most
# lib.auction.NOTE_MAX): a long competitive auction with every call explained stays far below.
AUCTION_MAX = 6000
# A free ruling's decision, a review's comment and corrected ruling.
DECISION_MAX = 4000
# An appeal's note (opened or settled).
APPEAL_NOTE_MAX = 2000
# A training case's situation and explanation, per language.
TRAINING_TEXT_MAX = 20000
# Names typed in a form: an event or session, a training session's title.
NAME_MAX = 200
# A pair at the table as the director names it: its number or the two names.
PAIR_MAX = 100
# Any single text in a transfer bundle (law text quoted in a snapshot included): a file made
# by Leidraad never comes near it.
BUNDLE_TEXT_MAX = 100_000

# Round and table numbers (board and contract level have their own: 1–128, 1–7).
ROUND_TABLE_MAX = 999

EARLIEST_DATE = date(1990, 1, 1)
# How far past today a date may lie: a laptop clock that is off, an event entered ahead.
AHEAD = timedelta(days=366)


def latest_date() -> date:
    return timezone.localdate() + AHEAD


def date_in_range(value: date) -> bool:
    """Whether a date (of play, say) is one a form takes: the forms' rule,
    ``lib.fields.day_in_range`` (1900 to 2099)."""
    return day_in_range(value)


def time_in_range(value: datetime) -> bool:
    """Whether a moment lies between 1990 and a year from now (a time without a zone is
    read as UTC)."""
    if timezone.is_naive(value):
        value = value.replace(tzinfo=UTC)
    earliest = datetime(EARLIEST_DATE.year, 1, 1, tzinfo=UTC)
    try:
        return earliest <= value <= timezone.now() + AHEAD
    except OverflowError:  # the year 1 or 9999 with an offset has no UTC equivalent
        return False
