from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from transfer.backup import BackupError, backup


class Command(BaseCommand):
    help = "Write a consistent copy of the SQLite database while the app keeps running."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--out", required=True, type=Path, help="the backup file to write")

    def handle(self, *args, out: Path, **options) -> None:
        def progress(done: int, total: int) -> None:
            self.stdout.write(f"\r  {done}/{total} pages", ending="")

        try:
            size = backup(out, progress if options["verbosity"] > 1 else None)
        except BackupError as error:
            raise CommandError(str(error), returncode=2) from None
        self.stdout.write(f"Backup written to {out} ({size / 1024:.0f} KiB).")
