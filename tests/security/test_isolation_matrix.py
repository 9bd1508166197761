"""Club isolation for every URL of the app, generated from the URL configuration.

Every route found by walking ``get_resolver().url_patterns`` must have a rule in ``RULES``:
for each persona (director, reviewer, trainer and admin of club A, director of club B,
anonymous) the status it gets, with real objects of club A substituted into the URL (rulings in
each state, a practice, a club case, a session, an article, a tree). A new view without a rule
fails ``test_every_route_has_a_rule``, and its matrix cell fails with "no rule".

Besides the status, every page that answers 200 is searched for club A's private data when the
visitor is not a member of club A (and for club B's when the visitor is): a list that leaks
another club's rulings fails even when its status is right.

POST requests carry valid data, so "allowed" means the action really happens (a redirect after
the change) and "refused" means a refusal of a request that would otherwise have worked. Each
request runs in a transaction that is rolled back, so every cell starts from the same world.
"""

from __future__ import annotations

import re
import uuid as uuid_lib
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.tokens import default_token_generator
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import transaction
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, reverse
from django.utils import timezone
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode

from clubs.models import User
from rulings.models import Poll, PollAnswer, Ruling
from scores.models import Event, StoredDeal
from tests.support.world import PATH, PERSONAS, TREE, World
from training.models import RoomPoll, TrainingCase
from transfer import bundles as transfer
from transfer.models import ImportRecord
from trees import snapshot

LOGIN = "login"  # a redirect to the login page
ADMIN_LOGIN = "admin-login"  # a redirect to the admin site's login page
ANY_LOGIN = "any-login"  # a redirect to either login page
ADMIN_INDEX = "admin-index"  # a redirect to the admin site's index
OK = 200
DATA = Path(__file__).resolve().parent.parent / "data"


# --------------------------------------------------------------------------------------------
# Walking the URL configuration


@dataclass(frozen=True)
class Route:
    key: str  # "namespace:name", or the route itself for an unnamed pattern
    route: str
    named: bool


def _walk(patterns, prefix: str = "", namespace: str = "") -> Iterator[Route]:
    for pattern in patterns:
        if isinstance(pattern, URLResolver):
            inner = ":".join(part for part in (namespace, pattern.namespace or "") if part)
            yield from _walk(pattern.url_patterns, prefix + str(pattern.pattern), inner)
        elif isinstance(pattern, URLPattern):
            route = prefix + str(pattern.pattern)
            if pattern.name:
                key = f"{namespace}:{pattern.name}" if namespace else pattern.name
                yield Route(key, route, named=True)
            else:
                yield Route(route, route, named=False)


def routes() -> list[Route]:
    return list(_walk(get_resolver().url_patterns))


# --------------------------------------------------------------------------------------------
# Rules


def who(  # persona letters, so the rules read as a table
    D: Any,
    R: Any,
    T: Any,
    A: Any,
    B: Any,
    anon: Any = LOGIN,
) -> dict[str, Any]:
    return dict(zip(PERSONAS, (D, R, T, A, B, anon), strict=True))


def everyone(status: Any) -> dict[str, Any]:
    return who(status, status, status, status, status, status)


def members(status: Any, b: Any = 404) -> dict[str, Any]:
    """Every member of club A gets ``status``; club B ``b``; anonymous the login page."""
    return who(status, status, status, status, b)


@dataclass(frozen=True)
class Case:
    variant: str
    method: str
    expect: dict[str, Any]
    kwargs: Callable[[World], dict[str, Any]] = lambda w: {}
    query: Callable[[World], str] = lambda w: ""
    data: Callable[[World], dict[str, Any]] = lambda w: {}
    personas: tuple[str, ...] = PERSONAS


def uuid_of(name: str) -> Callable[[World], dict[str, Any]]:
    return lambda w: {"uuid": getattr(w, name).uuid}


def poll_of(name: str) -> Callable[[World], dict[str, Any]]:
    """The ruling ``name`` with a player poll (issue 33), made on first use in a test."""

    def build(w: World) -> dict[str, Any]:
        ruling = getattr(w, name)
        Poll.objects.get_or_create(
            ruling=ruling,
            defaults={
                "dealer": "N",
                "hand": "AK32.QJ5.T98.765",
                "auction": "1H P",
                "created_at": timezone.now(),
            },
        )
        return {"uuid": ruling.uuid}

    return build


def room_poll_of(opened: bool) -> Callable[[World], dict[str, Any]]:
    """The world's session with a case that can poll the room, and (``opened``) its open poll,
    made on first use in a test."""

    def build(w: World) -> dict[str, Any]:
        TrainingCase.objects.filter(pk=w.case.pk).update(
            auction="N: 1H P 2H? P 4H", poll_hand="AK32.QJ5.T98.765"
        )
        if opened and not RoomPoll.objects.filter(session=w.session, closed_at=None).exists():
            RoomPoll.objects.create(
                session=w.session, dealer="N", hand="AK32.QJ5.T98.765", auction="1H P 2H P",
                opened_at=timezone.now(),
            )  # fmt: skip
        return {"pk": w.session.pk}

    return build


