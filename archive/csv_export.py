"""The archive as CSV: the rulings of the current filters, streamed a chunk at a time, so an
export of the whole archive runs in constant memory (make bench, measurement 4). The adjusted
score comes in the same query (a left join on its one row per ruling)."""

from __future__ import annotations

import csv
import unicodedata
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from django.db.models import QuerySet
from django.db.models.fields.json import KT
from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest, StreamingHttpResponse
from django.utils import timezone
from django.views.decorators.http import require_GET

from archive import filters, stats
from clubs.access import requested_club
from lib import times
from rulings.models import LegalBasis, Ruling
from scores.models import SUMMARY_FIELDS, summary_of
from trees import citations, options, snapshot

CSV_CHUNK = 2000


class _Echo:
    """A file-like object for csv.writer that hands each line back instead of storing it."""

    def write(self, value: str) -> str:
        return value


CSV_FIELDS = (
    "uuid",
    "created_at",
    "played_on",
    "event",
    "round",
    "table",
    "board",
    "tree_slug",
    "tree_title",
    "edition_code",
    "tree_version",
    "outcome_key",
    "snapshot_id",
    "director__username",
    "director__first_name",
    "director__last_name",
    "mode",
    "status",
    "offender_seat",
    "declarer_seat",
    "contract_level",
    "contract_strain",
    "contract_doubled",
    "cited_articles",
    "review_verdict",
    "appeal_status",
    "finalised_at",
    "notes",
    *(f"adjusted_score__{name}" for name in SUMMARY_FIELDS),
    "decision",
    "auction",
    "path",
    "handed_over",
    "id",  # last: the chunk's legal basis is read by it (_chunk_lines)
)
CSV_HEADER = (
    "uuid",
    "created_at",
    "played_on",
    "event",
    "round",
    "table",
    "board",
    "tree",
    "irregularity",
    "edition",
    "tree_version",
    "outcome",
    "outcome_title",
    "director",
    "director_name",
    "mode",
    "status",
    "offender_seat",
    "declarer_seat",
    "contract",
    "cited_articles",
    "legal_basis",
    "option_list",
    "verdict",
    "appeal",
    "finalised_at",
    "notes",
    "adjusted_score",
    "adjusted_score_summary",
    # What was decided, as the record shows it: the outcome's ruling text; for a free ruling
    # the director's own words (its outcome title is only "Vrije arbitrage").
    "decision",
    # The auction as stored (lib.auction): dealer, calls, and each call's marks and notes.
    "auction",
    # A ruling continued in another tree (rulings/hand_over.py): the earlier trees, each as
    # tree:outcome, in order ("verzaking:zie-strafkaart"); "tree" and "outcome" are the last.
    "handed_over",
)
# A cell starting with one of these would be read as a formula by a spreadsheet program.
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def _looks_like_formula(value: str) -> bool:
    """Whether a spreadsheet could read the text as a formula: also after leading spaces, and
    with the full-width forms (＝ ＋ － ＠) that spreadsheet programs may fold to ASCII."""
    if value.startswith(FORMULA_START):
        return True
    start = unicodedata.normalize("NFKC", value.lstrip(" \u00a0\u3000")[:1])
    return start.startswith(FORMULA_START)


def _cell(value: Any) -> Any:
    if value is None:
        return ""
    if hasattr(value, "tzinfo") and hasattr(value, "hour"):
        return times.local(value).isoformat(timespec="seconds")
    if hasattr(value, "isoformat"):
        return value.isoformat()
    if isinstance(value, str) and _looks_like_formula(value):
        return "'" + value
    return value


def _csv_row(row: tuple, basis: dict[int, list[str]]) -> list[Any]:
    return [_cell(value) for value in row_values(row, basis)]


