"""Template helpers for the question and outcome steps: the progress hint, the answers to
check before the final save, and board details that contradict them."""

from __future__ import annotations

from django import template

from rulings import consistency
from rulings.models import Ruling
from rulings.steps import PathEntry, StepView, answered_path, step_progress
from trees.progress import Progress

register = template.Library()


@register.simple_tag
def progress_of(view: StepView) -> Progress | None:
    return step_progress(view)


@register.simple_tag
def answers_of(ruling: Ruling) -> list[PathEntry]:
    return answered_path(ruling)


@register.simple_tag
def contradictions_of(ruling: Ruling) -> list[consistency.Contradiction]:
    return consistency.contradictions(
        ruling.tree_slug, ruling.path, ruling.offender_seat, ruling.declarer_seat
    )