def poll_answer_of(name: str) -> Callable[[World], dict[str, Any]]:
    """The ruling ``name`` with a poll and one answer to withdraw, made on first use."""

    def build(w: World) -> dict[str, Any]:
        ruling = getattr(w, name)
        poll_of(name)(w)
        poll = Poll.objects.get(ruling=ruling)
        answer, _new = PollAnswer.objects.get_or_create(
            poll=poll,
            player="JdV",
            defaults={"level": "club", "call": "2H", "answered_at": timezone.now()},
        )
        PollAnswer.objects.filter(pk=answer.pk).update(withdrawn=False)
        return {"uuid": ruling.uuid, "pk": answer.pk}

    return build


POLL_ANSWER = {"player": "JdV", "level": "club", "call": "2H", "seen": 0}
POLL_PREPARE = {
    "dealer": "N",
    "vulnerability": "None",
    "auction": "1h p",
    "hand": "AK32.QJ5.T98.765",
    "question": "Wat bied je?",
}


def import_of(club: str) -> Callable[[World], dict[str, Any]]:
    """An import (of no rulings) into the world's ``club``, made on first use in a test."""

    def build(w: World) -> dict[str, Any]:
        entry, _new = ImportRecord.objects.get_or_create(
            club=getattr(w, club),
            file_name="laptop.json",
            defaults={"sha256": "0" * 64, "at": timezone.now()},
        )
        return {"uuid": entry.uuid}

    return build


def answer_data(name: str) -> Callable[[World], dict[str, Any]]:
    """A valid answer to the current question of the ruling ``name``."""

    def build(w: World) -> dict[str, Any]:
        ruling: Ruling = getattr(w, name)
        step = len(ruling.path) + 1
        return {
            "node": ruling.current_node_key,
            "step": step,
            "revision": ruling.revision,
            "choice": PATH[step - 1] if step <= len(PATH) else "x",
        }

    return build


def first_answer(w: World, club: str = "troefkaart") -> dict[str, Any]:
    tree = snapshot.get(w.open.snapshot_id)
    return {
        "node": tree.start,
        "step": 1,
        "revision": 0,
        "choice": PATH[0],
        "snapshot": tree.digest,
        "club": club,
        "played_on": "2026-03-03",
    }


CONTEXT = {"played_on": "2026-03-03", "board": "12", "table": "4", "event": "Clubavond"}
FREE = {
    **CONTEXT,
    "revision": 0,
    "laws": "68, 70",
    "decision": "Betwiste claim.",
    "action": "final",
}
REVIEW = {"verdict": "confirmed", "comment": "Juist beslist."}


def confirmed_review(w: World) -> dict[str, Any]:
    """The second step of a review: confirmed against the ruling's audit chain as it is now."""
    seen = Ruling.objects.get(pk=w.final.pk).audit_sequence
    return {**REVIEW, "confirmed": "1", "seen": seen}


def case_form(w: World) -> dict[str, Any]:
    return {
        "title_nl": "Nieuwe casus",
        "tree_slug": TREE,
        "situation_nl": "Zuid biedt 1♥ over 1♠.",
        "expected_outcomes": list(w.shipped_case.expected_outcomes),
        "path_answers": "",
        "explanation_nl": "Uitleg.",
        "cites_text": "27B1a",
        "difficulty": "1",
        "tags_text": "",
    }


def bundle_of_club_a(w: World) -> dict[str, Any]:
    text = "".join(transfer.iter_bundle(w.club_a))
    return {"bundle": SimpleUploadedFile("a.json", text.encode(), "application/json")}


def pbn_file(w: World) -> dict[str, Any]:
    data = (DATA / "deals.pbn").read_bytes()
    return {"file": SimpleUploadedFile("deals.pbn", data), "event": "Clubavond"}


def _deal_of(club: Any, event: str = "Clubavond") -> StoredDeal:
    """A board of ``event`` of ``club`` (made on first use in a test)."""
    row, _new = StoredDeal.objects.get_or_create(
        club=club,
        event=event,
        board=1,
        defaults={"dealer": "N", "vulnerability": "None", "cards": BOARD_1},
    )
    Event.objects.get_or_create(club=club, name=event)
    return row


def board_of(club_name: str) -> Callable[[World], dict[str, Any]]:
    """Club A's deals page route with the board of ``club_name``'s event."""
    return lambda w: {"slug": w.club_a.slug, "pk": _deal_of(getattr(w, club_name)).pk}


def event_of(club_name: str, fresh: bool = False) -> Callable[[World], dict[str, Any]]:
    """Club A's route with an event of ``club_name``; ``fresh``: a new one per request (a
    delete by one persona must not turn the next one's request into a 404)."""

    def build(w: World) -> dict[str, Any]:
        club = getattr(w, club_name)
        name = f"Verwijderbaar {uuid_lib.uuid4()}" if fresh else "Clubavond"
        _deal_of(club, name)
        return {"slug": w.club_a.slug, "pk": Event.objects.get(club=club, name=name).pk}

    return build


BOARD_1 = "N:AK32.QJ5.T98.765 QJ4.K987.AK3.K32 T98.T432.Q54.AJ4 765.A6.J762.QT98"

