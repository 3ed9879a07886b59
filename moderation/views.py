"""The moderation pages: the report queue, games, people and the audit log (403 for anyone else), and each
person's own record of warnings and sanctions."""

from __future__ import annotations

from datetime import timedelta
from functools import wraps
from itertools import groupby
from typing import Any

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.core.paginator import Paginator
from django.db.models import Q
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from accounts.models import User
from games import selectors
from games.forms import RESOURCE_CHOICES
from games.models import ChatMessage, Game, SeatOffer
from infra.api.params import whole_number
from infra.errors import GameError
from rules.constants import DEVELOPMENT_CARDS, RESOURCES
from rules.svg import board_svg

from . import recusal
from . import services as moderation
from .models import Report, Sanction

REPORTS_PER_PAGE = 20
AUDIT_PER_PAGE = 50
REASON_TEMPLATES = [
    gettext_lazy("Insults or harassment in chat"),
    gettext_lazy("Spam or advertising"),
    gettext_lazy("Cheating or collusion"),
    gettext_lazy("Abandoning games"),
    gettext_lazy("Reviewed: no rule broken"),
]


def moderator_only(view):
    @wraps(view)
    def wrapped(request, *args, **kwargs):
        if not (request.user.is_authenticated and request.user.is_moderator):
            raise PermissionDenied
        with timezone.override(request.user.time_zone or "UTC"):
            return view(request, *args, **kwargs)

    return wrapped


def _do(request, action) -> Any:
    try:
        result = action()
        messages.success(request, _("Done, and recorded in the audit log."))
        return result
    except GameError as error:
        messages.error(request, error.message)
        return None


def _page(request, items, per_page: int):
    return Paginator(items, per_page).get_page(whole_number(request.GET.get("page"), 1))


SEEN_KEY = "mod-reports-seen"


def _common(request, *, seen: bool = False) -> dict[str, Any]:
    """What every moderation page shows: the open reports' badge, how many came since this moderator last
    opened the queue (`seen`: this page is the queue, so from now on they are seen), the reason templates."""
    open_reports = Report.objects.filter(status=Report.Status.OPEN)
    since = request.session.get(SEEN_KEY)
    new = open_reports.filter(pk__gt=since).count() if since is not None else open_reports.count()
    if seen:
        request.session[SEEN_KEY] = Report.objects.order_by("-pk").values_list("pk", flat=True).first() or 0
    return {
        "reason_templates": REASON_TEMPLATES,
        "open_count": open_reports.count(),
        "new_count": new,
        "now": timezone.now(),  # a suspension whose end has passed is not shown as running
    }


def _length(post) -> dict[str, int]:
    """A suspension's length from a form: a number of days or hours ("length" and "unit"; "days" alone too).
    Never empty: no length would ban."""
    if "length" in post:
        number = whole_number(post.get("length") or "0", 0)
        return {"hours": number} if post.get("unit") == "hours" else {"days": number}
    return {"days": whole_number(post.get("days") or "7", 0)}


