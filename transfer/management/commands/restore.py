from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from transfer.backup import BackupError, restore


class Command(BaseCommand):
    help = "Replace the SQLite database's content with a backup made by `backup`."

    def add_arguments(self, parser) -> None:
        parser.add_argument("source", type=Path, help="the backup file")
        parser.add_argument("--yes", action="store_true", help="do not ask for confirmation")

    def handle(self, *args, source: Path, yes: bool, **options) -> None:
        if not yes:
            answer = input(f"Replace ALL data with the backup {source}? Type 'yes': ")
            if answer.strip().lower() != "yes":
                raise CommandError("Restore cancelled; nothing changed.", returncode=2)
        try:
            rulings = restore(source)
        except BackupError as error:
            raise CommandError(str(error), returncode=2) from None
        self.stdout.write(f"Restored {source}: {rulings} rulings.")
