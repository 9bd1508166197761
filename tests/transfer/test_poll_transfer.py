"""A ruling's player poll travels in a transfer bundle (transfer/polls.py): only when there is
one (other rulings export as before), back with every answer (a withdrawn one too), its user
as a username; a poll that does not read is refused with its place, nothing imported."""

import json

import pytest

from rulings import audit, polling
from rulings.models import Poll, PollAnswer, Ruling
from tests.support.polls import poll_with_answers
from tests.support.rulings import make_ruling
from tests.transfer.test_bundles import export, refused, run_import, wipe


@pytest.fixture
def polled(club_a, director_a):
    plain = make_ruling(club_a, director_a)
    ruling = make_ruling(club_a, director_a, ("nee", "nee"))
    poll = poll_with_answers(ruling, director_a, count=4)
    polling.withdraw(poll, director_a, PollAnswer.objects.filter(poll=poll).first().pk)
    return plain, ruling


def rows(ruling_uuid):
    poll = Poll.objects.get(ruling__uuid=ruling_uuid)
    answers = list(
        PollAnswer.objects.filter(poll=poll)
        .order_by("answered_at", "pk")
        .values_list("player", "level", "call", "considered", "answered_at", "withdrawn")
    )
    fields = (poll.hand, poll.auction, poll.dealer, poll.table_call, poll.question)
    return fields, poll.created_by.username, poll.created_at, answers


def test_a_poll_travels_with_its_answers(tmp_path, polled):
    plain, ruling = polled
    before = rows(ruling.uuid)
    bundle = tmp_path / "laptop.json"
    export(bundle)
    data = json.loads(bundle.read_text())
    by_uuid = {item["uuid"]: item for item in data["rulings"]}
    assert "poll" not in by_uuid[str(plain.uuid)]
    assert len(by_uuid[str(ruling.uuid)]["poll"]["answers"]) == 4
    wipe()
    assert "2 new, 0 already present, 0 conflict(s)" in run_import(bundle)
    assert rows(ruling.uuid) == before
    assert audit.verify(Ruling.objects.get(uuid=ruling.uuid)) == []
    assert "0 new, 2 already present" in run_import(bundle)
    assert Poll.objects.count() == 1


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda poll: poll.update(auction="1H 1D"), "poll"),
        (lambda poll: poll["answers"][0].update(level="expert"), "answer 1: level"),
        (lambda poll: poll["answers"][1].update(call="9Z"), "answer 2"),
        (lambda poll: poll["answers"][1].update(considered="P"), "considered"),
        (lambda poll: poll.update(colour="red"), "unknown field(s) colour"),
    ],
)
def test_a_poll_that_does_not_read_is_refused(tmp_path, polled, change, message):
    bundle = tmp_path / "laptop.json"
    export(bundle)
    data = json.loads(bundle.read_text())
    item = next(r for r in data["rulings"] if "poll" in r)
    change(item["poll"])
    bundle.write_text(json.dumps(data))
    wipe()
    error = refused(bundle)
    assert message in str(error)
    assert Ruling.objects.count() == 0
    assert Poll.objects.count() == 0
