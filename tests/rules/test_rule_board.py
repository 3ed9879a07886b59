"""RULES.md §1 (components) and §2 (board set-up): the variable board, the beginner board, the supplies."""

from __future__ import annotations

import math
from collections import Counter

import rules
from rules.constants import HARBOUR_NAMES, LAND, SEA, SPIRAL_TOKENS, TERRAINS

from .rule_positions import new_beginner_game

SEEDS = range(25)
LAND_COUNTS = {"forest": 4, "pasture": 4, "fields": 4, "hills": 3, "mountains": 3, "desert": 1}
TOKEN_COUNTS = {2: 1, 12: 1, 3: 2, 4: 2, 5: 2, 6: 2, 8: 2, 9: 2, 10: 2, 11: 2}
HARBOUR_COUNTS = {"generic": 4, "lumber": 1, "brick": 1, "wool": 1, "grain": 1, "ore": 1}


def land_hexes(state: rules.State) -> list[int]:
    return [h for h, t in enumerate(state.terrain) if t in LAND]


def test_variable_board_has_nineteen_land_hexes_with_the_right_terrains():
    layouts = set()
    for seed in SEEDS:
        state = rules.new_game(players=4, seed=seed)
        land = land_hexes(state)
        assert len(land) == 19
        assert Counter(TERRAINS[state.terrain[h]] for h in land) == LAND_COUNTS
        # Columns (rows, with pointy-top hexes) of 3-4-5-4-3, framed by sea on every side.
        assert sorted(Counter(state.hexes[h][1] for h in land).values()) == [3, 3, 4, 4, 5]
        topo = state.derived.topo
        for h in land:
            assert len(topo.hex_neighbors[h]) == 6
        sea = [h for h, t in enumerate(state.terrain) if t == SEA]
        assert len(sea) == 18
        layouts.add(tuple(state.terrain))
    assert len(layouts) > 1, "the terrain is shuffled per game"


def test_variable_board_has_eighteen_tokens_and_none_on_the_desert():
    for seed in SEEDS:
        state = rules.new_game(players=4, seed=seed)
        tokens = [state.tokens[h] for h in land_hexes(state) if state.tokens[h]]
        assert Counter(tokens) == TOKEN_COUNTS
        desert = state.terrain.index(TERRAINS.index("desert"))
        assert state.tokens[desert] == 0
        assert all(state.tokens[h] == 0 for h, t in enumerate(state.terrain) if t == SEA)


def _centre(hex_coordinate: tuple[int, int]) -> tuple[float, float]:
    q, r = hex_coordinate
    return math.sqrt(3) * (q + r / 2), 1.5 * r


def _spirals(state: rules.State) -> list[list[int]]:
    """Every path that starts on a corner hex of the coast, walks the outer ring, then the inner ring, then
    the centre, stepping between neighbours and always turning the same way round the centre."""
    topo = state.derived.topo
    land = set(land_hexes(state))
    layer = {h: max(abs(q), abs(r), abs(q + r)) for h, (q, r) in enumerate(state.hexes) if h in land}
    # The six corners of the outer ring lie on an axis: one of q, r, -q-r is zero.
    corners = [h for h, d in layer.items() if d == 2 and 0 in (*state.hexes[h], sum(state.hexes[h]))]
    assert len(corners) == 6
    out: list[list[int]] = []

    def turn(a: int, b: int) -> int:
        (x1, y1), (x2, y2) = _centre(state.hexes[a]), _centre(state.hexes[b])
        return 1 if x1 * y2 - x2 * y1 > 0 else -1

    def walk(path: list[int], direction: int) -> None:
        if len(path) == 19:
            out.append(path)
            return
        here = path[-1]
        same_layer_left = any(layer[h] == layer[here] and h not in path for h in layer)
        for n in topo.hex_neighbors[here]:
            if n not in land or n in path:
                continue
            if same_layer_left:
                if layer[n] != layer[here] or (direction and turn(here, n) != direction):
                    continue
                walk([*path, n], direction or turn(here, n))
            elif layer[n] == layer[here] - 1:
                walk([*path, n], direction)

    for start in corners:
        walk([start], 0)
    return out


def test_variable_board_tokens_follow_the_spiral_from_a_coastal_corner():
    for seed in SEEDS:
        state = rules.new_game(players=4, seed=seed)
        readings = {tuple(state.tokens[h] for h in path if state.tokens[h]) for path in _spirals(state)}
        assert tuple(SPIRAL_TOKENS) in readings, f"seed {seed}: tokens are not laid A→R along a spiral"