# Board 7 of the world's final ruling, typed by hand: every card once.
TYPED_HANDS = {
    "north": "AKQJ.AKQJ.AKQJ.A",
    "east": "765.765.765.9876",
    "south": "T98.T98.T98.KQJT",
    "west": "432.432.432.5432",
    "dealer": "S",
    "vulnerability": "All",
}


INVITE = {"username": "nieuw", "first_name": "Nel", "email": "", "roles": "director"}


def club_a(w: World) -> dict[str, Any]:
    return {"slug": w.club_a.slug}


def member_of_a(w: World) -> dict[str, Any]:
    return {"slug": w.club_a.slug, "user_id": w.users["director_a"].pk}


def member_b_via_a(w: World) -> dict[str, Any]:
    """Club B's director, asked for through club A's pages."""
    return {"slug": w.club_a.slug, "user_id": w.users["director_b"].pk}


def roles(w: World) -> dict[str, Any]:
    return {"roles": ["director", "reviewer"]}


def password_link(w: World) -> dict[str, Any]:
    user = User.objects.get(pk=w.users["director_a"].pk)
    return {
        "uidb64": urlsafe_base64_encode(force_bytes(user.pk)),
        "token": default_token_generator.make_token(user),
    }


def forged_link(w: World) -> dict[str, Any]:
    return {**password_link(w), "token": "abc-0123456789abcdef"}


def admin_rule(route: Route) -> list[Case]:
    """The Django admin is for staff only; no persona here is staff (a club's admin role is
    not). Every admin page sends them to the admin login, which itself is public.

    Every admin view passes the same ``AdminSite.admin_view`` check of ``is_staff``, whatever
    the club roles: the index, login and logout are tried by every persona, the model pages
    by the highest club role (admin of club A) and by an anonymous visitor."""
    if route.key == "admin:login":
        return [Case("", "GET", everyone(OK))]
    if route.key == "admin:logout":
        # A non-staff user logging out of the admin is sent to its index (and from there to
        # the admin login).
        return [Case("", "GET", who(*[ADMIN_INDEX] * 5, anon=ANY_LOGIN))]
    expect = who(*[ADMIN_LOGIN] * 5, anon=ANY_LOGIN)
    if route.key == "admin:index":
        return [Case("", "GET", expect)]
    return [Case("", "GET", expect, personas=("admin_a", "anonymous"))]


ADMIN_SAMPLES = {"object_id": "1", "content_type_id": "1", "id": "1", "app_label": "clubs"}

