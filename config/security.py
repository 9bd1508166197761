"""Security headers that Django 5.2 does not set itself."""

from collections.abc import Callable

from django.core.exceptions import BadRequest
from django.http import HttpRequest, HttpResponse

# Scripts only from our own origin: no inline scripts, no eval (htmx runs with allowEval off,
# configured through a <meta> tag). Inline style attributes are allowed because Bootstrap's
# components and the server-rendered SVG diagrams set them.
CONTENT_SECURITY_POLICY = "; ".join(
    [
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self' 'unsafe-inline'",
        "img-src 'self' data:",
        "font-src 'self'",
        "connect-src 'self'",
        "object-src 'none'",
        "base-uri 'self'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    ]
)
PERMISSIONS_POLICY = "camera=(), microphone=(), geolocation=(), payment=(), usb=()"


class SecurityHeadersMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        response.headers.setdefault("Content-Security-Policy", CONTENT_SECURITY_POLICY)
        response.headers.setdefault("Permissions-Policy", PERMISSIONS_POLICY)
        response.headers.setdefault("Cross-Origin-Resource-Policy", "same-origin")
        return response


class RejectNulMiddleware:
    """A NUL character in the address or its query string is a bad request (400), for every
    page.

    No address Leidraad makes contains one, PostgreSQL refuses NUL in text (so a view that
    searched with it would fail with a server error), and SQLite would search for it. Forms
    refuse NUL in posted fields themselves (Django's ``ProhibitNullCharactersValidator``)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if "\x00" in request.path or any(
            "\x00" in key or any("\x00" in value for value in values)
            for key, values in request.GET.lists()
        ):
            raise BadRequest("NUL in the address")
        return self.get_response(request)
