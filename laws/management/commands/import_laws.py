"""``manage.py import_laws PATH --edition CODE``: import law text from a seed-format file.

An edition with a provision index (2017) gets the official text of the provisions the file
holds, over our summaries (``laws.official``): keys the index lacks are refused, nothing is
deleted, and the same file twice changes nothing. Any other edition gets the file as its whole
text (``--replace`` to overwrite one that has articles).

``--dry-run`` shows what would be stored (``--json``: for an edition without an index exactly
the importer's JSON, with one the plan and the importer's JSON under ``parsed``) and writes
nothing. Every error is one line on stderr with exit status 2, and nothing is written.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import transaction

from laws.hooks import relink_after_import
from laws.importer import LawImportError, ParsedEdition, Provision, parse_bytes
from laws.loading import (
    check_edition_code,
    content_hash,
    get_or_create_edition,
    has_index,
    store_edition,
)
from laws.models import Edition
from laws.official import plan_import, run_import


class Command(BaseCommand):
    help = "Import law text (wiki export or PDF text) into an edition; all or nothing."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("path", help="UTF-8 text file with the law text")
        parser.add_argument("--edition", required=True, help="edition code, e.g. 1987")
        parser.add_argument("--language", help="language of a new edition (default nl)")
        parser.add_argument(
            "--start",
            help="a wiki page's own key (87A, 74B, 62D2), or the provision a text starting "
            "inside an article begins in (62B)",
        )
        parser.add_argument("--dry-run", action="store_true", help="parse only, write nothing")
        parser.add_argument("--json", action="store_true", help="with --dry-run: print JSON")
        parser.add_argument(
            "--replace", action="store_true", help="overwrite an edition that has articles"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            self._handle(options)
        except LawImportError as error:
            raise CommandError(str(error), returncode=2) from None

    def _handle(self, options: dict[str, Any]) -> None:
        path = Path(options["path"])
        code: str = options["edition"].strip()
        if options["json"] and not options["dry_run"]:
            raise LawImportError("--json only goes with --dry-run")
        check_edition_code(code)
        existing = Edition.objects.filter(code=code).first()
        language = options["language"]
        if existing and language and existing.language != language:
            raise LawImportError(
                f"edition {code} exists with language {existing.language!r}, not {language!r}"
            )
        try:
            data = path.read_bytes()
        except FileNotFoundError:
            raise LawImportError(f"file not found: {path}") from None
        except IsADirectoryError:
            raise LawImportError(f"not a file: {path}") from None
        except OSError as error:
            raise LawImportError(f"cannot read {path}: {error.strerror}") from None
        parsed = parse_bytes(data, code, options["start"])
        if existing is not None and has_index(existing):
            self._over_index(existing, parsed, path.name, data, options)
            return

        if options["dry_run"]:
            if options["json"]:
                self.stdout.write(json.dumps(parsed.to_json_dict(), ensure_ascii=False, indent=2))
            else:
                self._preview(parsed)
            return
        self.stdout.write(f"Parsed {path.name}: {len(parsed.articles)} articles")
        # One transaction, so a refused import does not leave a new, empty edition behind.
        with transaction.atomic():
            edition = get_or_create_edition(code, language or "nl")
            summary = store_edition(
                parsed,
                edition,
                replace=options["replace"],
                source_hash=content_hash(data),
                file_name=path.name,
            )
        self.stdout.write(self.style.SUCCESS(str(summary)))
        # The import replaced the articles that decision trees cite: point them at the new rows.
        relinked = relink_after_import(edition)
        if relinked:
            self.stdout.write(f"{relinked} tree citations relinked")

    def _over_index(
        self,
        edition: Edition,
        parsed: ParsedEdition,
        name: str,
        data: bytes,
        options: dict[str, Any],
    ) -> None:
        """Official text over the edition's provision index (``laws.official``)."""
        if options["replace"]:
            raise LawImportError(
                f"edition {edition.code} has a provision index: its official text is added "
                "provision by provision, without --replace (nothing is deleted)"
            )
        plan = plan_import(edition, parsed, file_name=name, sha256=content_hash(data))
        if options["dry_run"]:
            if options["json"]:
                self.stdout.write(json.dumps(plan.to_json(), ensure_ascii=False, indent=2))
            else:
                self.stdout.write("\n".join(plan.lines()))
            return
        record = run_import(plan)
        if record is None:
            self.stdout.write(f"Edition {edition.code}: nothing changed ({name} holds no new text)")
            return
        self.stdout.write(
            self.style.SUCCESS(
                f"Edition {edition.code}: official text for {record.provisions} provisions in "
                f"{record.articles} articles imported from {name}"
            )
        )
        if plan.cited_without_text:
            self.stdout.write(
                f"{len(plan.cited_without_text)} cited keys still without official text"
            )

    def _preview(self, parsed: ParsedEdition) -> None:
        write = self.stdout.write
        write(f"Dry run for edition {parsed.edition}: nothing is written.")
        if parsed.header:
            write(f"Header (skipped): {parsed.header}")
        for line in parsed.furniture:
            write(f"Page furniture (skipped): {line}")
        for line in parsed.skipped_preamble:
            write(f"Skipped preamble: {line}")
        for article in parsed.articles:
            title = f" {article.title}" if article.title else ""
            group = f" [{article.group}]" if article.group else ""
            write(f"Article {article.number}{title}{group}")
            keys = [p.key for p in article.walk()]
            write(f"  {len(keys)} provisions: {', '.join(keys) or '-'}")
            for provision in article.walk():
                self._preview_provision(provision)
            if article.references:
                write(f"  article text refers to {', '.join(r.key for r in article.references)}")
            for footnote in article.footnotes:
                write(
                    f"  footnote {footnote.marker or '(unmarked)'} -> {footnote.key or '-'}: "
                    f"{footnote.text[:70]}"
                )
        for note in parsed.notes:
            write(f"Note: {note}")
        write(
            f"Total: {len(parsed.articles)} articles, {parsed.provision_count} provisions, "
            f"{parsed.footnote_count} footnotes, {parsed.reference_count} references"
        )

    def _preview_provision(self, provision: Provision) -> None:
        depth = {"section": 2, "item": 4, "sub": 6}[provision.level]
        heading = provision.heading or provision.full_text[:60] or "-"
        refs = (
            f"  -> {', '.join(r.key for r in provision.references)}" if provision.references else ""
        )
        self.stdout.write(f"{' ' * depth}{provision.key}: {heading}{refs}")
