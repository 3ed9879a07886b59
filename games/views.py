"""Server-rendered pages: home and lobby, my games, creating, joining and playing a game."""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import get_user_model, login
from django.contrib.auth.decorators import login_required
from django.core import signing
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_POST

from accounts import vacation
from infra.api.params import whole_number
from infra.errors import GameError

from . import access, clocks, selectors, services
from .fairness import verify
from .forms import GameCreateForm, GameNoticesForm, StandingOrdersForm, VacationForm
from .live.pace import bot_pace
from .mail.kinds import VERB_LABELS
from .mail.links import read_login_token, read_unsubscribe_token
from .models import Game, Mute, Seat
from .scenario_names import SCENARIO_NAMES
from .services import notices
from .services.seats import seat_offers_live
from .signals import private_game_watched


def home(request):
    open_games = list(selectors.open_public_games()[:30])
    for game in open_games:
        game.scenario_name = SCENARIO_NAMES.get(game.scenario, game.scenario)
    context = {"open_games": open_games, "games_to_watch": selectors.games_to_watch()}
    if request.user.is_authenticated:
        context["my_games"] = selectors.games_for_user(request.user)[:50]
        context["form"] = GameCreateForm()
    return render(request, "games/home.html", context)


@login_required
def my_games(request):
    if request.method == "POST" and request.POST.get("offer"):
        offer_id = whole_number(request.POST["offer"], 0)
        _act(request, 0, lambda: services.seat_offer_accept(offer_id=offer_id, user=request.user))
        return redirect("my-games")
    offers = seat_offers_live(request.user)
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
    invite = request.GET.get("invite", "")
    try:
        game, seat = access.game_for_viewer(game_id=game_id, user=request.user, invite=invite)
    except GameError:
        return render(request, "games/not_found.html", status=404)
    if seat is None:
        private_game_watched.send(sender=Game, viewer=request.user, game_id=game.pk, session=request.session)
    context = {"game": game, "seat": seat, "invite": invite, "scenario_name": SCENARIO_NAMES.get(game.scenario)}
    context["bot_pace"] = bot_pace(game)
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
    invite = request.POST.get("invite", "")
    _act(request, game_id, lambda: services.seat_join(game_id=game_id, user=request.user, invite=invite))
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
def game_invite(request, game_id: int):
    """A player invites someone by username or email address (the invite link goes by email)."""
    try:
        told = services.game_invite(game_id=game_id, user=request.user, to=request.POST.get("to", ""))
    except GameError as error:
        messages.error(request, error.message)
    else:
        messages.success(request, told)
    return redirect("game", game_id=game_id)


@login_required
@require_POST
def game_start(request, game_id: int):
    _act(request, game_id, lambda: services.game_start(game_id=game_id, user=request.user))
    return redirect("game", game_id=game_id)


def login_link(request, token: str):
    """The link in a notification email opens the game for its player. Opening it changes nothing (mail scanners
    open links, and a link to someone else's account would log its reader into it): the page names the account,
    and its button (POST, with the CSRF token) logs in. A player already logged in goes straight on."""
    try:
        user, game_id = read_login_token(token)
    except signing.BadSignature:
        messages.error(request, _("This link has expired. Please log in."))
        return redirect(f"{reverse('account_login')}?next=/games/")
    if request.user.pk == user.pk:
        return redirect("game", game_id=game_id)
    if request.method != "POST":
        game = Game.objects.filter(pk=game_id).first()
        return render(request, "games/login_link.html", {"account": user, "game": game})
    login(request, user, backend="django.contrib.auth.backends.ModelBackend")
    return redirect("game", game_id=game_id)


def email_action(request, code: str, verb: str):
    """A decision from an email's link: GET shows one button (mail scanners open links), POST plays it. A stale
    link (its decision made, or the game moved on) says so at once, with no button."""
    try:
        notification = services.email_actions.notification_for(code)
    except GameError:
        return render(request, "games/email_action.html", {"invalid": True}, status=404)
    if verb not in VERB_LABELS:
        return render(request, "games/email_action.html", {"invalid": True}, status=404)
    context = {"game": notification.game, "label": VERB_LABELS[verb], "verb": verb}
    try:
        if request.method == "POST":
            services.email_actions.decide_from_email(code=code, verb=verb)
            context["done"] = True
        else:
            services.email_actions.check_open(notification, verb)
    except GameError as error:
        context["error"] = error.message
        return render(request, "games/email_action.html", context, status=error.status)
    return render(request, "games/email_action.html", context)


@csrf_exempt  # the signed token is the credential; mail clients' one-click POST (RFC 8058) carries no CSRF token
def unsubscribe(request, token: str):
    """From an email: GET asks to confirm (mail scanners open links), POST unsubscribes from every notification
    email, as a one-click List-Unsubscribe-Post does."""
    try:
        user_id = read_unsubscribe_token(token)
    except (signing.BadSignature, ValueError):
        return render(request, "games/unsubscribed.html", {"ok": False}, status=400)
    if request.method != "POST":
        return render(request, "games/unsubscribed.html", {"ok": True, "confirm": True})
    User = get_user_model()  # noqa: N806 (the model class)
    User.objects.filter(pk=user_id).update(notify=User.Notify.NONE)
    return render(request, "games/unsubscribed.html", {"ok": True})


