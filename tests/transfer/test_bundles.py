"""Laptop to club server: export_rulings / import_rulings and the admin's web page."""

from __future__ import annotations

import hashlib
import json
from datetime import timedelta
from io import StringIO
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import CommandError, call_command
from django.db import connection

from archive.models import Review
from archive.reviews import record_review
from clubs.models import User
from rulings import audit
from rulings.models import AppealStatus, AuditEvent, Mode, Ruling, Step, Verdict
from tests.support.rulings import START, make_ruling
from tests.support.scores import SUMMARY
from tests.support.transfer import import_text, without_import
from transfer import bundles as transfer
from transfer.models import ImportRecord
from trees import snapshot
from trees.models import TreeSnapshot


def export(path: Path, *extra: str) -> str:
    out = StringIO()
    call_command("export_rulings", "--out", str(path), *extra, stdout=out, stderr=StringIO())
    return out.getvalue()


def run_import(path: Path, *extra: str) -> str:
    out = StringIO()
    call_command("import_rulings", str(path), *extra, stdout=out, stderr=StringIO())
    return out.getvalue()


def refused(path: Path, *extra: str) -> CommandError:
    with pytest.raises(CommandError) as caught:
        run_import(path, *extra)
    return caught.value


def wipe() -> None:
    """Empty the club server, as if the bundle arrived in another database. Audit events are
    append-only through the ORM, so they go with SQL."""
    with connection.cursor() as cursor:
        cursor.execute(f"DELETE FROM {AuditEvent._meta.db_table}")  # noqa: S608
    Review.objects.all().delete()
    Step.objects.all().delete()
    Ruling.objects.all().delete()
    TreeSnapshot.objects.all().delete()


def state() -> dict[str, dict]:
    """Everything stored about every ruling, as the bundle would carry it, by uuid."""
    rulings = transfer.with_children(Ruling.objects.all())
    return {str(r.uuid): transfer.serialise_ruling(r) for r in rulings}


def test_round_trip_arrives_intact_and_chains_verify(tmp_path, made):
    before = state()
    bundle = tmp_path / "laptop.json"
    assert "Exported 3 ruling(s) of troefkaart" in export(bundle)
    wipe()
    assert Ruling.objects.count() == 0

    summary = run_import(bundle)

    assert "3 new, 0 already present, 0 conflict(s)" in summary
    # Everything as sent, and the import on the record at the end of every chain.
    assert {uuid: without_import(ruling) for uuid, ruling in state().items()} == before
    for ruling in Ruling.objects.all():
        assert audit.verify(ruling) == []
        last = ruling.audit_events.order_by("-sequence").first()
        assert (last.action, last.actor, last.actor_name) == ("imported", None, "system")
        assert last.data["file"] == "laptop.json"
        assert last.data["sha256"] == hashlib.sha256(bundle.read_bytes()).hexdigest()
    second = Ruling.objects.get(uuid=made[1].uuid)
    assert second.steps.filter(superseded=True).count() == 2
    assert second.review_verdict == Verdict.AMENDED
    assert second.appeal_status == AppealStatus.OPEN
    assert second.cited_articles == "|27|"
    assert list(second.legal_basis.values_list("key", flat=True)) == ["27"]
    assert second.snapshot.data["slug"] == "proef"
    first = Ruling.objects.get(uuid=made[0].uuid)
    assert first.adjusted_score.summary() == SUMMARY
    assert [e.action for e in first.audit_events.order_by("-sequence")[:2]] == [
        "imported",
        "score_adjusted",
    ]


def test_reimport_changes_nothing(tmp_path, made):
    bundle = tmp_path / "laptop.json"
    export(bundle)
    before = state()
    events = AuditEvent.objects.count()

    summary = run_import(bundle)

    assert "0 new, 3 already present, 0 conflict(s)" in summary
    assert state() == before
    assert AuditEvent.objects.count() == events


def test_a_ruling_reviewed_on_the_server_since_is_not_a_conflict(tmp_path, made, reviewer_a):
    bundle = tmp_path / "laptop.json"
    export(bundle)
    record_review(made[0], reviewer_a, Verdict.CONFIRMED, "Juist.")

    summary = run_import(bundle)

    assert "0 new, 3 already present, 0 conflict(s)" in summary
    assert Ruling.objects.get(pk=made[0].pk).review_verdict == Verdict.CONFIRMED


