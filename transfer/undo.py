"""Taking a wrongly imported bundle back (issue 35 item 6): the club administrator's undo of
one import, audited, never a delete.

Every ruling the import created that is still final is discarded (``Status.DISCARDED``: out of
the archive's default view, the statistics and later exports, its trail kept) with an
``import_undone`` event naming the administrator, the import and the file; the import's row
records when and by whom. A ruling is written through ``rulings.transitions.run``, the one
writer, so a review or an appeal recorded meanwhile is never overwritten; the undo itself is a
compare-and-swap on the import row (undone once, whatever the number of clicks).
"""

from __future__ import annotations

from datetime import datetime

from django.db import transaction
from django.utils import timezone

from clubs.models import User
from rulings.audit import Action
from rulings.models import Ruling, Status
from rulings.transitions import UNCHANGED, Planned, Planner, run
from transfer.models import ImportRecord


class AlreadyUndone(Exception):
    """The import was taken back before (another tab, a double click)."""


def plan_undo(entry: ImportRecord) -> Planner:
    def plan(ruling: Ruling, at: datetime) -> Planned:
        if ruling.status == Status.DISCARDED:
            return UNCHANGED
        ruling.status = Status.DISCARDED
        data = {"import": str(entry.uuid), "file": entry.file_name, "sha256": entry.sha256}
        # touches=False: updated_at stays the ruling's last change, as bundles carry it.
        return Planned(("status",), [(Action.IMPORT_UNDONE, data)], touches=False)

    return plan


def undo(entry: ImportRecord, user: User) -> int:
    """Discard the import's rulings; how many were discarded. :class:`AlreadyUndone` when
    it was taken back already."""
    now = timezone.now()
    with transaction.atomic():
        taken = ImportRecord.objects.filter(pk=entry.pk, undone_at__isnull=True).update(
            undone_at=now, undone_by=user
        )
        if not taken:
            raise AlreadyUndone
        discarded = 0
        for ruling in entry.rulings.order_by("pk"):
            discarded += run(ruling, user, now, plan_undo(entry)).recorded
    entry.refresh_from_db()
    return discarded
