"""Load the shipped data (law text, decision trees, training cases). Safe to run every time:
each loader skips what is already loaded and unchanged."""

from importlib import import_module

from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandParser

# Each loader is "module:function" taking the command's stdout; run in this order because
# trees cite law text and training cases use trees.
LOADERS: list[str] = [
    "laws.loading:bootstrap_laws",
    "trees.loading:bootstrap_trees",
    "training.files:bootstrap_cases",
]


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
        for loader in LOADERS:
            module, function = loader.split(":")
            getattr(import_module(module), function)(self.stdout)
        self.stdout.write(self.style.SUCCESS("Bootstrap complete."))