RULES: dict[str, list[Case]] = {
    # Home, first run, language, login
    "home": [Case("", "GET", members(OK, b=OK))],
    "setup": [
        Case("users exist", "GET", everyone(404)),
        Case("users exist", "POST", everyone(404), data=lambda w: {"username": "x"}),
    ],
    "set_language": [
        Case("", "GET", who(405, 405, 405, 405, 405, 405)),
        Case("", "POST", everyone(302), data=lambda w: {"language": "en", "next": "/"}),
    ],
    "login": [
        Case("", "GET", everyone(OK)),
        Case("wrong password", "POST", everyone(OK), data=lambda w: {"username": "anna"}),
    ],
    "logout": [
        Case("", "GET", who(405, 405, 405, 405, 405)),
        Case("", "POST", everyone(LOGIN)),
    ],
    # Forgotten password: public. Without e-mail configured (as here) the page says to ask the
    # club's admin, and a POST sends nothing; a one-time link is checked before anything else.
    "password_reset": [
        Case("", "GET", everyone(OK)),
        Case("no e-mail", "POST", everyone(OK), data=lambda w: {"email": "anna@example.org"}),
    ],
    "password_reset_done": [Case("", "GET", everyone(OK))],
    "password_set": [
        Case("forged link", "GET", everyone(OK), kwargs=lambda w: forged_link(w)),
        Case("valid link", "GET", everyone(302), kwargs=lambda w: password_link(w)),
    ],
    # Club members: only an admin of the club manages them; another club's member is not found.
    "club_members": [Case("", "GET", who(403, 403, 403, OK, 404), kwargs=club_a)],
    "club_invite": [
        Case("", "GET", who(403, 403, 403, OK, 404), kwargs=club_a),
        Case("", "POST", who(403, 403, 403, 302, 404), kwargs=club_a, data=lambda w: INVITE),
    ],
    "club_poll_settings": [
        Case(
            "",
            "POST",
            who(403, 403, 403, 302, 404),
            kwargs=club_a,
            data=lambda w: {
                "poll_consider_percent": 30,
                "poll_choose_minimum": 1,
                "poll_minimum_answers": 4,
            },
        )
    ],
    "club_score_settings": [
        Case(
            "",
            "POST",
            who(403, 403, 403, 302, 404),
            kwargs=club_a,
            data=lambda w: {
                "average_plus_percent": 65,
                "average_percent": 50,
                "average_minus_percent": 35,
            },
        ),
    ],
    "club_member": [
        Case("director A", "GET", who(403, 403, 403, OK, 404), kwargs=member_of_a),
        Case("director B", "GET", who(403, 403, 403, 404, 404), kwargs=member_b_via_a),
    ],
    "club_member_roles": [
        Case("director A", "POST", who(403, 403, 403, 302, 404), kwargs=member_of_a, data=roles),
        Case("director B", "POST", who(403, 403, 403, 404, 404), kwargs=member_b_via_a, data=roles),
    ],
    "club_member_remove": [
        Case("director A", "POST", who(403, 403, 403, 302, 404), kwargs=member_of_a),
        Case("director B", "POST", who(403, 403, 403, 404, 404), kwargs=member_b_via_a),
    ],
    "club_member_password": [
        Case("director A", "POST", who(403, 403, 403, 302, 404), kwargs=member_of_a),
        Case("director B", "POST", who(403, 403, 403, 404, 404), kwargs=member_b_via_a),
    ],
    # The wizard: only the ruling's director or a club admin continues a ruling.
    "wizard:start": [Case("", "GET", members(OK, b=OK))],
    "wizard:tree": [Case("", "GET", members(302, b=302), kwargs=lambda w: {"slug": TREE})],
    "wizard:draft": [
        Case(
            "new",
            "GET",
            who(OK, 403, 403, OK, OK),
            kwargs=lambda w: {"slug": TREE, "uuid": uuid_lib.uuid4()},
        ),
        Case(
            "new, club A",
            "POST",
            who(302, 403, 403, 302, 404),
            kwargs=lambda w: {"slug": TREE, "uuid": uuid_lib.uuid4()},
            data=first_answer,
        ),
        Case(
            "existing",
            "GET",
            who(302, 403, 403, 302, 404),
            kwargs=lambda w: {"slug": TREE, "uuid": w.open.uuid},
        ),
        Case(
            "existing",
            "POST",
            who(302, 403, 403, 302, 404),
            kwargs=lambda w: {"slug": TREE, "uuid": w.open.uuid},
            data=lambda w: {**first_answer(w), "revision": w.open.revision},
        ),
    ],
    "wizard:ruling": [
        Case("open", "GET", who(OK, 403, 403, OK, 404), kwargs=uuid_of("open")),
        Case("deferred", "GET", who(OK, 403, 403, OK, 404), kwargs=uuid_of("deferred")),
        Case("outcome", "GET", who(OK, 403, 403, OK, 404), kwargs=uuid_of("at_outcome")),
        # A saved ruling has one page, its record: the old URL moved there for good.
        Case("final", "GET", members(301), kwargs=uuid_of("final")),
    ],
    "wizard:step": [
        Case(
            "open",
            "GET",
            who(OK, 403, 403, OK, 404),
            kwargs=lambda w: {"uuid": w.open.uuid, "number": 1},
        ),
        Case(
            "final",
            "GET",
            who(302, 403, 403, 302, 404),
            kwargs=lambda w: {"uuid": w.final.uuid, "number": 1},
        ),
    ],
    "wizard:answer": [
        Case(
            "open",
            "POST",
            who(302, 403, 403, 302, 404),
            kwargs=uuid_of("open"),
            data=answer_data("open"),
        ),
        Case(
            "final",
            "POST",
            who(302, 403, 403, 302, 404),
            kwargs=uuid_of("final"),
            data=answer_data("final"),
        ),
        Case("open", "GET", who(405, 405, 405, 405, 405), kwargs=uuid_of("open")),
    ],
    "wizard:context": [
        Case(
            "outcome",
            "POST",
            who(302, 403, 403, 302, 404),
            kwargs=uuid_of("at_outcome"),
            data=lambda w: CONTEXT,
        ),
    ],
    "wizard:defer": [
        Case("open", "POST", who(302, 403, 403, 302, 404), kwargs=uuid_of("open")),
    ],
    # The hand-over to another tree (rulings/hand_over.py): refused in place (302 back to the
    # ruling) when the outcome does not hand over; never another club's or director's ruling.
    "wizard:hand_over": [
        Case(
            "outcome",
            "POST",
            who(302, 403, 403, 302, 404),
            kwargs=uuid_of("at_outcome"),
            data=lambda w: {"outcome": w.at_outcome.outcome_key, "revision": "0", "tree": "x"},
        ),
        Case("outcome", "GET", who(405, 405, 405, 405, 405), kwargs=uuid_of("at_outcome")),
    ],
    "wizard:resume": [
        Case("deferred", "POST", who(302, 403, 403, 302, 404), kwargs=uuid_of("deferred")),
    ],
    "wizard:table": [
        Case(
            "open",
            "POST",
            who(302, 403, 403, 302, 404),
            kwargs=uuid_of("open"),
            data=lambda w: {"table": "4", "board": "9"},
        ),
    ],
    "wizard:discard": [
        Case("open", "POST", who(302, 403, 403, 302, 404), kwargs=uuid_of("open")),
    ],
    # Free rulings: started by a director of any club; a draft is continued as a tree ruling.
    "wizard:free_start": [Case("", "GET", who(302, 403, 403, 302, 302))],
    "wizard:free_laws": [Case("", "GET", members(OK, b=OK), query=lambda w: "wet=claim")],
    "wizard:free": [
        Case(
            "new",
            "GET",
            who(OK, 403, 403, OK, OK),
            kwargs=lambda w: {"uuid": uuid_lib.uuid4()},
        ),
        Case(
            "new, saved",
            "POST",
            who(302, 403, 403, 302, 302),
            kwargs=lambda w: {"uuid": uuid_lib.uuid4()},
            data=lambda w: FREE,
        ),
        Case("draft", "GET", who(OK, 403, 403, OK, 404), kwargs=uuid_of("free_draft")),
        Case(
            "draft",
            "POST",
            who(302, 403, 403, 302, 404),
            kwargs=uuid_of("free_draft"),
            data=lambda w: {**FREE, "revision": w.free_draft.audit_sequence},
        ),
        Case("final", "GET", members(302), kwargs=uuid_of("free_final")),
    ],
    "wizard:save": [
        Case(
            "outcome",
            "POST",
            who(302, 403, 403, 302, 404),
            kwargs=uuid_of("at_outcome"),
            data=lambda w: CONTEXT,
        ),
    ],
    # The archive: every member of the club sees it; reviewers review; admins transfer.
    "archive:list": [
        Case("own club", "GET", members(OK, b=OK)),
        Case("?club=A", "GET", members(OK), query=lambda w: "club=troefkaart"),
    ],
    "archive:statistics": [
        Case("own club", "GET", members(OK, b=OK)),
        Case("?club=A", "GET", members(OK), query=lambda w: "club=troefkaart"),
    ],
    "archive:csv": [
        Case("own club", "GET", members(OK, b=OK)),
        Case("?club=A", "GET", members(OK), query=lambda w: "club=troefkaart"),
    ],
    # Directors import their own rulings (transfer.provenance); only admins download.
    "transfer:page": [
        Case("own club", "GET", who(OK, 403, 403, OK, OK)),
        Case("?club=A", "GET", who(OK, 403, 403, OK, 404), query=lambda w: "club=troefkaart"),
    ],
    "transfer:upload": [
        # Club B's director uploads into club B: the uuids are club A's, so every ruling is
        # a conflict and nothing is written (test_bundles: "outside this club").
        Case("club A's own bundle", "POST", who(302, 403, 403, 302, 302), data=bundle_of_club_a),
        Case(
            "?club=A",
            "POST",
            who(302, 403, 403, 302, 404),
            query=lambda w: "club=troefkaart",
            data=bundle_of_club_a,
        ),
        Case("", "GET", who(405, 405, 405, 405, 405)),
    ],
    "transfer:undo": [
        Case("club A's import", "POST", who(403, 403, 403, 302, 404), kwargs=import_of("club_a")),
        Case("club B's import", "POST", who(404, 404, 404, 404, 403), kwargs=import_of("club_b")),
        Case("", "GET", who(405, 405, 405, 405, 405), kwargs=import_of("club_a")),
    ],
    "transfer:download": [
        Case("own club", "GET", who(403, 403, 403, OK, 403)),
        Case("?club=A", "GET", who(403, 403, 403, OK, 404), query=lambda w: "club=troefkaart"),
    ],
    # The club's psyche register (rulings/pairs.py): its members only.
    "archive:pairs": [
        Case("club A", "GET", members(OK), kwargs=club_a),
        Case(
            "club B", "GET", who(404, 404, 404, 404, OK), kwargs=lambda w: {"slug": w.club_b.slug}
        ),
    ],
    "archive:detail": [
        Case("final", "GET", members(OK), kwargs=uuid_of("final")),
        Case("open", "GET", members(OK), kwargs=uuid_of("open")),
        Case("club B", "GET", who(404, 404, 404, 404, OK), kwargs=uuid_of("final_b")),
    ],
    "archive:review": [
        Case(
            "check",
            "POST",
            who(403, OK, 403, OK, 404),
            kwargs=uuid_of("final"),
            data=lambda w: REVIEW,
        ),
        Case(
            "final",
            "POST",
            who(403, 302, 403, 302, 404),
            kwargs=uuid_of("final"),
            data=confirmed_review,
        ),
        Case(
            "open",
            "POST",
            who(403, 403, 403, 403, 404),
            kwargs=uuid_of("open"),
            data=lambda w: REVIEW,
        ),
    ],
    "archive:appeal_form": [
        Case("final", "GET", members(OK), kwargs=uuid_of("final")),
        Case("club B", "GET", who(404, 404, 404, 404, OK), kwargs=uuid_of("final_b")),
    ],
    "archive:appeal": [
        Case(
            "final",
            "POST",
            who(403, 302, 403, 302, 404),
            kwargs=uuid_of("final"),
            data=lambda w: {"status": "open", "note": "Beroep aangetekend."},
        ),
    ],
    # Deals: a club's directors (and admins) import PBN files and type a ruling's hands.
    "scores:deals": [
        Case("", "GET", who(OK, 403, 403, OK, 404), kwargs=club_a),
        Case("", "POST", who(302, 403, 403, 302, 404), kwargs=club_a, data=pbn_file),
    ],
    # One board and one event: the same rights as importing; another club's board or event,
    # even through one's own club's address, is 404.
    "scores:board": [
        Case("club A", "GET", who(OK, 403, 403, OK, 404), kwargs=board_of("club_a")),
        Case("club B", "GET", who(404, 403, 403, 404, 404), kwargs=board_of("club_b")),
    ],
    "scores:event_scoring": [
        Case(
            "club A",
            "POST",
            who(302, 403, 403, 302, 404),
            kwargs=event_of("club_a"),
            data=lambda w: {"scoring": "butl"},
        ),
        Case(
            "club B",
            "POST",
            who(404, 403, 403, 404, 404),
            kwargs=event_of("club_b"),
            data=lambda w: {"scoring": "butl"},
        ),
    ],
    "scores:event_delete": [
        Case("club A", "GET", who(OK, 403, 403, OK, 404), kwargs=event_of("club_a")),
        Case("club A", "POST", who(302, 403, 403, 302, 404), kwargs=event_of("club_a", True)),
        Case("club B", "POST", who(404, 403, 403, 404, 404), kwargs=event_of("club_b", True)),
    ],
    "scores:ruling_deal": [
        Case("final", "GET", who(OK, 403, 403, OK, 404), kwargs=uuid_of("final")),
        Case(
            "final",
            "POST",
            who(302, 403, 403, 302, 404),
            kwargs=uuid_of("final"),
            data=lambda w: TYPED_HANDS,
        ),
    ],
    # The adjusted score: directors record it on a final ruling whose outcome allows one,
    # reviewers and admins too (and amend it); trainers are refused, club B sees nothing.
    "scores:record": [
        Case("final", "GET", who(OK, OK, 403, OK, 404), kwargs=uuid_of("final")),
        Case(
            "final",
            "POST",
            who(302, 302, 403, 302, 404),
            kwargs=uuid_of("final"),
            data=lambda w: {
                "kind": "weighted",
                "scoring": "mp",
                "offending_side": "EW",
                "non_contract_1": "4S=",
                "non_declarer_1": "N",
                "non_weight_1": "60",
                "non_contract_2": "4S-1",
                "non_declarer_2": "N",
                "non_weight_2": "40",
                "field": "420 450 -50",
                "sequence": w.final.audit_sequence,
            },
        ),
        Case("open", "GET", who(404, 404, 403, 404, 404), kwargs=uuid_of("open")),
    ],
    # The board's result: the club's directors, reviewers and admins; back to the record.
    "scores:result": [
        Case("final", "GET", who(302, 302, 403, 302, 404), kwargs=uuid_of("final")),
        Case(
            "final",
            "POST",
            who(302, 302, 403, 302, 404),
            kwargs=uuid_of("final"),
            data=lambda w: {"tricks_made": "9", "sequence": w.final.audit_sequence},
        ),
    ],
    # The auction on the record (issue 33): directors, reviewers and admins; back to the record.
    "archive:auction": [
        Case("final", "GET", who(302, 302, 403, 302, 404), kwargs=uuid_of("final")),
        Case(
            "final",
            "POST",
            who(302, 302, 403, 302, 404),
            kwargs=uuid_of("final"),
            data=lambda w: {"auction": "1h p p p", "sequence": w.final.audit_sequence},
        ),
    ],
    # A player poll (issue 33): the club's directors, reviewers and admins; trainers are
    # refused, club B sees nothing.
    "scores:poll": [Case("final", "GET", who(OK, OK, 403, OK, 404), kwargs=poll_of("final"))],
    "scores:poll_prepare": [
        Case(
            "final",
            "POST",
            who(302, 302, 403, 302, 404),
            kwargs=uuid_of("final"),
            data=lambda w: POLL_PREPARE | {"sequence": w.final.audit_sequence},
        )
    ],
    "scores:poll_screen": [
        Case("final", "GET", who(OK, OK, 403, OK, 404), kwargs=poll_of("final")),
        Case(
            "final",
            "POST",
            who(302, 302, 403, 302, 404),
            kwargs=poll_of("final"),
            data=lambda w: POLL_ANSWER,
        ),
    ],
    "scores:poll_typed": [
        Case(
            "final",
            "POST",
            who(302, 302, 403, 302, 404),
            kwargs=poll_of("final"),
            data=lambda w: POLL_ANSWER | {"considered": ""},
        )
    ],
    "scores:poll_withdraw": [
        Case("final", "POST", who(302, 302, 403, 302, 404), kwargs=poll_answer_of("final"))
    ],
    "scores:poll_sheet": [Case("final", "GET", who(OK, OK, 403, OK, 404), kwargs=poll_of("final"))],
    # Training: every member practises; trainers (and admins) write cases and run sessions.
    "training:index": [Case("", "GET", members(OK, b=OK))],
    "training:history": [Case("", "GET", members(OK, b=OK))],
    "training:case_create": [
        Case("", "GET", who(403, 403, OK, OK, 403)),
        Case("", "POST", who(403, 403, 302, 302, 403), data=case_form),
    ],
    "training:case": [
        Case("club case", "GET", members(OK), kwargs=lambda w: {"pk": w.case.pk}),
        Case("shipped", "GET", members(OK, b=OK), kwargs=lambda w: {"pk": w.shipped_case.pk}),
    ],
    "training:case_start": [
        Case("club case", "POST", members(302), kwargs=lambda w: {"pk": w.case.pk}),
    ],
    "training:case_edit": [
        Case("club case", "GET", who(403, 403, OK, OK, 404), kwargs=lambda w: {"pk": w.case.pk}),
        Case(
            "club case",
            "POST",
            who(403, 403, 302, 302, 404),
            kwargs=lambda w: {"pk": w.case.pk},
            data=case_form,
        ),
        Case(
            "shipped",
            "GET",
            who(404, 404, 404, 404, 404),
            kwargs=lambda w: {"pk": w.shipped_case.pk},
        ),
    ],
    "training:draft": [
        Case(
            "new",
            "GET",
            members(OK),
            kwargs=lambda w: {"pk": w.case.pk, "uuid": uuid_lib.uuid4()},
        ),
        Case(
            "new",
            "POST",
            members(302),
            kwargs=lambda w: {"pk": w.case.pk, "uuid": uuid_lib.uuid4()},
            data=first_answer,
        ),
        Case(
            "existing practice",
            "GET",
            who(302, 404, 404, 404, 404),
            kwargs=lambda w: {"pk": w.case.pk, "uuid": w.attempt.uuid},
        ),
    ],
    "training:attempt": [
        Case("in progress", "GET", who(OK, 404, 404, 404, 404), kwargs=uuid_of("attempt")),
        Case("graded", "GET", who(OK, 404, OK, OK, 404), kwargs=uuid_of("graded")),
        Case("live ruling", "GET", who(404, 404, 404, 404, 404), kwargs=uuid_of("final")),
    ],
    "training:attempt_grade": [
        Case("in progress", "POST", who(302, 404, 404, 404, 404), kwargs=uuid_of("attempt")),
    ],
    "training:join": [
        Case("", "GET", members(OK, b=OK)),
        Case("code of A", "POST", members(302, b=400), data=lambda w: {"code": w.session.code}),
    ],
    "training:session_create": [
        Case("", "GET", who(403, 403, OK, OK, 403)),
        Case(
            "",
            "POST",
            who(403, 403, 302, 302, 403),
            data=lambda w: {"title": "Les", "cases": [w.case.pk]},
        ),
    ],
    "training:session": [
        Case("", "GET", who(403, 403, OK, OK, 404), kwargs=lambda w: {"pk": w.session.pk}),
    ],
    "training:session_close": [
        Case("", "POST", who(403, 403, 302, 302, 404), kwargs=lambda w: {"pk": w.session.pk}),
    ],
    "training:session_practice": [
        Case(
            "participant D",
            "GET",
            who(OK, 404, 404, 404, 404),
            kwargs=lambda w: {"pk": w.session.pk},
        ),
    ],
    # Polling the room (issue 33): the session's trainer opens and closes; participants answer.
    "training:room_poll_open": [
        Case(
            "",
            "POST",
            who(403, 403, 302, 302, 404),
            kwargs=room_poll_of(opened=False),
            data=lambda w: {"case": w.case.pk},
        )
    ],
    "training:room_poll_close": [
        Case("", "POST", who(403, 403, 302, 302, 404), kwargs=room_poll_of(opened=True))
    ],
    "training:room_poll": [
        Case("participant D", "GET", who(OK, 404, 404, 404, 404), kwargs=room_poll_of(True)),
        Case(
            "participant D",
            "POST",
            who(302, 404, 404, 404, 404),
            kwargs=room_poll_of(True),
            data=lambda w: {"call": "P"},
        ),
    ],
    "training:explore_index": [Case("", "GET", members(OK, b=OK))],
    "training:explore": [
        Case("", "GET", members(OK, b=OK), kwargs=lambda w: {"slug": TREE}),
    ],
    # Law text and trees are public.
    "laws:editions": [Case("", "GET", everyone(OK))],
    "laws:search": [Case("", "GET", everyone(OK), query=lambda w: "q=kaart")],
    "laws:compare_index": [Case("", "GET", everyone(OK))],
    "laws:compare": [
        Case("", "GET", everyone(OK), kwargs=lambda w: {"number": w.article.number}),
    ],
    "laws:edition": [
        Case("", "GET", everyone(OK), kwargs=lambda w: {"code": w.article.edition.code}),
    ],
    "laws:article": [
        Case(
            "",
            "GET",
            everyone(OK),
            kwargs=lambda w: {"code": w.article.edition.code, "number": w.article.number},
        ),
    ],
    # Importing official text is for the site's staff only: no persona here is staff (a
    # club's administrator is not), so every one of them is sent to the login page.
    "laws:import": [
        Case("", "GET", everyone(LOGIN), kwargs=lambda w: {"code": w.article.edition.code}),
        Case(
            "confirm",
            "POST",
            everyone(LOGIN),
            kwargs=lambda w: {"code": w.article.edition.code},
            data=lambda w: {"action": "confirm", "sha256": "0" * 64},
        ),
    ],
    "trees:list": [Case("", "GET", everyone(OK))],
    "trees:detail": [Case("", "GET", everyone(OK), kwargs=lambda w: {"slug": TREE})],
    "trees:print": [Case("", "GET", everyone(OK), kwargs=lambda w: {"slug": TREE})],
}