def test_conflict_is_reported_and_the_stored_ruling_kept(tmp_path, made):
    bundle = tmp_path / "laptop.json"
    export(bundle)
    Ruling.objects.filter(pk=made[0].pk).update(notes="Op de server gewijzigd")
    before = state()

    with pytest.raises(CommandError) as caught:
        run_import(bundle)

    assert caught.value.returncode == 1
    assert "1 conflict" in str(caught.value)
    assert state() == before
    assert Ruling.objects.get(pk=made[0].pk).notes == "Op de server gewijzigd"


def test_conflicts_name_the_ruling_and_the_reason(tmp_path, made, club_a):
    bundle = tmp_path / "laptop.json"
    export(bundle)
    Ruling.objects.filter(pk=made[2].pk).update(board=12)
    result = import_text(bundle.read_bytes(), club_a)
    assert result.created == 0
    assert result.unchanged == 2
    assert result.conflicts == [f"{made[2].uuid}: fields differ: board; the stored ruling was kept"]


def test_a_bundle_with_newer_events_is_a_conflict(tmp_path, made, reviewer_a, club_a):
    bundle = tmp_path / "laptop.json"
    export(bundle)
    data = json.loads(bundle.read_text())
    record_review(made[0], reviewer_a, Verdict.CONFIRMED, "Juist.")
    newer = tmp_path / "newer.json"
    export(newer)
    with connection.cursor() as cursor:  # the server only has the older state
        cursor.execute(
            f"DELETE FROM {AuditEvent._meta.db_table} WHERE ruling_id = %s AND sequence > %s",  # noqa: S608
            [made[0].pk, len(data["rulings"][0]["audit"])],
        )
    Review.objects.filter(ruling=made[0]).delete()

    result = import_text(newer.read_bytes(), club_a)

    assert result.conflicts == [
        f"{made[0].uuid}: the bundle has newer audit events than the server; "
        "the stored ruling was kept"
    ]


def test_unknown_reviewers_become_inactive_placeholders(tmp_path, made):
    bundle = tmp_path / "laptop.json"
    export(bundle)
    wipe()
    User.objects.filter(username="rik").delete()

    summary = run_import(bundle)

    assert "placeholder user(s) created: rik@troefkaart" in summary
    rik = User.objects.get(username="rik@troefkaart")
    assert not rik.is_active
    assert not rik.has_usable_password()
    assert not rik.memberships.exists()
    second = Ruling.objects.get(uuid=made[1].uuid)
    assert second.director.username == "anna"
    assert second.reviews.get().reviewer == rik
    # The names in the audit trail (covered by the hash) are kept.
    assert set(second.audit_events.values_list("actor_name", flat=True)) == {
        "anna",
        "rik",
        "system",
    }
    assert audit.verify(second) == []
    # A second import reuses the placeholder.
    assert "0 new, 3 already present" in run_import(bundle)
    assert User.objects.filter(username__endswith="@troefkaart").count() == 1


def test_a_ruling_whose_director_is_no_member_is_refused(tmp_path, made):
    bundle = tmp_path / "laptop.json"
    export(bundle)
    wipe()
    User.objects.filter(username="anna").delete()

    error = refused(bundle)

    assert error.returncode == 2
    assert f"ruling {made[0].uuid}: director 'anna' is not a member of troefkaart" in str(error)
    assert Ruling.objects.count() == 0
    assert not User.objects.filter(username__endswith="@troefkaart").exists()


def test_a_user_of_another_club_is_never_used(tmp_path, club_a, club_b, director_b):
    ruling = make_ruling(club_b, director_b)
    bundle = tmp_path / "b.json"
    export(bundle, "--club", "vrije-slagje")
    wipe()

    error = refused(bundle, "--club", "troefkaart")

    assert f"ruling {ruling.uuid}: director 'bas' is not a member of troefkaart" in str(error)
    assert not Ruling.objects.exists()


def test_a_director_imports_only_his_own_rulings(tmp_path, made, club_a, director_a, admin_a):
    """anna directed three of the four: as anna the import is refused (the fourth is the
    administrator's), as the club's administrator it goes through, and the trail says who."""
    other = make_ruling(club_a, admin_a)
    bundle = tmp_path / "laptop.json"
    export(bundle)
    wipe()

    error = refused(bundle, "--user", director_a.username)
    assert f"ruling {other.uuid}: directed by {admin_a.username!r}" in str(error)
    assert Ruling.objects.count() == 0

    assert "4 new" in run_import(bundle, "--user", admin_a.username)
    last = Ruling.objects.get(uuid=made[0].uuid).audit_events.order_by("-sequence").first()
    assert (last.action, last.actor, last.actor_name) == ("imported", admin_a, admin_a.username)
    assert ImportRecord.objects.get().imported_by == admin_a


