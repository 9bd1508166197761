"""First run and per-user language."""

from collections.abc import Callable

from django.contrib.auth import get_user_model
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.utils import translation


class FirstRunMiddleware:
    """On a fresh install (no user at all) every page leads to /setup/."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if not request.user.is_authenticated:
            setup_url = reverse("setup")
            exempt = request.path.startswith(("/static/", "/i18n/")) or request.path == setup_url
            if not exempt and not get_user_model().objects.exists():
                return redirect(setup_url)
        return self.get_response(request)


class UserLanguageMiddleware:
    """Activate the language chosen by the user (kept in the session, set at login and by the
    language switch), falling back to what LocaleMiddleware negotiated."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        language = request.session.get("language")
        if language:
            translation.activate(language)
            request.LANGUAGE_CODE = language
        response = self.get_response(request)
        if language:
            response.headers.setdefault("Content-Language", language)
        return response
