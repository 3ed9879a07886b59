"""The catanatron bridge of the bot benchmark (issue 43): our board and pieces read the same in catanatron's
model, and its bots' actions come back as legal actions of ours. catanatron lives in .venv-bench only
(benchmark, never the site): these tests are skipped where it is not installed; `run_all` runs them without
pytest's runner, in an environment that has catanatron and pytest."""

from __future__ import annotations

import random

import pytest

import rules

pytest.importorskip("catanatron")

from bench.catanatron_bridge import RES, Board2, seats_for, to_game  # noqa: E402


def _played(seed: int, actions: int) -> rules.State:
    state = rules.new_game("base", 4, seed, {"seat_order": "fixed"})
    rng = random.Random(seed)
    for _ in range(actions):
        seats = rules.to_move(state)
        if not seats:
            break
        legal = [a for a in rules.legal_actions(state, seats[0]) if a["type"] != "offer_trade"]
        rules.apply(state, seats[0], rng.choice(legal))
    return state


def test_board_translates_hexes_corners_harbours_and_pieces() -> None:
    state = _played(3, 400)
    board = Board2(state)
    topo = state.derived.topo
    for h, c in board.coord.items():
        tile = board.map.land_tiles[c]
        assert tile.resource == (RES[state.terrain[h]] if state.terrain[h] < 5 else None)
        assert {board.node[v] for v in topo.hex_vertices[h]} == set(tile.nodes.values())
    seat = rules.to_move(state)[0]
    game = to_game(state, seat, board, [None] * 4)
    b = game.state.board
    for v, n in board.node.items():
        owner = state.vertex_owner[v]
        assert (b.buildings.get(n, (None,))[0] is not None) == (owner >= 0)
    for e, (x, y) in board.edge.items():
        assert (b.roads.get((x, y)) is not None) == (state.edge_owner[e] >= 0)
    for i in range(4):
        hand = [game.state.player_state[f"P{i}_{r}_IN_HAND"] for r in RES]
        assert hand == state.hands[i]
    assert game.state.resource_freqdeck == state.bank


@pytest.mark.parametrize("kind", ["value", "alphabeta"])
def test_catanatron_bots_finish_a_game_with_legal_moves(kind: str) -> None:
    state = rules.new_game("base", 4, 11, {"seat_order": "fixed"})
    seats, players = seats_for(kind, 4, 11)
    for _ in range(3000 if kind == "value" else 600):
        to_move = rules.to_move(state)
        if not to_move:
            break
        rules.apply(state, to_move[0], seats[to_move[0]].act(state, players))  # illegal would raise
    assert sum(s.decisions for s in seats.values()) > 0
    assert sum(s.fallbacks for s in seats.values()) <= sum(s.decisions for s in seats.values()) // 20


def test_the_report_says_which_seat_won_the_games_the_hero_lost() -> None:
    from bench.vs_catanatron import Result, Task, winner_lines  # after the skip: it needs catanatron

    def result(game: int, winner: int) -> Result:
        task = Task(opponent="alphabeta", hero="hard", game=game, seed=game + 1, time_limit=0.1)
        return Result(task, winner == game % 4, True, winner, 70, 1.0, 40, 1.0, 10, 100, 0)

    # Hero at seats 0, 1, 3, 2, 0: lost to the next seat twice (1 after 0, 0 after 3), to the seat before (1 before 2)
    # once, to the seat two after (2 after 0) once; won once.
    results = [result(0, 1), result(1, 1), result(3, 0), result(2, 1), result(4, 2)]
    table = winner_lines(results)
    assert table[-1] == "| 4 | 2 (50%) | 1 (25%) | 1 (25%) |"
    assert winner_lines([result(1, 1)]) == []  # no game lost, no table


def run_all() -> None:
    test_board_translates_hexes_corners_harbours_and_pieces()
    for kind in ("value", "alphabeta"):
        test_catanatron_bots_finish_a_game_with_legal_moves(kind)
    test_the_report_says_which_seat_won_the_games_the_hero_lost()
    print("ok")
