"""Constructed positions for the test_rule_* files: a beginner board, fixed seats, pieces put on it.

Every position comes from `rules.position`, which checks it is legal and computes what follows from it; the
helpers that add pieces or cards take a state and return a new one built from `rules.describe(state)` with the
change, so no test edits a state's fields. Dice are fixed with the testing hook `rules.testing.fix_dice`.

Handy ids on the beginner board (hex (q, r), corners 0..5 clockwise from the top):
- zigzag `row_top(state, r)` runs along the top edges of hex row r, `row_bottom(state, r)` along its bottom.
  Row 0 has five hexes, so its top zigzag is eleven vertices / ten edges long; rows ±1 have four, ±2 three.
"""

from __future__ import annotations

from typing import Any

import rules
from rules.constants import DEVELOPMENT_CARDS, HARBOUR_NAMES, RESOURCE_INDEX, RESOURCES
from rules.state import State
from rules.testing import fix_dice

BEGINNER = {"board": "beginner", "seat_order": "fixed"}

# Hex rows of the base island, left to right: (q, r) coordinates.
ROWS = {r: [(q, r) for q in range(max(-2, -2 - r), min(2, 2 - r) + 1)] for r in range(-2, 3)}


def new_beginner_game(players: int = 4, seed: int = 1, **options: Any) -> State:
    """A fresh game at the start of set-up: the beginner board, seat 0 first."""
    return rules.new_game(players=players, seed=seed, options={**BEGINNER, **options})


def main_phase_game(players: int = 4, current: int = 0, seed: int = 1, **options: Any) -> State:
    """An empty beginner board in the main phase (dice already rolled) of `current`'s turn."""
    return rules.position(players=players, seed=seed, options={**BEGINNER, **options}, current=current)


def roll_phase_game(players: int = 4, current: int = 0, seed: int = 1, **options: Any) -> State:
    return rules.position(players=players, seed=seed, options={**BEGINNER, **options}, current=current, phase="roll")


def edit(state: State, **fields: Any) -> State:
    """The same position with some top-level facts changed (phase, current, dice, robber, ...)."""
    return rules.position({**rules.describe(state), **fields})


def edit_seat(state: State, seat: int, **facts: Any) -> State:
    """The same position with some of a seat's facts replaced (development, development_used, ...)."""
    description = rules.describe(state)
    description["seats"][seat].update(facts)
    del description["deck"]  # the seed's deck less the cards now out, which may have changed
    return rules.position(description)


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


def lay_road(state: State, seat: int, vertices: list[int]) -> State:
    """The position with the seat's roads along a path of vertices added (no cost)."""
    description = rules.describe(state)
    description["seats"][seat]["roads"] += path_of_edges(state, vertices)
    return rules.position(description)


def settle(state: State, seat: int, vertex: int, city: bool = False) -> State:
    """The position with a settlement (or a city) of the seat added, without cost."""
    description = rules.describe(state)
    description["seats"][seat]["cities" if city else "settlements"].append(vertex)
    return rules.position(description)


def counts(**named: int) -> list[int]:
    """Five resource counts from names: counts(lumber=1, brick=1)."""
    out = [0] * 5
    for name, n in named.items():
        out[RESOURCE_INDEX[name]] = n
    return out


def give(state: State, seat: int, **named: int) -> State:
    """The position with the seat's hand set exactly, the cards taken from (or returned to) the bank."""
    description = rules.describe(state)
    hand = description["seats"][seat]["hand"]
    for name in RESOURCES:
        description["bank"][name] -= named.get(name, 0) - hand[name]
    description["seats"][seat]["hand"] = {name: named.get(name, 0) for name in RESOURCES}
    return rules.position(description)


def set_bank(state: State, **named: int) -> State:
    """The position with the bank's counts set (cards leave the game: only for positions about the bank)."""
    return edit(state, bank={name: named.get(name, 0) for name in RESOURCES})


def hold(state: State, seat: int, *cards: int) -> State:
    """The position with these development cards added to the seat's hand (bought on an earlier turn)."""
    held = rules.describe(state)["seats"][seat]["development"]
    for card in cards:
        held[DEVELOPMENT_CARDS[card]] += 1
    return edit_seat(state, seat, development=held)


def on_top(state: State, card: int) -> State:
    """The position with one card of this kind moved to the top of the deck."""
    deck = rules.describe(state)["deck"]
    deck.remove(DEVELOPMENT_CARDS[card])
    return edit(state, deck=[*deck, DEVELOPMENT_CARDS[card]])


def anchored_road(state: State, seat: int, vertices: list[int]) -> State:
    """The seat's roads along `vertices`, joined by one more road to a settlement of its own beyond the first
    vertex (where the distance rule allows one), so that the position is legal."""
    first = vertices[0]
    for n in state.derived.topo.vertex_neighbors[first]:
        if n in vertices:
            continue
        try:
            return lay_road(settle(state, seat, n), seat, [n, *vertices])
        except rules.IllegalAction:
            continue
    raise AssertionError(f"no room for a settlement next to {first}")


def force_roll(state: State, total: int) -> None:
    """The next roll makes `total`."""
    first = max(1, total - 6)
    fix_dice(state, first, total - first)


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
