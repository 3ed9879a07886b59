"""Starting a game: options, the board, the shuffled deck, the first player and the set-up snake."""

from __future__ import annotations

from typing import Any

from . import chance
from .board import Board, beginner_base_board, variable_base_board
from .constants import BANK_PER_RESOURCE, DEVELOPMENT_DECK, SUPPLY
from .errors import IllegalAction
from .geometry import topology_for
from .scenarios import build_board, family_maps, load_map, map_keys
from .state import SCHEMA_VERSION, SETUP_SETTLEMENT, State, build

DEFAULT_OPTIONS: dict[str, Any] = {
    "board": "variable",  # base game: "variable" or "beginner"
    "random_tokens": False,  # base game: shuffled tokens with no adjacent 6/8
    "vp_target": None,  # None: the scenario's
    "seat_order": "random",  # "random": the first player is drawn; "fixed": seat 0 starts
    "friendly_robber": False,  # the robber may not target players with 2 or fewer public VP
    "pirate": None,  # Seafarers: None = on where the map places a pirate; True / False to force
    "pirate_steal": "each",  # "each" (seed: one card from each player with a ship there) or "one" (official)
}


def scenario_keys() -> list[str]:
    """Every value `new_game(scenario=...)` takes: "base", each map key, and each scenario family."""
    return ["base", *map_keys(), *sorted(set(family_maps()) - set(map_keys()))]


def resolve_scenario(scenario: str, players: int) -> str:
    if scenario == "base":
        if players not in (3, 4):
            raise IllegalAction("bad_player_count", "The base game is for 3 or 4 players.")
        return scenario
    if scenario in map_keys():
        allowed = load_map(scenario)["players"]
    elif scenario in family_maps():
        by_players = family_maps()[scenario]
        if players not in by_players:
            raise IllegalAction("bad_player_count", f"Scenario {scenario!r} is for {sorted(by_players)} players.")
        return by_players[players]
    else:
        raise IllegalAction("unknown_scenario", f"Unknown scenario {scenario!r}.")
    if players not in allowed:
        raise IllegalAction("bad_player_count", f"Scenario {scenario!r} is for {allowed} players.")
    return scenario


def _check_options(options: dict[str, Any] | None) -> dict[str, Any]:
    if options is not None and not isinstance(options, dict):
        raise IllegalAction("bad_option", "Options are an object.")
    unknown = set(options or {}) - set(DEFAULT_OPTIONS)
    if unknown:
        raise IllegalAction("unknown_option", f"Unknown options: {', '.join(sorted(unknown))}.")
    opts = {**DEFAULT_OPTIONS, **(options or {})}
    choices = {
        "board": ("variable", "beginner"),
        "seat_order": ("random", "fixed"),
        "pirate_steal": ("each", "one"),
        "random_tokens": (True, False),
        "friendly_robber": (True, False),
        "pirate": (None, True, False),
    }
    for name, allowed in choices.items():
        if opts[name] not in allowed or (isinstance(opts[name], int) and not isinstance(opts[name], bool)):
            raise IllegalAction("bad_option", f"Option {name!r} is one of {', '.join(map(repr, allowed))}.")
    target = opts["vp_target"]
    if target is not None and (type(target) is not int or not 3 <= target <= 30):
        raise IllegalAction("bad_option", "Option 'vp_target' is an integer from 3 to 30.")
    return opts