@moderator_only
def queue(request):
    if request.method == "POST":
        ids = [n for n in (whole_number(v) for v in request.POST.getlist("report")) if n is not None]
        action, reason = request.POST.get("action", ""), request.POST.get("reason", "")
        length = _length(request.POST)
        note = request.POST.get("note", "")
        me = request.user
        if len(ids) == 1:
            _do(
                request,
                lambda: moderation.report_handle(
                    moderator=me, report_id=ids[0], action=action, reason=reason, note=note, **length
                ),
            )
        else:
            _do(
                request,
                lambda: moderation.reports_handle_many(
                    moderator=me, report_ids=ids, action=action, reason=reason, note=note, **length
                ),
            )
        return redirect(request.get_full_path())
    q = request.GET
    reports = Report.objects.filter(status=Report.Status.OPEN).select_related(
        "reported_user", "reporter", "message", "game"
    )
    if q.get("player"):
        name = q["player"]
        reports = reports.filter(
            Q(reported_user__username__icontains=name) | Q(reported_user__display_name__icontains=name)
        )
    if q.get("kind") == "message":
        reports = reports.filter(message__isnull=False)
    elif q.get("kind") == "player":
        reports = reports.filter(message__isnull=True)
    game_id = whole_number(q.get("game"))
    if game_id:
        reports = reports.filter(game_id=game_id)
    # Reports on one person are grouped; the person with the oldest open report comes first.
    ordered = sorted(reports, key=lambda r: (r.reported_user_id, r.created_at))
    groups = []
    for _user_id, items in groupby(ordered, key=lambda r: r.reported_user_id):
        items = list(items)
        person = items[0].reported_user
        groups.append({"person": person, "reports": items, "since": items[0].created_at})
    groups.sort(key=lambda g: g["since"])
    page = _page(request, groups, REPORTS_PER_PAGE)
    people = [g["person"].pk for g in page]
    history: dict[int, list[Sanction]] = {}
    for sanction in Sanction.objects.filter(user_id__in=people).select_related("moderator"):
        history.setdefault(sanction.user_id, []).append(sanction)
    for group in page:
        group["sanctions"] = history.get(group["person"].pk, [])
        for report in group["reports"]:
            refusal = recusal.report_refusal(request.user, report)
            report.refusal = refusal.message if refusal else ""  # no action offered: this says why
    context = {**_common(request, seen=True), "page": page, "q": q}
    return render(request, "moderation/queue.html", context)


@moderator_only
def games(request):
    q = request.GET
    stalled = q.get("stalled_days")
    found = selectors.search_games(
        status=q.get("status", ""),
        scenario=q.get("scenario", ""),
        player=q.get("player", ""),  # NUL, which PostgreSQL refuses, never gets here (infra/api/text_input.py)
        stalled_days=whole_number(stalled, maximum=36500),
    )
    context = {**_common(request), "games": found, "q": q, "statuses": Game.Status.choices}
    return render(request, "moderation/games.html", context)


def _game_action(request, game_id: int) -> None:
    post = request.POST
    action, reason = post.get("action"), post.get("reason", "")
    me = request.user
    statuses = {"cancel": Game.Status.CANCELLED, "pause": Game.Status.PAUSED, "resume": Game.Status.ACTIVE}
    if action in statuses:
        _do(
            request,
            lambda: moderation.game_set_status(moderator=me, game_id=game_id, status=statuses[action], reason=reason),
        )
    elif action == "extend":
        hours = whole_number(post.get("hours") or "24", 0)  # nonsense: 0, which is refused
        _do(request, lambda: moderation.game_extend_deadline(moderator=me, game_id=game_id, hours=hours, reason=reason))
    elif action == "replace_seat":
        _do(
            request,
            lambda: moderation.seat_replace_with_bot(
                moderator=me, game_id=game_id, user_id=whole_number(post.get("player")), reason=reason
            ),
        )
    elif action == "offer_seat":
        user = User.objects.filter(username=post.get("username", "").strip()).first()
        if user is None:
            messages.error(request, _("No user with that name."))
            return
        _do(
            request,
            lambda: moderation.seat_offer(
                moderator=me, game_id=game_id, seat_index=whole_number(post.get("seat")), user=user, reason=reason
            ),
        )
    elif action == "offer_back":
        _do(
            request,
            lambda: moderation.seat_offer_back(
                moderator=me, game_id=game_id, seat_index=whole_number(post.get("seat")), reason=reason
            ),
        )
    elif action == "void_rating":
        _do(request, lambda: moderation.game_void_rating(moderator=me, game_id=game_id, reason=reason))
    elif action in ("hide", "show"):
        _do(
            request,
            lambda: moderation.chat_set_hidden(
                moderator=me,
                message_id=whole_number(post.get("message")),
                hidden=action == "hide",
                reason=reason,
                game_id=game_id,
            ),
        )


def _reveal_key(game_id: int) -> str:
    return f"mod-reveal-{game_id}"