def test_a_user_that_is_no_member_cannot_import_on_the_command_line(tmp_path, made, director_b):
    bundle = tmp_path / "laptop.json"
    export(bundle, "--club", "troefkaart")
    error = refused(bundle, "--user", director_b.username, "--club", "troefkaart")
    assert "'bas' is not a member of troefkaart" in str(error)


def test_only_final_live_rulings_travel_unless_training_is_asked(tmp_path, club_a, director_a):
    final = make_ruling(club_a, director_a)
    make_ruling(club_a, director_a, final=False)
    training = make_ruling(club_a, director_a, mode=Mode.TRAINING)
    plain, with_training = tmp_path / "plain.json", tmp_path / "training.json"

    export(plain)
    export(with_training, "--include-training")

    uuids = [r["uuid"] for r in json.loads(plain.read_text())["rulings"]]
    assert uuids == [str(final.uuid)]
    uuids = {r["uuid"] for r in json.loads(with_training.read_text())["rulings"]}
    assert uuids == {str(final.uuid), str(training.uuid)}


def test_since_selects_rulings_saved_from_that_date(tmp_path, club_a, director_a):
    make_ruling(club_a, director_a, at=START)
    later = make_ruling(club_a, director_a, at=START + timedelta(days=10))
    bundle = tmp_path / "since.json"
    since = (START + timedelta(days=5)).date().isoformat()

    assert "Exported 1 ruling(s)" in export(bundle, "--since", since)

    assert [r["uuid"] for r in json.loads(bundle.read_text())["rulings"]] == [str(later.uuid)]


def test_bundle_format(tmp_path, made):
    bundle = tmp_path / "laptop.json"
    export(bundle)
    data = json.loads(bundle.read_text(encoding="utf-8"))
    assert data["format"] == "leidraad-rulings"
    assert data["version"] == 3
    assert data["club"] == {"slug": "troefkaart", "name": "BC De Troefkaart"}
    assert data["exported_at"].endswith("+00:00")
    ruling = next(r for r in data["rulings"] if r["uuid"] == str(made[1].uuid))
    assert ruling["director"] == "anna"
    assert {"steps", "reviews", "audit", "adjusted_score"} <= set(ruling)
    assert ruling["adjusted_score"] == []
    assert ruling["auction"] == ""  # version 3: every ruling says its auction, none here
    first = next(r for r in data["rulings"] if r["uuid"] == str(made[0].uuid))
    assert first["adjusted_score"][0]["recorded_by"] == "anna"
    assert first["adjusted_score"][0]["kind"] == "weighted"
    assert [e["action"] for e in ruling["audit"]][-2:] == ["reviewed", "appeal_opened"]
    assert ruling["reviews"][0]["reviewer"] == "rik"
    assert [s["digest"] for s in data["snapshots"]] == [made[0].snapshot_id]


# --- Refusals ------------------------------------------------------------------------------


def write(path: Path, data) -> Path:
    path.write_text(json.dumps(data) if not isinstance(data, str) else data, encoding="utf-8")
    return path


def test_a_broken_chain_refuses_the_whole_bundle(tmp_path, bundle_data):
    bundle_data["rulings"][2]["audit"][1]["data"]["choice"] = "nee"

    error = refused(write(tmp_path / "tampered.json", bundle_data))

    assert error.returncode == 2
    assert "audit chain broken" in str(error)
    assert "event 2 (answered): content changed" in str(error)
    assert Ruling.objects.count() == 0  # the two intact rulings were not imported either


def test_a_removed_event_is_noticed(tmp_path, bundle_data):
    del bundle_data["rulings"][0]["audit"][-1]
    error = refused(write(tmp_path / "short.json", bundle_data))
    assert error.returncode == 2
    assert "head" in str(error)
    assert Ruling.objects.count() == 0


def test_a_chain_moved_to_another_ruling_is_refused(tmp_path, bundle_data):
    first, second = bundle_data["rulings"][:2]
    first["uuid"], second["uuid"] = second["uuid"], first["uuid"]
    error = refused(write(tmp_path / "swapped.json", bundle_data))
    assert error.returncode == 2
    assert Ruling.objects.count() == 0


def test_a_bundle_chain_is_checked_like_the_database_chain(tmp_path, bundle_data):
    """One check for both (``audit.chain_problems``): a missing event reads the same as in
    ``verify_audit``, a sequence that is no number is out of order, not a crash."""
    del bundle_data["rulings"][0]["audit"][1]
    bundle_data["rulings"][1]["audit"][1]["sequence"] = "2"
    error = str(refused(write(tmp_path / "gaps.json", bundle_data)))
    assert "event 3: events 2–2 missing" in error
    assert "event 2: sequence '2' out of order (expected 2)" in error
    assert Ruling.objects.count() == 0


