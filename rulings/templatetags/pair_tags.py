"""The club's psyche register on a ruling's pages (rulings.pairs): what was recorded before
about the pairs at its table."""

from __future__ import annotations

from django import template

from rulings import pairs
from rulings.models import PairRecord, Ruling

register = template.Library()


@register.simple_tag
def pair_history(ruling: Ruling) -> list[pairs.Earlier]:
    """One query when the ruling names a pair, none otherwise."""
    return pairs.history(ruling)


@register.simple_tag
def pair_record_of(ruling: Ruling) -> PairRecord | None:
    """The record this ruling made in the register, if any."""
    return PairRecord.objects.filter(ruling=ruling).first()
