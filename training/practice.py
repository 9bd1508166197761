"""Practising (*oefenen*): starting a practice through the wizard, sessions and scores.

- :func:`begin_practice` starts a practice ruling through the wizard (``mode=training``);
- :func:`session_grid` and :func:`tree_scores` summarise results for trainers and trainees;
- join codes, the cases a user may see and the Markdown of a case's texts.
"""

from __future__ import annotations

import re
import secrets
import uuid as uuid_lib
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.db.models import Q, QuerySet
from django.utils.translation import gettext as _

from clubs.models import Club, Membership, User
from lib.i18n import active_language
from rulings import wizard
from rulings.models import Mode, Ruling
from training.files import tree_spec
from training.models import TrainingCase, TrainingResult, TrainingSession
from trees.spec import Snapshot

# --------------------------------------------------------------------------------------------
# Cases visible to a user


def cases_for(club_ids: Iterable[int]) -> QuerySet[TrainingCase]:
    """Shipped cases and the cases of the given clubs."""
    return TrainingCase.objects.filter(Q(club__isnull=True) | Q(club_id__in=list(club_ids)))


# --------------------------------------------------------------------------------------------
# Sessions

_CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I: read aloud in a club room
CODE_LENGTH = 6


def new_join_code() -> str:
    while True:
        code = "".join(secrets.choice(_CODE_ALPHABET) for _ in range(CODE_LENGTH))
        if not TrainingSession.objects.filter(code=code).exists():
            return code


def normalise_code(raw: str) -> str:
    return re.sub(r"[^A-Z0-9]", "", (raw or "").upper())


def find_open_session(code: str, user: User) -> TrainingSession | None:
    """The open session with ``code`` in one of the user's clubs, or opened to guests; None
    otherwise (a code of another club is treated as unknown)."""
    club_ids = Membership.objects.filter(user=user).values("club_id")
    return (
        TrainingSession.objects.filter(
            Q(club_id__in=club_ids) | Q(open_to_guests=True),
            code=normalise_code(code),
            closed_at__isnull=True,
        )
        .select_related("club")
        .first()
    )


@dataclass(frozen=True)
class Cell:
    """A trainee's work on one case of a session: the first graded attempt counts."""

    status: str  # "todo" | "busy" | "right" | "wrong"
    attempts: int = 0
    outcome_key: str = ""
    first_attempt: Any = None  # uuid of the graded attempt that counts


@dataclass(frozen=True)
class GridRow:
    user: User
    cells: list[Cell]

    @property
    def right(self) -> int:
        return sum(1 for cell in self.cells if cell.status == "right")

    @property
    def done(self) -> int:
        return sum(1 for cell in self.cells if cell.status in {"right", "wrong"})


def session_grid(
    session: TrainingSession, only_user: User | None = None
) -> tuple[list[TrainingCase], list[GridRow]]:
    """Who did which case of ``session`` and how (three queries, whatever the size); with
    ``only_user`` just that participant's row."""
    cases = list(session.cases.order_by("difficulty", "title_nl", "pk"))
    participants = session.participants.select_related("user")
    rulings = Ruling.objects.filter(training_session=session, mode=Mode.TRAINING)
    if only_user is not None:
        participants = participants.filter(user=only_user)
        rulings = rulings.filter(director=only_user)
    rulings = rulings.select_related("training_result").order_by("created_at", "pk")
    attempts: dict[tuple[int, int | None], list[Ruling]] = {}
    for ruling in rulings:
        attempts.setdefault((ruling.director_id, ruling.training_case_id), []).append(ruling)
    rows = []
    for participant in participants:
        cells = []
        for case in cases:
            tries = attempts.get((participant.user_id, case.pk), [])
            graded = [r for r in tries if hasattr(r, "training_result")]
            if graded:
                first = graded[0]
                status = "right" if first.training_result.correct else "wrong"
                cells.append(Cell(status, len(graded), first.outcome_key, first.uuid))
            elif tries:
                cells.append(Cell("busy", 0))
            else:
                cells.append(Cell("todo"))
        rows.append(GridRow(participant.user, cells))
    return cases, rows


# --------------------------------------------------------------------------------------------
# A trainee's history


@dataclass(frozen=True)
class TreeScore:
    tree_slug: str
    title: str
    attempts: int
    right: int

    @property
    def percentage(self) -> int:
        return round(100 * self.right / self.attempts) if self.attempts else 0


def tree_scores(user: User) -> list[TreeScore]:
    """Graded practice rulings of ``user`` per tree: attempts and how many were right."""
    totals: dict[str, list[int]] = {}
    titles: dict[str, str] = {}
    results = TrainingResult.objects.filter(
        ruling__director=user, ruling__mode=Mode.TRAINING
    ).values_list("ruling__tree_slug", "ruling__tree_title", "correct")
    for slug, title, correct in results:
        total = totals.setdefault(slug, [0, 0])
        total[0] += 1
        total[1] += int(correct)
        titles.setdefault(slug, title)
    language = active_language()
    for slug in titles:
        tree = tree_spec(slug)
        if tree is not None:
            titles[slug] = f"{tree.title.get(language)} ({tree.edition})"
    return [
        TreeScore(slug, titles[slug], attempts, right)
        for slug, (attempts, right) in sorted(totals.items())
    ]


class PracticeError(Exception):
    """A practice that cannot start; the message is for the trainee (translated)."""


def begin_practice(
    user: User,
    case: TrainingCase,
    session: TrainingSession | None,
    node_key: str,
    choice_key: str,
    *,
    tree: Snapshot | None = None,
    ruling_uuid: uuid_lib.UUID | None = None,
) -> wizard.Result:
    """Create a practice ruling with its first answer: the wizard's ``begin`` in training mode,
    linked to the case (and session). The ruling is filed under :func:`practice_club`."""
    club = practice_club(user, case, session)
    if club is None:
        raise PracticeError(_("U bent geen lid van een club; vraag de beheerder u toe te voegen."))
    if tree is None:
        try:
            tree = wizard.start(case.tree_slug)
        except wizard.WizardError as error:
            raise PracticeError(error.message) from error
    if tree.slug != case.tree_slug:
        raise PracticeError(_("Deze beslisboom hoort niet bij de casus."))
    return wizard.begin(
        uuid=ruling_uuid or uuid_lib.uuid4(),
        club=club,
        director=user,
        tree=tree,
        node_key=node_key,
        choice_key=choice_key,
        mode=Mode.TRAINING,
        training_case=case,
        training_session=session,
    )


def practice_club(user: User, case: TrainingCase, session: TrainingSession | None) -> Club | None:
    """The club a practice ruling is filed under: the session's, the case's, else the user's
    first club. A guest in a session of another club practises under his own club: his
    practice is his club's record, and the session's trainer sees it in the session only."""
    if session is not None:
        if Membership.objects.filter(user=user, club_id=session.club_id).exists():
            return session.club
    elif case.club_id is not None:
        return case.club
    membership = (
        Membership.objects.filter(user=user).select_related("club").order_by("club__name").first()
    )
    return membership.club if membership else None


def tree_title(slug: str, language: str = "nl") -> str:
    tree = tree_spec(slug)
    return f"{tree.title.get(language)} ({tree.edition})" if tree is not None else slug