def test_variable_board_has_nine_harbours_four_generic_and_one_of_each_resource():
    orders = set()
    for seed in SEEDS:
        state = rules.new_game(players=4, seed=seed)
        assert Counter(HARBOUR_NAMES[k] for _, k in state.harbours) == HARBOUR_COUNTS
        topo = state.derived.topo
        seen: set[int] = set()
        for edge, _ in state.harbours:
            sides = [state.terrain[h] for h in topo.edge_hexes[edge]]
            assert sorted(t == SEA for t in sides) == [False, True], "a harbour lies on a coast edge"
            ends = set(topo.edge_vertices[edge])
            assert not ends & seen, "two harbours never share a vertex"
            seen |= ends
        orders.add(tuple(k for _, k in state.harbours))
    assert len(orders) > 1, "the harbour order is shuffled per game"


def test_the_robber_starts_on_the_desert():
    for seed in SEEDS:
        state = rules.new_game(players=4, seed=seed)
        assert TERRAINS[state.terrain[state.robber]] == "desert"
    beginner = new_beginner_game()
    assert TERRAINS[beginner.terrain[beginner.robber]] == "desert"


# The beginner board of the base game, row by row from the top.
BEGINNER_LAYOUT = [
    [("mountains", 10), ("pasture", 2), ("forest", 9)],
    [("fields", 12), ("hills", 6), ("pasture", 4), ("hills", 10)],
    [("fields", 9), ("forest", 11), ("desert", None), ("forest", 3), ("mountains", 8)],
    [("forest", 8), ("mountains", 3), ("fields", 4), ("pasture", 5)],
    [("hills", 5), ("fields", 6), ("pasture", 11)],
]


def _rows(state: rules.State) -> list[list[tuple[str, int | None]]]:
    public = rules.view(state, None)["board"]["hexes"]
    land = [h for h in public if h["terrain"] != "sea"]
    rows = []
    for r in sorted({h["r"] for h in land}):
        row = sorted((h for h in land if h["r"] == r), key=lambda h: h["q"])
        rows.append([(h["terrain"], h["token"]) for h in row])
    return rows


def test_beginner_board_option_is_a_fixed_layout():
    boards = {
        (seed, players): new_beginner_game(players=players, seed=seed) for seed in (1, 2, 99) for players in (3, 4)
    }
    first = next(iter(boards.values()))
    assert _rows(first) == BEGINNER_LAYOUT
    for state in boards.values():
        assert state.terrain == first.terrain
        assert state.tokens == first.tokens
        assert state.harbours == first.harbours


def test_beginner_board_has_the_base_game_counts():
    state = new_beginner_game()
    land = land_hexes(state)
    assert Counter(TERRAINS[state.terrain[h]] for h in land) == LAND_COUNTS
    assert Counter(state.tokens[h] for h in land if state.tokens[h]) == TOKEN_COUNTS
    assert Counter(HARBOUR_NAMES[k] for _, k in state.harbours) == HARBOUR_COUNTS


def test_the_bank_holds_nineteen_of_each_resource():
    state = rules.new_game(players=4, seed=3)
    assert state.bank == [19] * 5
    assert sum(state.bank) == 95
    assert rules.view(state, None)["bank"] == {name: 19 for name in ("lumber", "brick", "wool", "grain", "ore")}


def test_the_development_deck_has_twenty_five_cards():
    state = rules.new_game(players=4, seed=3)
    assert len(state.deck) == 25
    assert Counter(state.deck) == {
        0: 14,
        1: 2,
        2: 2,
        3: 2,
        4: 5,
    }  # knight, road building, plenty, monopoly, VP
    assert rules.view(state, None)["deck_count"] == 25


def test_each_player_has_five_settlements_four_cities_fifteen_roads():
    for players in (3, 4):
        state = rules.new_game(players=players, seed=3)
        for seat in range(players):
            supply = rules.view(state, None)["seats"][seat]["supply"]
            assert (supply["settlements"], supply["cities"], supply["roads"]) == (5, 4, 15)


def test_the_base_game_is_for_three_or_four_players():
    for players in (1, 2, 5, 6):
        try:
            rules.new_game(players=players, seed=1)
        except rules.IllegalAction as error:
            assert error.code == "bad_player_count"
        else:
            raise AssertionError(f"a base game for {players} players was created")
