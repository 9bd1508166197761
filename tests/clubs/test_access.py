"""The club-isolation helper that every view uses."""

import uuid

import pytest
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.test import RequestFactory
from django.utils import timezone

from clubs.access import clubs, get_club, get_for_user, memberships, require_role, roles_in
from clubs.models import Membership, Role
from rulings.models import Ruling


def request_for(user):
    request = RequestFactory().get("/")
    request.user = user
    return request


@pytest.fixture
def ruling_a(club_a, director_a):
    return Ruling.objects.create(
        club=club_a,
        director=director_a,
        tree_slug="verzaking",
        tree_title="Verzaking",
        edition_code="2017",
        tree_version="x",
        current_node_key="start",
        played_on=timezone.localdate(),
    )


def test_a_member_gets_the_object(director_a, ruling_a):
    found = get_for_user(request_for(director_a), Ruling.objects.all(), uuid=ruling_a.uuid)
    assert found == ruling_a


def test_another_club_or_no_object_gets_404(director_a, director_b, ruling_a):
    with pytest.raises(Http404):
        get_for_user(request_for(director_b), Ruling.objects.all(), uuid=ruling_a.uuid)
    with pytest.raises(Http404):
        get_for_user(request_for(director_a), Ruling.objects.all(), uuid=uuid.uuid4())


def test_a_member_without_the_role_gets_403(reviewer_a, ruling_a):
    with pytest.raises(PermissionDenied):
        get_for_user(
            request_for(reviewer_a), Ruling.objects.all(), roles=[Role.DIRECTOR], uuid=ruling_a.uuid
        )


def test_malformed_lookups_are_404(director_a, ruling_a):
    with pytest.raises(Http404):
        get_for_user(request_for(director_a), Ruling.objects.all(), uuid="not-a-uuid")


def test_admin_holds_every_role(admin_a, club_a, club_b):
    request = request_for(admin_a)
    assert roles_in(request, club_a) == set(Role.values)
    require_role(request, club_a, [Role.REVIEWER])
    with pytest.raises(Http404):
        require_role(request, club_b, [Role.DIRECTOR])


def test_clubs_lists_only_memberships(director_a, club_a, club_b):
    Membership.objects.create(user=director_a, club=club_a, role=Role.TRAINER)
    request = request_for(director_a)
    assert clubs(request) == [club_a]
    assert clubs(request, roles=[Role.REVIEWER]) == []
    assert get_club(request, "troefkaart") == club_a
    with pytest.raises(Http404):
        get_club(request, "vrije-slagje")


def test_memberships_are_fetched_once_per_request(director_a, club_a, django_assert_num_queries):
    request = request_for(director_a)
    with django_assert_num_queries(1):
        clubs(request)
        roles_in(request, club_a)
        get_club(request, "troefkaart")


def test_memberships_are_the_users_own_each_with_its_club(director_a, admin_a, club_a, club_b):
    Membership.objects.create(user=director_a, club=club_b, role=Role.REVIEWER)
    found = memberships(request_for(director_a))
    assert [(m.club.slug, m.role) for m in found] == [
        (club_a.slug, Role.DIRECTOR),
        (club_b.slug, Role.REVIEWER),
    ]
    assert [m.club.slug for m in memberships(request_for(admin_a))] == [club_a.slug]
