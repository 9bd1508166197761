"""A page with a swappable part, for tests/lib/test_htmx.py."""

from django.contrib.auth.decorators import login_not_required
from django.http import HttpRequest, HttpResponse
from django.urls import include, path

from lib import htmx


@login_not_required
def page(request: HttpRequest) -> HttpResponse:
    return htmx.render(request, "lib_tests/page.html", {"value": "waarde"}, partial="part")


# The project's own URLs too: the middleware reverses some of them.
urlpatterns = [path("pagina/", page), path("", include("config.urls"))]
