"""htmx: the one rule for when a view answers with a fragment instead of the whole page.

A view that swaps part of its page renders through :func:`render`: an htmx request gets the
template's ``#partial`` (django-template-partials), every other request the whole page. A
history-restore request (htmx missed its history cache, e.g. after a reload and Back) also wants
the whole page, although it carries ``HX-Request``. The response always says that it varies on
those headers, so no cache hands a fragment to a plain request or the other way round.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect as django_redirect
from django.shortcuts import render as django_render
from django.utils.cache import patch_vary_headers
from django_htmx.http import HttpResponseClientRedirect
from django_htmx.middleware import HtmxDetails

VARY = ("HX-Request", "HX-History-Restore-Request")


class HtmxHttpRequest(HttpRequest):
    """A request that passed ``HtmxMiddleware``, which sets ``request.htmx``. For views that read
    ``request.htmx`` themselves (the helpers below also take a plain request, e.g. from a test's
    ``RequestFactory``)."""

    htmx: HtmxDetails


def is_htmx(request: HttpRequest) -> bool:
    """The request came from htmx (``HX-Request: true``)."""
    return bool(getattr(request, "htmx", False))


def is_partial(request: HttpRequest) -> bool:
    """Answer with a fragment: an htmx request that does not restore history."""
    details = getattr(request, "htmx", None)
    return (
        isinstance(details, HtmxDetails) and bool(details) and not details.history_restore_request
    )


def vary(response: HttpResponse) -> HttpResponse:
    """Mark ``response`` as depending on the htmx request headers."""
    patch_vary_headers(response, VARY)
    return response


def partial_name(template: str, partial: str) -> str:
    """``partial`` inside ``template``; a ``partial`` with its own template (``t.html#p``)
    names a partial defined elsewhere, e.g. in the template that ``template`` extends."""
    return partial if "#" in partial else f"{template}#{partial}"


def render(
    request: HttpRequest,
    template: str,
    context: Mapping[str, Any] | None = None,
    *,
    partial: str,
    status: int | None = None,
) -> HttpResponse:
    """``template`` for a full page, its ``partial`` for an htmx swap; always ``Vary``."""
    name = partial_name(template, partial) if is_partial(request) else template
    return vary(django_render(request, name, context, status=status))


def redirect(request: HttpRequest, url: str) -> HttpResponse:
    """After a POST: htmx follows ``HX-Redirect`` with a full page load (a 302 would be
    followed inside the XHR and its page swapped into the target); plain requests get a 302."""
    if is_htmx(request):
        return HttpResponseClientRedirect(url)
    return django_redirect(url)
