"""A ruling's legal basis: the provisions its outcome rests on, decisive first.

The basis is the outcome's own citations (in the tree's order: the author puts the decisive
provision first), then what the answers on the path established (an answer's ``cites``: "the
revoke is established" cites 63A1), in path order, each key once. A question's law cards are
context for the director, never part of the basis: a penalty-card ruling cites the provisions
that decide it, not every card shown on the way.

The one writer (:mod:`rulings.transitions`) stores it as :class:`rulings.models.LegalBasis`
rows whenever the outcome changes; ``Ruling.cited_articles`` (the article numbers the tally and
the archive filter use) is derived from the same keys. The outcome page, the record, its print
and the CSV all show :func:`shown` of those keys (``templates/rulings/_legal_basis.html``).
Pure functions: no Django.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from lib.i18n import pick
from trees import citations
from trees.spec import Snapshot

__all__ = ["articles", "basis_keys", "keys_of_ruling", "shown", "tree_basis"]


def basis_keys(outcome_keys: Iterable[str], answer_keys: Iterable[str]) -> list[str]:
    """The outcome's keys, then the answers', each once, in that order."""
    return list(dict.fromkeys([*outcome_keys, *answer_keys]))


def tree_basis(tree: Snapshot, path: Sequence[Sequence[str]], outcome_key: str) -> list[str]:
    """The basis of ``outcome_key`` reached by ``path`` ([node, choice] pairs) in ``tree``."""
    answers = [
        key
        for node_key, choice_key in path
        if (choice := tree.choice(node_key, choice_key)) is not None
        for key in choice.cites
    ]
    return basis_keys(tree.node(outcome_key).cites, answers)


def keys_of_ruling(
    outcome: Mapping[str, Any], path: Sequence[Sequence[str]], tree: Snapshot | None
) -> list[str]:
    """The basis of a stored ruling: its outcome's recorded citations, and the answers' cites
    when its tree snapshot is known (an import, a migration). No outcome: no basis."""
    if not outcome:
        return []
    answers: list[str] = []
    if tree is not None:
        for node_key, choice_key in path:
            choice = tree.choice(node_key, choice_key)
            answers += choice.cites if choice is not None else ()
    return basis_keys(citations.outcome_keys(outcome), answers)


def articles(keys: Iterable[str]) -> str:
    """``Ruling.cited_articles`` for a basis: its article numbers as ``|27|47|``."""
    numbers = {number for key in keys if (number := citations.article_number(key))}
    return citations.encode(sorted(numbers, key=int))


def shown(
    keys: Sequence[str],
    outcome: Mapping[str, Any],
    tree: Snapshot | None,
    language: str | None = None,
) -> list[dict[str, Any]]:
    """The basis as every page shows it: per key, in order, the law text the ruling recorded
    (the outcome's own copy, else the tree snapshot's), ``decisive`` on the first."""
    recorded: dict[str, Mapping[str, Any]] = {}
    for item in outcome.get("citations") or []:
        if isinstance(item, Mapping) and isinstance(item.get("key"), str):
            recorded.setdefault(item["key"], item)
    entries = []
    for position, key in enumerate(keys):
        law: Mapping[str, Any] | None = recorded.get(key)
        if law is None and tree is not None and key in tree.law:
            law = tree.law[key].to_json()
        law = law or {}
        text = law.get("text") if isinstance(law.get("text"), Mapping) else {}
        assert isinstance(text, Mapping)
        entries.append(
            {
                "key": key,
                "article": law.get("article") or citations.article_number(key) or "",
                "article_title": law.get("article_title", ""),
                "kind": law.get("kind", "missing"),
                "text": dict(text),
                "shown_text": pick(text.get("nl", ""), text.get("en", ""), language),
                "decisive": position == 0,
            }
        )
    return entries
