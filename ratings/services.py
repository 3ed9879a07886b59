"""Rating a finished game, once, inside the transaction of the move that ended it; and voiding a game's effect.

Who is rated: each seat's person at the end, and each person who held a seat before and left it (timed out and
replaced, replaced by a moderator, suspended): those who left share the last place. A bot level is rated for the
seats it played from the start; a bot that took a seat over from a person is not (it did not play the game). A
game is rated when at least one person is among those rated, separately for live and email play (the game's
clock). A cancelled game never ends with a winner, so it is never rated.

Places: the winner first, then by final victory points (equal points share a place).

A bot level holding several seats of one game is one rating: each seat is rated as a team of its own from the
level's rating, and the level takes the mean of its seats' new mu and sigma.
"""

from __future__ import annotations

import logging
from collections import defaultdict
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.db.models import Count, Q
from django.utils import timezone
from django.utils.translation import gettext as _

import rules
from games.models import Game, Move, Seat
from infra.errors import GameError

from .compute import rate
from .models import Rating, RatingChange

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class Participant:
    seat: int
    user_id: int | None
    bot: str
    left: bool = False

    @property
    def key(self) -> tuple[str, Any]:
        return ("user", self.user_id) if self.user_id is not None else ("bot", self.bot)


def participants(game: Game) -> list[Participant]:
    """Everyone the game rates, in seat order (see the module's doc): two queries."""
    movers: dict[int, set[int]] = defaultdict(set)
    for seat, user_id in (
        Move.objects.filter(game_id=game.pk, user__isnull=False).values_list("seat", "user_id").distinct()
    ):
        movers[seat].add(user_id)
    found = []
    for seat in Seat.objects.filter(game_id=game.pk).order_by("index"):
        former = (movers[seat.index] | {seat.held_for_id}) - {None, seat.user_id}
        if seat.user_id is not None:
            found.append(Participant(seat.index, seat.user_id, ""))
        elif seat.bot and not former:
            found.append(Participant(seat.index, None, seat.bot))
        found.extend(Participant(seat.index, user_id, "", left=True) for user_id in sorted(former))
    return found


def places(people: list[Participant], points: list[int], winner: int | None) -> list[int]:
    """Each participant's place: the winner first, then by victory points; those who left share the last."""
    staying = [p for p in people if not p.left]
    score = {p.seat: (p.seat == winner, points[p.seat]) for p in staying}
    last = len(staying) + 1
    return [last if p.left else 1 + sum(1 for q in staying if score[q.seat] > score[p.seat]) for p in people]


def _ratings_for(mode: str, people: list[Participant]) -> dict[tuple[str, Any], Rating]:
    """The ratings of these participants, created at the default when new, locked in one order (no deadlock)."""
    users = sorted({p.user_id for p in people if p.user_id is not None})
    bots = sorted({p.bot for p in people if p.user_id is None})
    Rating.objects.bulk_create(
        [Rating(user_id=u, mode=mode) for u in users] + [Rating(bot=b, mode=mode) for b in bots],
        ignore_conflicts=True,  # another game made it meanwhile
    )
    locked = Rating.objects.select_for_update().filter(Q(user_id__in=users) | Q(bot__in=bots), mode=mode)
    return {(("user", r.user_id) if r.user_id else ("bot", r.bot)): r for r in locked.order_by("pk")}


def _apply(rows: list[RatingChange], start: dict[int, tuple[float, float]]) -> dict[int, tuple[float, float]]:
    """Rate one game's rows from each rating's (mu, sigma) in `start`; fills the rows in and returns the new
    (mu, sigma) of each rating (a rating with several seats takes their mean)."""
    after = rate([start[row.rating_id] for row in rows], [row.place for row in rows])
    seats_of: dict[int, list[tuple[float, float]]] = defaultdict(list)
    for row, new in zip(rows, after, strict=True):
        seats_of[row.rating_id].append(new)
    result = {
        rating_id: (sum(m for m, _ in news) / len(news), sum(s for _, s in news) / len(news))
        for rating_id, news in seats_of.items()
    }
    for row in rows:
        row.mu_before, row.sigma_before = start[row.rating_id]
        row.mu_after, row.sigma_after = result[row.rating_id]
    return result


