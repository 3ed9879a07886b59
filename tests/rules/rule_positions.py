"""Constructed positions for the test_rule_* files: a beginner board, fixed seats, pieces put on it.

Everything here edits a real `State` the way the engine would, keeping cards conserved (hands are filled
from the bank) and bumping `state.version` so the per-version legal-action cache never serves a stale list.

Handy ids on the beginner board (hex (q, r), corners 0..5 clockwise from the top):
- zigzag `row_top(state, r)` runs along the top edges of hex row r, `row_bottom(state, r)` along its bottom.
  Row 0 has five hexes, so its top zigzag is eleven vertices / ten edges long; rows ±1 have four, ±2 three.
"""

from __future__ import annotations

from typing import Any

import rules
from rules import chance, placement
from rules.constants import HARBOUR_NAMES, RESOURCE_INDEX
from rules.longest_road import trail_length
from rules.state import MAIN, State

BEGINNER = {"board": "beginner", "seat_order": "fixed"}

# Hex rows of the base island, left to right: (q, r) coordinates.
ROWS = {r: [(q, r) for q in range(max(-2, -2 - r), min(2, 2 - r) + 1)] for r in range(-2, 3)}


def new_beginner_game(players: int = 4, seed: int = 1, **options: Any) -> State:
    """A fresh game at the start of set-up: the beginner board, seat 0 first."""
    return rules.new_game(players=players, seed=seed, options={**BEGINNER, **options})


def touch(state: State) -> State:
    """Call after editing fields by hand: the legal-action cache is keyed on the version."""
    state.version += 1
    return state


def main_phase_game(players: int = 4, current: int = 0, seed: int = 1, **options: Any) -> State:
    """An empty beginner board in the main phase (dice already rolled) of `current`'s turn."""
    state = new_beginner_game(players=players, seed=seed, **options)
    state.phase = MAIN
    state.current = current
    state.first = 0
    state.setup_index = len(state.setup_order)
    state.turn = 1
    state.dice = [3, 4]
    return touch(state)


def roll_phase_game(players: int = 4, current: int = 0, seed: int = 1, **options: Any) -> State:
    state = main_phase_game(players=players, current=current, seed=seed, **options)
    state.phase = "roll"
    state.dice = None
    return touch(state)


# --- ids ------------------------------------------------------------------------------------------------


def hex_id(state: State, q: int, r: int) -> int:
    return state.derived.topo.hex_index[(q, r)]


def corner(state: State, q: int, r: int, k: int) -> int:
    """Vertex id of corner k (0 = top, clockwise) of hex (q, r)."""
    return state.derived.topo.hex_vertices[hex_id(state, q, r)][k]


def row_top(state: State, r: int) -> list[int]:
    """The zigzag along the top of hex row r, left to right (upper-left, top, upper-right of each hex)."""
    out: list[int] = []
    for q, rr in ROWS[r]:
        for k in (5, 0, 1):
            v = corner(state, q, rr, k)
            if not out or out[-1] != v:
                out.append(v)
    return out


def row_bottom(state: State, r: int) -> list[int]:
    """The zigzag along the bottom of hex row r, left to right (lower-left, bottom, lower-right)."""
    out: list[int] = []
    for q, rr in ROWS[r]:
        for k in (4, 3, 2):
            v = corner(state, q, rr, k)
            if not out or out[-1] != v:
                out.append(v)
    return out


def hex_ring(state: State, q: int, r: int) -> list[int]:
    """The six corners of a hex, clockwise from the top, closed (first vertex repeated at the end)."""
    corners = list(state.derived.topo.hex_vertices[hex_id(state, q, r)])
    return [*corners, corners[0]]


def edge_between(state: State, a: int, b: int) -> int:
    topo = state.derived.topo
    shared = set(topo.vertex_edges[a]) & set(topo.vertex_edges[b])
    if len(shared) != 1:
        raise ValueError(f"vertices {a} and {b} are not neighbours")
    return shared.pop()


