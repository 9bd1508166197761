"""Free rulings (*vrije arbitrage*): a ruling for an irregularity no tree covers yet.

The director picks the laws that apply from the current edition, writes the decision and what
was said at the table, and fills the board details. A free ruling is an ordinary
:class:`~rulings.models.Ruling`, marked by ``tree_slug == FREE_SLUG`` ("vrij", never a tree's
slug) and ``outcome_key == FREE_SLUG``, without a snapshot or steps. Its ``outcome`` has exactly
the shape of a tree outcome (``transfer.shapes.OUTCOME``): the title "Vrije arbitrage", the
decision as ``ruling``, the announcement as ``announce`` and the cited laws as ``citations``
with the edition's text (``trees.snapshot.cite``); ``cited_articles`` is filled the same way.
So the archive, its search, the statistics, the CSV, reviews, the record pages and transfer
bundles read it as any ruling.

:func:`create` makes the ruling at its first save ("Gegevens bewaren" or "Definitief
opslaan"); :func:`record` changes it later. Both go through the audit chain like the wizard:
``started``, ``free_written`` (laws, decision, announcement as written), ``context_edited``,
``saved``. A form carries the head of the ruling's audit chain (``audit_sequence``, moved by
every change; ``revision`` stays the wizard's count of steps, 0 here): a stale form (second
tab, double click after a change) is refused, a repeated identical one changes nothing, and a
second create with the same id fails on the unique uuid.
"""

from __future__ import annotations

import uuid as uuid_lib
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db.models import Q

from clubs.models import Club, User
from laws import keys
from laws.edition_law import index_of
from laws.index import Unknown
from laws.models import Article, Edition, Provision
from rulings import legal_basis
from rulings.audit import Action
from rulings.errors import WizardError
from rulings.models import FREE_SLUG, Mode, Ruling, Status

# One compare-and-swap and one set of state rules for both kinds of ruling.
from rulings.transitions import (
    UNCHANGED,
    Entries,
    Planned,
    Planner,
    Result,
    context_changes,
    refuse_closed,
    run,
    set_basis,
)
from rulings.wizard import CONTEXT_FIELDS, missing_to_save
from trees import citations, lookup
from trees.models import Tree
from trees.snapshot import cite

TITLE = {"nl": "Vrije arbitrage", "en": "Free ruling"}


@dataclass(frozen=True)
class Content:
    """What the director writes: canonical law keys, the decision, the announcement."""

    laws: tuple[str, ...] = ()
    decision: str = ""
    announcement: str = ""

    def as_data(self) -> dict[str, Any]:
        return {
            "laws": list(self.laws),
            "decision": self.decision,
            "announcement": self.announcement,
        }

    @property
    def empty(self) -> bool:
        return not (self.laws or self.decision or self.announcement)


def current_edition() -> Edition | None:
    """The edition in force (2017): the one marked current, else the latest."""
    return Edition.objects.order_by("-is_current", "-code").first()


def content_of(ruling: Ruling) -> Content:
    outcome = ruling.outcome or {}
    return Content(
        laws=tuple(citations.outcome_keys(outcome)),
        decision=(outcome.get("ruling") or {}).get("nl", ""),
        announcement=(outcome.get("announce") or {}).get("nl", ""),
    )


def unknown_laws(edition: Edition, wanted: list[str]) -> list[Unknown]:
    """The canonical keys ``edition`` does not hold, each with the nearest ones it does (the
    one key checker, ``laws.index``)."""
    index = index_of(edition)
    return [unknown for key in wanted if (unknown := index.unknown(key)) is not None]


@dataclass(frozen=True)
class Suggestion:
    """A law the search offers: its canonical key and the article's title."""

    key: str
    article: str
    title: str


SUGGESTIONS = 8


