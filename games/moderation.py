"""Moderator actions on games, seats, chat and people. Each one is checked, done, and written to the
append-only audit log in the same transaction."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction
from django.db.models import Count, Q
from django.utils.translation import gettext as _

import rules

from . import broadcast, clock
from .errors import GameError
from .models import AuditEntry, ChatMessage, Game, Move, Mute, Report, Seat, SeatOffer


def user_group(user_id: int) -> str:
    return f"user-{user_id}"


MODERATOR_PERMISSIONS = (
    "moderate",
    "view_game",
    "change_game",
    "view_move",
    "view_chatmessage",
    "change_chatmessage",
    "view_report",
    "change_report",
    "view_auditentry",
    "view_user",
)


def moderators_group():
    """The Moderators group with its permissions (created by a migration; recreated here if a test flushed it)."""
    from django.contrib.auth.models import Group, Permission

    group, created = Group.objects.get_or_create(name="Moderators")
    if created or not group.permissions.exists():
        group.permissions.set(Permission.objects.filter(codename__in=MODERATOR_PERMISSIONS))
    return group


def require_moderator(user) -> None:
    if not (user is not None and user.is_authenticated and user.is_moderator):
        raise GameError("forbidden", _("Moderators only."), status=403)


def _reason(reason: Any) -> str:
    if not isinstance(reason, str) or not reason.strip():
        raise GameError("reason_required", _("Say why: every moderator action is recorded with its reason."))
    return reason.strip()[:500]


def audit(moderator, action: str, reason: str, *, game=None, target_user=None, **details) -> AuditEntry:
    return AuditEntry.objects.create(
        moderator=moderator, action=action, reason=reason, game=game, target_user=target_user, details=details
    )


def _game(game_id: int) -> Game:
    game = Game.objects.select_for_update().filter(pk=game_id).first()
    if game is None:
        raise GameError("not_found", _("No such game."), status=404)
    return game


def game_set_status(*, moderator, game_id: int, status: str, reason: str) -> Game:
    """Cancel, pause or resume a game."""
    require_moderator(moderator)
    reason = _reason(reason)
    allowed = {
        Game.Status.CANCELLED: {Game.Status.WAITING, Game.Status.ACTIVE, Game.Status.PAUSED},
        Game.Status.PAUSED: {Game.Status.ACTIVE},
        Game.Status.ACTIVE: {Game.Status.PAUSED},
    }
    if status not in allowed:
        raise GameError("bad_status", _("A moderator can cancel, pause or resume a game."))
    with transaction.atomic():
        game = _game(game_id)
        if game.status not in allowed[status]:
            raise GameError("bad_status", _("Not possible from this game's status."), status=409)
        previous = game.status
        game.status = status
        game.save(update_fields=["status"])
        audit(moderator, f"game_{status}", reason, game=game, previous=previous)
    broadcast.lobby_changed(game.pk)
    return game


def game_extend_deadline(*, moderator, game_id: int, hours: int, reason: str) -> Game:
    require_moderator(moderator)
    reason = _reason(reason)
    if type(hours) is not int or not 1 <= hours <= 24 * 30:
        raise GameError("bad_hours", _("Extend by 1 hour to 30 days."))
    with transaction.atomic():
        game = _game(game_id)
        if game.deadline is None:
            raise GameError("no_deadline", _("This game has no running clock."), status=409)
        game.deadline += timedelta(hours=hours)
        game.save(update_fields=["deadline"])
        audit(moderator, "deadline_extended", reason, game=game, hours=hours)
    return game


def seat_replace_with_bot(*, moderator, game_id: int, seat_index: int, reason: str) -> Seat:
    require_moderator(moderator)
    reason = _reason(reason)
    with transaction.atomic():
        game = _game(game_id)
        seat = game.seats.filter(index=seat_index).select_related("user").first()
        if seat is None or seat.user is None:
            raise GameError("no_player", _("That seat has no player."), status=409)
        user = seat.user
        _seat_to_bot(seat)
        audit(moderator, "seat_replaced", reason, game=game, target_user=user, seat=seat_index)
    _bots_after(game.pk)
    return seat


def _seat_to_bot(seat: Seat) -> None:
    user = seat.user
    seat.user = None
    seat.bot = Seat.Bot.MEDIUM
    seat.save(update_fields=["user", "bot"])
    if user is not None:
        type(user).objects.filter(pk=user.pk).update(games_abandoned=user.games_abandoned + 1)


def _bots_after(game_id: int) -> None:
    from .tasks import schedule_bots

    def go() -> None:
        game = Game.objects.get(pk=game_id)
        if game.state and game.status == Game.Status.ACTIVE:
            schedule_bots(game_id, rules.load(game.state))

    transaction.on_commit(go)


def seat_offer(*, moderator, game_id: int, seat_index: int, user, reason: str) -> SeatOffer:
    """Offer a seat to another user; it changes hands when they accept."""
    require_moderator(moderator)
    reason = _reason(reason)
    with transaction.atomic():
        game = _game(game_id)
        seat = game.seats.filter(index=seat_index).first()
        if seat is None:
            raise GameError("no_seat", _("No such seat."), status=404)
        if game.seats.filter(user=user).exists():
            raise GameError("already_seated", _("That user already plays in this game."), status=409)
        offer = SeatOffer.objects.create(seat=seat, user=user)
        audit(moderator, "seat_offered", reason, game=game, target_user=user, seat=seat_index)
    return offer


def seat_offer_accept(*, offer_id: int, user) -> Seat:
    with transaction.atomic():
        offer = SeatOffer.objects.select_for_update().select_related("seat").filter(pk=offer_id, user=user).first()
        if offer is None or offer.accepted_at is not None:
            raise GameError("no_offer", _("There is no such offer for you."), status=404)
        seat = offer.seat
        if Seat.objects.filter(game_id=seat.game_id, user=user).exists():
            raise GameError("already_seated", _("You already play in this game."), status=409)
        previous = seat.user
        if previous is not None:
            type(previous).objects.filter(pk=previous.pk).update(games_abandoned=previous.games_abandoned + 1)
        seat.user = user
        seat.bot = ""
        seat.save(update_fields=["user", "bot"])
        offer.accepted_at = clock.now()
        offer.save(update_fields=["accepted_at"])
    broadcast.lobby_changed(seat.game_id)
    return seat


def position(*, moderator, game_id: int, seq: int | None = None) -> dict[str, Any]:
    """The full position after move `seq` (default: now), replayed from the seed: hidden information
    included, for moderators only. Read-only, and the look itself is audited."""
    require_moderator(moderator)
    game = Game.objects.filter(pk=game_id).first()
    if game is None or game.seed is None:
        raise GameError("not_found", _("No such started game."), status=404)
    last = game.seq if seq is None else seq
    if type(last) is not int or not 0 <= last <= game.seq:
        raise GameError("bad_seq", _("No such move."))
    state = rules.new_game(scenario=game.scenario, players=game.seat_count, seed=game.seed, options=game.options)
    moves = Move.objects.filter(game=game, seq__lte=last).order_by("seq")
    log = []
    for move in moves:
        rules.apply(state, move.seat, move.action)
        log.append({"seq": move.seq, "seat": move.seat, "action": move.action, "events": move.events})
    audit(moderator, "position_viewed", "moderator review", game=game, seq=last)
    data = rules.dump(state)
    return {
        "seq": last,
        "hands": data["hands"],
        "development": data["development"],
        "development_new": data["development_new"],
        "deck": data["deck"],
        "seed": game.seed,
        "view": rules.view(state, None),
        "log": log,
    }


def user_restrict(*, moderator, user, reason: str, days: int | None = None) -> None:
    """Suspend for `days`, or ban (days None). The user can no longer log in, join or move; their seats fall
    to their games' timeout policy, and their open sockets are closed."""
    require_moderator(moderator)
    reason = _reason(reason)
    if days is not None and (type(days) is not int or not 1 <= days <= 365):
        raise GameError("bad_days", _("Suspend for 1 to 365 days."))
    with transaction.atomic():
        type(user).objects.filter(pk=user.pk).update(
            is_active=False,
            banned=days is None,
            suspended_until=None if days is None else clock.now() + timedelta(days=days),
        )
        for seat in Seat.objects.filter(user=user, game__status=Game.Status.ACTIVE).select_related("game"):
            game = Game.objects.select_for_update().get(pk=seat.game_id)
            if game.clock == Game.Clock.ASYNC:
                state = rules.load(game.state)
                if seat.index in rules.to_move(state):
                    game.deadline = clock.now()  # the next clock tick applies the timeout policy
                    game.save(update_fields=["deadline"])
            else:
                seat.user = user
                _seat_to_bot(seat)
                _bots_after(game.pk)
        audit(moderator, "user_banned" if days is None else "user_suspended", reason, target_user=user, days=days)

    def close_sockets() -> None:
        layer = get_channel_layer()
        try:
            async_to_sync(layer.group_send)(user_group(user.pk), {"type": "user.restricted"})
        except Exception:
            pass

    transaction.on_commit(close_sockets)


