"""A club's admins manage its members: invite, roles, removal and one-time password links.

Every change runs in one transaction that first locks the club's row, so two admins (or one
double-clicked button) cannot together remove a club's last admin, and re-checks what it was
asked against the database as it is then: a stale form changes nothing it should not.

A password link is Django's password reset token (``default_token_generator``): it holds a hash
of the user's password and last login, so it works until the password is set (then every link
made for that user is refused) or until ``PASSWORD_RESET_TIMEOUT`` has passed.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from django.conf import settings
from django.contrib.auth.tokens import default_token_generator
from django.core.mail import send_mail
from django.db import transaction
from django.http import HttpRequest
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode
from django.utils.translation import gettext as _

from clubs.models import Club, Membership, Role, User

logger = logging.getLogger(__name__)

# Roles in the order a page lists them.
ROLE_ORDER = [Role.ADMIN, Role.DIRECTOR, Role.REVIEWER, Role.TRAINER]


class LastAdmin(Exception):
    """The change would leave the club without an admin."""


class NotMember(Exception):
    """The user is not (or no longer) a member of the club."""


@dataclass
class Member:
    user: User
    roles: list[str] = field(default_factory=list)

    @property
    def is_admin(self) -> bool:
        return Role.ADMIN in self.roles

    @property
    def role_labels(self) -> list[str]:
        return [str(Role(role).label) for role in self.roles]

    @property
    def awaits_password(self) -> bool:
        return not self.user.has_usable_password()


def email_enabled() -> bool:
    return bool(getattr(settings, "LEIDRAAD_EMAIL_ENABLED", False))


def ordered(roles: set[str] | list[str]) -> list[str]:
    return [role for role in ROLE_ORDER if role in roles]


def listing(club: Club) -> list[Member]:
    """The club's members with their roles, by name."""
    rows = Membership.objects.filter(club=club).select_related("user")
    found: dict[int, Member] = {}
    for row in rows:
        found.setdefault(row.user_id, Member(row.user)).roles.append(row.role)
    for member in found.values():
        member.roles = ordered(member.roles)
    return sorted(
        found.values(),
        key=lambda m: m.user.get_full_name().casefold() or m.user.username.casefold(),
    )


def roles_of(club: Club, user: User) -> set[str]:
    return set(Membership.objects.filter(club=club, user=user).values_list("role", flat=True))


def _lock(club: Club) -> None:
    Club.objects.select_for_update().filter(pk=club.pk).first()


def _other_admins(club: Club, user: User) -> bool:
    return Membership.objects.filter(club=club, role=Role.ADMIN).exclude(user=user).exists()


@transaction.atomic
def invite(
    club: Club,
    *,
    username: str,
    roles: list[str],
    first_name: str = "",
    last_name: str = "",
    email: str = "",
) -> User:
    """A new user, in ``club`` with ``roles``, without a password until they set one through
    the link. A user name taken meanwhile raises IntegrityError (the whole invite is undone)."""
    _lock(club)
    user = User(username=username, first_name=first_name, last_name=last_name, email=email)
    user.set_unusable_password()
    user.save()
    Membership.objects.bulk_create(
        Membership(user=user, club=club, role=role) for role in ordered(roles)
    )
    return user


@transaction.atomic
def set_roles(club: Club, user: User, roles: list[str]) -> None:
    """Give ``user`` exactly ``roles`` (at least one) in ``club``."""
    if not roles:
        raise ValueError("at least one role")
    _lock(club)
    current = roles_of(club, user)
    if not current:
        raise NotMember
    if Role.ADMIN in current and Role.ADMIN not in roles and not _other_admins(club, user):
        raise LastAdmin
    Membership.objects.filter(club=club, user=user).exclude(role__in=roles).delete()
    Membership.objects.bulk_create(
        Membership(user=user, club=club, role=role) for role in ordered(set(roles) - current)
    )


@transaction.atomic
def remove(club: Club, user: User) -> None:
    """Take ``user`` out of ``club``: the user and their rulings stay."""
    _lock(club)
    current = roles_of(club, user)
    if not current:
        raise NotMember
    if Role.ADMIN in current and not _other_admins(club, user):
        raise LastAdmin
    Membership.objects.filter(club=club, user=user).delete()


def password_refusal(actor: User, admin_club_ids: set[int], user: User) -> str | None:
    """Why ``actor`` (admin of the clubs ``admin_club_ids``) may not reset ``user``'s password
    nor see a link for it, or None. Whoever holds the link can log in as the user, so only an
    admin of every club the user belongs to may make one; a staff account only a superuser."""
    if user.pk == actor.pk:
        return _(
            "Uw eigen wachtwoord stelt u hier niet opnieuw in: vraag een andere beheerder "
            "of gebruik 'Wachtwoord vergeten?' op de inlogpagina."
        )
    if (user.is_staff or user.is_superuser) and not actor.is_superuser:
        return _(
            "Dit account beheert heel Leidraad; alleen een hoofdbeheerder (superuser) kan "
            "het wachtwoord opnieuw instellen."
        )
    theirs = set(Membership.objects.filter(user=user).values_list("club_id", flat=True))
    if not theirs <= admin_club_ids:
        return _(
            "Deze gebruiker hoort ook bij een andere club; alleen een beheerder van al die "
            "clubs kan het wachtwoord opnieuw instellen."
        )
    return None


@transaction.atomic
def reset_password(user: User) -> None:
    """The old password stops working at once (and logs the user out everywhere: the session
    hash changes); links made before are refused from now on."""
    locked = User.objects.select_for_update().get(pk=user.pk)
    locked.set_unusable_password()
    locked.save(update_fields=["password"])
    user.password = locked.password


@dataclass(frozen=True)
class Link:
    url: str
    valid_until: datetime


def password_link(request: HttpRequest, user: User) -> Link:
    """A fresh one-time link for ``user`` to set a password."""
    kwargs = {
        "uidb64": urlsafe_base64_encode(force_bytes(user.pk)),
        "token": default_token_generator.make_token(user),
    }
    url = request.build_absolute_uri(reverse("password_set", kwargs=kwargs))
    until = timezone.now() + timedelta(seconds=settings.PASSWORD_RESET_TIMEOUT)
    return Link(url, until)


def email_link(club: Club, user: User, link: Link, *, invited: bool) -> bool:
    """Send ``link`` to the user when e-mail is configured and the user has an address.
    True when sent; a failure is logged and the admin hands the link over instead."""
    if not email_enabled() or not user.email:
        return False
    context = {"club": club, "user": user, "link": link, "invited": invited}
    subject = render_to_string("clubs/email_set_password_subject.txt", context)
    body = render_to_string("clubs/email_set_password.txt", context)
    try:
        send_mail(" ".join(subject.split()), body, None, [user.email])
    except Exception:
        logger.exception("Could not e-mail a password link to user %s", user.pk)
        return False
    return True
