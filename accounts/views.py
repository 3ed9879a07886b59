from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.utils import translation
from django.utils.translation import gettext as _

from .forms import ProfileForm


@login_required
def profile(request):
    form = ProfileForm(request.POST or None, instance=request.user)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        translation.activate(user.language)
        messages.success(request, _("Your profile is saved."))
        response = redirect("profile")
        response.set_cookie(settings.LANGUAGE_COOKIE_NAME, user.language, samesite="Lax")
        return response
    return render(request, "accounts/profile.html", {"form": form})
