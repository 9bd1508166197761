"""Training rulings never mix with real ones: not in the archive, the statistics, the CSV
export or a transfer bundle (unless a bundle asks for them), while the live ruling next to
them is there."""

import json
import uuid
from datetime import date

import pytest

from rulings import wizard
from rulings.models import Mode, Ruling, Status
from training.grading import grade
from training.models import TrainingCase
from training.practice import begin_practice
from transfer import bundles as transfer

PATH = ["nee", "nee", "nee", "nee", "vergelijkbaar"]


@pytest.fixture
def two_rulings(db, director_a, club_a) -> tuple[Ruling, Ruling]:
    """A final live ruling and a graded (final) practice ruling of the same director."""
    tree = wizard.start("onvoldoende-bod")
    live = wizard.begin(
        uuid=uuid.uuid4(),
        club=club_a,
        director=director_a,
        tree=tree,
        node_key=tree.start,
        choice_key=PATH[0],
    ).ruling
    case = TrainingCase.objects.get(slug="ob-stayman-via-cuebid", club__isnull=True)
    practice = begin_practice(director_a, case, None, tree.start, PATH[0]).ruling
    for ruling in (live, practice):
        for number, choice in enumerate(PATH[1:], start=2):
            wizard.answer(ruling, ruling.current_node_key, number, choice, director_a)
    wizard.save(live, director_a, context={"played_on": date(2026, 11, 3), "board": 7})
    grade(practice)
    live.refresh_from_db()
    practice.refresh_from_db()
    assert live.status == practice.status == Status.FINAL
    assert (live.mode, practice.mode) == (Mode.LIVE, Mode.TRAINING)
    return live, practice


def test_the_archive_lists_only_the_live_ruling(two_rulings, client_reviewer_a):
    live, practice = two_rulings
    body = client_reviewer_a.get("/arbitrages/").content.decode()
    assert str(live.uuid) in body
    assert str(practice.uuid) not in body


def test_statistics_count_only_the_live_ruling(two_rulings, client_reviewer_a):
    response = client_reviewer_a.get("/arbitrages/statistiek/")
    assert response.status_code == 200
    assert response.context["total"] == 1


def test_the_csv_export_has_only_the_live_ruling(two_rulings, client_reviewer_a):
    live, practice = two_rulings
    response = client_reviewer_a.get("/arbitrages/export.csv")
    text = b"".join(response.streaming_content).decode()
    assert str(live.uuid) in text
    assert str(practice.uuid) not in text


def test_a_transfer_bundle_leaves_training_out(two_rulings, club_a):
    live, _practice = two_rulings
    bundle = json.loads("".join(transfer.iter_bundle(club_a)))
    assert [r["uuid"] for r in bundle["rulings"]] == [str(live.uuid)]


def test_the_bundle_download_leaves_training_out(two_rulings, client_admin_a):
    live, practice = two_rulings
    response = client_admin_a.get("/arbitrages/overdracht/bestand.json")
    assert response.status_code == 200
    text = b"".join(response.streaming_content).decode()
    assert str(live.uuid) in text
    assert str(practice.uuid) not in text


def test_a_bundle_can_ask_for_training(two_rulings, club_a):
    live, practice = two_rulings
    bundle = json.loads("".join(transfer.iter_bundle(club_a, include_training=True)))
    assert {r["uuid"] for r in bundle["rulings"]} == {str(live.uuid), str(practice.uuid)}
