"""In-process measurements with Django's test client: server time and queries per request.

Server time is the wall time of ``Client.get/post`` around the whole Django stack (every
middleware, the view, the template), without a network or a WSGI server. The bare view is
measured interleaved with the page under test (one request each, in turn), so both see the
same machine load and the ratio stays meaningful on a busy machine.
"""

from __future__ import annotations

import itertools
import random
import time
import uuid as uuid_lib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING
from urllib.parse import urlencode

from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

if TYPE_CHECKING:
    from trees.spec import Snapshot


BARE_URL = "/bench/bare/"


def htmx_headers(current_url: str = "/") -> dict[str, str]:
    """What htmx sends with a request from the wizard page."""
    return {
        "HTTP_HX_REQUEST": "true",
        "HTTP_HX_TARGET": "wizard",
        "HTTP_HX_CURRENT_URL": f"http://testserver{current_url}",
    }


def form_post(client: Client, url: str, data: dict[str, str], **headers: str):
    """POST ``data`` as a browser submits a form through htmx: URL-encoded (the test client's
    default is multipart, which no wizard form uses and which costs more to parse)."""
    return client.post(
        url, urlencode(data), content_type="application/x-www-form-urlencoded", **headers
    )


class BenchError(RuntimeError):
    """A request that did not give the expected answer: the benchmark would measure nonsense."""


def check(response, what: str, status: int = 200) -> None:
    if response.status_code != status:
        raise BenchError(f"{what}: HTTP {response.status_code} (expected {status})")


def bare_post(client: Client) -> float:
    started = time.perf_counter()
    response = form_post(client, BARE_URL, {"choice": "k1"}, **htmx_headers())
    elapsed = time.perf_counter() - started
    check(response, "bare view")
    return elapsed


def bare_get(client: Client) -> float:
    started = time.perf_counter()
    response = client.get(BARE_URL)
    elapsed = time.perf_counter() - started
    check(response, "bare view")
    return elapsed


# --------------------------------------------------------------------------------------------
# The wizard


@dataclass
class Answer:
    url: str
    data: dict[str, str]
    outcome: bool  # this answer reaches an outcome
    target: str  # the node it leads to
    index: int  # which of the question's choices it is (to walk the same path again)


@dataclass
class WizardRun:
    """A ruling being made by the benchmark through the wizard's pages."""

    tree: Snapshot
    club_slug: str
    rng: random.Random
    uuid: uuid_lib.UUID = field(default_factory=uuid_lib.uuid4)
    node: str = ""
    step: int = 1
    done: bool = False

    def __post_init__(self) -> None:
        self.node = self.tree.start

    @property
    def draft_url(self) -> str:
        return reverse("wizard:draft", args=[self.tree.slug, self.uuid])

    @property
    def answer_url(self) -> str:
        return reverse("wizard:answer", args=[self.uuid])

    def next_answer(self, choice_index: int | None = None) -> Answer:
        choices = self.tree.node(self.node).choices
        if choice_index is None:
            choice_index = self.rng.randrange(len(choices))
        choice = choices[choice_index]
        data = {
            "node": self.node,
            "step": str(self.step),
            "revision": str(self.step - 1),
            "choice": choice.key,
        }
        if self.step == 1:
            data |= {
                "snapshot": self.tree.digest,
                "club": self.club_slug,
                "played_on": timezone.localdate().isoformat(),
            }
            url = self.draft_url
        else:
            url = self.answer_url
        return Answer(url, data, self.tree.is_outcome(choice.target), choice.target, choice_index)

    def advance(self, answer: Answer) -> None:
        if answer.outcome:
            self.done = True
            return
        choices = self.tree.node(self.node).choices
        choice = next(c for c in choices if c.key == answer.data["choice"])
        self.node = choice.target
        self.step += 1


def post_answer(client: Client, run: WizardRun, answer: Answer) -> tuple[float, bytes]:
    """One answer through the htmx path: POST → the next step's fragment, URL pushed."""
    started = time.perf_counter()
    response = form_post(client, answer.url, answer.data, **htmx_headers(answer.url))
    elapsed = time.perf_counter() - started
    check(response, f"answer {answer.data}")
    if "HX-Push-Url" not in response.headers:
        raise BenchError(f"answer {answer.data}: no HX-Push-Url header (not a step fragment)")
    if b"data-wizard-error" in response.content:
        raise BenchError(f"answer {answer.data}: the wizard refused it")
    run.advance(answer)
    return elapsed, response.content


