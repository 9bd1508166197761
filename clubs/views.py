from django.contrib import messages
from django.contrib.auth import get_user_model, login
from django.contrib.auth.decorators import login_not_required
from django.db import transaction
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from clubs.forms import LanguageForm, SetupForm
from clubs.middleware import is_local
from clubs.models import Membership, Role


@login_not_required
def setup(request: HttpRequest) -> HttpResponse:
    if get_user_model().objects.exists():
        raise Http404
    if not is_local(request):
        return render(request, "rulings/setup_refused.html", status=403)
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
    return render(request, "rulings/setup.html", {"form": form})


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
