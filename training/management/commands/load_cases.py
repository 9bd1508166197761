"""Load (or only check) the shipped training cases in training/files/."""

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from training.files import CASES_DIR, CaseError, LoadedLaw, load_cases, read_shipped_cases


class Command(BaseCommand):
    help = "Load the training cases of training/files/ (idempotent); --check only validates."

    def add_arguments(self, parser) -> None:
        parser.add_argument(
            "--check", action="store_true", help="validate the files against the trees only"
        )
        parser.add_argument("--dir", type=Path, default=CASES_DIR, help="the case files")

    def handle(self, *args, check: bool = False, dir: Path = CASES_DIR, **options) -> None:
        try:
            if check:
                cases = read_shipped_cases(dir, LoadedLaw())
                self.stdout.write(self.style.SUCCESS(f"{len(cases)} training cases are valid."))
                return
            summary = load_cases(dir)
        except CaseError as error:
            for problem in error.problems:
                self.stderr.write(problem)
            raise CommandError(f"{len(error.problems)} problem(s) in the training cases") from None
        self.stdout.write(self.style.SUCCESS(str(summary)))
