"""Server-rendered pages: home and lobby, my games, creating, joining and playing a game."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from . import selectors, services
from .errors import GameError
from .forms import SCENARIO_NAMES, GameCreateForm
from .models import Game, Seat


def home(request):
    context = {"open_games": selectors.open_public_games()[:30], "scenario_names": SCENARIO_NAMES}
    if request.user.is_authenticated:
        context["my_games"] = selectors.games_for_user(request.user)[:50]
        context["form"] = GameCreateForm()
    return render(request, "games/home.html", context)


@login_required
def my_games(request):
    from .models import SeatOffer

    if request.method == "POST" and request.POST.get("offer"):
        from . import moderation

        _act(request, 0, lambda: moderation.seat_offer_accept(offer_id=int(request.POST["offer"]), user=request.user))
        return redirect("my-games")
    offers = SeatOffer.objects.filter(user=request.user, accepted_at__isnull=True).select_related("seat__game")
    return render(request, "games/my_games.html", {"rows": selectors.games_for_user(request.user), "offers": offers})


@login_required
def game_new(request):
    form = GameCreateForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            game = services.game_create(creator=request.user, **form.service_arguments())
        except GameError as error:
            form.add_error(None, error.message)
        else:
            return redirect("game", game_id=game.pk)
    return render(request, "games/new.html", {"form": form}, status=400 if form.errors else 200)


def game_page(request, game_id: int):
    game = get_object_or_404(Game.objects.prefetch_related("seats__user"), pk=game_id)
    invite = request.GET.get("invite", "")
    seat = selectors.seat_of(game, request.user)
    if game.visibility == Game.Visibility.PRIVATE and seat is None and invite != game.invite_token:
        if not request.user.is_staff:
            return render(request, "games/not_found.html", status=404)
    context = {"game": game, "seat": seat, "invite": invite, "scenario_name": SCENARIO_NAMES.get(game.scenario)}
    if game.status == Game.Status.WAITING:
        context["invite_url"] = request.build_absolute_uri(f"/games/{game.pk}/?invite={game.invite_token}")
        context["bot_levels"] = Seat.Bot.choices
        return render(request, "games/waiting.html", context)
    return render(request, "games/game.html", context)


def _act(request, game_id: int, action) -> None:
    try:
        action()
    except GameError as error:
        messages.error(request, error.message)


@login_required
@require_POST
def game_join(request, game_id: int):
    game = get_object_or_404(Game, pk=game_id)
    invite = request.POST.get("invite", "")
    if game.visibility == Game.Visibility.PRIVATE and invite != game.invite_token:
        messages.error(request, _("This game is private: use its invite link."))
    else:
        _act(request, game_id, lambda: services.seat_join(game_id=game_id, user=request.user))
    return redirect(f"/games/{game_id}/?invite={invite}" if invite else f"/games/{game_id}/")


@login_required
@require_POST
def game_leave(request, game_id: int):
    _act(request, game_id, lambda: services.seat_leave(game_id=game_id, user=request.user))
    return redirect("home")


@login_required
@require_POST
def game_seat_bot(request, game_id: int, index: int):
    """The creator seats a bot (or opens the seat) before the start."""
    level = request.POST.get("level", "")
    _act(request, game_id, lambda: services.seat_set_bot(game_id=game_id, user=request.user, index=index, level=level))
    return redirect("game", game_id=game_id)


@login_required
@require_POST
def game_start(request, game_id: int):
    _act(request, game_id, lambda: services.game_start(game_id=game_id, user=request.user))
    return redirect("game", game_id=game_id)


def login_link(request, token: str):
    """The link in a notification email: logs the user in once and opens the game."""
    from django.contrib.auth import login
    from django.core import signing

    from .links import read_login_token

    try:
        user, game_id = read_login_token(token)
    except signing.BadSignature:
        messages.error(request, _("This link has expired or was already used. Please log in."))
        return redirect("account_login")
    login(request, user, backend="django.contrib.auth.backends.ModelBackend")
    return redirect("game", game_id=game_id)


def unsubscribe(request, token: str):
    """One click from an email: no more notification emails."""
    from django.core import signing

    from accounts.models import User

    from .links import read_unsubscribe_token

    try:
        user_id = read_unsubscribe_token(token)
    except (signing.BadSignature, ValueError):
        return render(request, "games/unsubscribed.html", {"ok": False}, status=400)
    User.objects.filter(pk=user_id).update(notify=User.Notify.NONE)
    return render(request, "games/unsubscribed.html", {"ok": True})


@login_required
def game_settings(request, game_id: int):
    """Standing orders and vacation for the user's seat in one game."""
    from .clocks import vacation_start
    from .forms import StandingOrdersForm, VacationForm

    game = get_object_or_404(Game, pk=game_id)
    seat = selectors.seat_of(game, request.user)
    if seat is None:
        return render(request, "games/not_found.html", status=404)
    orders_form = StandingOrdersForm(request.POST or None, initial=StandingOrdersForm.initial_for(seat))
    vacation_form = VacationForm(request.POST or None)
    if request.method == "POST":
        try:
            if "report" in request.POST:
                from . import moderation

                moderation.report_create(
                    reporter=request.user,
                    game_id=game_id,
                    reason=request.POST.get("reason", ""),
                    user_id=int(request.POST.get("player") or 0),
                )
                messages.success(request, _("Thank you: a moderator will look at your report."))
                return redirect("game-settings", game_id=game_id)
            if "mute" in request.POST:
                from . import moderation

                moderation.mute_set(
                    user=request.user,
                    muted_user_id=int(request.POST.get("player") or 0),
                    muted=request.POST["mute"] == "1",
                )
                messages.success(request, _("Saved."))
                return redirect("game-settings", game_id=game_id)
            if "vacation" in request.POST and vacation_form.is_valid():
                vacation_start(game_id=game_id, user=request.user, days=vacation_form.cleaned_data["days"])
                messages.success(request, _("Your clock is paused while you are away."))
                return redirect("game-settings", game_id=game_id)
            if "orders" in request.POST and orders_form.is_valid():
                services.standing_orders_set(game_id=game_id, user=request.user, orders=orders_form.orders())
                messages.success(request, _("Your standing orders are saved."))
                return redirect("game-settings", game_id=game_id)
        except GameError as error:
            messages.error(request, error.message)
    from .models import Mute

    others = [
        s.user for s in Seat.objects.filter(game=game).exclude(user=request.user).select_related("user") if s.user
    ]
    muted = set(Mute.objects.filter(user=request.user).values_list("muted_id", flat=True))
    context = {
        "game": game,
        "seat": seat,
        "orders_form": orders_form,
        "vacation_form": vacation_form,
        "others": [{"user": u, "muted": u.pk in muted} for u in others],
    }
    return render(request, "games/settings.html", context)


def game_verify(request, game_id: int):
    """The public fairness page: commitment, revealed seed, and every roll replayed."""
    from .fairness import verify

    game = get_object_or_404(Game, pk=game_id)
    if game.visibility == Game.Visibility.PRIVATE and selectors.seat_of(game, request.user) is None:
        return render(request, "games/not_found.html", status=404)
    return render(request, "games/verify.html", {"game": game, "result": verify(game)})