def _reveal(request, game_id: int) -> int | None:
    """The "Reveal hidden information" button: the reason is recorded in the audit log, and the hands show for the
    rest of this visit (an hour, this session, this game). Returns the move shown."""
    seq = whole_number(request.POST.get("seq"))
    try:
        moderation.position(
            moderator=request.user, game_id=game_id, seq=seq, reveal=True, reason=request.POST.get("reason", "")
        )
    except GameError as error:
        messages.error(request, error.message)
        return seq
    request.session[_reveal_key(game_id)] = timezone.now().timestamp()
    messages.success(request, _("Hidden information shown, and recorded in the audit log."))
    return seq


def _revealed(request, game_id: int) -> bool:
    """True while this visit's reveal of the game lasts."""
    return timezone.now().timestamp() - request.session.get(_reveal_key(game_id), 0) < moderation.games.VISIT_SECONDS


CARD_NAMES = {
    "knight": gettext_lazy("Knight"),
    "road_building": gettext_lazy("Road Building"),
    "year_of_plenty": gettext_lazy("Year of Plenty"),
    "monopoly": gettext_lazy("Monopoly"),
    "victory_point": gettext_lazy("Victory Point"),
}


MOVE_LABELS = {
    "build_settlement": gettext_lazy("Settlement built"),
    "build_road": gettext_lazy("Road built"),
    "build_ship": gettext_lazy("Ship built"),
    "move_ship": gettext_lazy("Ship moved"),
    "move_pirate": gettext_lazy("Pirate moved"),
    "move_token": gettext_lazy("Token moved"),
    "build_city": gettext_lazy("City built"),
    "buy_development": gettext_lazy("Development card bought"),
    "roll": gettext_lazy("Dice rolled"),
    "move_robber": gettext_lazy("Robber moved"),
    "end_turn": gettext_lazy("Turn ended"),
    "play_knight": gettext_lazy("Knight played"),
    "play_road_building": gettext_lazy("Road Building played"),
    "play_year_of_plenty": gettext_lazy("Year of Plenty played"),
    "play_monopoly": gettext_lazy("Monopoly played"),
    "trade_bank": gettext_lazy("Trade with the bank"),
    "offer_trade": gettext_lazy("Trade offered"),
    "counter_trade": gettext_lazy("Counter-offer"),
    "accept_trade": gettext_lazy("Trade accepted"),
    "reject_trade": gettext_lazy("Trade rejected"),
    "cancel_trade": gettext_lazy("Trade cancelled"),
    "confirm_trade": gettext_lazy("Trade confirmed"),
    "discard": gettext_lazy("Cards discarded"),
    "choose_gold": gettext_lazy("Gold chosen"),
}
# Who made a move, when not the player: shown beside it in the replay.
CAUSE_LABELS = {
    "bot": gettext_lazy("by a bot"),
    "standing_order": gettext_lazy("standing order"),
    "timeout": gettext_lazy("time ran out"),
    "moderator": gettext_lazy("by a moderator"),
}


def _replay_context(item: Game, position: dict[str, Any]) -> dict[str, Any]:
    """The chosen position as a moderator reads it: the board, each seat by name with its hand and development
    cards, and the moves with who made them, the dice and the time."""
    names = {s.index: (s.user.label if s.user else s.get_bot_display()) for s in item.seats.all()}
    view = position["view"]
    resources = dict(RESOURCE_CHOICES)
    hands = position["hands"] if position["revealed"] else []  # hidden until an audited reveal
    seats = [
        {
            "name": names.get(i, str(i + 1)),
            "hand": [(resources[name], n) for name, n in zip(RESOURCES, hand, strict=True)],
            "development": [
                (CARD_NAMES[card], n)
                for card, n in zip(DEVELOPMENT_CARDS, position["development"][i], strict=True)
                if n
            ],
        }
        for i, hand in enumerate(hands)
    ]
    log = [
        {
            **m,
            "name": names.get(m["seat"], m["seat"]),
            "kind": MOVE_LABELS.get(m["action"].get("type", ""), m["action"].get("type", "")),
            "cause_label": CAUSE_LABELS.get(m["cause"], m["cause"]) if m["cause"] != "player" else "",
        }
        for m in position["moves"]
    ]
    return {
        "board": mark_safe(board_svg(view["board"], view.get("pieces"))),  # noqa: S308 (our own SVG, no user text)
        "replay_seats": seats,
        "replay_log": log,
    }


