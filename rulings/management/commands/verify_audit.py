"""Check the hash chain of every ruling's audit log (or of one ruling)."""

import time

from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError, CommandParser

from rulings.audit import verify_all
from rulings.models import Ruling

PROGRESS_EVERY = 10_000


class Command(BaseCommand):
    help = "Verify the hash-chained audit log; exits 1 and names every break it finds."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--ruling", metavar="UUID", help="check only this ruling")

    def handle(self, *args, **options) -> None:
        selection = None
        if options["ruling"]:
            try:
                selection = [
                    Ruling.objects.values_list("pk", flat=True).get(uuid=options["ruling"])
                ]
            except (Ruling.DoesNotExist, ValidationError) as exc:
                raise CommandError(f"no ruling with uuid {options['ruling']!r}") from exc

        started = time.monotonic()
        rulings = events = 0
        broken: list[str] = []
        for check in verify_all(selection):
            rulings += 1
            events += check.events
            for problem in check.problems:
                line = f"ruling {check.uuid}: {problem}"
                broken.append(line)
                self.stderr.write(line)
            if rulings % PROGRESS_EVERY == 0:
                self.stdout.write(f"… {rulings} rulings, {events} events checked")
        seconds = time.monotonic() - started

        if broken:
            damaged = len({line.split(":", 1)[0] for line in broken})
            raise CommandError(
                f"Audit log BROKEN: {len(broken)} problem(s) in {damaged} of {rulings} rulings "
                f"({events} events checked in {seconds:.1f} s).",
                returncode=1,
            )
        self.stdout.write(
            self.style.SUCCESS(
                f"Audit log intact: {rulings} rulings, {events} events checked in {seconds:.1f} s."
            )
        )
