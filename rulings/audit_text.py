"""The audit trail in words a committee reads: "Vraag 2 ‘Is het bod geaccepteerd?’: Ja", not
``{"step": 2, "node": "geaccepteerd", "choice": "ja"}``.

The chain stores keys (node, choice, field names); this module turns each event into a
sentence in the active language, using the ruling's own snapshot for questions, answers and
outcomes, and the model's field labels for the table details. Anything it does not know (an
action added later, a bundle from a newer version) is still shown, as labelled values.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from datetime import date
from typing import Any

from django.core.exceptions import FieldDoesNotExist
from django.db import models
from django.utils import formats
from django.utils.translation import gettext as _

from lib.bridge import Side
from lib.i18n import active_language
from rulings.audit import ACTION_LABELS, Action
from rulings.models import AuditEvent, RecordKind, Ruling, Verdict
from trees import snapshot
from trees.spec import Snapshot

Describer = Callable[[Mapping[str, Any], "Words"], str]


class Words:
    """Names of questions, answers, outcomes and fields, from the ruling's snapshot."""

    def __init__(self, tree: Snapshot | None) -> None:
        self.tree = tree

    def question(self, node_key: Any) -> str:
        node = self._node(node_key)
        return node.text.get(active_language()) if node else str(node_key)

    def answer(self, node_key: Any, choice_key: Any) -> str:
        node = self._node(node_key)
        choice = node.choice(str(choice_key)) if node else None
        return choice.label.get(active_language()) if choice else str(choice_key)

    def outcome(self, node_key: Any) -> str:
        return self.question(node_key)

    def _node(self, key: Any) -> Any:
        if self.tree is None or not isinstance(key, str) or not self.tree.tree.has_node(key):
            return None
        return self.tree.tree.node(key)


def field_label(name: str) -> str:
    try:
        field = Ruling._meta.get_field(name)
    except FieldDoesNotExist:
        return name
    return str(getattr(field, "verbose_name", name))


def field_value(name: str, value: Any) -> str:
    if value in (None, "", []):
        return "–"
    try:
        field = Ruling._meta.get_field(name)
    except FieldDoesNotExist:
        return str(value)
    if isinstance(field, models.DateField) and not isinstance(field, models.DateTimeField):
        # Stored as ISO text in the event; shown in the page's one date format.
        try:
            return formats.date_format(date.fromisoformat(str(value)), "DATE_FORMAT")
        except ValueError:
            return str(value)
    choices = dict(getattr(field, "choices", None) or [])
    return str(choices.get(value, value))


def _step(data: Mapping[str, Any]) -> str:
    return _("Vraag %(n)s") % {"n": data.get("step", "?")}


def _started(data: Mapping[str, Any], words: Words) -> str:
    mode = _("oefening") if data.get("mode") == "training" else _("echt")
    return _("Gestart met beslisboom %(tree)s (editie %(edition)s, %(mode)s)") % {
        "tree": data.get("tree", "?"),
        "edition": data.get("edition", "?"),
        "mode": mode,
    }


def _answered(data: Mapping[str, Any], words: Words) -> str:
    node = data.get("node")
    question, answer = words.question(node), words.answer(node, data.get("choice"))
    return f"{_step(data)} ‘{question}’: {answer}"


def _answer_changed(data: Mapping[str, Any], words: Words) -> str:
    node = data.get("node")
    later = max(len(data.get("superseded") or []) - 1, 0)
    text = _("%(step)s ‘%(question)s’: antwoord gewijzigd van %(old)s in %(new)s") % {
        "step": _step(data),
        "question": words.question(node),
        "old": words.answer(node, data.get("from")),
        "new": words.answer(node, data.get("to")),
    }
    if later:
        text += "; " + _("%(n)s latere antwoorden vervallen (bewaard)") % {"n": later}
    return text


def _outcome_reached(data: Mapping[str, Any], words: Words) -> str:
    return _("Uitkomst bereikt: %(outcome)s") % {"outcome": words.outcome(data.get("outcome"))}


def _context_edited(data: Mapping[str, Any], words: Words) -> str:
    changes = data.get("changes") or {}
    if not isinstance(changes, Mapping):
        return _values(data, words)
    parts = []
    for name, change in changes.items():
        old, new = change if isinstance(change, list) and len(change) == 2 else (None, change)
        parts.append(f"{field_label(name)}: {field_value(name, old)} → {field_value(name, new)}")
    return _("Gegevens gewijzigd: %(changes)s") % {"changes": "; ".join(parts)}


def _paused(label: str) -> Describer:
    def describe(data: Mapping[str, Any], words: Words) -> str:
        text = f"{label} ({_step(data).lower()} ‘{words.question(data.get('node'))}’)"
        if data.get("reason"):
            text += " – " + _("reden: %(reason)s") % {"reason": data["reason"]}
        return text

    return describe


