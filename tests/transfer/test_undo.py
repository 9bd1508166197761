"""The club administrator takes a wrongly imported bundle back (issue 35 item 6): the import's
rulings are discarded with an audited event each, never deleted; undone once, whatever the
number of clicks."""

from __future__ import annotations

import json

from django.core.files.uploadedfile import SimpleUploadedFile

from rulings import audit
from rulings.models import Ruling, Status
from tests.transfer.test_bundles import export, wipe
from transfer import bundles as transfer
from transfer.models import ImportRecord

UPLOAD = "/arbitrages/overdracht/importeren/"


def upload(client, data: dict, name: str = "laptop.json"):
    file = SimpleUploadedFile(name, json.dumps(data).encode(), content_type="application/json")
    return client.post(UPLOAD, {"bundle": file})


def test_an_import_is_taken_back_on_the_record(client_admin_a, bundle_data, admin_a, club_a):
    assert upload(client_admin_a, bundle_data, "fout.json").status_code == 302
    entry = ImportRecord.objects.get()
    assert entry.rulings.count() == 3
    page = client_admin_a.get("/arbitrages/overdracht/").content.decode()
    assert "fout.json" in page
    assert "Import terugdraaien" in page

    response = client_admin_a.post(f"/arbitrages/overdracht/imports/{entry.uuid}/terugdraaien/")

    assert response.status_code == 302
    assert Ruling.objects.count() == 3  # nothing deleted
    for ruling in Ruling.objects.all():
        assert ruling.status == Status.DISCARDED
        assert audit.verify(ruling) == []
        last = ruling.audit_events.order_by("-sequence").first()
        assert (last.action, last.actor) == ("import_undone", admin_a)
        assert last.data["import"] == str(entry.uuid)
        assert last.data["file"] == "fout.json"
    entry.refresh_from_db()
    assert (entry.undone_by, entry.undone_at is not None) == (admin_a, True)
    assert transfer.rulings_for_export(club_a).count() == 0  # no longer travels
    record = client_admin_a.get(f"/arbitrages/{entry.rulings.first().uuid}/").content.decode()
    assert "Import uit fout.json teruggedraaid" in record


def test_undo_twice_is_recorded_once(client_admin_a, bundle_data):
    upload(client_admin_a, bundle_data)
    entry = ImportRecord.objects.get()
    url = f"/arbitrages/overdracht/imports/{entry.uuid}/terugdraaien/"
    client_admin_a.post(url)
    events = {r.pk: r.audit_events.count() for r in Ruling.objects.all()}

    response = client_admin_a.post(url, follow=True)

    assert "Deze import was al teruggedraaid." in response.content.decode()
    assert {r.pk: r.audit_events.count() for r in Ruling.objects.all()} == events


def test_a_review_recorded_after_the_import_is_kept(client_admin_a, bundle_data, reviewer_a):
    from archive.reviews import record_review
    from rulings.models import Verdict

    upload(client_admin_a, bundle_data)
    entry = ImportRecord.objects.get()
    ruling = entry.rulings.order_by("pk").first()
    record_review(ruling, reviewer_a, Verdict.CONFIRMED, "Juist.")

    client_admin_a.post(f"/arbitrages/overdracht/imports/{entry.uuid}/terugdraaien/")

    ruling.refresh_from_db()
    assert ruling.status == Status.DISCARDED
    assert ruling.review_verdict == Verdict.CONFIRMED
    assert [e.action for e in ruling.audit_events.order_by("-sequence")[:3]] == [
        "import_undone",
        "reviewed",
        "imported",
    ]
    assert audit.verify(ruling) == []


def test_only_the_clubs_administrator_takes_an_import_back(
    client_admin_a, client_director_a, bundle_data
):
    upload(client_admin_a, bundle_data)
    entry = ImportRecord.objects.get()
    url = f"/arbitrages/overdracht/imports/{entry.uuid}/terugdraaien/"
    assert client_director_a.post(url).status_code == 403
    assert (
        "Import terugdraaien"
        not in client_director_a.get("/arbitrages/overdracht/").content.decode()
    )
    assert not Ruling.objects.filter(status=Status.DISCARDED).exists()


def test_reimport_after_undo_changes_nothing(tmp_path, client_admin_a, made):
    """Taken back, the rulings stay (discarded): the same file again is a conflict for each,
    not a second copy."""
    bundle = tmp_path / "laptop.json"
    export(bundle)
    wipe()
    data = json.loads(bundle.read_text())
    upload(client_admin_a, data)
    entry = ImportRecord.objects.get()
    client_admin_a.post(f"/arbitrages/overdracht/imports/{entry.uuid}/terugdraaien/")

    response = upload(client_admin_a, data)

    assert response.status_code == 302
    assert Ruling.objects.count() == 3
    assert ImportRecord.objects.count() == 1