def row_values(row: tuple, basis: dict[int, list[str]]) -> list[Any]:
    """One ruling's cells under ``CSV_HEADER``, as Python values (dates, codes); ``_cell``
    writes them for the data CSV, ``archive.csv_excel`` for a spreadsheet in the reader's
    language."""
    values = dict(zip(CSV_FIELDS, row, strict=True))
    name = f"{values['director__first_name']} {values['director__last_name']}".strip()
    contract = ""
    if values["contract_level"]:
        contract = (
            f"{values['contract_level']}{values['contract_strain']}{values['contract_doubled']}"
        )
    out = [
        values["uuid"],
        values["created_at"],
        values["played_on"],
        values["event"],
        values["round"],
        values["table"],
        values["board"],
        values["tree_slug"],
        values["tree_title"],
        values["edition_code"],
        values["tree_version"],
        values["outcome_key"],
        stats.outcome_title(values["snapshot_id"], values["outcome_key"], "nl")
        if values["outcome_key"]
        else "",
        values["director__username"],
        name,
        values["mode"],
        values["status"],
        values["offender_seat"],
        values["declarer_seat"],
        contract,
        " ".join(citations.decode(values["cited_articles"])),
        # The record's and the outcome page's legal basis (rulings/legal_basis.py), in order.
        " ".join(basis.get(values["id"], [])),
        _options(values),
        values["review_verdict"],
        values["appeal_status"],
        values["finalised_at"],
        values["notes"],
        values["adjusted_score__kind"] or "",
        summary_of({name: values[f"adjusted_score__{name}"] for name in SUMMARY_FIELDS}),
        values["decision"],
        values["auction"],
        "; ".join(
            f"{part.get('tree', '')}:{part.get('outcome_key', '')}"
            for part in values["handed_over"] or ()
            if isinstance(part, dict)
        ),
    ]
    return out


Cells = Callable[[tuple, dict[int, list[str]]], list[Any]]


def csv_lines(
    rulings: QuerySet[Ruling],
    delimiter: str = ",",
    header: Sequence[str] = CSV_HEADER,
    cells: Cells | None = None,
) -> Iterator[str]:
    """The CSV text, line by line, with a BOM first so spreadsheet programs read UTF-8;
    ``header`` and ``cells`` for another form of the same columns (``archive.csv_excel``)."""
    writer = csv.writer(_Echo(), delimiter=delimiter)
    yield "\ufeff"
    yield writer.writerow(header)
    rows = rulings.annotate(decision=KT("outcome__ruling__nl")).values_list(*CSV_FIELDS)
    chunk: list[tuple] = []
    for row in rows.iterator(chunk_size=CSV_CHUNK):
        chunk.append(row)
        if len(chunk) == CSV_CHUNK:
            yield from _chunk_lines(writer, chunk, cells or _csv_row)
            chunk = []
    yield from _chunk_lines(writer, chunk, cells or _csv_row)


def _options(values: dict[str, Any]) -> str:
    """The outcome's options as the record shows them (``54A*; 54B; 54D``, chosen starred),
    from the tree snapshot the ruling ran on (kept in memory: no query per ruling)."""
    digest, key = values["snapshot_id"], values["outcome_key"]
    tree = snapshot.find(digest) if key else None
    if tree is None:
        return ""
    if not tree.has_node(key) or not tree.is_outcome(key):
        return ""
    outcome = tree.node(key).outcome
    assert outcome is not None
    stored = {"option_list": options.options_json(outcome.option_list)}
    return options.csv_text(options.shown(stored, values["path"] or []))


def _chunk_lines(writer: Any, chunk: list[tuple], cells: Cells) -> Iterator[str]:
    """The lines of a chunk of rulings, with their legal basis read in one query."""
    if not chunk:
        return
    basis: dict[int, list[str]] = {}
    rows = LegalBasis.objects.filter(ruling_id__in=[row[-1] for row in chunk])
    for ruling_id, key in rows.order_by("ruling_id", "position").values_list("ruling_id", "key"):
        basis.setdefault(ruling_id, []).append(key)
    for row in chunk:
        yield writer.writerow(cells(row, basis))


@require_GET
def export_csv(request: HttpRequest) -> HttpResponse | StreamingHttpResponse:
    club = requested_club(request)
    filterset = filters.for_request(request, club)
    refused = filters.refused(filterset)
    if refused:
        return HttpResponseBadRequest(
            "\n".join(refused) + "\n", content_type="text/plain; charset=utf-8"
        )
    rulings = filterset.qs
    delimiter = ";" if request.GET.get("sep") == "semicolon" else ","
    if request.GET.get("opmaak") == "excel":
        # For a spreadsheet in the reader's language; that module builds on this one.
        from archive import csv_excel

        lines = csv_excel.lines(rulings)
    else:
        lines = csv_lines(rulings, delimiter)
    response = StreamingHttpResponse(lines, content_type="text/csv; charset=utf-8")
    filename = f"arbitrages-{club.slug}-{timezone.localdate().isoformat()}.csv"
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response
