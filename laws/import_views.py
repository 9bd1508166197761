"""The site administrator's page for importing official text into an edition with a provision
index (``laws.official``): upload a file, read the dry run, confirm.

Between the dry run and the confirmation the file waits in the administrator's session, with
its SHA-256; the confirmation form carries the SHA-256 the dry run showed, and the import only
runs when the waiting file still has it. A file checked in another tab in between replaces the
waiting one and the stale confirmation is refused: no other file can slip in. Plain forms, no
JavaScript needed. Only staff and superusers (``user_passes_test``).
"""

from __future__ import annotations

import base64
import hashlib
from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import user_passes_test
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods

from laws import keys
from laws.importer import LawImportError, parse_bytes
from laws.loading import has_index
from laws.models import Edition
from laws.official import ImportPlan, plan_import, run_import

SESSION_KEY = "law_import"
MAX_BYTES = 2 * 1024 * 1024


def may_import(user: Any) -> bool:
    """Whether ``user`` may import law text: the site's administrators only."""
    return bool(user.is_authenticated and (user.is_superuser or user.is_staff))


class LawFileForm(forms.Form):
    file = forms.FileField(
        label=gettext_lazy("Bestand met wettekst"),
        help_text=gettext_lazy("Tekst (UTF-8) in een van de formaten van de meegeleverde wetten."),
    )
    start = forms.CharField(
        label=gettext_lazy("Begint in (optioneel)"),
        required=False,
        max_length=30,
        help_text=gettext_lazy("Voor een bestand dat midden in een artikel begint, bijv. 74B."),
    )

    def clean_file(self) -> Any:
        upload = self.cleaned_data["file"]
        if upload.size > MAX_BYTES:
            raise forms.ValidationError(_("Het bestand is groter dan 2 MB."))
        return upload

    def clean_start(self) -> str:
        start = self.cleaned_data["start"].strip()
        if start and keys.try_parse(start) is None:
            raise forms.ValidationError(_("Geen wetsverwijzing (bijvoorbeeld 74B)."))
        return keys.canonical(start) if start else ""


def _plan(edition: Edition, name: str, data: bytes, start: str) -> ImportPlan:
    parsed = parse_bytes(data, edition.code, start or None)
    return plan_import(edition, parsed, file_name=name, sha256=hashlib.sha256(data).hexdigest())


def _page(
    request: HttpRequest,
    edition: Edition,
    form: LawFileForm,
    plan: ImportPlan | None = None,
    *,
    error: str = "",
    status: int = 200,
) -> HttpResponse:
    context = {
        "edition": edition,
        "form": form,
        "plan": plan,
        "error": error,
        "indexed": has_index(edition),
        "imports": edition.imports.select_related("user")[:20],
    }
    return render(request, "laws/import.html", context, status=status)


def _check(request: HttpRequest, edition: Edition) -> HttpResponse:
    """The dry run of an uploaded file; the file waits in the session for the confirmation."""
    form = LawFileForm(request.POST, request.FILES)
    if not form.is_valid():
        return _page(request, edition, form, status=400)
    upload = form.cleaned_data["file"]
    data = upload.read()
    try:
        plan = _plan(edition, upload.name, data, form.cleaned_data["start"])
    except LawImportError as error:
        form.add_error("file", str(error))
        return _page(request, edition, form, status=400)
    request.session[SESSION_KEY] = {
        "edition": edition.code,
        "name": upload.name,
        "start": form.cleaned_data["start"],
        "sha256": plan.sha256,
        "data": base64.b64encode(data).decode("ascii"),
    }
    return _page(request, edition, LawFileForm(), plan)


def _confirm(request: HttpRequest, edition: Edition) -> HttpResponse:
    """Import the waiting file, if it is still the one whose dry run was confirmed."""
    waiting = request.session.get(SESSION_KEY) or {}
    data = base64.b64decode(waiting.get("data", ""))
    confirmed = request.POST.get("sha256", "")
    if (
        waiting.get("edition") != edition.code
        or not confirmed
        or hashlib.sha256(data).hexdigest() != confirmed
    ):
        stale = _("Dit is niet het bestand dat u hebt gecontroleerd: controleer het opnieuw.")
        return _page(request, edition, LawFileForm(), error=stale, status=409)
    try:
        plan = _plan(edition, waiting["name"], data, waiting.get("start", ""))
        record = run_import(plan, request.user)
    except LawImportError as error:
        return _page(request, edition, LawFileForm(), error=str(error), status=400)
    del request.session[SESSION_KEY]
    if record is None:
        messages.info(request, _("Niets veranderd: dit bestand bevat geen nieuwe tekst."))
    else:
        messages.success(
            request,
            _("Officiële tekst van %(count)s bepalingen geïmporteerd uit %(name)s.")
            % {"count": record.provisions, "name": record.file_name},
        )
    return redirect("laws:edition", code=edition.code)


@require_http_methods(["GET", "POST"])
@user_passes_test(may_import)
def import_text(request: HttpRequest, code: str) -> HttpResponse:
    edition = get_object_or_404(Edition, code=code)
    if request.method == "POST" and has_index(edition):
        if request.POST.get("action") == "confirm":
            return _confirm(request, edition)
        return _check(request, edition)
    return _page(request, edition, LawFileForm())
