"""Transfer page (club admins): download a bundle of the club's rulings, upload one from a
club laptop. The bundles themselves: ``transfer/bundles.py`` (format, export) and
``transfer/importing.py``."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.db.models import Count
from django.http import HttpRequest, HttpResponse, StreamingHttpResponse
from django.shortcuts import redirect, render
from django.template.defaultfilters import filesizeformat
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django.views.decorators.http import require_GET, require_POST

from clubs.access import AuthenticatedHttpRequest, clubs, get_for_user, requested_club, roles_in
from clubs.models import Club, Role
from lib.fields import DayField

from . import bundles as transfer
from . import importing, provenance, undo
from .models import ImportRecord

RECENT_IMPORTS = 20


class DownloadForm(forms.Form):
    since = DayField(
        label=gettext_lazy("Opgeslagen vanaf"),
        required=False,
        help_text=gettext_lazy("Leeg: alle definitieve arbitrages."),
    )
    include_training = forms.BooleanField(label=gettext_lazy("Ook oefenarbitrages"), required=False)


class UploadForm(forms.Form):
    bundle = forms.FileField(
        label=gettext_lazy("Bestand (.json) van de clublaptop"),
        widget=forms.ClearableFileInput(attrs={"accept": ".json,application/json"}),
    )

    def clean_bundle(self):
        bundle = self.cleaned_data["bundle"]
        if bundle.size > transfer.WEB_MAX_BYTES:
            raise forms.ValidationError(
                _(
                    "Het bestand is te groot (%(size)s, hoogstens %(max)s). Exporteer op de "
                    "laptop met een begindatum, of laat de beheerder het op de server "
                    "importeren (manage.py import_rulings)."
                )
                % {
                    "size": filesizeformat(bundle.size),
                    "max": filesizeformat(transfer.WEB_MAX_BYTES),
                }
            )
        return bundle


REFUSALS = {
    "json": gettext_lazy("Dit is geen geldig JSON-bestand. Er is niets geïmporteerd."),
    "format": gettext_lazy(
        "Dit is geen Leidraad-bestand met arbitrages. Er is niets geïmporteerd."
    ),
    "version": gettext_lazy(
        "Deze versie van het bestand wordt niet ondersteund. Er is niets geïmporteerd."
    ),
    "refused": gettext_lazy(
        "Het bestand is geweigerd (bijvoorbeeld een verbroken auditketen). Er is niets "
        "geïmporteerd."
    ),
}


# A director imports his own rulings from a club laptop; the administrator any member's, and
# only he downloads the club's rulings and takes an import back (transfer.provenance).
IMPORTERS = [Role.ADMIN, Role.DIRECTOR]


@require_GET
def page(request: HttpRequest) -> HttpResponse:
    club = requested_club(request, roles=IMPORTERS)
    return render(request, "transfer/transfer.html", _transfer_context(request, club))


def _transfer_context(
    request: HttpRequest, club: Club, upload: UploadForm | None = None
) -> dict[str, Any]:
    is_admin = Role.ADMIN in roles_in(request, club)
    return {
        "club": club,
        "clubs": clubs(request, roles=IMPORTERS),
        "is_admin": is_admin,
        "download_form": DownloadForm(request.GET or None),
        "upload_form": upload or UploadForm(),
        "count": transfer.rulings_for_export(club).count() if is_admin else 0,
        "imports": _recent_imports(club) if is_admin else [],
    }


def _recent_imports(club: Club) -> list[ImportRecord]:
    return list(
        ImportRecord.objects.filter(club=club)
        .select_related("imported_by", "undone_by")
        .annotate(count=Count("rulings"))[:RECENT_IMPORTS]
    )


@require_POST
def undo_import(request: AuthenticatedHttpRequest, uuid: str) -> HttpResponse:
    """The club administrator takes an import back (:mod:`transfer.undo`)."""
    entry = get_for_user(request, ImportRecord.objects.all(), roles=[Role.ADMIN], uuid=uuid)
    try:
        discarded = undo.undo(entry, request.user)
    except undo.AlreadyUndone:
        messages.warning(request, _("Deze import was al teruggedraaid."))
    else:
        messages.success(
            request,
            ngettext(
                "Import uit %(file)s teruggedraaid: %(count)d arbitrage verworpen.",
                "Import uit %(file)s teruggedraaid: %(count)d arbitrages verworpen.",
                discarded,
            )
            % {"file": entry.file_name, "count": discarded},
        )
    return redirect(f"{reverse('transfer:page')}?club={entry.club.slug}")


@require_POST
def upload(request: AuthenticatedHttpRequest) -> HttpResponse:
    club = requested_club(request, roles=IMPORTERS)
    form = UploadForm(request.POST, request.FILES)
    if not form.is_valid():
        context = _transfer_context(request, club, upload=form)
        return render(request, "transfer/transfer.html", context, status=400)
    uploaded = form.cleaned_data["bundle"]
    raw = uploaded.read()
    try:
        bundle = importing.read_bundle(raw)
        source = provenance.Source.of(request.user, uploaded.name or "", raw, club)
        result = importing.import_bundle(bundle, club, source)
    except importing.BundleError as error:
        # Shown on the page itself, with a 400: the file was refused, nothing was written.
        messages.error(request, REFUSALS.get(error.code, REFUSALS["refused"]))
        for problem in error.problems[: importing.MAX_PROBLEMS] or [error.message]:
            messages.error(request, problem)
        context = _transfer_context(request, club)
        return render(request, "transfer/transfer.html", context, status=400)
    messages.success(
        request,
        _(
            "Geïmporteerd in %(club)s: %(created)d nieuw, %(unchanged)d al aanwezig, "
            "%(conflicts)d conflict(en)."
        )
        % {
            "club": club.name,
            "created": result.created,
            "unchanged": result.unchanged,
            "conflicts": len(result.conflicts),
        },
    )
    for conflict in result.conflicts[: importing.MAX_PROBLEMS]:
        messages.warning(request, _("Conflict, opgeslagen arbitrage niet gewijzigd: %s") % conflict)
    if result.placeholders:
        messages.info(
            request,
            ngettext(
                "Nieuwe gebruiker zonder inlog aangemaakt: %(names)s",
                "Nieuwe gebruikers zonder inlog aangemaakt: %(names)s",
                len(result.placeholders),
            )
            % {"names": ", ".join(result.placeholders)},
        )
    return redirect(f"{reverse('transfer:page')}?club={club.slug}")


@require_GET
def download(request: HttpRequest) -> HttpResponse | StreamingHttpResponse:
    club = requested_club(request, roles=[Role.ADMIN])
    form = DownloadForm(request.GET)
    if not form.is_valid():
        return render(
            request, "transfer/transfer.html", _transfer_context(request, club), status=400
        )
    response = StreamingHttpResponse(
        transfer.iter_bundle(
            club,
            since=form.cleaned_data["since"],
            include_training=form.cleaned_data["include_training"],
        ),
        content_type="application/json; charset=utf-8",
    )
    response["Content-Disposition"] = f'attachment; filename="{transfer.export_filename(club)}"'
    return response
