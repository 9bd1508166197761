"""Rulings for the archive, review, statistics and transfer tests, made by driving the wizard's
own functions on the small ``proef`` tree (tests/rulings/factories.py), so steps, snapshots and
audit chains are real.

Paths through ``proef``: ja/ja → vrij-vervangen, ja/nee → straf, nee/nee → afgewezen,
nee/ja/ja → vrij-vervangen.
"""

from __future__ import annotations

import uuid
from datetime import date, datetime, timedelta

import pytest
from django.utils import timezone

from clubs.models import Club, User
from rulings import wizard
from rulings.errors import WizardError
from rulings.models import Mode, Ruling
from tests.support.factories import make_tree
from trees.models import Tree
from trees.spec import Snapshot

START = datetime(2025, 3, 1, 19, 30, tzinfo=timezone.get_fixed_timezone(60))


def ensure_tree() -> None:
    if not Tree.objects.filter(slug="proef").exists():
        make_tree()


def ruling_along(
    club: Club, director: User, tree: Snapshot, steps: list[tuple[str, str]]
) -> Ruling:
    """A live ruling of ``tree`` answered along a path's ``steps`` ((node, choice) pairs, as
    trees.validate.paths gives them), not saved: at the outcome when the path ends in one."""
    (node_key, choice_key), *rest = steps
    ruling = wizard.begin(
        director=director,
        tree=tree,
        node_key=node_key,
        choice_key=choice_key,
        uuid=uuid.uuid4(),
        club=club,
    ).ruling
    for number, (node_key, choice_key) in enumerate(rest, start=2):
        ruling = wizard.answer(ruling, node_key, number, choice_key, director).ruling
    return ruling


def make_ruling(
    club: Club,
    director: User,
    answers: tuple[str, ...] = ("ja", "nee"),
    *,
    at: datetime | None = None,
    played_on: date | None = None,
    table: int | None = 3,
    board: int = 7,
    notes: str = "",
    event: str = "Dinsdagavond",
    change_first_to: str | None = None,
    then: tuple[str, ...] = (),
    mode: str = Mode.LIVE,
    final: bool = True,
    tree_slug: str = "proef",
) -> Ruling:
    """A ruling answered along ``answers``; with ``change_first_to`` the first answer is then
    changed (superseding the later steps) and ``then`` answered on the new path."""
    if tree_slug == "proef":
        ensure_tree()
    at = at or START
    tree = wizard.start(tree_slug)
    ruling = wizard.begin(
        uuid=uuid.uuid4(),
        club=club,
        director=director,
        tree=tree,
        node_key=tree.start,
        choice_key=answers[0],
        mode=mode,
        at=at,
    ).ruling
    clock = at
    for number, choice in enumerate(answers[1:], start=2):
        clock += timedelta(seconds=20)
        wizard.answer(ruling, ruling.current_node_key, number, choice, director, at=clock)
    if change_first_to:
        clock += timedelta(seconds=20)
        wizard.answer(ruling, tree.start, 1, change_first_to, director, at=clock)
        for number, choice in enumerate(then, start=2):
            clock += timedelta(seconds=20)
            wizard.answer(ruling, ruling.current_node_key, number, choice, director, at=clock)
    if final:
        clock += timedelta(seconds=30)
        context = {
            "played_on": played_on or at.date(),
            "event": event,
            "table": table,
            "board": board,
            "notes": notes,
        }
        wizard.save(ruling, director, context, at=clock)
    ruling.refresh_from_db()
    return ruling


def begin_proef(club: Club, director: User) -> Ruling:
    """An open ruling on the ``proef`` tree (tests' ``proef_tree``), its first answer given."""
    return wizard.begin(
        uuid=uuid.uuid4(),
        club=club,
        director=director,
        tree=wizard.start("proef"),
        node_key="onbedoeld",
        choice_key="nee",
    ).ruling


def actions_of(ruling: Ruling) -> list[str]:
    """The ruling's audit actions in order."""
    return list(ruling.audit_events.order_by("sequence").values_list("action", flat=True))


def refused(code: str) -> pytest.RaisesContext[WizardError]:
    """``pytest.raises`` for a WizardError with ``code``."""
    return pytest.raises(WizardError, match=f"^{code}")
