"""The archive's CSV for a spreadsheet in the reader's language ("CSV voor Excel", issue 30).

The data CSV (``archive.csv_export``) keeps its documented English column names and codes for
programs. This one is for a person opening it in Excel: headers and values in the reader's
language (seats N O Z W, contracts as ``3SA``/``4♠X``, status and verdict words), dates and
times as Excel reads them (``dd-mm-jjjj uu:mm``), and in Dutch the semicolon Dutch Excel
expects between cells. Same rows, same filters, same streaming.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date, datetime
from typing import Any

from django.db.models import QuerySet
from django.utils.translation import gettext_lazy

from archive.csv_export import CSV_HEADER, _cell, csv_lines, row_values
from lib import times
from lib.auction import Auction, AuctionError, load_auction
from lib.bridge import Seat
from lib.i18n import active_language
from rulings.models import AppealStatus, Mode, Ruling, Status, Verdict
from scores.deals import contract_text
from scores.models import Kind

# The reader's column names, by the data CSV's.
HEADERS = {
    "uuid": gettext_lazy("id"),
    "created_at": gettext_lazy("Begonnen"),
    "played_on": gettext_lazy("Speeldatum"),
    "event": gettext_lazy("Wedstrijd of zitting"),
    "round": gettext_lazy("Ronde"),
    "table": gettext_lazy("Tafel"),
    "board": gettext_lazy("Spel"),
    "tree": gettext_lazy("Beslisboom"),
    "irregularity": gettext_lazy("Onregelmatigheid"),
    "edition": gettext_lazy("Editie"),
    "tree_version": gettext_lazy("Versie van de beslisboom"),
    "outcome": gettext_lazy("Uitkomst (sleutel)"),
    "outcome_title": gettext_lazy("Uitkomst"),
    "director": gettext_lazy("Gebruikersnaam"),
    "director_name": gettext_lazy("Wedstrijdleider"),
    "mode": gettext_lazy("Soort"),
    "status": gettext_lazy("Status"),
    "offender_seat": gettext_lazy("Plaats overtreder"),
    "declarer_seat": gettext_lazy("Plaats leider"),
    "contract": gettext_lazy("Contract"),
    "cited_articles": gettext_lazy("Geciteerde artikelen"),
    "legal_basis": gettext_lazy("Rechtsgrond"),
    "option_list": gettext_lazy("Keuzes"),
    "verdict": gettext_lazy("Oordeel"),
    "appeal": gettext_lazy("Beroep"),
    "finalised_at": gettext_lazy("Opgeslagen"),
    "notes": gettext_lazy("Aantekeningen"),
    "adjusted_score": gettext_lazy("Arbitrale score"),
    "adjusted_score_summary": gettext_lazy("Arbitrale score (samenvatting)"),
    "decision": gettext_lazy("Beslissing"),
    "auction": gettext_lazy("Biedverloop"),
    "handed_over": gettext_lazy("Eerdere beslisbomen"),
}
LABELS: dict[str, dict[str, Any]] = {
    "mode": dict(Mode.choices),
    "status": dict(Status.choices),
    "verdict": dict(Verdict.choices),
    "appeal": dict(AppealStatus.choices),
    "adjusted_score": dict(Kind.choices),
}


def header() -> list[str]:
    return [str(HEADERS.get(name, name)) for name in CSV_HEADER]


def excel_value(column: str, value: Any) -> Any:
    """One cell as a person reads it in a spreadsheet."""
    if value in (None, ""):
        return ""
    if isinstance(value, datetime):
        return times.local(value).strftime("%d-%m-%Y %H:%M")
    if isinstance(value, date):
        return value.strftime("%d-%m-%Y")
    if column in ("offender_seat", "declarer_seat") and value in Seat.values:
        return Seat(value).letter
    if column == "contract":
        return contract_text(str(value))
    if column == "auction":
        return auction_text(str(value))
    if column in LABELS:
        return str(LABELS[column].get(value, value))
    return _cell(value)


def parse_or_none(stored: str) -> Auction | None:
    try:
        return load_auction(stored)
    except AuctionError:
        return None


def auction_text(stored: str) -> str:
    """The stored auction in the reader's notation: ``O: 1♥ pas 2SA X``, notes as typed."""
    auction = parse_or_none(stored)
    if auction is None:
        return _cell(stored)
    language = active_language()
    calls = " ".join(
        entry.call.short(language)
        + ("!" if entry.alert else "")
        + ("?" if entry.tempo else "")
        + (f' "{entry.explanation}"' if entry.explanation else "")
        + (f" [{entry.agreement}]" if entry.agreement else "")
        for entry in auction.calls
    )
    return _cell(f"{auction.dealer.letter}: {calls}")


def cells(row: tuple, basis: dict[int, list[str]]) -> list[Any]:
    return [
        excel_value(column, value)
        for column, value in zip(CSV_HEADER, row_values(row, basis), strict=True)
    ]


def lines(rulings: QuerySet[Ruling]) -> Iterator[str]:
    """The CSV for the reader's spreadsheet: ``;`` between cells in Dutch, ``,`` in English."""
    delimiter = ";" if active_language() == "nl" else ","
    return csv_lines(rulings, delimiter, header=header(), cells=cells)


__all__ = ["HEADERS", "cells", "excel_value", "header", "lines"]