def is_admin(route: Route) -> bool:
    return route.key.startswith("admin:") or route.route.startswith("beheer/")


def rules_for(route: Route) -> list[Case]:
    if is_admin(route):
        return admin_rule(route)
    return RULES.get(route.key, [])


# --------------------------------------------------------------------------------------------
# Requests


def url_for(route: Route, case: Case, w: World) -> str:
    kwargs = case.kwargs(w)
    if is_admin(route):
        if "(?P<url>" in route.route:
            return "/beheer/no-such-page/"
        converters = re.compile(r"(?<!P)<(?:\w+:)?(\w+)>")
        kwargs = {name: ADMIN_SAMPLES[name] for name in converters.findall(route.route)}
        kwargs |= {k: v for k, v in ADMIN_SAMPLES.items() if f"(?P<{k}>" in route.route}
        if not route.named:
            return "/" + converters.sub(lambda m: kwargs[m.group(1)], route.route)
    url = reverse(route.key, kwargs=kwargs)
    query = case.query(w)
    return f"{url}?{query}" if query else url


class _Rollback(Exception):
    pass


def request(client: Client, method: str, url: str, data: dict[str, Any]):
    """One request, its writes rolled back afterwards."""
    response = None
    try:
        with transaction.atomic():
            response = client.get(url) if method == "GET" else client.post(url, data)
            if getattr(response, "streaming", False):
                response.body = b"".join(response.streaming_content)
            else:
                response.body = response.content
            raise _Rollback
    except _Rollback:
        pass
    snapshot.clear_cache()
    return response


