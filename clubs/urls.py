from django.contrib.auth import views as auth_views
from django.urls import path

from . import views
from .forms import LoginForm

urlpatterns = [
    path("setup/", views.setup, name="setup"),
    path("taal/", views.set_language, name="set_language"),
    path(
        "inloggen/",
        auth_views.LoginView.as_view(
            template_name="registration/login.html", authentication_form=LoginForm
        ),
        name="login",
    ),
    path("uitloggen/", auth_views.LogoutView.as_view(), name="logout"),
    path("wachtwoord-vergeten/", views.password_forgotten, name="password_reset"),
    path(
        "wachtwoord-vergeten/verstuurd/",
        auth_views.PasswordResetDoneView.as_view(
            template_name="clubs/password_forgotten_sent.html"
        ),
        name="password_reset_done",
    ),
    path("wachtwoord/<uidb64>/<token>/", views.SetPasswordView.as_view(), name="password_set"),
    # A club's admins manage its members.
    path("club/<slug:slug>/leden/", views.members, name="club_members"),
    path("club/<slug:slug>/leden/uitnodigen/", views.invite, name="club_invite"),
    path("club/<slug:slug>/scores/", views.score_settings, name="club_score_settings"),
    path("club/<slug:slug>/peilingen/", views.poll_settings, name="club_poll_settings"),
    path("club/<slug:slug>/leden/<int:user_id>/", views.member, name="club_member"),
    path(
        "club/<slug:slug>/leden/<int:user_id>/rollen/",
        views.member_roles,
        name="club_member_roles",
    ),
    path(
        "club/<slug:slug>/leden/<int:user_id>/verwijderen/",
        views.member_remove,
        name="club_member_remove",
    ),
    path(
        "club/<slug:slug>/leden/<int:user_id>/wachtwoord/",
        views.member_password,
        name="club_member_password",
    ),
]
