"""The practical limit: a Django view that renders a trivial template.

It runs behind the same middleware as every page (session, login required, CSRF, messages,
htmx) and answers GET and POST, so a wizard step and this view differ only in what the view
itself does.
"""

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render


def bare(request: HttpRequest) -> HttpResponse:
    return render(request, "bench/bare.html", {"method": request.method})
