"""Building positions for rule tests: place pieces directly, fix the dice, find ids on the board."""

from __future__ import annotations

from typing import Any

import rules
from rules import chance, placement
from rules.constants import RESOURCE_INDEX
from rules.state import MAIN


def new_game(players: int = 4, **options: Any) -> rules.State:
    return rules.new_game(players=players, seed=7, options={"board": "beginner", "seat_order": "fixed", **options})


def topo(state: rules.State):
    return state.derived.topo


def settle(state: rules.State, seat: int, vertex: int, city: bool = False) -> None:
    placement.put_settlement(state, seat, vertex)
    if city:
        placement.put_city(state, seat, vertex)
    state.version += 1


def road(state: rules.State, seat: int, *edges: int) -> None:
    for edge in edges:
        placement.put_edge_piece(state, seat, edge, ship=False)
    state.version += 1


def edge_between(state: rules.State, a: int, b: int) -> int:
    for e in topo(state).vertex_edges[a]:
        if b in topo(state).edge_vertices[e]:
            return e
    raise ValueError(f"vertices {a} and {b} are not adjacent")


def land_path(state: rules.State, start: int, length: int, avoid: frozenset[int] = frozenset()) -> list[int]:
    """Vertices of a simple path of `length` land edges from `start` (depth-first, lowest ids first)."""
    t = topo(state)

    def walk(path: list[int]) -> list[int] | None:
        if len(path) == length + 1:
            return path
        for n in sorted(t.vertex_neighbors[path[-1]]):
            e = edge_between(state, path[-1], n)
            if n not in path and n not in avoid and state.derived.road_edge[e] and state.edge_owner[e] == -1:
                found = walk([*path, n])
                if found:
                    return found
        return None

    found = walk([start])
    if found is None:
        raise ValueError("no such path")
    return found


def edges_of(state: rules.State, vertices: list[int]) -> list[int]:
    return [edge_between(state, a, b) for a, b in zip(vertices, vertices[1:], strict=False)]


def main_phase(state: rules.State, seat: int = 0, rolled: bool = True) -> rules.State:
    """Skip set-up: it is `seat`'s turn, after (or before) the roll."""
    state.phase = MAIN if rolled else "roll"
    state.current = seat
    state.setup_index = len(state.setup_order)
    state.turn = 1
    state.dice = [3, 4] if rolled else None
    state.version += 1
    return state


def give(state: rules.State, seat: int, **cards: int) -> None:
    for name, count in cards.items():
        r = RESOURCE_INDEX[name]
        state.hands[seat][r] += count
        state.bank[r] -= count
    state.version += 1


def hand(state: rules.State, seat: int) -> dict[str, int]:
    return {name: state.hands[seat][i] for name, i in RESOURCE_INDEX.items() if state.hands[seat][i]}


def stream_for_roll(total: int) -> int:
    """A chance-stream state whose next two dice sum to `total`."""
    for stream in range(10_000):
        s, a = chance.below(stream, 6)
        _, b = chance.below(s, 6)
        if a + b + 2 == total:
            return stream
    raise ValueError(total)


def roll(state: rules.State, total: int) -> list[dict]:
    state.phase = "roll"
    state.stream = stream_for_roll(total)
    state.version += 1
    return rules.apply(state, state.current, {"type": "roll"})


def hex_at(state: rules.State, q: int, r: int) -> int:
    return topo(state).hex_index[(q, r)]


def free_vertex_on(state: rules.State, hex_id: int, skip: int = 0) -> int:
    """A vertex of the hex where a settlement may stand (distance rule), the `skip`-th such."""
    options = [v for v in topo(state).hex_vertices[hex_id] if placement.distance_rule_ok(state, v)]
    return options[skip]