@dataclass
class StepTimes:
    questions: list[float] = field(default_factory=list)  # answer → next question
    # ``questions`` split: first answers (they create the ruling) and later ones, no goal.
    first_questions: list[float] = field(default_factory=list)
    later_questions: list[float] = field(default_factory=list)
    # Answer → outcome (+ context form), apart by whether this process has shown that outcome
    # before: the first showing makes its law cards and texts, which the process keeps.
    outcomes: list[float] = field(default_factory=list)  # shown before
    new_outcomes: list[float] = field(default_factory=list)  # shown for the first time
    bare: list[float] = field(default_factory=list)  # one bare-view POST after each answer
    walks: int = 0

    @property
    def answers(self) -> int:
        return len(self.questions) + len(self.outcomes) + len(self.new_outcomes)


def step_times(
    client: Client, tree: Snapshot, club_slug: str, requests: int, rng: random.Random
) -> StepTimes:
    """Answer POSTs on random paths through ``tree`` until ``requests`` answers to a question
    and at least ``requests // 4`` reaching an outcome are timed, each followed by one
    bare-view POST. Then, as long as fewer than ``requests // 4`` of those outcomes had been
    shown before, the same paths again (new rulings), timing only their last answer: on a
    large tree nearly every outcome a random walk reaches is new to the process, where a club's
    evening reaches the same outcomes again."""
    result = StepTimes()
    shown: set[str] = set()
    # Warm up: templates, the snapshot cache, the connection.
    for _ in range(2):
        run = WizardRun(tree, club_slug, rng)
        while not run.done:
            answer = run.next_answer()
            post_answer(client, run, answer)
        shown.add(answer.target)
        bare_post(client)
    paths: list[list[int]] = []
    while (
        len(result.questions) < requests
        or len(result.outcomes) + len(result.new_outcomes) < requests // 4
    ):
        run = WizardRun(tree, club_slug, rng)
        result.walks += 1
        paths.append([])
        while not run.done:
            answer = run.next_answer()
            first = run.step == 1
            paths[-1].append(answer.index)
            elapsed, _ = post_answer(client, run, answer)
            if answer.outcome:
                (result.outcomes if answer.target in shown else result.new_outcomes).append(elapsed)
                shown.add(answer.target)
            else:
                result.questions.append(elapsed)
                (result.first_questions if first else result.later_questions).append(elapsed)
            result.bare.append(bare_post(client))
    for path in itertools.cycle(paths):
        if len(result.outcomes) >= requests // 4:
            break
        run = WizardRun(tree, club_slug, rng)
        for index in path:
            answer = run.next_answer(index)
            elapsed, _ = post_answer(client, run, answer)
        result.outcomes.append(elapsed)
        result.bare.append(bare_post(client))
    return result


# --------------------------------------------------------------------------------------------
# Pages


@dataclass
class PageTimes:
    times: list[float]
    bare: list[float]


def page_times(
    client: Client, url: str, requests: int, what: str, budget: float = 10.0
) -> PageTimes:
    """GET ``url`` up to ``requests`` times (after one warm-up), each followed by a bare-view
    GET, within about ``budget`` seconds: at least three requests, or one when the warm-up
    alone took a third of the budget (a page of several seconds is slow enough to see)."""
    started = time.perf_counter()
    check(client.get(url), what)
    warmup = time.perf_counter() - started
    minimum = 1 if warmup > budget / 3 else 3
    times, bare = [], []
    deadline = started + budget
    while len(times) < requests and (len(times) < minimum or time.perf_counter() < deadline):
        begun = time.perf_counter()
        response = client.get(url)
        times.append(time.perf_counter() - begun)
        check(response, what)
        bare.append(bare_get(client))
    return PageTimes(times, bare)


# Transaction control is not a query (and is not counted by django_assert_num_queries in the
# tests, which run inside a transaction).
TRANSACTION_CONTROL = ("BEGIN", "COMMIT", "ROLLBACK", "SAVEPOINT", "RELEASE SAVEPOINT")


def count_queries(send: Callable[[], object], what: str, status: int = 200) -> int:
    """SQL queries of one request, without BEGIN/COMMIT/SAVEPOINT statements."""
    with CaptureQueriesContext(connection) as captured:
        response = send()
    check(response, what, status)
    return sum(
        not query["sql"].lstrip().upper().startswith(TRANSACTION_CONTROL)
        for query in captured.captured_queries
    )