@login_required
def game_settings(request, game_id: int):
    """Standing orders and vacation for the user's seat in one game."""
    try:
        game, seat = access.player_seat(game_id=game_id, user=request.user)
    except GameError as error:
        if error.status == 403:  # a spectator: the game is theirs to see, not to set
            return render(request, "games/not_a_player.html", {"game_id": game_id}, status=403)
        return render(request, "games/not_found.html", status=404)
    orders_form = StandingOrdersForm(request.POST or None, initial=StandingOrdersForm.initial_for(seat))
    vacation_form = VacationForm(request.POST or None)
    notices_form = GameNoticesForm(
        request.POST if "notices" in request.POST else None,
        initial={"notify_by": seat.notify_by},
        account_choice=request.user.notify_by,
    )
    if request.method == "POST":
        try:
            if "notices" in request.POST and notices_form.is_valid():
                chosen = notices_form.cleaned_data["notify_by"]
                notices.notify_by_set(user=request.user, notify_by=chosen, game_id=game_id)
                # The feedback next to the control (#notices), where the focus lands: "Saved.", as a status.
                return redirect(f"{reverse('game-settings', args=[game_id])}?saved=notices#notices")
            if "report" in request.POST:
                services.report_create(
                    reporter=request.user,
                    game_id=game_id,
                    reason=request.POST.get("reason", ""),
                    user_id=whole_number(request.POST.get("player"), 0),
                )
                messages.success(request, _("Thank you: a moderator will look at your report."))
                return redirect("game-settings", game_id=game_id)
            if "mute" in request.POST:
                services.mute_set(
                    user=request.user,
                    muted_user_id=whole_number(request.POST.get("player"), 0),
                    muted=request.POST["mute"] == "1",
                )
                messages.success(request, _("Saved."))
                return redirect("game-settings", game_id=game_id)
            if "vacation_end" in request.POST:
                services.vacation_end(game_id=game_id, user=request.user)
                messages.success(request, _("Welcome back: your clock runs again."))
                return redirect("game-settings", game_id=game_id)
            if "vacation" in request.POST and vacation_form.is_valid():
                days = vacation_form.cleaned_data["days"]
                if request.POST.get("everywhere"):
                    # The account's vacation, as on the profile page: it holds the games joined later too.
                    try:
                        vacation.vacation_start(request.user, days, settings.VACATION_LIMIT_DAYS)
                    except vacation.VacationError as error:
                        raise GameError("bad_days", error.message) from None
                    messages.success(
                        request, _("Your clocks are paused in all your games by email, those you join too.")
                    )
                else:
                    services.vacation_start(game_id=game_id, user=request.user, days=days)
                    messages.success(request, _("Your clock is paused while you are away."))
                return redirect("game-settings", game_id=game_id)
            if "orders" in request.POST and orders_form.is_valid():
                services.standing_orders_set(game_id=game_id, user=request.user, orders=orders_form.orders())
                messages.success(request, _("Your standing orders are saved."))
                return redirect("game-settings", game_id=game_id)
        except GameError as error:
            messages.error(request, error.message)
    others = [
        s.user for s in Seat.objects.filter(game=game).exclude(user=request.user).select_related("user") if s.user
    ]
    muted = set(Mute.objects.filter(user=request.user).values_list("muted_id", flat=True))
    back = clocks.away_until(seat)
    away = back if back and back > clocks.now() else None
    context = {
        "game": game,
        "seat": seat,
        "away_until": away,
        # Away here by the account's vacation: `away_until` counts it only where it is not waived.
        "away_everywhere": away is not None and away == seat.user.vacation_until,
        "orders_form": orders_form,
        "vacation_form": vacation_form,
        "notices_form": notices_form,
        "notices_saved": request.method == "GET" and request.GET.get("saved") == "notices",
        "others": [{"user": u, "muted": u.pk in muted} for u in others],
    }
    return render(request, "games/settings.html", context)


def game_verify(request, game_id: int):
    """The public fairness page: commitment, revealed seed, and every roll replayed."""
    try:
        game, _seat = access.game_for_viewer(game_id=game_id, user=request.user, invite=request.GET.get("invite"))
    except GameError:
        return render(request, "games/not_found.html", status=404)
    return render(request, "games/verify.html", {"game": game, "result": verify(game)})


@login_required
@require_POST
def game_rematch(request, game_id: int):
    """A new game like this finished one (scenario, seats, bots, options, clock), created by one of its players."""
    game = Game.objects.filter(pk=game_id, status=Game.Status.FINISHED, seats__user=request.user).first()
    if game is None:
        return render(request, "games/not_found.html", status=404)
    bots = [s.bot for s in game.seats.all() if s.bot]
    try:
        rematch = services.game_create(
            creator=request.user,
            scenario=game.scenario,
            seat_count=game.seat_count,
            bot_seats=list(range(game.seat_count - len(bots), game.seat_count)),
            bot_level=max(set(bots), key=bots.count) if bots else Seat.Bot.MEDIUM,
            options=game.options,
            visibility=game.visibility,
            clock=game.clock,
            move_seconds=game.move_seconds,
            timeout_policy=game.timeout_policy,
            name=game.name,
        )
    except GameError as error:
        messages.error(request, error.message)
        return redirect("game", game_id=game_id)
    return redirect("game", game_id=rematch.pk)
