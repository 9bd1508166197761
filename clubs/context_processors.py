from functools import partial

from django.http import HttpRequest

from clubs.access import clubs


def memberships(request: HttpRequest) -> dict:
    # A callable: templates that never look at the clubs cost no query.
    return {"user_clubs": partial(clubs, request)}