def user_lift(*, moderator, user, reason: str) -> None:
    require_moderator(moderator)
    reason = _reason(reason)
    with transaction.atomic():
        type(user).objects.filter(pk=user.pk).update(is_active=True, banned=False, suspended_until=None)
        audit(moderator, "user_restored", reason, target_user=user)


def lift_expired_suspensions() -> int:
    from accounts.models import User

    expired = User.objects.filter(banned=False, suspended_until__isnull=False, suspended_until__lte=clock.now())
    return expired.update(is_active=True, suspended_until=None)


def reliability(user) -> dict[str, Any]:
    """The finished-game rate players see on profiles: games finished in their seat over those they left."""
    finished = Seat.objects.filter(user=user, game__status=Game.Status.FINISHED).count()
    left = user.games_abandoned
    total = finished + left
    return {"finished": finished, "abandoned": left, "rate": round(finished / total, 3) if total else None}


def report_create(*, reporter, game_id: int, reason: Any, message_id: int | None = None, user_id: int | None = None):
    if not isinstance(reason, str) or not reason.strip():
        raise GameError("reason_required", _("Say what is wrong."))
    game = Game.objects.filter(pk=game_id).first()
    if game is None or not game.seats.filter(user=reporter).exists():
        raise GameError("not_a_player", _("Only players of this game can report."), status=403)
    message = None
    if message_id is not None:
        message = ChatMessage.objects.filter(pk=message_id, game=game).first()
        if message is None:
            raise GameError("no_message", _("No such message in this game."), status=404)
        user_id = message.user_id
    from accounts.models import User

    reported = User.objects.filter(pk=user_id).first() if user_id is not None else None
    if reported is None or reported.pk == reporter.pk:
        raise GameError("no_user", _("Report a message or another player."))
    return Report.objects.create(
        reporter=reporter, game=game, message=message, reported_user=reported, reason=reason.strip()[:500]
    )


