"""The replay page: the board client steps through a game's move log (static/js/replay.js) from the replay API
(`replays.api.GameReplay`). The page holds no position itself; it only says who may open it, as the API does:

- a finished game (its seed revealed), anyone who may see the game, every seat's cards face up;
- a running game, only its seated players, each in their own seat's view; a spectator gets a 403 page;
- a game nobody may see (private, unknown) the site's 404 page; a game not started yet sends to its waiting room.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render

from games import access
from games.fairness import seed_revealed
from infra.errors import GameError


def replay_page(request: HttpRequest, game_id: int) -> HttpResponse:
    invite = request.GET.get("invite", "")
    try:
        game, seat = access.game_for_viewer(game_id=game_id, user=request.user, invite=invite)
    except GameError:
        return render(request, "games/not_found.html", status=404)
    revealed = seed_revealed(game)
    context = {"game": game, "seat": seat, "invite": invite, "revealed": revealed}
    if not revealed and seat is None:
        return render(request, "replays/replay.html", {**context, "refused": True}, status=403)
    if game.seed is None or not game.state:
        return redirect("game", game_id=game.pk)
    return render(request, "replays/replay.html", context)
