"""``manage.py import_pbn CLUB-SLUG EVENT FILE``: import an event's deals from a PBN file.

Prints a line per board and a one-line summary; all or nothing. A bad file, an unknown club
or a missing file is one readable line on stderr with exit status 2, and nothing is written.
``--analyse`` also computes each board's double-dummy table now instead of on first view.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from clubs.models import Club
from scores import deals as store
from scores.deal import Deal
from scores.models import StoredDeal
from scores.pbn import PbnError, read_pbn_bytes


class Command(BaseCommand):
    help = "Import the deals of an event from a PBN file (all or nothing)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("club", help="the club's slug, e.g. troefkaart")
        parser.add_argument("event", help="event name, as directors type it on a ruling")
        parser.add_argument("path", help="the .pbn file")
        parser.add_argument(
            "--analyse", action="store_true", help="compute the double-dummy tables now"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        club = Club.objects.filter(slug=options["club"]).first()
        if club is None:
            raise CommandError(f"no club with slug {options['club']!r}", returncode=2)
        event = store.event_name(options["event"])
        if not event:
            raise CommandError("the event name is empty", returncode=2)
        path = Path(options["path"])
        try:
            data = path.read_bytes()
        except OSError as error:
            raise CommandError(f"cannot read {path}: {error.strerror}", returncode=2) from None
        try:
            deals = read_pbn_bytes(data)
        except PbnError as error:
            raise CommandError(f"{path.name}: {error}", returncode=2) from None

        def progress(deal: Deal, replaced: bool) -> None:
            verb = "replaced" if replaced else "added"
            results = f", {len(deal.results)} results" if deal.results else ""
            self.stdout.write(f"board {deal.board}: {verb}{results}")

        summary = store.import_deals(club, event, deals, path.name, progress=progress)
        if options["analyse"]:
            for row in StoredDeal.objects.filter(club=club, event=summary.event):
                store.analysis_of(row)
                self.stdout.write(f"board {row.board}: double-dummy table computed")
        self.stdout.write(
            self.style.SUCCESS(
                f"{summary.total} deals imported for {summary.event!r} of {club.name} "
                f"({len(summary.added)} new, {len(summary.replaced)} replaced)"
            )
        )
