from django.contrib.auth.signals import user_logged_in
from django.dispatch import receiver


@receiver(user_logged_in)
def remember_language(sender, request, user, **kwargs) -> None:
    request.session["language"] = user.language
