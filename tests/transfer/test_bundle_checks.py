"""A bundle is checked as strictly as a form (issue 28 item 2, issue 35 items 5 and 6): every
field of every ruling, step, event, review and score against the model's rules, before anything
is written; a refused bundle names the ruling and the field; odd JSON is a 400, never a 500."""

from __future__ import annotations

import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.utils.dateparse import parse_datetime
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from lib import limits, safejson
from rulings import audit
from rulings.models import Ruling
from tests.transfer.test_bundles import refused
from transfer import bundles as transfer
from transfer import importing


def rechain(ruling: dict) -> None:
    """Recompute a bundle ruling's chain after a change, as a hand-made bundle would."""
    prev = audit.GENESIS
    for event in ruling["audit"]:
        event["prev_hash"] = prev
        event["hash"] = prev = audit.compute_hash(
            ruling["uuid"],
            event["sequence"],
            parse_datetime(event["at"]),
            event["actor_name"],
            event["action"],
            event["data"],
            prev,
        )
    ruling["audit_head"] = prev


def refusal(bundle: dict) -> str:
    with pytest.raises(importing.BundleError) as caught:
        importing.read_bundle(json.dumps(bundle))
    return str(caught.value)


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("table", 99999, "table: Zorg ervoor dat deze waarde hoogstens 999 is"),
        ("round", 0, "round: Zorg ervoor dat deze waarde minstens 1 is"),
        ("board", 129, "board:"),
        ("contract_level", 8, "contract_level:"),
        ("played_on", "9999-12-31", "played_on: 9999-12-31 lies outside 1900 to 2099"),
        ("played_on", "0001-01-01", "played_on: 0001-01-01 lies outside"),
        ("created_at", "9999-12-31T23:00:00.000000+00:00", "created_at: 9999-12-31T23:00:00"),
        ("status", "gewonnen", "status: 'gewonnen' is not one of"),
        ("status", "in_progress", "status: only final rulings travel, not 'in_progress'"),
        ("mode", "echt", "mode: 'echt' is not one of"),
        ("offender_seat", "X", "offender_seat: 'X' is not one of"),
        ("contract_strain", "Z", "contract_strain: 'Z' is not one of"),
        ("review_verdict", "prima", "review_verdict: 'prima' is not one of"),
        ("notes", "x" * (limits.NOTES_MAX + 1), "notes: Zorg dat deze waarde niet meer dan 4000"),
        ("revision", 2**40, "revision:"),
        ("table", True, "table: wrong type bool"),
    ],
)
def test_a_ruling_field_outside_the_models_rules_is_refused_by_name(
    bundle_data, field, value, message
):
    bundle_data["rulings"][1][field] = value
    text = refusal(bundle_data)
    assert f"ruling {bundle_data['rulings'][1]['uuid']}: " in text
    assert message in text


@pytest.mark.parametrize(
    ("child", "field", "value", "message"),
    [
        ("steps", "answered_at", "9999-01-01T00:00:00.000000+00:00", "step 1: answered_at:"),
        ("steps", "order", -1, "step 1: order:"),
        ("reviews", "verdict", "goed", "review 1: verdict: 'goed' is not one of"),
        ("reviews", "comment", "y" * (limits.DECISION_MAX + 1), "review 1: comment:"),
        ("reviews", "created_at", "1900-01-01T00:00:00.000000+00:00", "review 1: created_at:"),
    ],
)
def test_a_child_field_outside_the_models_rules_is_refused_by_name(
    bundle_data, child, field, value, message
):
    ruling = next(r for r in bundle_data["rulings"] if r[child])
    ruling[child][0][field] = value
    text = refusal(bundle_data)
    assert f"ruling {ruling['uuid']}, {message}" in text


def test_version_true_is_not_version_1(bundle_data):
    bundle_data["version"] = True
    assert "Bundle version True is not supported" in refusal(bundle_data)


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (
            '{"format": "leidraad-rulings", "version": 2, "rulings": [' + "9" * 5000 + "]}",
            "a number of 5000 digits",
        ),
        ("[" * 5000 + "]" * 5000, "nested 5000 levels deep (at most 40)"),
        (
            '{"format": "leidraad-rulings", "version": 2, "rulings": [], "x": 1e999}',
            "x: inf is not a number",
        ),
        ('{"a": NaN}', "NaN is not a number"),
        (
            '{"format": "leidraad-rulings", "version": 2, "rulings": [], "x": ' + str(2**64) + "}",
            "x: the number 18446744073709551616 is out of range",
        ),
    ],
)
def test_odd_json_is_refused_with_a_message(content, message):
    with pytest.raises(importing.BundleError) as caught:
        importing.read_bundle(content.encode())
    assert message in str(caught.value)


def test_brackets_inside_texts_do_not_count_as_nesting():
    text = json.dumps({"a": "[[[[{{{{" * 100, "b": ['"]]]', '\\"[[']})
    assert safejson.nesting_depth(text.encode()) == 2
    assert safejson.loads(text)["b"] == ['"]]]', '\\"[[']


