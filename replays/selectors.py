"""The replay steps: the position after any move, as its viewer may see it, with the log lines up to there.

A finished game (its seed revealed) shows every seat's cards to whoever may see the game. While a game runs, only
its players may step back through it, each in their own seat's view (`rules.view` and `rules.events_for`, the
redaction the live game uses): nothing another seat hid, ever."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

import rules
from games import access
from games.fairness import seed_revealed
from games.models import Game, Move
from infra.errors import GameError
from rules.replay import replay, revealed_view


def seat_names(game: Game) -> dict[int, str]:
    """Each seat's name as pages show it: its person's, or its bot level with the seat's number."""
    names = {}
    for seat in game.seats.all():
        if seat.user_id:
            names[seat.index] = seat.user.label
        else:
            level = seat.get_bot_display() if seat.bot else _("Open seat")
            names[seat.index] = _("%(level)s (seat %(n)s)") % {"level": level, "n": seat.index + 1}
    return names


def _every_event(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A finished game's events, private ones too (a stolen card, a drawn development card), unmarked."""
    return [{k: v for k, v in event.items() if k != "audience"} for event in events]


def _whole_number(value: Any, name: str) -> int | None:
    if value is None or value == "":
        return None
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    if isinstance(value, str) and value.isascii() and value.isdigit() and len(value) < 10:
        return int(value)
    raise GameError("bad_" + name, _("'%(name)s' is a whole number.") % {"name": name})


def replay_step(*, game_id: int, user: Any, move: Any = None, since: Any = None, invite: Any = None) -> dict[str, Any]:
    """The position after move `move` (default: the last), and the log lines of moves `since` < seq <= `move` (none
    when `since` is at or past `move`). A move past the game's end is a 404 `bad_move`; a value that is not a whole
    number, a 400."""
    game, seat = access.game_for_viewer(game_id=game_id, user=user, invite=invite)
    revealed = seed_revealed(game)
    if not revealed and seat is None:
        raise GameError(
            "not_a_player",
            _("While a game runs, only its players may step back through it, each in their own seat's view."),
            status=403,
        )
    if game.seed is None or not game.state:
        raise GameError("not_started", _("This game has not started."), status=409)
    last = _whole_number(move, "move")
    last = game.seq if last is None else last
    if not 0 <= last <= game.seq:  # a well-formed number past the game's end: no such step (404)
        message = _("No such move: this game has moves 0 to %(n)s.") % {"n": game.seq}
        raise GameError("bad_move", message, status=404)
    start = min(_whole_number(since, "since") or 0, last)  # from past the move shown: no log lines
    moves = list(
        Move.objects.filter(game=game, seq__lte=last).order_by("seq").values_list("seq", "seat", "events", "action")
    )
    state = rules.new_game(scenario=game.scenario, players=game.seat_count, seed=game.seed, options=game.options)
    replay(state, ((s, action) for _seq, s, _events, action in moves))
    viewer = None if revealed else seat.index
    names = seat_names(game)
    shown = revealed_view(state) if revealed else rules.view(state, viewer)
    log = [
        {"seq": seq, "seat": s, "events": _every_event(events) if revealed else rules.events_for(events, viewer)}
        for seq, s, events, _action in moves
        if seq > start
    ]
    return {
        "game": game.pk,
        "status": game.status,
        "move": last,
        "moves": game.seq,
        "revealed": revealed,
        "viewer": viewer,
        "seats": [{"index": s.index, "name": names[s.index], "bot": s.bot or None} for s in game.seats.all()],
        "view": shown,
        "log": log,
    }