def _saved(data: Mapping[str, Any], words: Words) -> str:
    if data.get("free"):
        return _("Definitief opgeslagen als vrije arbitrage")
    return _("Definitief opgeslagen met de uitkomst %(outcome)s na %(n)s vragen") % {
        "outcome": words.outcome(data.get("outcome")),
        "n": data.get("steps", "?"),
    }


def _free_written(data: Mapping[str, Any], words: Words) -> str:
    laws = ", ".join(str(key) for key in data.get("laws") or []) or "–"
    text = _("Vrije arbitrage, artikelen %(laws)s") % {"laws": laws}
    if data.get("decision"):
        text += " – " + _("beslissing: %(decision)s") % {"decision": data["decision"]}
    if data.get("announcement"):
        text += " – " + _("aan tafel: %(said)s") % {"said": data["announcement"]}
    return text


def _reviewed(data: Mapping[str, Any], words: Words) -> str:
    code = str(data.get("verdict", "?"))
    verdict = dict(Verdict.choices).get(code, code)
    text = _("Beoordeeld: %(verdict)s") % {"verdict": verdict}
    if data.get("comment"):
        text += " – " + str(data["comment"])
    if data.get("corrected_citations"):
        text += " (" + ", ".join(str(key) for key in data["corrected_citations"]) + ")"
    return text


def _appeal(label: str) -> Describer:
    def describe(data: Mapping[str, Any], words: Words) -> str:
        return f"{label}: {data['note']}" if data.get("note") else label

    return describe


def _score_side(part: Any) -> str:
    """One side of a ``score_adjusted`` event: its rows, or its artificial score."""
    if not isinstance(part, Mapping):
        return "?"
    if part.get("artificial"):
        names = {
            "plus": _("gemiddeld plus"),
            "average": _("gemiddeld"),
            "minus": _("gemiddeld min"),
        }
        name = names.get(str(part["artificial"]), str(part["artificial"]))
        return f"{name} ({part['percent']} %)" if part.get("percent") is not None else name
    rows = part.get("rows") or []
    return ", ".join(f"{row['weight']} % {row['contract']} ({row['declarer']})" for row in rows)


def _score_adjusted(data: Mapping[str, Any], words: Words) -> str:
    # The scores app sits above rulings: the event carries everything needed to read it.
    kinds = {
        "assigned": _("toegekend"),
        "weighted": _("gewogen"),
        "artificial": _("kunstmatig"),
    }
    offending = str(data.get("offending_side", ""))
    side = Side(offending) if offending in Side.values else None
    non_offending = side.other.label if side is not None else ""
    first, second = _score_side(data.get("non_offending")), _score_side(data.get("offending"))
    heading = (
        _("Arbitrale score gewijzigd (%(kind)s)")
        if data.get("amended")
        else _("Arbitrale score vastgelegd (%(kind)s)")
    )
    sides = _("%(non)s %(first)s; %(off)s (overtreders) %(second)s")
    return (
        heading % {"kind": kinds.get(str(data.get("kind")), str(data.get("kind")))}
        + ": "
        + sides
        % {
            "non": non_offending,
            "first": first,
            "off": side.label if side is not None else offending,
            "second": _("dezelfde") if second == first else second,
        }
    )


def _result_recorded(data: Mapping[str, Any], words: Words) -> str:
    # The event carries the contract with its result, as for the adjusted score.
    text = _("Uitslag vastgelegd: %(made)s") % {"made": data["made"]}
    if data.get("rectified") and data["rectified"] != data["made"]:
        text += "; " + _("na rechtzetting %(rectified)s") % {"rectified": data["rectified"]}
    return text


def _auction_edited(data: Mapping[str, Any], words: Words) -> str:
    # The stored texts themselves (dealer and calls): what the committee compares.
    return _("Bieding gewijzigd: %(old)s → %(new)s") % {
        "old": data.get("from") or "–",
        "new": data.get("to") or "–",
    }


def _poll_prepared(data: Mapping[str, Any], words: Words) -> str:
    text = _("Peiling voorbereid") if not data.get("amended") else _("Peiling gewijzigd")
    return (
        text
        + ": "
        + _("hand %(hand)s, bieding %(auction)s, vraag ‘%(question)s’")
        % {
            "hand": data.get("hand", "?"),
            "auction": data.get("auction") or "–",
            "question": data.get("question", "?"),
        }
    )


def _poll_answered(data: Mapping[str, Any], words: Words) -> str:
    # Call codes (P, X, 3NT) as stored: the committee reads them in either language.
    considered = ", ".join(str(code) for code in data.get("considered") or []) or "–"
    return _("Peiling: %(player)s (%(level)s) koos %(call)s; serieus overwogen: %(considered)s") % {
        "player": data.get("player", "?"),
        "level": data.get("level", "?"),
        "call": data.get("call", "?"),
        "considered": considered,
    }