def test_an_event_time_that_has_no_utc_equivalent_is_refused(tmp_path, bundle_data):
    """Year 1 at UTC+1 lies before the first UTC time: refused as incomplete, not a crash."""
    bundle_data["rulings"][0]["audit"][0]["at"] = "0001-01-01T00:00:00+01:00"
    error = refused(write(tmp_path / "year1.json", bundle_data))
    assert error.returncode == 2
    assert "event 1: incomplete event" in str(error)
    assert Ruling.objects.count() == 0


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("{not json", "Not a valid JSON file"),
        (
            {"format": "something-else", "version": 1, "rulings": []},
            "Not a Leidraad rulings bundle",
        ),
        ({"format": "leidraad-rulings", "version": 4, "rulings": []}, "version 4 is not supported"),
        ({"format": "leidraad-rulings", "version": 1}, "no list of rulings"),
        ([1, 2], "Not a Leidraad rulings bundle"),
    ],
)
def test_bad_files_are_refused(tmp_path, club_a, content, message):
    error = refused(write(tmp_path / "bad.json", content), "--club", "troefkaart")
    assert error.returncode == 2
    assert message in str(error)


def test_a_snapshot_that_does_not_match_its_digest_is_refused(tmp_path, bundle_data):
    bundle_data["snapshots"][0]["data"]["title"]["nl"] = "Vervalst"
    error = refused(write(tmp_path / "snap.json", bundle_data))
    assert error.returncode == 2
    assert "does not match its digest" in str(error)
    assert TreeSnapshot.objects.count() == 0


def test_invalid_field_values_are_refused(tmp_path, bundle_data):
    bundle_data["rulings"][0]["board"] = "zeven"
    bundle_data["rulings"][1]["surprise"] = True
    error = refused(write(tmp_path / "fields.json", bundle_data))
    assert error.returncode == 2
    assert "board" in str(error)
    assert "unknown field(s) surprise" in str(error)


def test_content_of_an_odd_shape_is_refused_with_the_place(tmp_path, bundle_data):
    """Chains and digests verify, yet a text per language is a list: refused, not shown."""
    bundle_data["rulings"][0]["steps"][0]["answer"] = ["ja"]
    error = refused(write(tmp_path / "shape.json", bundle_data))
    assert error.returncode == 2
    assert "step 1.answer: must be an object" in str(error)

    del bundle_data["rulings"][0]["steps"][0]["answer"]
    first = bundle_data["snapshots"][0]
    first["data"]["nodes"][first["data"]["start"]]["choices"] = "ja"
    first["digest"] = snapshot.digest_of(first["data"])  # a digest that fits the change
    error = refused(write(tmp_path / "snapshot.json", bundle_data))
    assert "choices: must be a list" in str(error)
    assert Ruling.objects.count() == 0
    assert TreeSnapshot.objects.count() == 0


def test_an_unreadable_adjusted_score_is_refused_with_the_place(tmp_path, bundle_data):
    first = next(r for r in bundle_data["rulings"] if r["adjusted_score"])
    first["adjusted_score"][0]["non_offending_rows"][0]["contract"] = "8S="
    error = refused(write(tmp_path / "score.json", bundle_data))
    assert error.returncode == 2
    assert "adjusted score 1.non_offending_rows" in str(error)
    assert "niveau 8" in str(error)
    first["adjusted_score"] = [first["adjusted_score"][0]] * 2
    assert "at most one adjusted score" in str(refused(write(tmp_path / "two.json", bundle_data)))
    assert Ruling.objects.count() == 0


def test_an_unknown_club_is_refused(tmp_path, bundle_data):
    error = refused(write(tmp_path / "club.json", bundle_data), "--club", "nergens")
    assert error.returncode == 2
    assert "'nergens' does not exist" in str(error)


def test_a_missing_file_is_refused(tmp_path, club_a):
    error = refused(tmp_path / "missing.json")
    assert error.returncode == 2


def test_export_refuses_to_overwrite(tmp_path, club_a):
    existing = tmp_path / "there.json"
    existing.write_text("{}")
    with pytest.raises(CommandError) as caught:
        export(existing)
    assert caught.value.returncode == 2
    assert existing.read_text() == "{}"


# --- Web -----------------------------------------------------------------------------------