def _by_key(edition: Edition, key: keys.Key, limit: int) -> list[Suggestion]:
    """The typed key, its article and the provisions under it that the edition holds."""
    index = index_of(edition)
    article = Article.objects.filter(edition=edition, number=key.number).first()
    if article is None:
        return []
    typed = str(key)
    # Under 62A1 lie 62A1(a) and 62A1(b), not 62A10: the key grammar decides, not a prefix.
    provisions = Provision.objects.filter(article=article).order_by("order")
    under = [
        found
        for found in provisions.values_list("key", flat=True)
        if (parsed := keys.try_parse(found)) is not None and key.contains(parsed)
    ]
    wanted = [typed, article.number, *under[:limit]]
    found = [k for k in dict.fromkeys(wanted) if index.holds(k)]
    return [Suggestion(k, article.number, article.title) for k in found[:limit]]


def suggest(edition: Edition, query: str, limit: int = SUGGESTIONS) -> list[Suggestion]:
    """Laws of ``edition`` for a search: by key ("16B", "law 68") or by a word in the title,
    our summary or the official text."""
    query = query.strip()[:100]
    if not query:
        return []
    key = keys.try_parse(query)
    if key is not None:
        return _by_key(edition, key, limit)
    articles = (
        Article.objects.filter(edition=edition)
        .filter(
            Q(title__icontains=query)
            | Q(summary__text_nl__icontains=query)
            | Q(summary__text_en__icontains=query)
        )
        .order_by("order")
    )
    found = [Suggestion(a.number, a.number, a.title) for a in articles[:limit]]
    if len(found) < limit:
        provisions = (
            Provision.objects.filter(article__edition=edition, text__icontains=query)
            .select_related("article")
            .order_by("article__order", "order")
        )
        found += [
            Suggestion(p.key, p.article.number, p.article.title)
            for p in provisions[: limit - len(found)]
        ]
    return found


# The director's words read for the nearest tree: the first this many (a decision can be long).
NEAREST_WORDS = 40


def nearest_tree(edition: Edition, words: str) -> lookup.Result | None:
    """The tree of ``edition`` that best fits the director's words, when they match a
    question inside it (issue 32): the free ruling then links to that tree at that question.
    None when no tree does, or when the best tree is found only by its name."""
    text = " ".join(words.split()[:NEAREST_WORDS])
    if not text:
        return None
    found = lookup.find(Tree.objects.filter(edition=edition).select_related("edition"), text)
    return found[0] if found and found[0].question else None


def _text(value: str) -> dict[str, str]:
    # The director writes in one language; it is kept as Dutch, the language every text has
    # (lib.i18n.pick shows it in English mode too).
    return {"nl": value, "en": ""}


def outcome_of(edition: Edition, content: Content) -> dict[str, Any]:
    """``Ruling.outcome`` for ``content``: a tree outcome's shape, the law text included."""
    cited = cite(edition, list(content.laws))
    return {
        "key": FREE_SLUG,
        "title": dict(TITLE),
        "ruling": _text(content.decision),
        "options": None,
        "chooser": "none",
        "announce": _text(content.announcement),
        "adjusted_score": False,
        "unauthorised_information": False,
        "see_tree": None,
        "citations": [cited[key].to_json() for key in content.laws if key in cited],
    }


def _apply_content(ruling: Ruling, edition: Edition, content: Content) -> tuple[str, ...]:
    """Put the content on the ruling in memory; its legal basis: the laws the director cited."""
    ruling.outcome = outcome_of(edition, content)
    keys = tuple(legal_basis.keys_of_ruling(ruling.outcome, [], None))
    set_basis(ruling, keys)
    return keys


def _check_final(ruling: Ruling, content: Content, context: dict[str, Any]) -> None:
    missing = missing_to_save(ruling, context)
    if not content.laws:
        missing.append("laws")
    if not content.decision.strip():
        missing.append("decision")
    if missing:
        raise WizardError(WizardError.INCOMPLETE, ", ".join(missing))