def _poll_answer_withdrawn(data: Mapping[str, Any], words: Words) -> str:
    return _("Peiling: het antwoord van %(player)s (%(call)s) ingetrokken") % {
        "player": data.get("player", "?"),
        "call": data.get("call", "?"),
    }


def _imported(data: Mapping[str, Any], words: Words) -> str:
    # The actor column names who imported; the file and its hash say from what.
    return _("Geïmporteerd uit %(file)s (sha256 %(sha256)s)") % {
        "file": data.get("file", "?"),
        "sha256": data.get("sha256", "?"),
    }


def _import_undone(data: Mapping[str, Any], words: Words) -> str:
    return _("Import uit %(file)s teruggedraaid: de arbitrage is verworpen") % {
        "file": data.get("file", "?")
    }


def _handed_over(data: Mapping[str, Any], words: Words) -> str:
    came_from, going = data.get("from") or {}, data.get("to") or {}
    return _("Uitkomst %(outcome)s: verder in de beslisboom %(tree)s, in deze arbitrage") % {
        "outcome": words.outcome(came_from.get("outcome")),
        "tree": going.get("tree", "?"),
    }


def _pair_recorded(data: Mapping[str, Any], words: Words) -> str:
    kinds = dict(RecordKind.choices)
    side = str(data.get("side", ""))
    return _("%(kind)s vastgelegd voor paar %(pair)s (%(side)s)") % {
        "kind": str(kinds.get(str(data.get("kind")), data.get("kind"))).capitalize(),
        "pair": data["pair"],
        "side": Side(side).label if side in Side.values else side,
    }


def _values(data: Mapping[str, Any], words: Words) -> str:
    return "; ".join(f"{field_label(str(key))}: {value}" for key, value in data.items())


DESCRIBERS: dict[str, Describer] = {
    Action.STARTED: _started,
    Action.ANSWERED: _answered,
    Action.ANSWER_CHANGED: _answer_changed,
    Action.OUTCOME_REACHED: _outcome_reached,
    Action.CONTEXT_EDITED: _context_edited,
    Action.DEFERRED: _paused(_("Uitgesteld")),
    Action.RESUMED: _paused(_("Hervat")),
    Action.DISCARDED: _paused(_("Verworpen")),
    Action.SAVED: _saved,
    Action.FREE_WRITTEN: _free_written,
    Action.REVIEWED: _reviewed,
    Action.APPEAL_OPENED: _appeal(_("Beroep ingesteld")),
    Action.APPEAL_SETTLED: _appeal(_("Beroep afgehandeld")),
    Action.SCORE_ADJUSTED: _score_adjusted,
    Action.RESULT_RECORDED: _result_recorded,
    Action.AUCTION_EDITED: _auction_edited,
    Action.IMPORTED: _imported,
    Action.IMPORT_UNDONE: _import_undone,
    Action.HANDED_OVER: _handed_over,
    Action.PAIR_RECORDED: _pair_recorded,
    Action.POLL_PREPARED: _poll_prepared,
    Action.POLL_ANSWERED: _poll_answered,
    Action.POLL_ANSWER_WITHDRAWN: _poll_answer_withdrawn,
}


def describe(event: AuditEvent, words: Words) -> str:
    """One event as a sentence; unknown actions and odd data still read as labelled values."""
    data = event.data if isinstance(event.data, Mapping) else {"": event.data}
    describer = DESCRIBERS.get(event.action, _values)
    try:
        return describer(data, words)
    except (TypeError, ValueError, KeyError, AttributeError):
        return _values(data, words)


def trail(ruling: Ruling, events: list[AuditEvent]) -> list[dict[str, Any]]:
    """The ruling's events as the ruling page lists them, in the words of the tree it ran on
    (of each tree in turn, for a ruling continued in another tree: rulings/hand_over.py)."""
    trees = [part.get("snapshot") for part in ruling.handed_over if isinstance(part, Mapping)]
    vocabularies = [Words(snapshot.find(digest)) for digest in [*trees, ruling.snapshot_id]]

    # A committee reads people by name: the actor's full name where the caller fetched the
    # accounts with the events (``select_related("actor")``), else the recorded user name.
    def actor(event: AuditEvent) -> str:
        if AuditEvent.actor.is_cached(event) and event.actor is not None:
            return event.actor.get_full_name() or event.actor_name
        return event.actor_name

    shown, tree = [], 0
    for event in events:
        words = vocabularies[min(tree, len(vocabularies) - 1)]
        shown.append(
            {
                "event": event,
                "label": str(ACTION_LABELS.get(event.action, event.action)),
                "text": describe(event, words),
                "actor": actor(event),
            }
        )
        tree += event.action == Action.HANDED_OVER
    return shown
