"""An appeal opened or settled twice at once is recorded once (issue 35, item 3): each change
is conditional on the appeal status it starts from, checked again after a lost
compare-and-swap."""

from __future__ import annotations

import threading

import pytest
from django.db import connection

from archive import record
from archive.reviews import StaleAppeal, set_appeal
from rulings import audit
from rulings.models import AppealStatus, Ruling
from tests.conftest import logged_in
from tests.support.rulings import make_ruling


@pytest.fixture
def ruling(club_a, director_a):
    return make_ruling(club_a, director_a, ("ja", "nee"))


def appeal_events(ruling) -> list[str]:
    return list(
        ruling.audit_events.filter(action__startswith="appeal").values_list("action", flat=True)
    )


@pytest.mark.parametrize(
    ("start", "status"),
    [(AppealStatus.NONE, AppealStatus.OPEN), (AppealStatus.OPEN, AppealStatus.SETTLED)],
)
def test_two_copies_read_before_either_wrote_record_one_change(ruling, reviewer_a, start, status):
    if start == AppealStatus.OPEN:
        set_appeal(ruling, reviewer_a, AppealStatus.OPEN, "Open.")
    other_tab = Ruling.objects.get(pk=ruling.pk)
    set_appeal(ruling, reviewer_a, status, "Eerste.")
    # The other copy still says the old status: its compare-and-swap fails, it reads the
    # ruling again and finds the change already made.
    with pytest.raises(StaleAppeal):
        set_appeal(other_tab, reviewer_a, status, "Tweede.")
    events = appeal_events(ruling)
    assert events.count(f"appeal_{'opened' if status == 'open' else 'settled'}") == 1
    assert audit.verify(ruling) == []


def test_settling_needs_an_open_appeal(ruling, reviewer_a):
    with pytest.raises(StaleAppeal):
        set_appeal(ruling, reviewer_a, AppealStatus.SETTLED, "Niets open.")
    assert appeal_events(ruling) == []


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("status", [AppealStatus.OPEN, AppealStatus.SETTLED])
def test_two_concurrent_requests_record_the_change_once(
    monkeypatch, club_a, director_a, reviewer_a, status
):
    """Two real requests on two threads (two database connections) that have both read the
    ruling before either writes: the double click or the two tabs of the probe."""
    ruling = make_ruling(club_a, director_a, ("ja", "nee"))
    if status == AppealStatus.SETTLED:
        set_appeal(ruling, reviewer_a, AppealStatus.OPEN, "Open.")
    both_read = threading.Barrier(2, timeout=10)
    first_done = threading.Event()
    original = record.set_appeal

    def after_both_read(*args, **kwargs):
        both_read.wait()
        # Both requests hold the ruling as read before either wrote. The in-memory test
        # database locks whole tables between connections, so the second one writes once the
        # first request has ended; what it writes is decided on the status it read.
        if threading.current_thread().name == "tab-2":
            first_done.wait(10)
        return original(*args, **kwargs)

    monkeypatch.setattr(record, "set_appeal", after_both_read)
    statuses: dict[str, int] = {}
    clients = {name: logged_in(reviewer_a) for name in ("tab-1", "tab-2")}

    def post(name: str) -> None:
        try:
            url = f"/arbitrages/{ruling.uuid}/beroep/"
            response = clients[name].post(url, {"status": status, "note": name})
            statuses[name] = response.status_code
        finally:
            connection.close()
            if name == "tab-1":
                first_done.set()

    threads = [threading.Thread(target=post, args=(name,), name=name) for name in clients]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert statuses == {"tab-1": 302, "tab-2": 302}
    action = "appeal_opened" if status == AppealStatus.OPEN else "appeal_settled"
    assert appeal_events(ruling).count(action) == 1
    ruling.refresh_from_db()
    assert ruling.appeal_status == status
    assert audit.verify(ruling) == []
