from datetime import datetime, timedelta

from django import template
from django.utils import timezone
from django.utils.timesince import timesince
from django.utils.translation import gettext

register = template.Library()


@register.filter
def minutes(value: timedelta | None) -> int:
    """Whole minutes of a duration, rounded up, so a lock-out never ends earlier than said."""
    if not value:
        return 0
    return -(-int(value.total_seconds()) // 60)


@register.filter
def ago(value: datetime | None) -> str:
    """ "zojuist" within the first minute, else "12 minuten geleden": a list of open rulings
    must not say "0 minuten geleden" about the one just left."""
    if value is None:
        return ""
    if timezone.now() - value < timedelta(minutes=1):
        return gettext("zojuist")
    return gettext("%(time)s geleden") % {"time": timesince(value)}
