from django.contrib import messages
from django.contrib.auth import get_user_model, login
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_not_required
from django.db import IntegrityError, transaction
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBase
from django.shortcuts import redirect, render
from django.urls import reverse, reverse_lazy
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from clubs import access, resets
from clubs import members as club_members
from clubs.forms import (
    ForgottenPasswordForm,
    InviteForm,
    LanguageForm,
    PollSettingsForm,
    RolesForm,
    ScoreSettingsForm,
    SetupForm,
    unavailable_name,
)
from clubs.models import Club, Membership, Role, User
from lib.client import is_local


@login_not_required
def setup(request: HttpRequest) -> HttpResponse:
    if get_user_model().objects.exists():
        raise Http404
    if not is_local(request):
        return render(request, "clubs/setup_refused.html", status=403)
    form = SetupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        with transaction.atomic():
            user = form.save(commit=False)
            user.is_staff = user.is_superuser = True
            user.save()
            club = form.create_club()
            Membership.objects.create(user=user, club=club, role=Role.ADMIN)
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        messages.success(request, _("Welkom! De beheerder en de club zijn aangemaakt."))
        return redirect("home")
    return render(request, "clubs/setup.html", {"form": form})


@login_not_required
@require_POST
def set_language(request: HttpRequest) -> HttpResponse:
    form = LanguageForm(request.POST)
    target = request.POST.get("next", "/")
    local = target.startswith("/")  # redirect() would take anything else for a view name
    if not local or not url_has_allowed_host_and_scheme(
        target, {request.get_host()}, request.is_secure()
    ):
        target = "/"
    if form.is_valid():
        language = form.cleaned_data["language"]
        request.session["language"] = language
        if request.user.is_authenticated:
            request.user.language = language
            request.user.save(update_fields=["language"])
    return redirect(target)


# --------------------------------------------------------------------------------------------
# Club admins manage their members (see clubs/members.py). A member of the club without the
# admin role gets 403, anyone else 404.


def admin_club(request: HttpRequest, slug: str) -> Club:
    return access.get_club(request, slug, roles=[Role.ADMIN])


def members(
    request: HttpRequest,
    slug: str,
    settings_form: ScoreSettingsForm | None = None,
    poll_form: PollSettingsForm | None = None,
) -> HttpResponse:
    club = admin_club(request, slug)
    context = {
        "club": club,
        "members": club_members.listing(club),
        "score_form": settings_form or ScoreSettingsForm(instance=club),
        "poll_form": poll_form or PollSettingsForm(instance=club),
    }
    failed = settings_form or poll_form
    return render(request, "clubs/members.html", context, status=400 if failed else 200)


@require_POST
def score_settings(request: HttpRequest, slug: str) -> HttpResponse:
    """The club's percentages for artificial adjusted scores; recorded scores keep theirs."""
    club = admin_club(request, slug)
    form = ScoreSettingsForm(request.POST, instance=club)
    if not form.is_valid():
        return members(request, slug, settings_form=form)
    form.save()
    messages.success(request, _("De percentages voor kunstmatige scores zijn opgeslagen."))
    return redirect(reverse("club_members", args=[club.slug]) + "#arbitrale-scores")


@require_POST
def poll_settings(request: HttpRequest, slug: str) -> HttpResponse:
    """The club's thresholds for a poll's suggestion; the director still decides."""
    club = admin_club(request, slug)
    form = PollSettingsForm(request.POST, instance=club)
    if not form.is_valid():
        return members(request, slug, poll_form=form)
    form.save()
    messages.success(request, _("De drempels voor peilingen zijn opgeslagen."))
    return redirect(reverse("club_members", args=[club.slug]) + "#peilingen")


def invite(request: HttpRequest, slug: str) -> HttpResponse:
    club = admin_club(request, slug)
    form = InviteForm(request.POST or None, club=club)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            user = club_members.invite(
                club,
                username=data["username"],
                roles=data["roles"],
                first_name=data["first_name"],
                last_name=data["last_name"],
                email=data["email"],
            )
        except IntegrityError:  # the same name, invited at the same moment elsewhere
            form.add_error("username", unavailable_name())
        else:
            link = club_members.password_link(request, user)
            sent = club_members.email_link(club, user, link, invited=True)
            messages.success(request, invited_message(user, sent))
            return redirect("club_member", slug=club.slug, user_id=user.pk)
    context = {"club": club, "form": form, "email_enabled": club_members.email_enabled()}
    return render(request, "clubs/invite.html", context)


def invited_message(user: User, sent: bool) -> str:
    name = user.get_full_name() or user.username
    if sent:
        return _("%(name)s is toegevoegd; de link om een wachtwoord te kiezen is gemaild.") % {
            "name": name
        }
    return _("%(name)s is toegevoegd. Geef de link hieronder door.") % {"name": name}


def member_page(
    request: HttpRequest, club: Club, member: User, form: RolesForm | None = None
) -> HttpResponse:
    roles = club_members.ordered(club_members.roles_of(club, member))
    refusal = club_members.password_refusal(acting_user(request), admin_club_ids(request), member)
    link = None
    if refusal is None and not member.has_usable_password():
        link = club_members.password_link(request, member)
    context = {
        "club": club,
        "member": club_members.Member(member, roles),
        "form": form or RolesForm(initial={"roles": roles}),
        "link": link,
        "refusal": refusal,
        "email_enabled": club_members.email_enabled(),
        "is_self": member.pk == request.user.pk,
    }
    return render(request, "clubs/member.html", context)


