"""Load the shipped data (law text, decision trees, training cases). Safe to run every time:
each loader skips what is already loaded and unchanged. The loaders are registered by their
apps (:mod:`lib.shipped`)."""

from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandParser

from lib import shipped


class Command(BaseCommand):
    help = "Load the shipped laws, decision trees and training cases (idempotent)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--migrate",
            action="store_true",
            help="Apply the database migrations first (make run: one start of Python, not two).",
        )

    def handle(self, *args, **options) -> None:
        if options["migrate"]:
            call_command("migrate", interactive=False, stdout=self.stdout)
        for _name, loader in shipped.loaders():
            loader(self.stdout)
        self.stdout.write(self.style.SUCCESS("Bootstrap complete."))
