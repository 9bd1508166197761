"""``manage.py load_trees [--dir DIR]``: load the decision tree files into the database.

All files are parsed and validated first; on any problem every message (file and node) goes to
stderr, nothing is written and the exit status is 1. Unchanged trees are skipped.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from trees.loading import TREES_DIR, load_trees
from trees.spec import TreeError


class Command(BaseCommand):
    help = "Load the decision trees from their YAML files (all or nothing; unchanged are skipped)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--dir", default=str(TREES_DIR), help=f"directory with the tree files ({TREES_DIR})"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            report = load_trees(Path(options["dir"]), self.stdout)
        except TreeError as error:
            for problem in error.problems:
                self.stderr.write(problem)
            raise CommandError(
                f"{len(error.problems)} problem(s): no tree was loaded", returncode=1
            ) from None
        self.stdout.write(
            self.style.SUCCESS(
                f"{len(report.loaded)} tree(s) loaded, {len(report.unchanged)} unchanged"
            )
        )
