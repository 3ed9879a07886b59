"""Games, their seats, the append-only move log, and chat."""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from infra import logs

from .fields import JSONTextField


def new_bot_secret() -> str:
    """128 random bits for the game's bots: their choices never derive from the secret dice seed."""
    return secrets.token_hex(16)


def new_action_code() -> str:
    return secrets.token_hex(12)


def new_invite_token() -> str:
    return secrets.token_urlsafe(12)


class TimeoutPolicy(models.TextChoices):
    BOT = "bot", _("A bot plays that decision")
    SKIP = "skip", _("The turn is skipped")
    REPLACE = "replace", _("A bot takes the seat")


class Game(models.Model):
    class Status(models.TextChoices):
        WAITING = "waiting", _("Waiting for players")
        ACTIVE = "active", _("In progress")
        PAUSED = "paused", _("Paused")
        FINISHED = "finished", _("Finished")
        CANCELLED = "cancelled", _("Cancelled")

    class Visibility(models.TextChoices):
        PUBLIC = "public", _("Public")
        PRIVATE = "private", _("Private (invite link)")

    class Clock(models.TextChoices):
        LIVE = "live", _("Live")
        ASYNC = "async", _("Play by email")

    name = models.CharField(_("name"), max_length=80, blank=True)
    scenario = models.CharField(_("scenario"), max_length=40, default="base")
    seat_count = models.PositiveSmallIntegerField(_("seats"), default=4)
    options = models.JSONField(_("options"), default=dict, blank=True)
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.WAITING, db_index=True)
    visibility = models.CharField(max_length=8, choices=Visibility.choices, default=Visibility.PUBLIC)
    clock = models.CharField(max_length=8, choices=Clock.choices, default=Clock.LIVE)
    move_seconds = models.PositiveIntegerField(_("time per move (seconds)"), null=True, blank=True)
    # Live games: seconds a person has for their turn (None: no turn clock).
    turn_seconds = models.PositiveIntegerField(_("time per turn (seconds)"), null=True, blank=True)
    invite_token = models.CharField(max_length=32, default=new_invite_token, unique=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="games_created"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    # Chance: the seed stays secret until the game ends; its hash is public from the start.
    seed = models.BigIntegerField(null=True, blank=True)
    seed_commitment = models.CharField(max_length=64, blank=True)
    # Hashed with the seed into the commitment, revealed with it at the end (rules.chance.seed_commitment).
    seed_salt = models.CharField(max_length=64, blank=True, default="")
    state = JSONTextField(null=True, blank=True)  # rules.dump() of the current position
    seq = models.PositiveIntegerField(default=0)  # number of accepted moves
    deadline = models.DateTimeField(null=True, blank=True)  # when the current decision times out (async)
    reminded_seq = models.PositiveIntegerField(null=True, blank=True)  # the seq whose reminder went out
    timeout_policy = models.CharField(max_length=8, choices=TimeoutPolicy.choices, default=TimeoutPolicy.BOT)
    winner_seat = models.PositiveSmallIntegerField(null=True, blank=True)
    bot_secret = models.CharField(max_length=32, default=new_bot_secret, editable=False)
    # Since when a bot has had to act (None: no bot must act). The bot sweep re-queues turns waiting too long.
    bot_turn_since = models.DateTimeField(null=True, blank=True, db_index=True)
    # A moderator's pause freezes the clock: the seconds that were left, given back on resume.
    paused_remaining = models.FloatField(null=True, blank=True)
    # What players read while the game is paused (the moderator's stated reason).
    pause_note = models.CharField(max_length=500, blank=True)
    # How long each bot move waits in a live game, chosen at the table (games/live/pace.py): quick, normal, slow.
    bot_pace = models.CharField(max_length=8, default="normal")

    class Meta:
        ordering = ["-created_at"]
        permissions = [("moderate", "Can moderate games, chat and people")]

    def __str__(self) -> str:
        return self.name or gettext("Game %(n)s") % {"n": self.pk}


class Seat(models.Model):
    class Bot(models.TextChoices):
        """Bot levels (rules.ai): easy slips on purpose, medium plays by heuristics, hard searches."""

        EASY = "easy", _("Easy bot")
        MEDIUM = "medium", _("Medium bot")
        HARD = "hard", _("Hard bot")

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats")
    index = models.PositiveSmallIntegerField()
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="seats"
    )
    bot = models.CharField(max_length=12, choices=Bot.choices, blank=True)
    joined_at = models.DateTimeField(auto_now_add=True)
    # Play by email: vacation pauses the seat's clock, up to a limit per game.
    vacation_until = models.DateTimeField(null=True, blank=True)
    vacation_used_seconds = models.PositiveIntegerField(default=0)
    # The end of the account-wide vacation (User.vacation_until) its person ended early in this game alone ("I am
    # back" here): that vacation no longer holds this seat's clock; a new or longer one does.
    account_vacation_waived = models.DateTimeField(null=True, blank=True)
    # Where this game's notices go for this player ("email", "push", "both"); empty: as their account says.
    notify_by = models.CharField(max_length=8, blank=True, default="")
    # Play by email, a time bank per seat (as Board Game Arena's turn-based clocks): each time the seat is asked
    # to decide, the game's time per move is added, up to BANK_CAP_MOVES of them; the time it takes is spent.
    bank_seconds = models.PositiveIntegerField(null=True, blank=True)
    due_since = models.DateTimeField(null=True, blank=True)  # since when this seat has owed a decision
    deadline = models.DateTimeField(null=True, blank=True)  # when its decision times out
    # The turn (games.clocks.turn_number) whose time per move the bank last received: once per turn, however
    # often the seat is asked again in it (after its trade offer is answered, after the discards of a 7).
    credited_turn = models.PositiveIntegerField(null=True, blank=True)
    # Standing orders the server applies at once when the decision comes (see games.standing_orders).
    standing_orders = models.JSONField(default=dict, blank=True)
    # The person a moderator's replacement or a suspension took this seat from: the bot keeps it for them and
    # it is offered back (never taken from whoever holds it then).
    held_for = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="held_seats"
    )
    # Keeping it charged `held_for` an abandonment (a moderator's replacement does, a suspension does not): taking
    # the seat back removes the charge.
    held_abandoned = models.BooleanField(default=False)

    class Meta:
        ordering = ["index"]
        constraints = [
            models.UniqueConstraint(fields=["game", "index"], name="unique_seat_index"),
            models.UniqueConstraint(
                fields=["game", "user"], condition=models.Q(user__isnull=False), name="unique_user_per_game"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.game_id}#{self.index}"

    @property
    def is_bot(self) -> bool:
        return bool(self.bot)

    @property
    def is_open(self) -> bool:
        return self.user_id is None and not self.bot


class Move(models.Model):
    """One accepted move. Append-only: never updated, never deleted."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="moves")
    seq = models.PositiveIntegerField()
    seat = models.PositiveSmallIntegerField()
    action = models.JSONField()
    events = models.JSONField(default=list)  # what happened, chance outcomes included (dice, stolen card)
    idempotency_key = models.CharField(max_length=64, null=True, blank=True)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True)
    # Who made the move: the seat's person, or the server for the seat (bot, standing order, timeout, moderator).
    cause = models.CharField(max_length=16, default="player")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["seq"]
        constraints = [
            models.UniqueConstraint(fields=["game", "seq"], name="unique_move_seq"),
            models.UniqueConstraint(
                fields=["game", "idempotency_key"],
                condition=models.Q(idempotency_key__isnull=False),
                name="unique_move_idempotency_key",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.game_id}:{self.seq}"


class ChatMessage(models.Model):
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="chat")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True)
    text = models.CharField(max_length=500)
    created_at = models.DateTimeField(auto_now_add=True)
    hidden = models.BooleanField(default=False)

    class Meta:
        ordering = ["created_at"]

    def __str__(self) -> str:
        return self.text[:40]


class Notification(models.Model):
    """A durable outbox row: written in the move's transaction, sent (once) by a Celery task or the flusher."""

    class Kind(models.TextChoices):
        TURN = "turn", _("Your turn")
        DISCARD = "discard", _("Discard after a 7")
        TRADE = "trade", _("A trade offer awaits your answer")
        GOLD = "gold", _("Choose your gold")
        DECISION = "decision", _("A decision awaits you")
        REMINDER = "reminder", _("Reminder: your time is running out")
        TIMEOUT = "timeout", _("Your time ran out")
        GAME_OVER = "game_over", _("The game is over")
        STARTED = "started", _("The game has started")
        CHAT = "chat", _("New chat messages")

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="notifications")
    seq = models.PositiveIntegerField()
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notifications")
    kind = models.CharField(max_length=12, choices=Kind.choices)
    created_at = models.DateTimeField()
    send_after = models.DateTimeField()  # later than created_at during the user's quiet hours
    digest = models.BooleanField(default=False)  # gathered into the daily digest instead of sent alone
    sent_at = models.DateTimeField(null=True, blank=True)
    attempts = models.PositiveSmallIntegerField(default=0)
    last_error = models.CharField(max_length=300, blank=True)
    # A sender claims a row (commits the claim, then talks to SMTP without holding any lock) until this moment.
    claimed_until = models.DateTimeField(null=True, blank=True)
    # Not sent because the decision it announced was made, or a newer mail for the same game superseded it.
    dropped_at = models.DateTimeField(null=True, blank=True)
    # Names this email's decision in its links and reply address (see services/email_actions.py).
    action_code = models.CharField(max_length=24, unique=True, default=new_action_code)
    # Pushed to the reader's devices (games/mail/push.py): a retry after a mail failure pushes nothing twice.
    pushed_at = models.DateTimeField(null=True, blank=True)
    # The request (HTTP request or socket frame) whose move wrote this row: its sending task logs it (infra/logs.py).
    request_id = models.CharField(max_length=64, blank=True, default=logs.current_request_id)

    class Meta:
        ordering = ["created_at"]
        constraints = [
            models.UniqueConstraint(fields=["game", "seq", "user", "kind"], name="unique_notification_per_move")
        ]
        indexes = [models.Index(fields=["sent_at", "send_after"])]

    def __str__(self) -> str:
        return f"{self.kind} for {self.user_id} on {self.game_id}:{self.seq}"


class Mute(models.Model):
    """A player hides another player's chat, for themselves only."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="mutes")
    muted = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="muted_by")

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "muted"], name="unique_mute")]


class SeatOffer(models.Model):
    """A moderator offers a seat to another user, who takes it by accepting."""

    seat = models.ForeignKey(Seat, on_delete=models.CASCADE, related_name="offers")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="seat_offers")
    created_at = models.DateTimeField(auto_now_add=True)
    accepted_at = models.DateTimeField(null=True, blank=True)
    offered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="seat_offers_made"
    )
    expires_at = models.DateTimeField(null=True, blank=True)


class PushSubscription(models.Model):
    """One browser's Web Push subscription (RFC 8030/8291): where its push service takes messages for it, and the
    keys they are encrypted with. Removed when the push service answers 404 or 410 (gone)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="push_subscriptions")
    endpoint = models.URLField(max_length=1000, unique=True)
    p256dh = models.CharField(max_length=120)
    auth = models.CharField(max_length=40)
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"push for {self.user_id}"
