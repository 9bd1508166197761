"""An outcome's options when a side chooses (issue 27A3): every option with its law and who
chooses it, and the stored shape of an outcome (``outcome_json``). Pure Python.

A lead out of turn gives declarer 54A, 54B and 54D; a penalty card gives declarer 50D/52B1 or
52B2. The outcome lists every option (``option_list:`` in the tree file), not only the one
taken; an option with ``chosen_if: node/choice`` is marked chosen when the ruling's path holds
that answer. Re-exported by :mod:`trees.spec` (``outcome_json``, ``text_json``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from trees.spec import OutcomeSpec, Text

__all__ = ["OptionSpec", "options_json", "outcome_json", "read_options", "shown", "text_json"]


@dataclass(frozen=True)
class OptionSpec:
    label: Text
    cites: tuple[str, ...] = ()
    chosen_by: str = "none"  # one of trees.spec.CHOOSERS
    # "node/choice" (several: separated by spaces): the answer(s) by which it was chosen.
    chosen_if: str = ""


def text_json(text: Text | None) -> dict[str, str] | None:
    """A text as stored: None when it has neither language."""
    return {"nl": text.nl, "en": text.en} if text else None


def options_json(options: Sequence[OptionSpec]) -> list[dict[str, Any]]:
    return [
        {
            "label": text_json(option.label),
            "cites": list(option.cites),
            "chosen_by": option.chosen_by,
            "chosen_if": option.chosen_if,
        }
        for option in options
    ]


def outcome_json(outcome: OutcomeSpec) -> dict[str, Any]:
    """An outcome's details as stored (in a snapshot and, with title and law, on a ruling)."""
    data: dict[str, Any] = {
        "ruling": text_json(outcome.ruling),
        "options": text_json(outcome.options),
        "chooser": outcome.chooser,
        "announce": text_json(outcome.announce),
        "adjusted_score": outcome.adjusted_score,
        "unauthorised_information": outcome.unauthorised_information,
        "see_tree": outcome.see_tree or None,
    }
    if outcome.option_list:
        # Only then: outcomes without one keep their snapshot digest.
        data["option_list"] = options_json(outcome.option_list)
    if outcome.resume_at:
        data["resume_at"] = outcome.resume_at
    return data


def read_options(data: Any, where: str) -> tuple[OptionSpec, ...]:
    """Stored options back; ValueError naming the place when the shape is wrong."""
    from trees.spec import Text

    if not isinstance(data, list):
        raise ValueError(f"{where}: must be a list")
    options = []
    for index, item in enumerate(data):
        at = f"{where}[{index}]"
        if not isinstance(item, dict) or set(item) != {"label", "cites", "chosen_by", "chosen_if"}:
            raise ValueError(f"{at}: must have label, cites, chosen_by and chosen_if")
        label = item["label"] or {}
        cites = item["cites"]
        texts = [label.get("nl", ""), label.get("en", ""), item["chosen_by"], item["chosen_if"]]
        if not isinstance(label, dict) or not all(isinstance(t, str) for t in texts):
            raise ValueError(f"{at}: label, chosen_by and chosen_if must be text")
        if not isinstance(cites, list) or not all(isinstance(key, str) for key in cites):
            raise ValueError(f"{at}.cites: must be a list of keys")
        options.append(OptionSpec(Text(texts[0], texts[1]), tuple(cites), texts[2], texts[3]))
    return tuple(options)


def shown(
    outcome: dict[str, Any], path: Sequence[Sequence[str]], language: str | None = None
) -> list[dict[str, Any]]:
    """A ruling's options as its pages and CSV show them: label, keys, who chooses, and
    ``chosen`` when the path holds the answer that chose it."""
    from lib.i18n import pick_text

    answers = {f"{node}/{choice}" for node, choice in path}
    return [
        {
            "label": pick_text(item.get("label"), language),
            "cites": list(item.get("cites") or []),
            "chosen_by": item.get("chosen_by", "none"),
            "chosen": bool(set(str(item.get("chosen_if") or "").split()) & answers),
        }
        for item in outcome.get("option_list") or []
        if isinstance(item, dict)
    ]


def csv_text(options: list[dict[str, Any]]) -> str:
    """``54A*; 54B; 54D`` (the chosen one starred), for the CSV."""
    return "; ".join(
        " ".join(option["cites"]) + ("*" if option["chosen"] else "") for option in options
    )