@moderator_only
def game(request, game_id: int):
    item = get_object_or_404(Game.objects.prefetch_related("seats__user", "seats__held_for"), pk=game_id)
    if request.method == "POST":
        if request.POST.get("action") == "reveal":
            seq = _reveal(request, game_id)
            url = reverse("moderation-game", args=[game_id])
            return redirect(url if seq is None else f"{url}?seq={seq}")
        _game_action(request, game_id)
        return redirect("moderation-game", game_id=game_id)
    context: dict[str, Any] = {"game": item, **_common(request)}
    recused = recusal.game_refusal(request.user, game_id)
    if recused is not None:
        # No action is offered, no position shown, and this says why (a forced POST is refused by the services).
        context["recusal"] = recused.message
    elif item.seed is not None:
        revealed = _revealed(request, game_id)
        try:
            position = moderation.position(
                moderator=request.user, game_id=game_id, seq=whole_number(request.GET.get("seq")), reveal=revealed
            )
            context.update(position=position, **_replay_context(item, position))
        except GameError as error:
            messages.error(request, error.message)
        if item.visibility == Game.Visibility.PRIVATE:
            moderation.watch_audit(viewer=request.user, game_id=game_id, session=request.session)
    context["chat"] = ChatMessage.objects.filter(game=item).select_related("user").order_by("pk")
    context["offers"] = _offers_with_state(item)
    return render(request, "moderation/game.html", context)


def _offers_with_state(item: Game) -> list[SeatOffer]:
    """The game's seat offers, each with its real state: accepted, open, replaced (a newer offer for the seat
    closed it) or expired."""
    offers = list(SeatOffer.objects.filter(seat__game=item).select_related("user", "seat").order_by("pk"))
    now = timezone.now()
    for offer in offers:
        newer = next((o for o in offers if o.seat_id == offer.seat_id and o.pk > offer.pk), None)
        if offer.accepted_at is not None:
            offer.state = "accepted"
        elif offer.expires_at is None or offer.expires_at > now:
            offer.state = "open"
        elif newer is not None and offer.expires_at <= newer.created_at + timedelta(seconds=1):
            offer.state = "replaced"
        else:
            offer.state = "expired"
    return offers


@moderator_only
def person(request, user_id: int):
    target = get_object_or_404(User, pk=user_id)
    if request.method == "POST":
        post = request.POST
        action, reason, note = post.get("action"), post.get("reason", ""), post.get("note", "")
        me = request.user
        if action == "suspend":
            length = _length(post)
            _do(
                request,
                lambda: moderation.user_restrict(moderator=me, user=target, reason=reason, note=note, **length),
            )
        elif action == "ban":
            _do(request, lambda: moderation.user_restrict(moderator=me, user=target, reason=reason, note=note))
        elif action == "warn":
            _do(request, lambda: moderation.user_warn(moderator=me, user=target, reason=reason, note=note))
        elif action == "restore":
            _do(request, lambda: moderation.user_lift(moderator=me, user=target, reason=reason, note=note))
        return redirect("moderation-user", user_id=user_id)
    refusal = moderation.sanction_refusal(request.user, target)
    context = {
        "target": target,
        "refusal": refusal.message if refusal else "",  # the actions are not offered, and this says why
        "reliability": selectors.reliability(target),
        "seats": target.seats.select_related("game"),
        "reports": Report.objects.filter(reported_user=target).select_related("reporter", "game"),
        "sanctions": Sanction.objects.filter(user=target).select_related("moderator"),
        **_common(request),
    }
    return render(request, "moderation/user.html", context)