def report_handle(*, moderator, report_id: int, action: str, reason: str, days: int = 7) -> Report:
    """Work the queue: hide the message, warn, suspend, or dismiss."""
    require_moderator(moderator)
    reason = _reason(reason)
    if action not in ("hide", "warn", "suspend", "dismiss"):
        raise GameError("bad_action", _("Hide, warn, suspend or dismiss."))
    with transaction.atomic():
        report = Report.objects.select_for_update().filter(pk=report_id).first()
        if report is None:
            raise GameError("not_found", _("No such report."), status=404)
        if report.status != Report.Status.OPEN:
            raise GameError("handled", _("This report was already handled."), status=409)
        if action == "hide":
            if report.message is None:
                raise GameError("no_message", _("This report is about a player, not a message."), status=409)
            ChatMessage.objects.filter(pk=report.message_id).update(hidden=True)
        elif action == "warn":
            from django.core.mail import send_mail

            send_mail(
                _("A warning from the moderators"),
                _("A moderator reviewed a report about you: %(reason)s") % {"reason": reason},
                None,
                [report.reported_user.email],
                fail_silently=True,
            )
        elif action == "suspend":
            user_restrict(moderator=moderator, user=report.reported_user, reason=reason, days=days)
        report.status = Report.Status.DISMISSED if action == "dismiss" else Report.Status.ACTIONED
        report.handled_by = moderator
        report.handled_at = clock.now()
        report.save(update_fields=["status", "handled_by", "handled_at"])
        audit(
            moderator, f"report_{action}", reason, game=report.game, target_user=report.reported_user, report=report.pk
        )
    return report


def mute_set(*, user, muted_user_id: int, muted: bool) -> None:
    from accounts.models import User

    target = User.objects.filter(pk=muted_user_id).first()
    if target is None or target.pk == user.pk:
        raise GameError("no_user", _("No such player."), status=404)
    if muted:
        Mute.objects.get_or_create(user=user, muted=target)
    else:
        Mute.objects.filter(user=user, muted=target).delete()


def search_games(*, status: str = "", scenario: str = "", player: str = "", stalled_days: int | None = None):
    games = Game.objects.all().prefetch_related("seats__user")
    if status:
        games = games.filter(status=status)
    if scenario:
        games = games.filter(scenario=scenario)
    if player:
        seats = Seat.objects.filter(Q(user__username__icontains=player) | Q(user__display_name__icontains=player))
        games = games.filter(pk__in=seats.values("game_id"))
    if stalled_days:
        # Waiting on the same decision for more than N days: no move since then.
        cutoff = clock.now() - timedelta(days=stalled_days)
        games = (
            games.filter(status=Game.Status.ACTIVE)
            .annotate(recent=Count("moves", filter=Q(moves__created_at__gte=cutoff)))
            .filter(recent=0, started_at__lt=cutoff)
        )
    return games.order_by("-pk")[:200]
