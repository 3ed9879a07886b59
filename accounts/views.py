from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.utils import translation
from django.utils.translation import gettext as _

from . import vacation
from .forms import ProfileForm, VacationForm


@login_required
def profile(request):
    if request.method == "POST" and ("vacation" in request.POST or "vacation_end" in request.POST):
        return _vacation(request)
    form = ProfileForm(request.POST or None, instance=request.user)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        translation.activate(user.language)
        messages.success(request, _("Your profile is saved."))
        response = redirect("profile")
        response.set_cookie(settings.LANGUAGE_COOKIE_NAME, user.language, samesite="Lax")
        return response
    away = request.user.vacation_until
    context = {
        "form": form,
        "vacation_form": VacationForm(),
        "away_until": away if away and away > vacation.now() else None,
        "vacation_limit_days": settings.VACATION_LIMIT_DAYS,
    }
    return render(request, "accounts/profile.html", context)


def _vacation(request):
    """Start, extend or end the vacation from every game by email."""
    try:
        if "vacation_end" in request.POST:
            vacation.vacation_end(request.user)
            messages.success(request, _("Welcome back: your clocks run again in all your games."))
        else:
            form = VacationForm(request.POST)
            if not form.is_valid():
                messages.error(request, " ".join(e for errors in form.errors.values() for e in errors))
                return redirect("profile")
            vacation.vacation_start(request.user, form.cleaned_data["days"], settings.VACATION_LIMIT_DAYS)
            messages.success(request, _("Your clocks are paused in all your games by email, those you join too."))
    except vacation.VacationError as error:
        messages.error(request, error.message)
    return redirect("profile")
