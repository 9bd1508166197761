from datetime import timedelta

from django import template

register = template.Library()


@register.filter
def minutes(value: timedelta | None) -> int:
    """Whole minutes of a duration, rounded up, so a lock-out never ends earlier than said."""
    if not value:
        return 0
    return -(-int(value.total_seconds()) // 60)
