"""``manage.py check_trees [--json] [--files [--dir DIR]]``: validate the decision trees.

Checks every loaded tree (rebuilt from the database, citations against the current law text);
with ``--files`` the tree files are checked instead, without loading them. Exit status 1 when
any tree has a problem. ``--json`` prints
``[{"slug", "edition", "nodes", "questions", "outcomes", "paths", "problems": [str]}]``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from trees.loading import TREES_DIR, check_tree_files, check_tree_rows


class Command(BaseCommand):
    help = "Validate the loaded decision trees (or, with --files, the tree files)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--json", action="store_true", help="print the result as JSON")
        parser.add_argument(
            "--files", action="store_true", help="check the tree files instead of the database"
        )
        parser.add_argument(
            "--dir", default=str(TREES_DIR), help="with --files: directory with the tree files"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        files = options["files"]
        result = check_tree_files(Path(options["dir"])) if files else check_tree_rows()
        failing = [entry for entry in result if entry["problems"]]
        if options["json"]:
            self.stdout.write(json.dumps(result, ensure_ascii=False, indent=2))
        else:
            for entry in result:
                status = "FAIL" if entry["problems"] else "ok"
                self.stdout.write(
                    f"{status:4} {entry['slug']} ({entry['edition']}): {entry['nodes']} nodes, "
                    f"{entry['questions']} questions, {entry['outcomes']} outcomes, "
                    f"{entry['paths']} paths"
                )
                for problem in entry["problems"]:
                    self.stdout.write(f"     - {problem}")
            if not result:
                self.stdout.write("No trees loaded (run manage.py load_trees).")
        if failing:
            raise CommandError(
                f"{sum(len(e['problems']) for e in failing)} problem(s) in {len(failing)} tree(s)",
                returncode=1,
            )
