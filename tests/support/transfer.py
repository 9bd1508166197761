"""Helpers of the transfer tests: the command line's source, and a ruling as it was before
the server recorded its import."""

from __future__ import annotations

from typing import Any

from clubs.models import Club
from rulings.audit import Action
from transfer import importing, provenance


def import_text(raw: bytes | str, club: Club, file_name: str = "laptop.json"):
    """Read and import a bundle as ``manage.py import_rulings`` does (no ``--user``)."""
    data = raw.encode() if isinstance(raw, str) else raw
    source = provenance.Source.of(None, file_name, data, club)
    return importing.import_bundle(importing.read_bundle(data), club, source)


def without_import(ruling: dict[str, Any]) -> dict[str, Any]:
    """A serialised ruling (``transfer.serialise_ruling``) without the ``imported`` event the
    server appended to its chain: what the laptop sent."""
    audit = list(ruling["audit"])
    assert audit[-1]["action"] == Action.IMPORTED, audit[-1]
    audit.pop()
    return {
        **ruling,
        "audit": audit,
        "audit_sequence": audit[-1]["sequence"],
        "audit_head": audit[-1]["hash"],
    }