def private_marks(w: World, club: str) -> list[str]:
    """Strings that only a member of ``club`` may see."""
    if club == "a":
        rulings = [w.open, w.deferred, w.at_outcome, w.final, w.attempt, w.graded]
        return [str(r.uuid) for r in rulings] + [w.club_a.name, w.case.title_nl, w.session.title]
    return [str(w.final_b.uuid), w.club_b.name]


def check(persona: str, expected: Any, response, w: World) -> None:
    status = response.status_code
    location = response.get("Location", "")
    if expected == LOGIN:
        assert status == 302, (status, location)
        assert location.startswith(reverse("login")), (status, location)
    elif expected == ADMIN_LOGIN:
        assert status == 302, (status, location)
        assert location.startswith(reverse("admin:login")), (status, location)
    elif expected == ADMIN_INDEX:
        assert status == 302, (status, location)
        assert location == reverse("admin:index"), (status, location)
    elif expected == ANY_LOGIN:
        logins = (reverse("login"), reverse("admin:login"))
        assert status == 302, (status, location)
        assert location.startswith(logins), (status, location)
    else:
        assert status == expected, (status, location)
        if status == 302:
            assert not location.startswith(reverse("login")), location
    if status != 200:
        return
    body = response.body.decode("utf-8", errors="replace")
    outsider_of = {"director_b": "a", "anonymous": "a"}.get(persona, "b")
    for mark in private_marks(w, outsider_of):
        assert mark not in body, f"{persona} sees {mark!r} of club {outsider_of.upper()}"
    if persona == "anonymous":
        for mark in private_marks(w, "b"):
            assert mark not in body, f"anonymous sees {mark!r} of club B"