def new_game(
    scenario: str = "base",
    players: int = 4,
    seed: int = 0,
    options: dict[str, Any] | None = None,
) -> State:
    """A new game at the start of set-up. All chance flows from `seed`."""
    if type(players) is not int:
        raise IllegalAction("bad_player_count", "The number of players is an integer.")
    key = resolve_scenario(scenario, players)
    opts = _check_options(options)
    if type(seed) is not int or seed < 0:
        raise IllegalAction("bad_seed", "The seed is a non-negative integer.")
    stream = seed & chance.MASK
    spec = load_map(key) if key != "base" else None
    board: Board
    if spec is None:
        if opts["board"] == "beginner":
            board = beginner_base_board()
        else:
            stream, board = variable_base_board(stream, random_tokens=opts["random_tokens"])
    else:
        stream, board = build_board(spec, stream)
        if opts["pirate"] is False:
            board.pirate = -1
        elif opts["pirate"] is True and board.pirate < 0:
            sea = [h for h, t in enumerate(board.terrain) if t == 6 and not board.extra["frame"][h]]
            board.pirate = sea[0]

    fields: dict[str, Any] = {}
    fields["schema"] = SCHEMA_VERSION
    fields["scenario"] = key
    fields["options"] = opts
    fields["players"] = players
    fields["vp_target"] = opts["vp_target"] or (spec["vp_target"] if spec else 10)
    fields["seed"] = seed
    fields["hexes"] = tuple(board.hexes)
    fields["terrain"] = board.terrain
    fields["tokens"] = board.tokens
    fields["harbours"] = board.harbours
    fields["robber"] = board.robber
    fields["pirate"] = board.pirate

    deck = [card for card, count in enumerate(DEVELOPMENT_DECK) for _ in range(count)]
    stream = chance.shuffle(stream, deck)
    if opts["seat_order"] == "random":
        stream, first = chance.below(stream, players)
    else:
        first = 0
    fields["stream"] = stream
    fields["first"] = first
    order = [(first + i) % players for i in range(players)]
    fields["setup_order"] = order + order[::-1]
    fields["setup_index"] = 0
    fields["setup_vertex"] = -1
    fields["phase"] = SETUP_SETTLEMENT
    fields["current"] = first
    fields["turn"] = 0
    fields["dice"] = None
    fields["dice_history"] = [0] * 13

    topo = topology_for(fields["hexes"])
    fields["vertex_owner"] = [-1] * topo.vertex_count
    fields["vertex_city"] = [False] * topo.vertex_count
    fields["edge_owner"] = [-1] * topo.edge_count
    fields["edge_ship"] = [False] * topo.edge_count
    fields["hands"] = [[0] * 5 for _ in range(players)]
    fields["development"] = [[0] * 5 for _ in range(players)]
    fields["development_new"] = [[0] * 5 for _ in range(players)]
    fields["development_used"] = [[0] * 5 for _ in range(players)]
    fields["development_played"] = False
    fields["bank"] = [BANK_PER_RESOURCE] * 5
    fields["deck"] = deck
    supply = {**SUPPLY, **(spec or {}).get("rules", {}).get("supply", {})}
    fields["supply"] = [dict(supply) for _ in range(players)]
    fields["road_length"] = [0] * players
    fields["longest_road"] = -1
    fields["largest_army"] = -1
    fields["discards_owed"] = [0] * players
    fields["free_roads"] = 0
    fields["return_phase"] = ""
    fields["trade"] = None
    fields["offers_this_turn"] = []
    fields["winner"] = None
    fields["version"] = 0

    fields["seafarers"] = spec is not None
    extra = board.extra
    fields["frame"] = list(extra.get("frame", [False] * len(board.hexes)))
    fields["hidden_terrain"] = list(extra.get("hidden_terrain", []))
    fields["hidden_tokens"] = list(extra.get("hidden_tokens", []))
    fields["token_bag"] = list(extra.get("token_bag", []))
    fields["pending_tokens"] = []
    fields["vp_tokens"] = [0] * players
    fields["token_sites"] = []
    fields["home_islands"] = [[] for _ in range(players)]
    fields["islands_settled"] = [[] for _ in range(players)]
    fields["ships_new"] = []
    fields["ship_moved"] = False
    fields["gold_owed"] = [0] * players
    fields["resume_phase"] = ""
    fields["trade_lines"] = []
    fields["edge_serial"] = [0] * topo.edge_count
    fields["placements"] = 0
    state = build(fields)
    return state