def test_admin_downloads_and_uploads(client_admin_a, made, tmp_path):
    response = client_admin_a.get("/arbitrages/overdracht/bestand.json?club=troefkaart")
    assert response.status_code == 200
    assert response["Content-Disposition"].startswith('attachment; filename="leidraad-troefkaart-')
    content = b"".join(response.streaming_content)
    assert len(json.loads(content)["rulings"]) == 3
    wipe()

    upload = SimpleUploadedFile("laptop.json", content, content_type="application/json")
    response = client_admin_a.post(
        "/arbitrages/overdracht/importeren/?club=troefkaart", {"bundle": upload}, follow=True
    )

    assert response.status_code == 200
    page = response.content.decode()
    assert "Geïmporteerd in BC De Troefkaart: 3 nieuw, 0 al aanwezig, 0 conflict(en)." in page
    assert Ruling.objects.count() == 3


def test_upload_of_a_tampered_bundle_says_why_and_imports_nothing(client_admin_a, bundle_data):
    bundle_data["rulings"][0]["audit"][0]["actor_name"] = "iemand"
    upload = SimpleUploadedFile("x.json", json.dumps(bundle_data).encode())
    response = client_admin_a.post(
        "/arbitrages/overdracht/importeren/", {"bundle": upload}, follow=True
    )
    page = response.content.decode()
    assert "Het bestand is geweigerd" in page
    assert "content changed" in page
    assert Ruling.objects.count() == 0


def test_upload_of_not_json_says_so(client_admin_a, club_a):
    upload = SimpleUploadedFile("x.json", b"\x00\x01 niet json")
    response = client_admin_a.post(
        "/arbitrages/overdracht/importeren/", {"bundle": upload}, follow=True
    )
    assert "Dit is geen geldig JSON-bestand" in response.content.decode()


def test_transfer_page_is_for_admins_and_directors(
    client_admin_a, client_reviewer_a, client_director_a
):
    assert client_admin_a.get("/arbitrages/overdracht/").status_code == 200
    assert client_reviewer_a.get("/arbitrages/overdracht/").status_code == 403
    page = client_director_a.get("/arbitrages/overdracht/")
    assert page.status_code == 200
    assert "Bestand downloaden" not in page.content.decode()  # the download is the admin's
    assert client_director_a.get("/arbitrages/overdracht/bestand.json").status_code == 403
    upload = SimpleUploadedFile("x.json", b"{}")
    response = client_reviewer_a.post("/arbitrages/overdracht/importeren/", {"bundle": upload})
    assert response.status_code == 403


def test_a_director_uploads_his_own_rulings_and_not_others(
    client_director_a, made, admin_a, club_a, tmp_path
):
    other = make_ruling(club_a, admin_a)
    bundle = tmp_path / "laptop.json"
    export(bundle)
    wipe()
    data = json.loads(bundle.read_text())

    upload = SimpleUploadedFile("alles.json", json.dumps(data).encode())
    response = client_director_a.post("/arbitrages/overdracht/importeren/", {"bundle": upload})
    assert response.status_code == 400
    assert f"ruling {other.uuid}: directed by" in response.content.decode()
    assert Ruling.objects.count() == 0

    data["rulings"] = [r for r in data["rulings"] if r["uuid"] != str(other.uuid)]
    raw = json.dumps(data).encode()
    upload = SimpleUploadedFile("eigen.json", raw)
    response = client_director_a.post("/arbitrages/overdracht/importeren/", {"bundle": upload})
    assert response.status_code == 302
    assert Ruling.objects.count() == 3
    last = Ruling.objects.get(uuid=made[1].uuid).audit_events.order_by("-sequence").first()
    assert last.actor.username == "anna"
    assert last.data == {
        "file": "eigen.json",
        "sha256": hashlib.sha256(raw).hexdigest(),
        "import": str(ImportRecord.objects.get().uuid),
    }
    record = client_director_a.get(f"/arbitrages/{made[1].uuid}/").content.decode()
    assert "Geïmporteerd uit eigen.json (sha256 " in record


def test_other_clubs_get_404(client_director_b, admin_a):
    assert client_director_b.get("/arbitrages/overdracht/?club=troefkaart").status_code == 404
    response = client_director_b.get("/arbitrages/overdracht/bestand.json?club=troefkaart")
    assert response.status_code == 404


def test_since_in_the_web_download(client_admin_a, club_a, director_a):
    make_ruling(club_a, director_a, at=START)
    response = client_admin_a.get(
        "/arbitrages/overdracht/bestand.json",
        {"club": "troefkaart", "since": (START.date() + timedelta(days=1)).isoformat()},
    )
    assert json.loads(b"".join(response.streaming_content))["rulings"] == []
