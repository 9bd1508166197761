"""The pairs at the table and the club's psyche register travel from the laptop to the server
(rulings/pairs.py): the pair fields only on a ruling that names a pair (other rulings export as
before, version 3 pinned), the register made again on import from the ruling's pair_recorded
event; an import taken back takes its entries out of the register."""

from __future__ import annotations

import json
from datetime import date

from django.core.files.uploadedfile import SimpleUploadedFile

from rulings import audit, pairs, wizard
from rulings.models import PairRecord, Ruling
from tests.support.rulings import make_ruling
from tests.transfer.test_bundles import export, run_import, wipe
from transfer.models import ImportRecord


def saved_psyche(club, director, **context):
    ruling = make_ruling(
        club, director, ("psyche", "nee", "nee", "nee"), tree_slug="psyche", final=False
    )
    values = {"played_on": date(2026, 3, 3), "board": 9, "offender_seat": "S", **context}
    wizard.save(ruling, director, values)
    ruling.refresh_from_db()
    return ruling


def register_rows():
    return list(
        PairRecord.objects.order_by("pair_key").values_list(
            "ruling__uuid", "pair", "pair_key", "side", "kind", "recorded_at"
        )
    )


def test_the_pairs_and_the_register_travel(tmp_path, shipped, club_a, director_a):
    plain = make_ruling(club_a, director_a, ("psyche", "nee", "nee", "nee"), tree_slug="psyche")
    psyche = saved_psyche(club_a, director_a, pair_ns="Jansen - De Vries", pair_ew="12")
    before = register_rows()
    assert len(before) == 1
    bundle = tmp_path / "laptop.json"
    export(bundle)
    by_uuid = {item["uuid"]: item for item in json.loads(bundle.read_text())["rulings"]}
    assert "pair_ns" not in by_uuid[str(plain.uuid)]  # as before: nothing named, nothing sent
    assert by_uuid[str(psyche.uuid)]["pair_ns"] == "Jansen - De Vries"

    wipe()
    assert not PairRecord.objects.exists()
    assert "2 new, 0 already present, 0 conflict(s)" in run_import(bundle)
    arrived = Ruling.objects.get(uuid=psyche.uuid)
    assert (arrived.pair_ns, arrived.pair_ew) == ("Jansen - De Vries", "12")
    assert register_rows() == before
    assert audit.verify(arrived) == []
    assert "0 new, 2 already present" in run_import(bundle)
    assert PairRecord.objects.count() == 1


def test_an_event_that_does_not_read_makes_no_entry(shipped, club_a, director_a):
    ruling = saved_psyche(club_a, director_a, pair_ns="7")
    events = [{"action": "pair_recorded", "data": {"pair": "7", "side": "XX", "kind": "psyche"}}]
    assert pairs.rows_from_audit(ruling, events) == []
    events = [{"action": "pair_recorded", "data": {"pair": " ", "side": "NS", "kind": "psyche"}}]
    assert pairs.rows_from_audit(ruling, events) == []
    assert pairs.rows_from_audit(ruling, [{"action": "saved", "data": {}}]) == []


def test_an_import_taken_back_leaves_the_register(
    tmp_path, shipped, club_a, director_a, admin_a, client_admin_a
):
    first = saved_psyche(club_a, director_a, pair_ns="7")
    bundle = tmp_path / "laptop.json"
    export(bundle)
    wipe()
    upload = SimpleUploadedFile("fout.json", bundle.read_bytes(), content_type="application/json")
    assert (
        client_admin_a.post("/arbitrages/overdracht/importeren/", {"bundle": upload}).status_code
        == 302
    )
    later = make_ruling(club_a, director_a, ("psyche",), tree_slug="psyche", final=False)
    wizard.edit_context(later, {"pair_ew": "7"}, director_a)
    assert [entry.uuid for entry in pairs.history(later)] == [first.uuid]

    entry = ImportRecord.objects.get()
    client_admin_a.post(f"/arbitrages/overdracht/imports/{entry.uuid}/terugdraaien/")

    assert pairs.history(later) == []
    assert pairs.register(club_a.pk) == []
