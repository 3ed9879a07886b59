"""Recusal and reveal: moderator powers are never used with a stake in the outcome.

- A moderator who plays in a game (holds a seat, has one kept for them by a bot, or holds an open seat offer in
  it) is recused from it: no pause, resume, cancel, extension, replacement, seat offer, chat hiding, report
  handling nor look at its hidden information. Another moderator acts.
- No one moderates themselves: no seat offered to oneself, no report about oneself handled (sanctions of one's
  own account are refused by `services.sanction_refusal`), and no one is sanctioned by a moderator who plays
  against them in a running game.
- Hidden information (hands, development cards, what each move drew) is shown only after an explicit reveal with a
  reason, which the caller records in the audit log (`services.position`).

Every refusal is a `GameError` with the code `recused` and status 403, raised before anything changes."""

from __future__ import annotations

from typing import Any

from django.db.models import Q
from django.utils.translation import gettext as _

from games import clocks
from games.models import Game, Seat, SeatOffer
from infra.errors import GameError

RECUSED = "recused"
RUNNING = (Game.Status.WAITING, Game.Status.ACTIVE, Game.Status.PAUSED)
# What a position shows only once revealed.
HIDDEN_KEYS = ("hands", "development", "development_new")


def has_stake(user: Any, game_id: Any) -> bool:
    """True when `user` plays in the game (a seat, or one a bot keeps for them) or holds an open offer of a seat."""
    if user is None or not getattr(user, "is_authenticated", False) or type(game_id) is not int:
        return False
    if Seat.objects.filter(game_id=game_id).filter(Q(user_id=user.pk) | Q(held_for_id=user.pk)).exists():
        return True
    open_offer = Q(expires_at__isnull=True) | Q(expires_at__gt=clocks.now())
    offers = SeatOffer.objects.filter(seat__game_id=game_id, user_id=user.pk, accepted_at__isnull=True)
    return offers.filter(open_offer).exists()


def game_refusal(moderator: Any, game_id: Any) -> GameError | None:
    """Why this moderator may not act on, nor look into, this game; or None."""
    if has_stake(moderator, game_id):
        message = _(
            "You play in this game or are offered a seat in it: another moderator acts on it, "
            "and its hidden information stays hidden from you."
        )
        return GameError(RECUSED, message, status=403)
    return None


def check_game(moderator: Any, game_id: Any) -> None:
    refusal = game_refusal(moderator, game_id)
    if refusal is not None:
        raise refusal


def check_offer(moderator: Any, user: Any) -> None:
    """No one offers a seat to themselves."""
    if user is not None and moderator.pk == user.pk:
        raise GameError(RECUSED, _("No one offers a seat to themselves."), status=403)


def report_refusal(moderator: Any, report: Any) -> GameError | None:
    """Why this moderator may not handle this report (one about themselves, or from a game they play in); or
    None."""
    if report.reported_user_id == moderator.pk:
        return GameError(RECUSED, _("No one handles a report about themselves."), status=403)
    return game_refusal(moderator, report.game_id)


def check_report(moderator: Any, report: Any) -> None:
    refusal = report_refusal(moderator, report)
    if refusal is not None:
        raise refusal


def opponent_refusal(moderator: Any, user: Any) -> GameError | None:
    """A moderator does not sanction someone they play against in a game not yet over: the sanction would hand
    that person's seat to a bot."""
    shared = Seat.objects.filter(user_id=user.pk, game__status__in=RUNNING, game__seats__user=moderator.pk)
    if shared.exists():
        message = _("You play in a running game with this person: another moderator decides.")
        return GameError(RECUSED, message, status=403)
    return None


def conceal(position: dict[str, Any]) -> dict[str, Any]:
    """The position without its hidden information: no hands nor development cards, and of each move only its
    kind (what a move drew or stole is in its events)."""
    concealed = {**position, **dict.fromkeys(HIDDEN_KEYS), "revealed": False}
    for key in ("log", "moves"):
        concealed[key] = [
            {**move, "action": {"type": move["action"].get("type", "")}, "events": []} for move in position[key]
        ]
    return concealed