# --------------------------------------------------------------------------------------------
# The matrix


def cells() -> Iterator[Any]:
    for route in routes():
        for case in rules_for(route) or [Case("NO RULE", "GET", {})]:
            label = " ".join(filter(None, [route.key, case.variant, case.method]))
            yield pytest.param(route, case, id=label)


@pytest.mark.parametrize(("route", "case"), list(cells()))
def test_matrix(world: World, client_as, db, route: Route, case: Case) -> None:
    assert case.expect, f"no rule for {route.key} ({route.route}): add one to RULES"
    wrong = []
    for persona in case.personas:
        client = client_as(persona)
        url = url_for(route, case, world)
        data = case.data(world) if case.method == "POST" else {}
        response = request(client, case.method, url, data)
        try:
            check(persona, case.expect[persona], response, world)
        except AssertionError as error:
            wrong.append(f"{persona}: expected {case.expect[persona]}, got {error}")
    assert not wrong, f"{case.method} {url}\n" + "\n".join(wrong)


def test_every_route_has_a_rule() -> None:
    missing = [r.key for r in routes() if not rules_for(r)]
    assert not missing, f"routes without an isolation rule: {missing}"


def test_no_rule_for_a_route_that_is_gone() -> None:
    keys = {r.key for r in routes()}
    assert not set(RULES) - keys, f"rules for routes that do not exist: {set(RULES) - keys}"


def test_the_posted_data_is_valid(world, db):
    """The allowed persona's POST really changes something: "refused" in the matrix means a
    refusal of a request that would otherwise have worked."""
    client = Client()
    client.force_login(world.users["director_a"])
    before = Ruling.objects.count()
    response = client.post(
        reverse("wizard:draft", kwargs={"slug": TREE, "uuid": uuid_lib.uuid4()}),
        first_answer(world),
    )
    assert response.status_code == 302
    assert Ruling.objects.count() == before + 1
    answer = answer_data("open")(world)
    client.post(reverse("wizard:answer", kwargs={"uuid": world.open.uuid}), answer)
    stored = Ruling.objects.get(pk=world.open.pk)
    assert stored.path[-1] == [answer["node"], answer["choice"]]
    assert len(stored.path) == len(world.open.path) + 1
