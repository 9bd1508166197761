from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from clubs.models import Club, User
from transfer.bundles import CLI_MAX_BYTES, WEB_MAX_BYTES
from transfer.importing import BundleError, import_bundle, read_bundle, target_club
from transfer.provenance import Source


class Command(BaseCommand):
    help = (
        "Import a bundle written by export_rulings: new rulings are added, known ones skipped, "
        "conflicts reported and left unchanged. A bundle with a broken audit chain is refused "
        "(exit status 2); conflicts give exit status 1."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument("file", type=Path, help="the bundle file")
        parser.add_argument("--club", help="import into this club (default: the bundle's club)")
        parser.add_argument(
            "--max-size",
            type=int,
            default=CLI_MAX_BYTES // (1024 * 1024),
            help="refuse a file larger than this many MiB (default %(default)s; the web page "
            f"takes {WEB_MAX_BYTES // (1024 * 1024)})",
        )
        parser.add_argument(
            "--user",
            help="import as this member of the club: recorded in each ruling's trail, and a "
            "director imports only his own rulings (default: the operator, recorded as "
            "'system', who may import every member's)",
        )

    def handle(self, *args, file: Path, club, user, max_size: int, **options) -> None:
        try:
            size = file.stat().st_size
            if size > max_size * 1024 * 1024:
                raise CommandError(
                    f"{file} is {size / 1024 / 1024:.0f} MiB, more than --max-size "
                    f"{max_size} MiB; nothing was imported.",
                    returncode=2,
                )
            raw = file.read_bytes()
        except OSError as error:
            raise CommandError(f"Cannot read {file}: {error.strerror}.", returncode=2) from None
        try:
            self.stderr.write(f"Checking {file} …")
            bundle = read_bundle(raw)
            target = target_club(bundle, club)
            self.stderr.write(
                f"{len(bundle.rulings)} ruling(s) from {bundle.club_slug or '?'} "
                f"(exported {bundle.exported_at or '?'}), every audit chain intact; "
                f"importing into {target.slug} …"
            )
            source = Source.of(self._user(user, target), file.name, raw, target)
            result = import_bundle(bundle, target, source, progress=self._progress)
        except BundleError as error:
            raise CommandError(str(error), returncode=2) from None
        for conflict in result.conflicts:
            self.stderr.write(f"  conflict: {conflict}")
        self.stdout.write(result.summary())
        if result.conflicts:
            raise CommandError(
                f"{len(result.conflicts)} conflict(s): those stored rulings were left unchanged.",
                returncode=1,
            )

    def _user(self, name: str | None, club: Club) -> User | None:
        if name is None:
            return None
        user = User.objects.filter(username=name, memberships__club=club).first()
        if user is None:
            raise CommandError(f"{name!r} is not a member of {club.slug}.", returncode=2)
        return user

    def _progress(self, done: int, total: int) -> None:
        self.stderr.write(f"  {done}/{total} rulings done")
