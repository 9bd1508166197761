"""Hostile PBN files (issue 28): whatever the file holds, the reader answers with deals or one
PbnError, and the upload page with a page or a 400 that names the problem; never a server
error, and nothing is stored from a file that is refused."""

from __future__ import annotations

import hypothesis
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from hypothesis import HealthCheck, given
from hypothesis import strategies as st

from scores.models import StoredDeal
from scores.pbn import PbnError, PbnFile, parse_pbn, read_pbn_bytes
from tests.conftest import DEEP

BOARD = "N:AK32.QJ5.T98.765 QJ4.K987.AK3.K32 T98.T432.Q54.AJ4 765.A6.J762.QT98"
HOSTILE = hypothesis.settings(
    max_examples=60 if DEEP else 20,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)

# Values a careless or crafted file may hold where a number, a seat or a score belongs.
odd_values = st.one_of(
    st.sampled_from(
        ["²", "１２", "0", "-1", "129", "1" * 30, "9" * 5000, "", "#", "##7", "?", "½"]
    ),
    st.integers(min_value=-(10**40), max_value=10**40).map(str),
    st.text(max_size=12),
)
fragments = st.one_of(
    odd_values.map(lambda v: f'[Board "{v}"]'),
    odd_values.map(lambda v: f'[Dealer "{v}"]'),
    odd_values.map(lambda v: f'[Vulnerable "{v}"]'),
    odd_values.map(lambda v: f'[Score "{v}"]'),
    odd_values.map(lambda v: f'[Result "{v}"]'),
    odd_values.map(lambda v: f'[Contract "{v}"]'),
    odd_values.map(lambda v: f'[Event "{v * 30}"]'),
    st.just(f'[Deal "{BOARD}"]'),
    st.just('[Deal ""]'),
    st.just('[ScoreTable "Table;Score_NS;Multiplicity"]'),
    st.tuples(odd_values, odd_values, odd_values).map(" ".join),
    st.sampled_from(["", "{", "}", "[", '"', ";", "%", '[Note "1:x"]', "\\", "\x00"]),
)
texts = st.lists(fragments, min_size=1, max_size=14).map("\n".join)


def read(data: str | bytes) -> PbnFile | PbnError:
    """The file, or the one error it was refused with (anything else fails the test)."""
    try:
        return parse_pbn(data) if isinstance(data, str) else read_pbn_bytes(data)
    except PbnError as error:
        return error


def check(outcome: PbnFile | PbnError) -> None:
    if isinstance(outcome, PbnError):
        assert "\n" not in str(outcome)
        assert outcome.line is None or outcome.line >= 1
        return
    for board in outcome.boards:
        assert 1 <= board.deal.board <= 128
        assert all(-7600 <= (r.score or 0) <= 7600 for r in board.results)
        assert all(r.count >= 1 for r in board.results)


@given(text=texts)
@HOSTILE
def test_the_reader_gives_deals_or_one_line_naming_the_problem(text):
    check(read(text))


@given(data=st.one_of(texts.map(lambda t: t.encode("utf-8", "surrogatepass")), st.binary()))
@HOSTILE
def test_bytes_are_read_or_refused(data):
    check(read(data))


@given(text=texts, event=odd_values)
@HOSTILE
def test_the_upload_page_never_fails(client_director_a, club_a, text, event):
    before = StoredDeal.objects.count()
    upload = SimpleUploadedFile("x.pbn", text.encode("utf-8", "surrogatepass"))
    response = client_director_a.post(
        reverse("scores:deals", args=[club_a.slug]), {"file": upload, "event": event}
    )
    assert response.status_code in (200, 302, 400)
    if response.status_code == 400:
        assert StoredDeal.objects.count() == before
