from datetime import date
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from clubs.models import Club
from transfer.bundles import iter_bundle, rulings_for_export


class Command(BaseCommand):
    help = (
        "Write a club's final rulings (steps, reviews, audit events, tree snapshots) to a JSON "
        "bundle for import_rulings on the club's server."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument("--out", type=Path, required=True, help="the bundle file to write")
        parser.add_argument(
            "--since",
            type=date.fromisoformat,
            help="only rulings saved on or after this date (YYYY-MM-DD)",
        )
        parser.add_argument("--club", help="the club's short name (needed with several clubs)")
        parser.add_argument(
            "--include-training", action="store_true", help="also export training rulings"
        )

    def handle(self, *args, out: Path, since, club, include_training, **options) -> None:
        target = self._club(club)
        if out.exists():
            raise CommandError(f"{out} already exists; choose a new file name.", returncode=2)
        count = rulings_for_export(target, since=since, include_training=include_training).count()
        partial = out.with_name(out.name + ".partial")
        out.parent.mkdir(parents=True, exist_ok=True)
        with partial.open("w", encoding="utf-8") as handle:
            for piece in iter_bundle(
                target, since=since, include_training=include_training, progress=self._progress
            ):
                handle.write(piece)
        # Only a complete bundle gets the requested name.
        partial.replace(out)
        self.stdout.write(f"Exported {count} ruling(s) of {target.slug} to {out}.")

    def _club(self, slug: str | None) -> Club:
        if slug:
            club = Club.objects.filter(slug=slug).first()
            if club is None:
                raise CommandError(f"No club {slug!r}.", returncode=2)
            return club
        clubs = list(Club.objects.all()[:2])
        if len(clubs) != 1:
            names = ", ".join(Club.objects.values_list("slug", flat=True)) or "none"
            raise CommandError(f"Name the club with --club SLUG (clubs: {names}).", returncode=2)
        return clubs[0]

    def _progress(self, done: int, total: int) -> None:
        self.stderr.write(f"  {done}/{total} rulings written")