def rate_game(*, game: Game, state: rules.State) -> list[RatingChange]:
    """Rate a game that just ended (inside its transaction); once: a game already rated is left as it is."""
    if RatingChange.objects.filter(game_id=game.pk).exists():
        return []
    people = participants(game)
    if len(people) < 2 or all(p.user_id is None for p in people):
        return []
    ratings = _ratings_for(game.clock, people)
    points = [rules.victory_points(state, seat) for seat in range(state.players)]
    rows = [
        RatingChange(
            game_id=game.pk,
            rating=ratings[p.key],
            seat=p.seat,
            place=place,
            left=p.left,
            won=not p.left and p.seat == state.winner,
        )
        for p, place in zip(people, places(people, points, state.winner), strict=True)
    ]
    news = _apply(rows, {r.pk: (r.mu, r.sigma) for r in ratings.values()})
    RatingChange.objects.bulk_create(rows)
    won = {row.rating_id for row in rows if row.won}
    for rating in ratings.values():
        rating.mu, rating.sigma = news[rating.pk]
        rating.games += 1
        rating.wins += rating.pk in won
        rating.save(update_fields=["mu", "sigma", "games", "wins", "updated_at"])
    return rows


def rate_finished_game(sender: Any, *, game: Game, state: rules.State, **kwargs: Any) -> None:
    """The receiver of games.signals.game_finished, in the winning move's transaction. A rating that fails is
    undone alone (its savepoint) and logged: it never costs the game its winning move."""
    try:
        with transaction.atomic():
            rate_game(game=game, state=state)
    except Exception:
        logger.exception("rating game %s failed; the game is stored unrated", game.pk)


def void_game(game: Game, moderator: Any) -> int:
    """Take a game's effect off every rating it changed, and rate every later game of the same mode again from
    there (recompute forward). Returns how many rows it voided. The caller checks the moderator's rights and
    writes the audit entry."""
    with transaction.atomic():
        rows = RatingChange.objects.filter(game_id=game.pk, voided_at__isnull=True)
        first = rows.select_related("rating").order_by("pk").first()
        if first is None:
            raise GameError("not_rated", _("This game changed no rating."), status=409)
        mode = first.rating.mode
        list(Rating.objects.select_for_update().filter(mode=mode).order_by("pk"))  # one void or game at a time
        voided = rows.update(voided_at=timezone.now(), voided_by=moderator)
        _recompute(mode, first.pk)
    return voided


def _recompute(mode: str, from_pk: int) -> None:
    """Rate again, in their order, the games of `mode` from the row `from_pk` on, leaving out voided ones."""
    later = list(RatingChange.objects.filter(rating__mode=mode, pk__gte=from_pk).order_by("pk"))
    current: dict[int, tuple[float, float]] = {}
    for row in later:
        current.setdefault(row.rating_id, (row.mu_before, row.sigma_before))
    by_game: dict[int, list[RatingChange]] = {}
    for row in later:
        if row.voided_at is None:
            by_game.setdefault(row.game_id, []).append(row)
    for rows in by_game.values():
        current.update(_apply(rows, current))
    RatingChange.objects.bulk_update(
        [row for rows in by_game.values() for row in rows], ["mu_before", "sigma_before", "mu_after", "sigma_after"]
    )
    counts = (
        RatingChange.objects.filter(rating_id__in=current, voided_at__isnull=True)
        .values("rating_id")
        .annotate(games=Count("game", distinct=True), wins=Count("game", distinct=True, filter=Q(won=True)))
    )
    tally = {c["rating_id"]: (c["games"], c["wins"]) for c in counts}
    for rating in Rating.objects.filter(pk__in=current):
        rating.mu, rating.sigma = current[rating.pk]
        rating.games, rating.wins = tally.get(rating.pk, (0, 0))
        rating.save(update_fields=["mu", "sigma", "games", "wins", "updated_at"])
