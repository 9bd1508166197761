"""Create realistic demo rulings by driving the wizard (``rulings.wizard``), never raw inserts.

Random trees and random valid paths, some answers changed on the way, some rulings deferred or
left unfinished, spread over the last two years and over several directors. Used for demos,
training and benchmarks (``--rulings 200000``): every transition is planned by the wizard's own
planners, with all their checks, and ``rulings.batch.batch`` writes each batch of rulings with
a few bulk inserts.
"""

from __future__ import annotations

import random
import time
import uuid
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.contrib.auth.hashers import make_password
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils import timezone
from django.utils.text import slugify

from clubs.models import Club, Membership, Role, User
from lib.bridge import Seat
from rulings import wizard
from rulings.batch import Batch, batch
from rulings.models import Ruling, Strain
from trees.models import Tree
from trees.spec import Snapshot

BATCH = 250
DAYS = 730
DEFERRED_SHARE = 0.08
UNFINISHED_SHARE = 0.06
CHANGED_SHARE = 0.15
DEMO_DIRECTORS = [
    ("demo-marieke", "Marieke", "de Vries"),
    ("demo-henk", "Henk", "Jansen"),
    ("demo-ingrid", "Ingrid", "Bakker"),
    ("demo-joost", "Joost", "van Dijk"),
]
EVENTS = [
    "Maandagavond parencompetitie",
    "Dinsdagmiddag drive",
    "Donderdagavond viertallen",
    "Clubkampioenschap paren",
    "Zomerbridge",
    "Oefenavond beginners",
]
NOTES = [
    "",
    "",
    "",
    "Speler riep zelf de arbiter.",
    "Tegenpartij pas na de slag opmerkzaam.",
    "Na afloop uitgelegd aan beide paren.",
    "Score na het spel nagekeken.",
]


@dataclass
class Tally:
    final: int = 0
    deferred: int = 0
    unfinished: int = 0
    changed: int = 0
    steps: int = 0


