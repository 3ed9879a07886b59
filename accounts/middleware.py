from django.conf import settings
from django.utils import translation


class UserLanguageMiddleware:
    """A signed-in user without an explicit language cookie gets their profile's language."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated and settings.LANGUAGE_COOKIE_NAME not in request.COOKIES:
            translation.activate(user.language)
            request.LANGUAGE_CODE = user.language
        return self.get_response(request)
