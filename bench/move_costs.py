"""The per-move costs of bench/load.py, in-process on its database: SQL statements and bytes stored per move, and
the first against the last 100 moves of a long game. Django is set up by `bench.load.serving` before these run."""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable


class _LongGame:
    """One game of four humans played by random legal moves through `services.move_submit`, each move's wall time
    and SQL statements recorded."""

    def __init__(self, seed: int, make_games: Callable[[int], list]) -> None:
        from games.models import Game as GameRow

        ((self.game_id, _),) = make_games(1)
        row = GameRow.objects.get(pk=self.game_id)
        self.users = {s.index: s.user for s in row.seats.select_related("user")}
        self.rng = random.Random(seed)
        self.seq = 0

    def move(self) -> tuple[float, int] | None:
        """(seconds, statements) of one move, or None once the game is over."""
        from django.db import connection
        from django.test.utils import CaptureQueriesContext

        import rules
        from games import services
        from games.models import Game as GameRow

        state = rules.load(GameRow.objects.get(pk=self.game_id).state)
        seats = rules.to_move(state)
        if not seats:
            return None
        seat = seats[0]
        action = self.rng.choice([a for a in rules.legal_actions(state, seat) if a["type"] != "offer_trade"])
        with CaptureQueriesContext(connection) as captured:
            t0 = time.perf_counter()
            services.move_submit(game_id=self.game_id, user=self.users[seat], action=action, expected_seq=self.seq)
            seconds = time.perf_counter() - t0
        self.seq += 1
        return seconds, len(captured.captured_queries)


# Random moves win a game now and then before the long game's length: so many games are tried for one that lasts.
LONG_GAME_ATTEMPTS = 5


def per_move_costs(long_moves: int, make_games: Callable[[int], list]) -> dict:
    """In-process: SQL queries and stored bytes per move, and the first vs the last 100 moves of a long game.

    The machine's load drifts (the servers' last writes being flushed, autovacuum after the load): timed one after
    the other, the first 100 moves and the last 100 read as far as 1.5x apart either way on the same code. So a
    long game is first played to 100 moves before its end, then its last 100 moves alternate with the first 100 of a
    new game played the same way, one move each, and drift hits both alike. A game won before its last 100 moves
    gives way to another (`LONG_GAME_ATTEMPTS`)."""
    from django.db import connection

    from games.models import Move

    queries = []
    for attempt in range(LONG_GAME_ATTEMPTS):
        late = _LongGame(7 + attempt, make_games)
        while late.seq < long_moves - 100 and (done := late.move()) is not None:
            queries.append(done[1])
        if late.seq >= long_moves - 100:
            break  # else the game was won before its last 100 moves: another, on other random moves
    early = _LongGame(7, make_games)
    first, last = [], []
    for _ in range(min(100, long_moves)):
        for game, timings in ((early, first), (late, last)):
            done = game.move()
            if done is not None:
                timings.append(done[0])
                queries.append(done[1])
    with connection.cursor() as cursor:
        cursor.execute("SELECT avg(pg_column_size(m.*)) FROM games_move m WHERE m.game_id = %s", [late.game_id])
        move_bytes = float(cursor.fetchone()[0])
        cursor.execute("SELECT pg_column_size(g.state) FROM games_game g WHERE g.id = %s", [late.game_id])
        snapshot_bytes = float(cursor.fetchone()[0])
    return {
        "moves": late.seq,
        "queries_per_move": statistics.mean(queries),
        "queries_max": max(queries),
        "move_row_bytes": move_bytes,
        "snapshot_bytes": snapshot_bytes,
        "first100_ms": 1000 * statistics.median(first),
        "last100_ms": 1000 * statistics.median(last) if last else float("nan"),
        "log_rows": Move.objects.filter(game_id=late.game_id).count(),
    }
