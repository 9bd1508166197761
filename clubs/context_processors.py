from functools import partial

from django.http import HttpRequest

from clubs.access import clubs
from clubs.models import Role


def memberships(request: HttpRequest) -> dict:
    # Callables: templates that never look at the clubs cost no query.
    return {
        "user_clubs": partial(clubs, request),
        "admin_clubs": partial(clubs, request, roles=[Role.ADMIN]),
        # Directors (and admins) import a club's deals (scores.deal_views).
        "director_clubs": partial(clubs, request, roles=[Role.DIRECTOR]),
    }
