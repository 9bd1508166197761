"""manage.py seed_demo: demo rulings made by driving the wizard."""

import io
from datetime import timedelta

import pytest
from django.core.management import CommandError, call_command
from django.utils import timezone

from clubs.models import Club
from rulings import audit
from rulings.models import AuditEvent, Ruling, Status, Step


@pytest.fixture
def shipped_trees(db):
    """The shipped data is in every test database (tests/conftest.py)."""


def seed(*args):
    out = io.StringIO()
    call_command("seed_demo", *args, stdout=out)
    return out.getvalue()


def test_it_makes_rulings_of_every_kind_through_the_wizard(shipped_trees, club_a, director_a):
    output = seed("--rulings", "100", "--seed", "7", "--club", club_a.name)
    rulings = Ruling.objects.filter(club=club_a)
    assert rulings.count() == 100
    assert rulings.filter(status=Status.DEFERRED).count() == 8
    assert rulings.filter(status=Status.FINAL).count() == 86
    assert rulings.filter(status=Status.IN_PROGRESS).count() == 6
    assert AuditEvent.objects.filter(action="answer_changed").count() == 15
    assert Step.objects.filter(superseded=True).exists()
    assert len(set(rulings.values_list("tree_slug", flat=True))) >= 4
    assert rulings.values("director").distinct().count() >= 4
    final = rulings.filter(status=Status.FINAL)
    assert not final.filter(outcome_key="").exists()
    assert not final.filter(board=None).exists()
    first, last = rulings.order_by("created_at")[0], rulings.order_by("-created_at")[0]
    assert last.created_at - first.created_at > timedelta(days=365)
    assert first.created_at > timezone.now() - timedelta(days=731)
    for ruling in rulings:
        assert ruling.audit_events.order_by("sequence").first().action == "started"
        assert ruling.steps.filter(superseded=False).count() == len(ruling.path)
    assert (
        "Created 100 demo rulings in BC De Troefkaart: 86 final, 8 deferred, 6 unfinished" in output
    )
    assert "rulings/s" in output
    assert "100/100 rulings" in output


def test_verify_audit_passes_on_demo_data_and_fails_after_tampering(shipped_trees):
    seed("--rulings", "40", "--seed", "3", "--club", "Demo BC")
    assert all(not check.problems for check in audit.verify_all())
    call_command("verify_audit", stdout=io.StringIO())
    victim = Ruling.objects.filter(club__name="Demo BC").first()
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {AuditEvent._meta.db_table} SET actor_name = 'iemand' WHERE ruling_id = %s",  # noqa: S608
            [victim.pk],
        )
    with pytest.raises(CommandError) as excinfo:
        call_command("verify_audit", stdout=io.StringIO(), stderr=io.StringIO())
    assert excinfo.value.returncode == 1


def test_the_same_seed_gives_the_same_paths(shipped_trees):
    seed("--rulings", "15", "--seed", "11", "--club", "Een")
    seed("--rulings", "15", "--seed", "11", "--club", "Twee")

    def paths(name):
        return [
            (r.tree_slug, r.path, r.status)
            for r in Ruling.objects.filter(club__name=name).order_by("created_at")
        ]

    assert paths("Een") == paths("Twee")


def test_it_creates_the_named_club_with_demo_directors(shipped_trees):
    seed("--rulings", "5", "--club", "BC Nieuw")
    club = Club.objects.get(name="BC Nieuw")
    assert club.slug == "bc-nieuw"
    assert club.rulings.count() == 5
    assert club.memberships.filter(role="director").count() == 4


def test_it_needs_loaded_trees(without_shipped_data):
    with pytest.raises(CommandError, match="No decision trees"):
        seed("--rulings", "3")
