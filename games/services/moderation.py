"""Moderator actions on games, seats, chat and people. Each one is checked, done, and written to the
append-only audit log in the same transaction."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group, Permission
from django.core import signing
from django.core.cache import cache
from django.db import transaction
from django.db.models import Q
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _

import rules

from .. import access, clock, clocks, outbox
from ..errors import GameError
from ..fairness import seed_revealed
from ..models import AuditEntry, ChatMessage, Game, Move, Notification, Report, Sanction, Seat, SeatOffer
from . import recusal
from .lobby import seat_leave
from .seats import seat_hand_to_bot

OFFER_HOURS = 48
# A moderator's look at a game is audited once per visit: again after this long.
VISIT_SECONDS = 3600
OFFER_BACK_DAYS = 7
RECORD_SALT = "moderation-record"
RECORD_MAX_AGE = 400 * 86400  # a link in a sanction email works longer than the longest suspension
# The chat lines saved on each side of a reported message.
CONTEXT_LINES = 5

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
    group, created = Group.objects.get_or_create(name="Moderators")
    if created or not group.permissions.exists():
        group.permissions.set(Permission.objects.filter(codename__in=MODERATOR_PERMISSIONS))
    return group


def require_moderator(user) -> None:
    if not (user is not None and user.is_authenticated and user.is_moderator):
        raise GameError("forbidden", _("Moderators only."), status=403)


def _ranked(user) -> bool:
    """Staff, a superuser or a moderator (by a group or their own permission), whether or not the account is
    active now: a suspended moderator is still one."""
    if user.is_staff or user.is_superuser:
        return True
    return Permission.objects.filter(
        Q(user=user) | Q(group__user=user), codename="moderate", content_type__app_label="games"
    ).exists()


def sanction_refusal(moderator, user) -> GameError | None:
    """Why this moderator may not warn, suspend, ban or restore this person, or None. Ranks: only a superuser
    sanctions staff or moderators (a stolen moderator account cannot lock out the administrators), no one
    sanctions themselves, nor someone they play against (`recusal`)."""
    if moderator.pk == user.pk:
        return GameError("own_account", _("No one sanctions their own account."), status=403)
    if not moderator.is_superuser and _ranked(user):
        message = _("Only a superuser can sanction staff or moderators.")
        return GameError("outranked", message, status=403)
    return recusal.opponent_refusal(moderator, user)


def _check_may_sanction(moderator, user) -> None:
    refusal = sanction_refusal(moderator, user)
    if refusal is not None:
        raise refusal


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
    """Cancel, pause or resume a game. A pause freezes the clock (the seconds left are kept and given back on
    resume) and players read the reason while it lasts."""
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
        recusal.check_game(moderator, game.pk)
        if game.status not in allowed[status]:
            raise GameError("bad_status", _("Not possible from this game's status."), status=409)
        previous = game.status
        now = clock.now()
        if status == Game.Status.PAUSED:
            clocks.pause(game, now)
            game.pause_note = reason
        else:
            if previous == Game.Status.PAUSED:
                clocks.resume(game, now)
            game.paused_remaining = None
            game.pause_note = ""
        game.status = status
        game.save(update_fields=["status", "deadline", "paused_remaining", "pause_note"])
        audit(moderator, f"game_{status}", reason, game=game, previous=previous)
        if status == Game.Status.ACTIVE:
            outbox.clock_resumed(game.pk, game.seq, game.deadline, game.clock == Game.Clock.LIVE)
            outbox.seats_changed(game.pk)  # a bot whose turn came during the pause plays now
    outbox.game_changed(game.pk)
    return game


def game_extend_deadline(*, moderator, game_id: int, hours: int, reason: str) -> Game:
    """Give the people who owe a decision `hours` more (`clocks.extend`), in a running or a paused game. The audit
    entry states the new deadlines (a paused game's: the time each will have when it resumes)."""
    require_moderator(moderator)
    reason = _reason(reason)
    if type(hours) is not int or not 1 <= hours <= 24 * 30:
        raise GameError("bad_hours", _("Extend by 1 hour to 30 days."))
    with transaction.atomic():
        game = _game(game_id)
        recusal.check_game(moderator, game.pk)
        if game.deadline is None or game.status not in (Game.Status.ACTIVE, Game.Status.PAUSED):
            raise GameError("no_deadline", _("This game has no running clock."), status=409)
        seats = clocks.extend(game, timedelta(hours=hours))
        game.save(update_fields=["deadline", "paused_remaining", "reminded_seq"])
        audit(moderator, "deadline_extended", reason, game=game, hours=hours, **_deadlines_stated(game, seats))
        if game.status == Game.Status.ACTIVE and game.clock == Game.Clock.LIVE:
            outbox.timeout_at(game.pk, game.seq, game.deadline)  # the task queued for the old deadline finds time left
    outbox.game_changed(game.pk)  # open pages show the new deadlines
    return game


def _deadlines_stated(game: Game, seats: dict[int, datetime]) -> dict[str, Any]:
    """The audit's account of an extension: the new deadlines (seats count from 1, as the pages show them); in a
    paused game, where they move on by the pause at resume, the hours each will have left then."""
    if game.status == Game.Status.PAUSED and game.paused_remaining is not None:
        frozen_at = game.deadline - timedelta(seconds=game.paused_remaining)
        left = {str(index + 1): round((d - frozen_at).total_seconds() / 3600, 2) for index, d in seats.items()}
        return {"hours_left": round(game.paused_remaining / 3600, 2), **({"seats_hours_left": left} if left else {})}
    stated: dict[str, Any] = {"deadline": game.deadline.isoformat()}
    if seats:
        stated["deadlines"] = {str(index + 1): d.isoformat() for index, d in seats.items()}
    return stated


def seat_replace_with_bot(*, moderator, game_id: int, user_id: Any, reason: str) -> Seat:
    """A bot takes the seat of the named player and keeps it for them: "offer back" undoes it."""
    require_moderator(moderator)
    reason = _reason(reason)
    with transaction.atomic():
        game = _game(game_id)
        recusal.check_game(moderator, game.pk)
        seat = game.seats.filter(user_id=user_id).select_related("user").first() if type(user_id) is int else None
        if seat is None:
            raise GameError("no_player", _("That person does not play in this game."), status=409)
        user = seat_hand_to_bot(seat=seat)
        seat.held_for = user
        seat.save(update_fields=["held_for"])
        audit(moderator, "seat_replaced", reason, game=game, target_user=user, seat=seat.index + 1)
    return seat


def _check_may_sit(user) -> None:
    user = type(user).objects.get(pk=user.pk)  # as stored now, not as the caller last read it
    if not user.is_active or user.banned or user.suspended_until is not None:
        raise GameError("suspended", _("A suspended or banned account cannot be offered a seat."), status=409)


def _mail(user, name: str, context: dict[str, Any]) -> None:
    """A moderation email in the reader's language and time zone, after commit: the templates
    moderation/email_<name>_subject.txt and moderation/email_<name>.txt, with `user` and `games` (My games)."""
    with translation.override(user.language), timezone.override(user.time_zone or "UTC"):
        context = {"user": user, "games": settings.SITE_URL.rstrip("/") + reverse("my-games"), **context}
        subject = render_to_string(f"moderation/email_{name}_subject.txt", context).strip()
        body = render_to_string(f"moderation/email_{name}.txt", context)
    outbox.mail_after_commit(subject, body, [user.email])


def _tell_offer(offer: SeatOffer) -> None:
    """The person offered a seat learns it by email, in their language, with the game and the deadline; the site
    tells them once too (`notices_unseen`)."""
    _mail(offer.user, "offer", {"offer": offer, "seat": offer.seat.index + 1, "game": offer.seat.game})


def _new_offer(seat: Seat, user, moderator, expires_at: datetime) -> SeatOffer:
    # One open offer per seat: a newer one replaces the others.
    SeatOffer.objects.filter(seat=seat, accepted_at__isnull=True).update(expires_at=clock.now())
    return SeatOffer.objects.create(seat=seat, user=user, offered_by=moderator, expires_at=expires_at)


def seat_offer(*, moderator, game_id: int, seat_index: Any, user, reason: str, hours: int = OFFER_HOURS) -> SeatOffer:
    """Offer a seat a bot holds (or an empty one) to another user; it changes hands when they accept, before
    the offer expires. A seat a person holds is never offered."""
    require_moderator(moderator)
    recusal.check_offer(moderator, user)
    reason = _reason(reason)
    with transaction.atomic():
        game = _game(game_id)
        recusal.check_game(moderator, game.pk)
        seat = game.seats.filter(index=seat_index).first() if type(seat_index) is int else None
        if seat is None:
            raise GameError("no_seat", _("No such seat."), status=404)
        if seat.user_id is not None:
            raise GameError("seat_taken", _("A person holds this seat: replace them with a bot first."), status=409)
        if game.status not in (Game.Status.ACTIVE, Game.Status.PAUSED):
            raise GameError("bad_status", _("Seats are offered only in running games."), status=409)
        if game.seats.filter(user=user).exists():
            raise GameError("already_seated", _("That user already plays in this game."), status=409)
        _check_may_sit(user)
        offer = _new_offer(seat, user, moderator, clock.now() + timedelta(hours=hours))
        audit(moderator, "seat_offered", reason, game=game, target_user=user, seat=seat.index + 1, hours=hours)
        _tell_offer(offer)
    return offer


def seat_offer_back(*, moderator, game_id: int, seat_index: Any, reason: str) -> SeatOffer:
    """Undo a replacement: offer the seat back to the person it was taken from."""
    require_moderator(moderator)
    with transaction.atomic():
        seat = Seat.objects.filter(game_id=game_id, index=seat_index).select_related("held_for").first()
        if seat is None or seat.held_for is None:
            raise GameError("no_seat", _("This seat was not taken from anyone."), status=409)
        return seat_offer(
            moderator=moderator,
            game_id=game_id,
            seat_index=seat_index,
            user=seat.held_for,
            reason=reason,
            hours=OFFER_BACK_DAYS * 24,
        )


def first_look(session: Any, key: str) -> bool:
    """True the first time in a visit (per session and `key`, once per `VISIT_SECONDS`) a moderator looks: a look
    is audited once per visit, not per page load. Marks the session; the caller saves it if it is not a request's."""
    now = timezone.now().timestamp()
    if now - session.get(key, 0) < VISIT_SECONDS:
        return False
    session[key] = now
    return True


def watch_audit(*, viewer: Any, game_id: int, session: Any) -> bool:
    """A moderator (or staff) who does not play in a private game watches its board: audited once per visit
    (pages and sockets of one session share it). Call only for a viewer without a seat; True when recorded."""
    if not access.is_moderator(viewer) or session is None:
        return False
    game = Game.objects.filter(pk=game_id, visibility=Game.Visibility.PRIVATE).first()
    if game is None or not first_look(session, f"mod-watch-{game_id}"):
        return False
    audit(viewer, "game_watched", "watching the board", game=game)
    return True


def replay(game: Game, last: int) -> tuple[rules.State, list[dict[str, Any]]]:
    """The position after move `last`, replayed from the seed, and the moves that led there."""
    state = rules.new_game(scenario=game.scenario, players=game.seat_count, seed=game.seed, options=game.options)
    log = []
    for move in Move.objects.filter(game=game, seq__lte=last).order_by("seq"):
        rules.apply(state, move.seat, move.action)
        dice = [e["dice"] for e in move.events if e.get("type") == "rolled"]
        log.append(
            {
                "seq": move.seq,
                "seat": move.seat,
                "action": move.action,
                "events": move.events,
                "dice": dice[0] if dice else None,
                "at": move.created_at,
                "cause": move.cause,
            }
        )
    return state, log


def position(
    *, moderator, game_id: int, seq: int | None = None, reveal: bool = False, reason: str | None = None
) -> dict[str, Any]:
    """The position after move `seq` (default: now), replayed from the seed, for moderators not recused from the
    game. Hidden information (hands, development cards, what moves drew) only with `reveal`; a `reason` records
    the reveal in the audit log (a caller that already recorded this visit's reveal passes none)."""
    require_moderator(moderator)
    recusal.check_game(moderator, game_id)
    if reason is not None:
        reason = _reason(reason)
    game = Game.objects.filter(pk=game_id).first()
    if game is None or game.seed is None:
        raise GameError("not_found", _("No such started game."), status=404)
    last = game.seq if seq is None else seq
    if type(last) is not int or not 0 <= last <= game.seq:
        raise GameError("bad_seq", _("No such move."))
    state, log = replay(game, last)
    if reveal and reason is not None:
        audit(moderator, "position_viewed", reason, game=game, seq=last)
    data = rules.dump(state)
    revealed = seed_revealed(game)
    shown = {
        "seq": last,
        "hands": data["hands"],
        "development": data["development"],
        "development_new": data["development_new"],
        # The seed and the deck order it gave tell a running game's future dice and cards: only once the seed is
        # revealed by the game's real end.
        "deck": data["deck"] if revealed else None,
        "seed": str(game.seed) if revealed else None,  # a string: JavaScript numbers would round 62 bits
        "view": rules.view(state, None),
        "log": [{**m, "at": m["at"].isoformat()} for m in log],
        "moves": log,
    }
    return {**shown, "revealed": True} if reveal else recusal.conceal(shown)


# People ---------------------------------------------------------------------------------------------------------


def record_link(user) -> str:
    """A signed link to the user's own moderation record, which works without logging in (a suspended
    account cannot)."""
    token = signing.dumps(user.pk, salt=RECORD_SALT)
    return settings.SITE_URL.rstrip("/") + reverse("moderation-record-token", args=[token])


def user_from_record_token(token: str):
    try:
        pk = signing.loads(token, salt=RECORD_SALT, max_age=RECORD_MAX_AGE)
    except signing.BadSignature:
        return None
    return get_user_model().objects.filter(pk=pk).first()


def appeal_address() -> str:
    return settings.MODERATION_APPEAL_EMAIL


def _tell(sanction: Sanction, *, lobbies: int = 0, offers: int = 0) -> None:
    """The sanctioned person learns it by email, in their language: what, why, until when, how to appeal; the
    waiting games they were taken out of; after a restore, the seats offered back."""
    user = sanction.user
    context = {"sanction": sanction, "link": record_link(user), "appeal": appeal_address()}
    _mail(user, "sanction", {**context, "lobbies": lobbies, "offers": offers})


def _tell_lifted(user, offers: int) -> None:
    """A suspension ran out: the person may log in again and take back the seats a bot kept for them."""
    _mail(user, "lifted", {"offers": offers, "link": record_link(user)})


def _sanction(
    moderator,
    user,
    kind: str,
    reason: str,
    *,
    note: str = "",
    ends_at=None,
    report=None,
    lobbies: int = 0,
    offers: int = 0,
) -> Sanction:
    sanction = Sanction.objects.create(
        user=user, kind=kind, reason=reason, note=note[:1000], ends_at=ends_at, moderator=moderator, report=report
    )
    _tell(sanction, lobbies=lobbies, offers=offers)
    return sanction


def user_warn(*, moderator, user, reason: str, note: str = "", report=None) -> Sanction:
    require_moderator(moderator)
    _check_may_sanction(moderator, user)
    reason = _reason(reason)
    with transaction.atomic():
        sanction = _sanction(moderator, user, Sanction.Kind.WARNING, reason, note=note, report=report)
        audit(moderator, "user_warned", reason, target_user=user, game=report.game if report else None)
    return sanction


def _hold_seats(user) -> None:
    """During a suspension or ban a bot plays the person's seats in running games, without deadlines or mail,
    and keeps each seat for them (offered back when the sanction ends). Not an abandonment."""
    running = (Game.Status.ACTIVE, Game.Status.PAUSED)
    for seat in Seat.objects.filter(user=user, game__status__in=running).order_by("game_id"):
        game = Game.objects.select_for_update().get(pk=seat.game_id)
        seat_hand_to_bot(seat=seat, abandoned=False)
        seat.held_for = user
        seat.deadline = seat.due_since = None  # no clock runs for the bot
        seat.save(update_fields=["held_for", "deadline", "due_since"])
        # Mail about a decision the bot now makes would ask them to log in to an account that cannot.
        Notification.objects.filter(game=game, user=user, sent_at__isnull=True, dropped_at__isnull=True).update(
            dropped_at=clock.now()
        )
        if game.deadline is not None and game.state:
            to_move = set(rules.to_move(rules.load(game.state)))
            humans = [s for s in game.seats.filter(user__isnull=False) if s.index in to_move]
            if not humans:
                clocks.set_game_deadline(game, None)  # only bots must act now
            elif game.clock == Game.Clock.ASYNC:
                # The game's deadline is the earliest of those who still owe a decision.
                clocks.set_game_deadline(game, min((s.deadline for s in humans if s.deadline), default=None))
            game.save(update_fields=["deadline", "paused_remaining"])


def _leave_lobbies(user) -> int:
    """A suspended or banned person cannot play a game that has not started: they leave each waiting game (the
    seat is free for someone else; a game they created is cancelled, as when its creator leaves). Returns how
    many; the sanction email says so."""
    waiting = list(Seat.objects.filter(user=user, game__status=Game.Status.WAITING).values_list("game_id", flat=True))
    for game_id in waiting:
        seat_leave(game_id=game_id, user=user)
    return len(waiting)


def _offer_seats_back(user, moderator) -> int:
    """The sanction ended: each seat a bot kept for the person is offered back (for a week)."""
    offers = 0
    running = (Game.Status.ACTIVE, Game.Status.PAUSED)
    for seat in Seat.objects.filter(held_for=user, user__isnull=True, game__status__in=running):
        _new_offer(seat, user, moderator, clock.now() + timedelta(days=OFFER_BACK_DAYS))
        offers += 1
    return offers


def user_restrict(*, moderator, user, reason: str, days: int | None = None, note: str = "", report=None) -> str:
    """Suspend for `days`, or ban (days None). Sanctions only escalate: a suspension never shortens a longer one
    nor replaces a ban (only an explicit restore lifts a ban). The person can no longer log in, join or move;
    a bot plays their seats meanwhile, their open sockets close, and they are told why, until when and how to
    appeal. Returns what was done: "banned", "suspended", or "unchanged" (already sanctioned as much)."""
    require_moderator(moderator)
    _check_may_sanction(moderator, user)
    reason = _reason(reason)
    if days is not None and (type(days) is not int or not 1 <= days <= 365):
        raise GameError("bad_days", _("Suspend for 1 to 365 days."))
    with transaction.atomic():
        user = type(user).objects.select_for_update().get(pk=user.pk)
        until = None if days is None else clock.now() + timedelta(days=days)
        if user.banned or (until is not None and user.suspended_until and user.suspended_until >= until):
            audit(moderator, "sanction_kept", reason, target_user=user, days=days, banned=user.banned)
            return "unchanged"
        type(user).objects.filter(pk=user.pk).update(is_active=False, banned=days is None, suspended_until=until)
        _hold_seats(user)
        lobbies = _leave_lobbies(user)
        kind = Sanction.Kind.BAN if days is None else Sanction.Kind.SUSPENSION
        _sanction(moderator, user, kind, reason, note=note, ends_at=until, report=report, lobbies=lobbies)
        audit(
            moderator,
            "user_banned" if days is None else "user_suspended",
            reason,
            target_user=user,
            days=days,
            **({"lobbies": lobbies} if lobbies else {}),
        )
        outbox.user_restricted(user.pk)
    return "banned" if days is None else "suspended"


def user_lift(*, moderator, user, reason: str, note: str = "") -> None:
    """Restore: the only way a ban ends. The person's held seats are offered back."""
    require_moderator(moderator)
    _check_may_sanction(moderator, user)
    reason = _reason(reason)
    with transaction.atomic():
        type(user).objects.filter(pk=user.pk).update(is_active=True, banned=False, suspended_until=None)
        offers = _offer_seats_back(user, moderator)
        _sanction(moderator, user, Sanction.Kind.RESTORE, reason, note=note, offers=offers)
        audit(moderator, "user_restored", reason, target_user=user, offers=offers)


def lift_expired_suspensions() -> int:
    """Suspensions whose time is over end (beat runs this every few minutes) and their seats are offered back;
    bans stay."""
    users = get_user_model().objects
    lifted = 0
    for user in users.filter(banned=False, suspended_until__isnull=False, suspended_until__lte=clock.now()):
        with transaction.atomic():
            users.filter(pk=user.pk).update(is_active=True, suspended_until=None)
            last = Sanction.objects.filter(user=user, kind=Sanction.Kind.SUSPENSION).first()
            offers = _offer_seats_back(user, last.moderator if last else None)
            _tell_lifted(user, offers)
        lifted += 1
    return lifted


# Chat and reports -----------------------------------------------------------------------------------------------


def chat_set_hidden(*, moderator, message_id: Any, hidden: bool, reason: str) -> ChatMessage:
    """Hide a chat line from everyone (or show it again): every open page updates at once."""
    require_moderator(moderator)
    reason = _reason(reason)
    with transaction.atomic():
        message = _set_hidden(message_id, hidden, moderator)
        audit(
            moderator,
            "chat_hidden" if hidden else "chat_shown",
            reason,
            game=message.game,
            target_user=message.user,
            message=message.pk,
        )
    return message


def _set_hidden(message_id: Any, hidden: bool, moderator: Any = None) -> ChatMessage:
    message = ChatMessage.objects.select_for_update().filter(pk=message_id).first()
    if message is None:
        raise GameError("no_message", _("No such message."), status=404)
    if moderator is not None:
        recusal.check_game(moderator, message.game_id)
    message.hidden = hidden
    message.save(update_fields=["hidden"])
    outbox.chat_hidden(message)
    return message


REPORT_ACTIONS = ("hide", "warn", "suspend", "ban", "dismiss")


def _tell_reporter(report: Report) -> None:
    _mail(report.reporter, "outcome", {"report": report})


def report_handle(*, moderator, report_id: int, action: str, reason: str, days: int = 7, note: str = "") -> Report:
    """Work the queue: hide the message, warn, suspend, ban, or dismiss. A quick action only escalates: it never
    shortens a suspension nor lifts a ban. The reporter is told the outcome."""
    require_moderator(moderator)
    reason = _reason(reason)
    if action not in REPORT_ACTIONS:
        raise GameError("bad_action", _("Hide, warn, suspend, ban or dismiss."))
    with transaction.atomic():
        report = Report.objects.select_for_update().filter(pk=report_id).first()
        if report is None:
            raise GameError("not_found", _("No such report."), status=404)
        recusal.check_report(moderator, report)
        if report.status != Report.Status.OPEN:
            raise GameError("handled", _("This report was already handled."), status=409)
        target = report.reported_user
        if action in ("warn", "suspend", "ban"):
            _check_may_sanction(moderator, target)
        outcome = action
        if action == "hide":
            if report.message is None:
                raise GameError("no_message", _("This report is about a player, not a message."), status=409)
            _set_hidden(report.message_id, True)
        elif action == "warn":
            user_warn(moderator=moderator, user=target, reason=reason, note=note, report=report)
        elif action in ("suspend", "ban"):
            done = user_restrict(
                moderator=moderator,
                user=target,
                reason=reason,
                days=days if action == "suspend" else None,
                note=note,
                report=report,
            )
            # What really happened: a sanction at least as strong may have been kept (the reporter reads that).
            outcome = {"banned": "ban", "suspended": "suspend"}.get(done, "kept")
        report.status = Report.Status.DISMISSED if action == "dismiss" else Report.Status.ACTIONED
        report.outcome = outcome
        report.handled_by = moderator
        report.handled_at = clock.now()
        report.save(update_fields=["status", "outcome", "handled_by", "handled_at"])
        audit(
            moderator,
            _report_audit_action(action, outcome),
            reason,
            game=report.game,
            target_user=target,
            report=report.pk,
        )
        _tell_reporter(report)
    return report


def _report_audit_action(action: str, outcome: str) -> str:
    """The audit entry of a handled report names what was done: a quick suspension of someone already banned
    (or suspended longer) kept that sanction, and says so."""
    return "report_kept" if outcome == "kept" else f"report_{action}"


def reports_handle_many(
    *, moderator, report_ids: list[int], action: str, reason: str, days: int = 7, note: str = ""
) -> int:
    """A bulk action: the same action and reason on each open report chosen; a sanction is applied once per
    person (the reports on one person are closed with it). Returns how many reports were handled."""
    require_moderator(moderator)
    reason = _reason(reason)
    handled = 0
    sanctioned: dict[int, Report] = {}  # person -> the report their sanction was applied with
    with transaction.atomic():
        reports = Report.objects.filter(pk__in=report_ids, status=Report.Status.OPEN).order_by("pk")
        for report in reports:
            recusal.check_report(moderator, report)
            first = sanctioned.get(report.reported_user_id) if action in ("warn", "suspend", "ban") else None
            if action == "hide" and report.message_id is None:
                continue
            if first is not None:
                # Closed with the sanction already applied: same outcome, and its own audit entry saying so.
                Report.objects.filter(pk=report.pk).update(
                    status=Report.Status.ACTIONED, outcome=first.outcome, handled_by=moderator, handled_at=clock.now()
                )
                report.outcome = first.outcome
                audit(
                    moderator,
                    _report_audit_action(action, first.outcome),
                    reason,
                    game=report.game,
                    target_user=report.reported_user,
                    report=report.pk,
                    duplicate_of=first.pk,
                )
                _tell_reporter(report)
            else:
                done = report_handle(
                    moderator=moderator, report_id=report.pk, action=action, reason=reason, days=days, note=note
                )
                sanctioned.setdefault(report.reported_user_id, done)
            handled += 1
    return handled


def report_evidence(message: ChatMessage) -> tuple[list[dict[str, Any]], int]:
    """The chat around a reported message and the move number, saved with the report as evidence."""
    chat = ChatMessage.objects.filter(game_id=message.game_id).select_related("user")
    before = list(chat.filter(pk__lt=message.pk).order_by("-pk")[:CONTEXT_LINES])[::-1]
    after = list(chat.filter(pk__gt=message.pk).order_by("pk")[:CONTEXT_LINES])
    lines = [
        {
            "id": m.pk,
            "user": m.user.label if m.user else "",
            "text": m.text,
            "at": m.created_at.isoformat(),
            "reported": m.pk == message.pk,
        }
        for m in [*before, message, *after]
    ]
    seq = Game.objects.filter(pk=message.game_id).values_list("seq", flat=True).first()
    return lines, seq or 0


def notices_unseen(user) -> list[str]:
    """What the site tells this person once: their warnings and sanctions, and the outcome of their reports.
    Marks them seen."""
    if user is None or not user.is_authenticated:
        return []
    now = clock.now()
    texts = []
    sanctions = Sanction.objects.filter(user=user, seen_at__isnull=True).order_by("created_at")
    for sanction in sanctions:
        texts.append(render_to_string("moderation/_notice.txt", {"sanction": sanction}).strip())
    sanctions.update(seen_at=now)
    outcomes = Report.objects.filter(reporter=user, reporter_seen_at__isnull=True).exclude(outcome="")
    for report in outcomes.select_related("reported_user"):
        texts.append(render_to_string("moderation/_outcome.txt", {"report": report}).strip())
    outcomes.update(reporter_seen_at=now)
    offers = SeatOffer.objects.filter(user=user, accepted_at__isnull=True, expires_at__gt=now)
    for offer in offers.select_related("seat__game"):
        # Told once per offer: the offer has no "seen" column, so the cache remembers it until the offer expires
        # (with the cache down, `add` fails open and the notice shows at each visit: harmless).
        if cache.add(f"seat-offer-told-{offer.pk}", 1, timeout=int((offer.expires_at - now).total_seconds()) + 1):
            context = {"offer": offer, "seat": offer.seat.index + 1, "game": offer.seat.game}
            texts.append(render_to_string("moderation/_offer_notice.txt", context).strip())
    return texts