def path_of_edges(state: State, vertices: list[int]) -> list[int]:
    """The edges joining consecutive vertices of a path."""
    return [edge_between(state, a, b) for a, b in zip(vertices, vertices[1:], strict=False)]


def other_end(state: State, edge: int, vertex: int) -> int:
    a, b = state.derived.topo.edge_vertices[edge]
    return b if a == vertex else a


# --- pieces and cards ---------------------------------------------------------------------------------


def recount_roads(state: State) -> None:
    """Store every seat's trail length, as the engine keeps it after each placement."""
    for seat in range(state.players):
        state.road_length[seat] = trail_length(state, seat)


def lay_road(state: State, seat: int, vertices: list[int]) -> list[int]:
    """Put roads along a path of vertices (no cost, no Longest Road award); returns their edges."""
    edges = path_of_edges(state, vertices)
    for e in edges:
        placement.put_edge_piece(state, seat, e, ship=False)
    recount_roads(state)
    touch(state)
    return edges


def settle(state: State, seat: int, vertex: int, city: bool = False) -> None:
    """Put a settlement (or a city) without cost; the position must obey the distance rule."""
    if not placement.distance_rule_ok(state, vertex):
        raise ValueError(f"vertex {vertex} breaks the distance rule in this position")
    placement.put_settlement(state, seat, vertex)
    if city:
        placement.put_city(state, seat, vertex)
    recount_roads(state)
    touch(state)


def counts(**named: int) -> list[int]:
    """Five resource counts from names: counts(lumber=1, brick=1)."""
    out = [0] * 5
    for name, n in named.items():
        out[RESOURCE_INDEX[name]] = n
    return out


def give(state: State, seat: int, **named: int) -> None:
    """Set a seat's hand exactly, taking cards from (or returning them to) the bank."""
    wanted = counts(**named)
    for r in range(5):
        delta = wanted[r] - state.hands[seat][r]
        if delta > state.bank[r]:
            raise ValueError("the bank does not hold enough cards for this position")
        state.bank[r] -= delta
        state.hands[seat][r] = wanted[r]
    touch(state)


def set_bank(state: State, **named: int) -> None:
    """Set the bank's counts (cards leave the game: only for positions about the bank itself)."""
    state.bank = counts(**named)
    touch(state)


def stream_for_roll(total: int, start: int = 0) -> int:
    """A generator state whose next two dice make `total`."""
    stream = start
    while True:
        after, a = chance.below(stream, 6)
        _, b = chance.below(after, 6)
        if a + b + 2 == total:
            return stream
        stream += 1


def force_roll(state: State, total: int) -> None:
    state.stream = stream_for_roll(total)
    touch(state)


def actions_of(state: State, seat: int, kind: str) -> list[dict[str, Any]]:
    return [a for a in rules.legal_actions(state, seat) if a["type"] == kind]


def kinds(state: State, seat: int) -> set[str]:
    return {a["type"] for a in rules.legal_actions(state, seat)}


def total_cards(state: State) -> list[int]:
    """Bank plus hands, per resource (19 each when nothing was set aside)."""
    return [state.bank[r] + sum(h[r] for h in state.hands) for r in range(5)]


def assert_refused(state: State, seat: Any, action: Any, code: str | None = None) -> rules.IllegalAction:
    """`apply` raises IllegalAction (with this code, if given) and the full state is unchanged."""
    before = rules.dump(state)
    try:
        rules.apply(state, seat, action)
    except rules.IllegalAction as error:
        assert rules.dump(state) == before, f"refused {action!r} but the state changed"
        if code is not None:
            assert error.code == code, f"expected {code!r}, got {error.code!r}: {error.message}"
        return error
    raise AssertionError(f"{action!r} by seat {seat!r} was accepted")


def harbour_vertices(state: State, kind: str) -> list[list[int]]:
    """The two vertices of each harbour of this kind ("generic", "wool", ...)."""
    topo = state.derived.topo
    return [list(topo.edge_vertices[e]) for e, k in state.harbours if HARBOUR_NAMES[k] == kind]