def acting_user(request: HttpRequest) -> User:
    user = request.user
    assert isinstance(user, User)  # every page here needs a login
    return user


def admin_club_ids(request: HttpRequest) -> set[int]:
    return {club.pk for club in access.clubs(request, roles=[Role.ADMIN])}


def member(request: HttpRequest, slug: str, user_id: int) -> HttpResponse:
    club = admin_club(request, slug)
    return member_page(request, club, access.get_member(request, club, user_id))


def last_admin() -> str:
    return _(
        "Dit is de laatste beheerder van de club. Maak eerst iemand anders beheerder: een club "
        "zonder beheerder kan niemand meer toevoegen."
    )


@require_POST
def member_roles(request: HttpRequest, slug: str, user_id: int) -> HttpResponse:
    club = admin_club(request, slug)
    member = access.get_member(request, club, user_id)
    form = RolesForm(request.POST)
    if not form.is_valid():
        return member_page(request, club, member, form)
    try:
        club_members.set_roles(club, member, form.cleaned_data["roles"])
    except club_members.LastAdmin:
        messages.error(request, last_admin())
    except club_members.NotMember:
        messages.info(request, _("Deze gebruiker is geen lid (meer) van de club."))
        return redirect("club_members", slug=club.slug)
    else:
        messages.success(request, _("De rollen zijn opgeslagen."))
        if member.pk == request.user.pk and Role.ADMIN not in form.cleaned_data["roles"]:
            return redirect("home")
    return redirect("club_member", slug=club.slug, user_id=member.pk)


@require_POST
def member_remove(request: HttpRequest, slug: str, user_id: int) -> HttpResponse:
    club = admin_club(request, slug)
    member = access.get_member(request, club, user_id)
    try:
        club_members.remove(club, member)
    except club_members.LastAdmin:
        messages.error(request, last_admin())
        return redirect("club_member", slug=club.slug, user_id=member.pk)
    except club_members.NotMember:
        messages.info(request, _("Deze gebruiker is geen lid (meer) van de club."))
    else:
        name = member.get_full_name() or member.username
        messages.success(
            request,
            _("%(name)s is uit de club verwijderd; de arbitrages blijven.") % {"name": name},
        )
        if member.pk == request.user.pk:
            return redirect("home")
    return redirect("club_members", slug=club.slug)


@require_POST
def member_password(request: HttpRequest, slug: str, user_id: int) -> HttpResponse:
    club = admin_club(request, slug)
    member = access.get_member(request, club, user_id)
    refusal = club_members.password_refusal(acting_user(request), admin_club_ids(request), member)
    if refusal:
        messages.error(request, refusal)
    else:
        club_members.reset_password(member)
        link = club_members.password_link(request, member)
        if club_members.email_link(club, member, link, invited=False):
            messages.success(
                request,
                _("Het oude wachtwoord werkt niet meer; de nieuwe link is gemaild."),
            )
        else:
            messages.success(
                request, _("Het oude wachtwoord werkt niet meer. Geef de link hieronder door.")
            )
    return redirect("club_member", slug=club.slug, user_id=member.pk)


# --------------------------------------------------------------------------------------------
# Setting a password through a one-time link, and "Wachtwoord vergeten?"


class ForgottenPasswordView(auth_views.PasswordResetView):
    form_class = ForgottenPasswordForm
    template_name = "clubs/password_forgotten.html"
    email_template_name = "clubs/email_password_reset.txt"
    subject_template_name = "clubs/email_password_reset_subject.txt"
    success_url = reverse_lazy("password_reset_done")

    def form_valid(self, form):
        if not resets.may_send(self.request, form.cleaned_data["email"]):
            # Answered as if sent: the page never tells whether an address is known.
            return redirect(self.get_success_url())
        return super().form_valid(form)


@login_not_required
def password_forgotten(request: HttpRequest) -> HttpResponseBase:
    """Django's reset by e-mail where e-mail is configured; otherwise the page says whom to ask."""
    if not club_members.email_enabled():
        return render(request, "clubs/password_forgotten.html", {"email_enabled": False})
    if request.method == "POST" and resets.client_exhausted(request):
        context = {"email_enabled": True, "throttled": True}
        return render(request, "clubs/password_forgotten.html", context, status=429)
    return ForgottenPasswordView.as_view(extra_context={"email_enabled": True})(request)


class SetPasswordView(auth_views.PasswordResetConfirmView):
    """The one-time link: choose a password and be logged in. The link stops working once the
    password is set (the token holds a hash of the old one)."""

    template_name = "clubs/password_set.html"
    post_reset_login = True
    post_reset_login_backend = "django.contrib.auth.backends.ModelBackend"
    success_url = reverse_lazy("home")

    def form_valid(self, form):
        response = super().form_valid(form)
        messages.success(self.request, _("Uw wachtwoord is ingesteld en u bent ingelogd."))
        return response
