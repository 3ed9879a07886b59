"""Starting a game: options, the board, the shuffled deck, the first player and the set-up snake."""

from __future__ import annotations

from typing import Any

from . import chance
from .board import Board, beginner_base_board, variable_base_board
from .constants import BANK_PER_RESOURCE, DEVELOPMENT_DECK, SUPPLY
from .errors import IllegalAction
from .geometry import topology_for
from .state import SCHEMA_VERSION, SETUP_SETTLEMENT, State

DEFAULT_OPTIONS: dict[str, Any] = {
    "board": "variable",  # "variable" or "beginner"
    "random_tokens": False,  # shuffled tokens with no adjacent 6/8
    "vp_target": None,  # None: the scenario's
    "seat_order": "random",  # "random": the first player is drawn; "fixed": seat 0 starts
    "friendly_robber": False,  # the robber may not target players with 2 or fewer public VP
}

SCENARIOS: dict[str, dict[str, Any]] = {
    "base": {"players": (3, 4), "vp_target": 10},
}


def make_board(scenario: str, players: int, options: dict[str, Any], stream: int) -> tuple[int, Board]:
    if options["board"] == "beginner":
        return stream, beginner_base_board()
    return variable_base_board(stream, random_tokens=bool(options["random_tokens"]))


def new_game(
    scenario: str = "base",
    players: int = 4,
    seed: int = 0,
    options: dict[str, Any] | None = None,
) -> State:
    """A new game at the start of set-up. All chance flows from `seed`."""
    spec = SCENARIOS.get(scenario)
    if spec is None:
        raise IllegalAction("unknown_scenario", f"Unknown scenario {scenario!r}.")
    if players not in spec["players"]:
        raise IllegalAction("bad_player_count", f"Scenario {scenario!r} is for {spec['players']} players.")
    unknown = set(options or {}) - set(DEFAULT_OPTIONS)
    if unknown:
        raise IllegalAction("unknown_option", f"Unknown options: {', '.join(sorted(unknown))}.")
    opts = {**DEFAULT_OPTIONS, **(options or {})}
    if opts["board"] not in ("variable", "beginner"):
        raise IllegalAction("bad_option", "Option 'board' is 'variable' or 'beginner'.")
    if opts["seat_order"] not in ("random", "fixed"):
        raise IllegalAction("bad_option", "Option 'seat_order' is 'random' or 'fixed'.")
    if not isinstance(seed, int) or seed < 0:
        raise IllegalAction("bad_seed", "The seed is a non-negative integer.")
    stream = seed & chance.MASK
    stream, board = make_board(scenario, players, opts, stream)

    state = State()
    state.schema = SCHEMA_VERSION
    state.scenario = scenario
    state.options = opts
    state.players = players
    target = opts["vp_target"]
    if target is not None and (not isinstance(target, int) or not 3 <= target <= 30):
        raise IllegalAction("bad_option", "Option 'vp_target' is an integer from 3 to 30.")
    state.vp_target = target or spec["vp_target"]
    state.seed = seed
    state.hexes = tuple(board.hexes)
    state.terrain = board.terrain
    state.tokens = board.tokens
    state.harbours = board.harbours
    state.robber = board.robber
    state.pirate = board.pirate

    deck = [card for card, count in enumerate(DEVELOPMENT_DECK) for _ in range(count)]
    stream = chance.shuffle(stream, deck)
    if opts["seat_order"] == "random":
        stream, first = chance.below(stream, players)
    else:
        first = 0
    state.stream = stream
    state.first = first
    order = [(first + i) % players for i in range(players)]
    state.setup_order = order + order[::-1]
    state.setup_index = 0
    state.setup_vertex = -1
    state.phase = SETUP_SETTLEMENT
    state.current = first
    state.turn = 0
    state.dice = None
    state.dice_history = [0] * 13

    topo = topology_for(state.hexes)
    state.vertex_owner = [-1] * topo.vertex_count
    state.vertex_city = [False] * topo.vertex_count
    state.edge_owner = [-1] * topo.edge_count
    state.edge_ship = [False] * topo.edge_count
    state.hands = [[0] * 5 for _ in range(players)]
    state.development = [[0] * 5 for _ in range(players)]
    state.development_new = [[0] * 5 for _ in range(players)]
    state.development_played = False
    state.development_used = [[0] * 5 for _ in range(players)]
    state.bank = [BANK_PER_RESOURCE] * 5
    state.deck = deck
    state.supply = [dict(SUPPLY) for _ in range(players)]
    state.road_length = [0] * players
    state.longest_road = -1
    state.largest_army = -1
    state.discards_owed = [0] * players
    state.free_roads = 0
    state.return_phase = ""
    state.trade = None
    state.winner = None
    state.version = 0
    state.refresh_derived()
    return state
