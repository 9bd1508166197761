"""``manage.py import_pbn CLUB-SLUG EVENT FILE``: import an event's deals and results from a
PBN file, all or nothing.

Prints a line per board, the warnings and a one-line summary; ``--json`` prints instead one
JSON object (``event``, ``scoring``, ``boards``, ``results``, ``added``, ``replaced``,
``removed``, ``warnings``). Importing an event again replaces it; boards it has that the file
lacks are removed only with ``--remove-missing`` (without it the command names them and
imports nothing). A bad file, an unknown club or a missing file is one readable line on stderr
with exit status 2, and nothing is written. ``--analyse`` also computes each board's
double-dummy table now instead of on first view.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from clubs.models import Club
from scores import deals as store
from scores import importing
from scores.models import StoredDeal
from scores.pbn import Board, PbnError, read_pbn_bytes


class Command(BaseCommand):
    help = "Import the deals and results of an event from a PBN file (all or nothing)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("club", help="the club's slug, e.g. troefkaart")
        parser.add_argument("event", help="event name, as directors type it on a ruling")
        parser.add_argument("path", help="the .pbn file")
        parser.add_argument(
            "--json", action="store_true", help="print one JSON object instead of lines"
        )
        parser.add_argument(
            "--remove-missing",
            action="store_true",
            help="remove the event's boards that the file lacks (a re-import)",
        )
        parser.add_argument(
            "--analyse", action="store_true", help="compute the double-dummy tables now"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        club = Club.objects.filter(slug=options["club"]).first()
        if club is None:
            raise CommandError(f"no club with slug {options['club']!r}", returncode=2)
        event = importing.event_name(options["event"])
        if not event:
            raise CommandError("the event name is empty", returncode=2)
        path = Path(options["path"])
        try:
            data = path.read_bytes()
        except OSError as error:
            raise CommandError(f"cannot read {path}: {error.strerror}", returncode=2) from None
        try:
            pbn = read_pbn_bytes(data)
        except PbnError as error:
            raise CommandError(f"{path.name}: {error}", returncode=2) from None
        remove = importing.missing_boards(club, event, pbn) if options["remove_missing"] else []
        quiet = options["json"]

        def progress(board: Board, replaced: bool) -> None:
            if not quiet:
                verb = "replaced" if replaced else "added"
                count = sum(result.count for result in board.results)
                results = f", {count} results" if count else ""
                label = importing.board_label(board.key)
                self.stdout.write(f"board {label}: {verb}{results}")

        try:
            summary = importing.import_file(
                club, event, pbn, path.name, remove=remove, progress=progress
            )
        except importing.UnconfirmedRemoval as missing:
            raise CommandError(
                f"boards {missing} of {event!r} are not in {path.name}; "
                "add --remove-missing to remove them",
                returncode=2,
            ) from None
        if options["analyse"]:
            self._analyse(club, summary.event, quiet)
        if quiet:
            self.stdout.write(json.dumps(summary.as_json(), ensure_ascii=False))
            return
        for warning in summary.warnings:
            self.stdout.write(self.style.WARNING(warning))
        self.stdout.write(
            self.style.SUCCESS(
                f"{summary.boards} deals and {summary.results} results imported for "
                f"{summary.event!r} of {club.name} ({len(summary.added)} new, "
                f"{len(summary.replaced)} replaced, {len(summary.removed)} removed; "
                f"scoring {summary.scoring})"
            )
        )

    def _analyse(self, club: Club, event: str, quiet: bool) -> None:
        for row in StoredDeal.objects.filter(club=club, event=event):
            store.analysis_of(row)
            if not quiet:
                self.stdout.write(f"board {row.board}: double-dummy table computed")