def _saved_entry(ruling: Ruling, at: datetime) -> tuple[str, dict[str, Any]]:
    ruling.status = Status.FINAL
    ruling.finalised_at = at
    return Action.SAVED, {"outcome": FREE_SLUG, "steps": 0, "free": True}


def create(
    *,
    uuid: uuid_lib.UUID,
    club: Club,
    director: User,
    edition: Edition,
    content: Content,
    context: dict[str, Any],
    final: bool,
    at: datetime | None = None,
) -> Ruling:
    """Store a new free ruling (a draft, or final at once). When ``uuid`` is stored already
    (the same first save twice at once, a double click), this is a save of that ruling as the
    form was rendered before it existed (:func:`record` at revision 0): the same text again
    changes nothing, other text is stale. Returns the ruling stored under ``uuid``."""
    ruling = Ruling(
        uuid=uuid,
        club=club,
        director=director,
        mode=Mode.LIVE,
        tree_slug=FREE_SLUG,
        tree_title=TITLE["nl"],
        edition_code=edition.code,
        tree_version="",
        current_node_key=FREE_SLUG,
        outcome_key=FREE_SLUG,
    )
    saved = _plan_record(content, context, revision=0, final=final)

    def plan(ruling: Ruling, at: datetime) -> Planned:
        if ruling.pk is not None:
            return saved(ruling, at)
        if final:
            _check_final(ruling, content, context)
        basis = _apply_content(ruling, edition, content)
        entries: Entries = [
            (Action.STARTED, {"tree": FREE_SLUG, "edition": edition.code, "mode": Mode.LIVE}),
            (Action.FREE_WRITTEN, content.as_data()),
        ]
        changes = context_changes(ruling, context, CONTEXT_FIELDS)
        for name, (_old, new) in changes.items():
            setattr(ruling, name, new)
        if changes:
            entries.append((Action.CONTEXT_EDITED, {"changes": changes}))
        if final:
            entries.append(_saved_entry(ruling, at))
        return Planned((), entries, legal_basis=basis)

    return run(ruling, director, at, plan).ruling


def _plan_record(
    content: Content, context: dict[str, Any], *, revision: int, final: bool
) -> Planner:
    def plan(ruling: Ruling, at: datetime) -> Planned:
        refuse_closed(ruling)
        if not ruling.is_free:
            raise WizardError(WizardError.NO_TREE, str(ruling.uuid))
        rewritten = content != content_of(ruling)
        changes = context_changes(ruling, context, CONTEXT_FIELDS)
        if not (rewritten or changes or final):
            return UNCHANGED  # the same form again (a double click): accepted once
        if revision != ruling.audit_sequence:
            raise WizardError(WizardError.STALE, f"{revision} != {ruling.audit_sequence}")
        if final:
            _check_final(ruling, content, context)
        fields: list[str] = []
        entries: Entries = []
        basis = None
        if rewritten:
            edition = Edition.objects.get(code=ruling.edition_code)
            basis = _apply_content(ruling, edition, content)
            fields += ["outcome", "cited_articles"]
            entries.append((Action.FREE_WRITTEN, content.as_data()))
        for name, (_old, new) in changes.items():
            setattr(ruling, name, new)
        if changes:
            fields += list(changes)
            entries.append((Action.CONTEXT_EDITED, {"changes": changes}))
        if final:
            entries.append(_saved_entry(ruling, at))
            fields += ["status", "finalised_at"]
        return Planned(tuple(fields), entries, legal_basis=basis, clears_basis=True)

    return plan


def record(
    ruling: Ruling,
    content: Content,
    context: dict[str, Any],
    actor: User,
    *,
    revision: int,
    final: bool,
    at: datetime | None = None,
) -> Result:
    """Change a free ruling's text and board details, and make it final if asked, in one
    transition. ``revision`` is the ``audit_sequence`` the form was rendered with."""
    return run(ruling, actor, at, _plan_record(content, context, revision=revision, final=final))