class Command(BaseCommand):
    help = "Create demo rulings through the wizard (random trees, paths, changes, deferrals)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--rulings", type=int, required=True, help="how many rulings")
        parser.add_argument("--club", help="club name (created when it does not exist)")
        parser.add_argument("--seed", type=int, help="random seed, for repeatable data")

    def handle(self, *args, **options) -> None:
        count = options["rulings"]
        if count < 1:
            raise CommandError("--rulings must be at least 1")
        rng = random.Random(options["seed"])  # noqa: S311 - demo data, not secrets
        trees = [wizard.start(slug) for slug in Tree.objects.values_list("slug", flat=True)]
        if not trees:
            raise CommandError("No decision trees are loaded: run manage.py bootstrap first.")
        club = self._club(options["club"])
        directors = self._directors(club)

        # Exact shares, shuffled: small runs still get every kind of ruling.
        endings = ["deferred"] * round(count * DEFERRED_SHARE)
        endings += ["unfinished"] * round(count * UNFINISHED_SHARE)
        endings += ["final"] * (count - len(endings))
        rng.shuffle(endings)
        changes = set(rng.sample(range(count), round(count * CHANGED_SHARE)))

        now = timezone.now()
        tally = Tally()
        started = time.monotonic()
        report_every = max(100, min(10_000, count // 20))
        for first in range(0, count, BATCH):
            with batch() as pending:
                for index in range(first, min(first + BATCH, count)):
                    at = now - timedelta(seconds=rng.uniform(3600, DAYS * 86400))
                    self._ruling(
                        pending,
                        rng,
                        club,
                        rng.choice(directors),
                        rng.choice(trees),
                        at,
                        endings[index],
                        index in changes,
                        tally,
                    )
            done = min(first + BATCH, count)
            if done % report_every < BATCH or done == count:
                rate = done / max(time.monotonic() - started, 1e-9)
                self.stdout.write(f"  {done}/{count} rulings ({rate:.0f}/s)")

        seconds = time.monotonic() - started
        self.stdout.write(
            self.style.SUCCESS(
                f"Created {count} demo rulings in {club.name}: {tally.final} final, "
                f"{tally.deferred} deferred, {tally.unfinished} unfinished, {tally.changed} "
                f"with a changed answer, {tally.steps} answers — {seconds:.1f} s "
                f"({count / max(seconds, 1e-9):.0f} rulings/s)."
            )
        )

    def _club(self, name: str | None) -> Club:
        if name:
            club = Club.objects.filter(name=name).first() or Club.objects.filter(slug=name).first()
            if club is None:
                slug = slugify(name)[:60] or "demo"
                club = Club.objects.create(name=name, slug=slug)
            return club
        club = Club.objects.order_by("pk").first()
        return club or Club.objects.create(name="Democlub", slug="democlub")

    def _directors(self, club: Club) -> list[User]:
        """The club's directors, topped up with demo directors so there are several."""
        directors = list(
            User.objects.filter(
                memberships__club=club, memberships__role__in=[Role.DIRECTOR, Role.ADMIN]
            ).distinct()
        )
        unusable = make_password(None)
        for username, first, last in DEMO_DIRECTORS:
            if len(directors) >= len(DEMO_DIRECTORS):
                break
            user, _ = User.objects.get_or_create(
                username=f"{username}-{club.slug}"[:150],
                defaults={"first_name": first, "last_name": last, "password": unusable},
            )
            Membership.objects.get_or_create(user=user, club=club, role=Role.DIRECTOR)
            if user not in directors:
                directors.append(user)
        return directors

    def _ruling(
        self,
        pending: Batch,
        rng: random.Random,
        club: Club,
        director: User,
        tree: Snapshot,
        at: datetime,
        ending: str,
        change: bool,
        tally: Tally,
    ) -> Ruling:
        def later() -> datetime:
            nonlocal at
            at += timedelta(seconds=rng.uniform(4, 40))
            return at

        start = tree.node(tree.start)
        ruling = wizard.new_ruling(
            uuid=uuid.uuid4(),
            club=club,
            director=director,
            tree=tree,
            played_on=timezone.localtime(at).date(),
        )
        first = rng.choice(start.choices).key
        pending.run(ruling, director, at, wizard.plan_first_answer(tree, tree.start, first))
        answers = 1
        stop_at = rng.randint(1, 3) if ending == "unfinished" else None

        def walk() -> int:
            given = 0
            while not ruling.outcome_key and (stop_at is None or len(ruling.path) < stop_at):
                node_key = ruling.current_node_key
                choice = rng.choice(tree.node(node_key).choices).key
                number = len(ruling.path) + 1
                pending.run(ruling, director, later(), wizard.plan_answer(node_key, number, choice))
                given += 1
            return given

        answers += walk()
        if change:
            # The director notices a wrong answer (often only at the outcome) and changes it.
            answers += self._change(pending, rng, ruling, tree, director, later())
            answers += walk()
            tally.changed += 1
        tally.steps += answers

        if ending == "final" and ruling.outcome_key:
            context = self._context(rng, ruling)  # drawn before the time: repeatable seeds
            pending.run(ruling, director, later(), wizard.plan_save(context))
            tally.final += 1
        elif ending == "deferred":
            pending.run(ruling, director, later(), wizard.plan_defer())
            tally.deferred += 1
        else:
            tally.unfinished += 1
        return ruling

    def _change(
        self,
        pending: Batch,
        rng: random.Random,
        ruling: Ruling,
        tree: Snapshot,
        director: User,
        at: datetime,
    ) -> int:
        """Go back to a random earlier question and answer it differently."""
        number = rng.randint(1, len(ruling.path))
        node_key, old = ruling.path[number - 1]
        others = [c.key for c in tree.node(node_key).choices if c.key != old]
        pending.run(ruling, director, at, wizard.plan_answer(node_key, number, rng.choice(others)))
        return 1

    def _context(self, rng: random.Random, ruling: Ruling) -> dict:
        seats = Seat.values
        context = {
            "event": rng.choice(EVENTS),
            "round": rng.randint(1, 8),
            "table": rng.randint(1, 16),
            "board": rng.randint(1, 32),
            "offender_seat": rng.choice(seats),
            "declarer_seat": rng.choice(seats),
            "notes": rng.choice(NOTES),
        }
        if rng.random() < 0.7:
            context["contract_level"] = rng.randint(1, 7)
            context["contract_strain"] = rng.choice(Strain.values)
            context["contract_doubled"] = rng.choice(["", "", "", "", "X", "XX"])
        return context