def test_a_huge_integer_in_a_json_field_is_refused(bundle_data):
    bundle_data["rulings"][0]["outcome"]["citations"] = [10**30]
    assert "a number of 31 digits" in refusal(bundle_data)


@pytest.mark.parametrize(
    "content",
    [
        b"[" * 100_000,
        b'{"format": "leidraad-rulings", "version": 2, "rulings": [' + b"1" * 5000 + b"]}",
        b'{"format": "leidraad-rulings", "version": true, "rulings": []}',
    ],
)
def test_an_upload_of_odd_json_is_a_400_with_the_reason(client_admin_a, club_a, content):
    upload = SimpleUploadedFile("x.json", content, content_type="application/json")
    response = client_admin_a.post("/arbitrages/overdracht/importeren/", {"bundle": upload})
    assert response.status_code == 400
    assert "Er is niets geïmporteerd" in response.content.decode()


def test_a_refused_upload_names_the_ruling_and_the_field(client_admin_a, bundle_data):
    bundle_data["rulings"][0]["table"] = 99999
    upload = SimpleUploadedFile("x.json", json.dumps(bundle_data).encode())
    response = client_admin_a.post("/arbitrages/overdracht/importeren/", {"bundle": upload})
    assert response.status_code == 400
    assert f"ruling {bundle_data['rulings'][0]['uuid']}: table:" in response.content.decode()
    assert Ruling.objects.count() == 0


# --- Property: any one value changed is refused, or the bundle imports whole ---------------

json_leaf = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**80), max_value=2**80),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=20),
    st.sampled_from(["9999-12-31", "9999-12-31T23:59:59.999999+00:00", "final", "", "N"]),
)


@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    field=st.sampled_from(
        [
            "table",
            "round",
            "board",
            "played_on",
            "status",
            "mode",
            "version_of_bundle",
            "created_at",
            "finalised_at",
            "contract_level",
            "offender_seat",
            "notes",
            "revision",
        ]
    ),
    value=json_leaf,
)
def test_any_value_of_a_ruling_field_is_refused_or_fits_the_model(bundle_data, field, value):
    data = json.loads(json.dumps(bundle_data))
    if field == "version_of_bundle":
        data["version"] = value
    else:
        data["rulings"][0][field] = value
    try:
        content = json.dumps(data)
    except ValueError:
        return
    try:
        bundle = importing.read_bundle(content)
    except importing.BundleError:
        return  # refused with a message (no other exception may escape)
    first = bundle.rulings[0].fields
    model = {f.name: f for f in Ruling._meta.concrete_fields}
    for name in ("table", "round", "board", "contract_level"):
        if first.get(name) is not None:
            model[name].run_validators(first[name])
            assert 1 <= first[name] <= 999
    assert first["status"] == "final"
    if first.get("played_on"):
        assert limits.date_in_range(first["played_on"])


# --- Sizes (issue 35 item 5) ----------------------------------------------------------------


def test_an_upload_over_the_web_limit_is_refused_with_the_limit(
    client_admin_a, club_a, monkeypatch
):
    monkeypatch.setattr(transfer, "WEB_MAX_BYTES", 1024)
    upload = SimpleUploadedFile("groot.json", b" " * 2048 + b"{}")
    response = client_admin_a.post("/arbitrages/overdracht/importeren/", {"bundle": upload})
    assert response.status_code == 400
    page = response.content.decode()
    assert "Het bestand is te groot (2,0\xa0KB, hoogstens 1,0\xa0KB)" in page
    assert "manage.py import_rulings" in page


def test_the_web_limit_fits_a_measured_5000_ruling_bundle():
    """65.4 MB for 5,005 rulings of seed_demo (docs/SECURITY.md): the web page takes it, and
    the command line takes much more."""
    assert 65_400_000 < transfer.WEB_MAX_BYTES < 100_000_000
    assert transfer.CLI_MAX_BYTES > 10 * transfer.WEB_MAX_BYTES


def test_the_command_line_has_its_own_limit(tmp_path, club_a):
    big = tmp_path / "groot.json"
    big.write_bytes(b" " * (2 * 1024 * 1024) + b"{}")
    error = refused(big, "--max-size", "1", "--club", "troefkaart")
    assert error.returncode == 2
    assert "more than --max-size 1 MiB; nothing was imported" in str(error)


def test_an_appeal_note_longer_than_the_form_takes_is_refused(bundle_data):
    """The note lives only in the event's data (hashed): rechained, it still may not be longer
    than the appeal form takes."""
    ruling = next(r for r in bundle_data["rulings"] if r["reviews"])
    event = next(e for e in ruling["audit"] if e["action"] == "appeal_opened")
    event["data"]["note"] = "n" * (limits.APPEAL_NOTE_MAX + 1)
    rechain(ruling)
    text = refusal(bundle_data)
    assert f"data.note: longer than {limits.APPEAL_NOTE_MAX} characters" in text
