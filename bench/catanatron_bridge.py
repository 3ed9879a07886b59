"""catanatron 3.2.1's AlphaBeta and Value bots as opponents in our engine (benchmark only, never the site).

Games are played in our engine, under the site's rules. When a catanatron seat must act, the whole state of
ours (every hand, the development deck: catanatron's bots read everything, as in issue 43) is translated into
a catanatron `Game` on the same board, its bot decides there, and its action is translated back into ours.
Where catanatron cannot express a decision, or its pick is not legal here, the seat plays the closest legal
action of ours, chosen by our medium policy (counted as a fallback):

- discards: catanatron 3.2.1 discards at random (one `DISCARD` action); here the medium policy discards;
- trade offers from others: catanatron bots never trade with players, so they refuse every offer;
- a free road of Road Building when catanatron lists none (its generator asks for a road's cost then);
- a decision where catanatron's own search raises (its road-network bookkeeping, rarely, after a network
  was cut by another's settlement).

The players themselves are not in catanatron's PyPI package and not in this repository: `AlphaBetaPlayer` and
`ValueFunctionPlayer` come from `catanatron_experimental` (with the `catanatron_gym` features they read), which
whoever runs the benchmark installs into .venv-bench from catanatron's own repository at its 3.2.1 release (GPL-3).
Without them the translation still loads (its tests run), and the benchmark says what is missing.
"""

from __future__ import annotations

import random
from collections import defaultdict
from typing import Any

from catanatron.game import Game
from catanatron.models.actions import generate_playable_actions
from catanatron.models.board import Board
from catanatron.models.enums import ActionPrompt, ActionType
from catanatron.models.map import BASE_MAP_TEMPLATE, CatanMap, NodeRef, init_node_production
from catanatron.models.player import Color
from catanatron.state import PLAYER_INITIAL_STATE, State

import rules
from rules.ai import BOTS, choose_for
from rules.scoring import public_victory_points, victory_points

RES = ("WOOD", "BRICK", "SHEEP", "WHEAT", "ORE")  # our order: lumber, brick, wool, grain, ore
OUR_RES = ("lumber", "brick", "wool", "grain", "ore")
DEV = ("KNIGHT", "ROAD_BUILDING", "YEAR_OF_PLENTY", "MONOPOLY", "VICTORY_POINT")  # our card order
COLORS = (Color.RED, Color.BLUE, Color.ORANGE, Color.WHITE)
CORNERS = (NodeRef.NORTH, NodeRef.NORTHEAST, NodeRef.SOUTHEAST, NodeRef.SOUTH, NodeRef.SOUTHWEST, NodeRef.NORTHWEST)
PLAYERS_MODULE = "catanatron_experimental.machine_learning.players.minimax"


def player_kinds() -> dict[str, Any]:
    """catanatron's AlphaBeta and Value players, from catanatron_experimental (not on PyPI, not in this repository:
    see the module's docstring)."""
    import importlib  # here, not at the top: the translation and its tests need no players

    try:
        module = importlib.import_module(PLAYERS_MODULE)
    except ImportError as error:
        raise SystemExit(
            f"{PLAYERS_MODULE} is not installed in this environment: catanatron's AlphaBeta and Value players are "
            "not on PyPI; install catanatron_experimental and catanatron_gym from catanatron's repository at its "
            f"3.2.1 release into .venv-bench (docs/BOTS.md). ({error})"
        ) from None
    return {"alphabeta": module.AlphaBetaPlayer, "value": module.ValueFunctionPlayer}


def cube(q: int, r: int) -> tuple[int, int, int]:
    """Our axial (q, r), east = (1, 0), south-east = (0, 1), as catanatron's cube coordinates."""
    return (q, -q - r, r)


class Board2:
    """The fixed translation of one board of ours (base game) into a catanatron map: hexes, corners, edges."""

    def __init__(self, state: rules.State) -> None:
        topo = state.derived.topo
        self.map = CatanMap.from_template(BASE_MAP_TEMPLATE)
        self.node: dict[int, int] = {}
        self.hex_of: dict[tuple[int, int, int], int] = {}
        self.coord: dict[int, tuple[int, int, int]] = {}
        for h, (q, r) in enumerate(topo.hexes):
            c = cube(q, r)
            tile = self.map.land_tiles.get(c)
            if tile is None:
                continue
            terrain = state.terrain[h]
            tile.resource = RES[terrain] if terrain < 5 else None
            tile.number = state.tokens[h] or None
            self.hex_of[c] = h
            self.coord[h] = c
            for k, ref in enumerate(CORNERS):
                v = topo.hex_vertices[h][k]
                if self.node.setdefault(v, tile.nodes[ref]) != tile.nodes[ref]:
                    raise ValueError("corner mapping mismatch")
        if len(self.node) != 54 or len(self.hex_of) != 19:
            raise ValueError("not a base board")
        self.vertex = {n: v for v, n in self.node.items()}
        self.edge: dict[int, tuple[int, int]] = {}
        self.edge_of: dict[tuple[int, int], int] = {}
        for e, (a, b) in enumerate(topo.edge_vertices):
            if a in self.node and b in self.node:
                na, nb = self.node[a], self.node[b]
                self.edge[e] = (min(na, nb), max(na, nb))
                self.edge_of[(na, nb)] = self.edge_of[(nb, na)] = e
        ports: dict[Any, set[int]] = defaultdict(set)
        for e, kind in state.harbours:
            a, b = topo.edge_vertices[e]
            ports[RES[kind] if kind < 5 else None].update((self.node[a], self.node[b]))
        self.map.port_nodes = ports
        self.map.node_production = init_node_production(self.map.adjacent_tiles)


def to_game(state: rules.State, seat: int, board: Board2, players: list[Any]) -> Game:
    """Our full state as a catanatron Game with `seat` to act."""
    s = State([], None, initialize=False)
    s.players = players
    s.discard_limit = 7
    s.colors = COLORS[: state.players]
    s.color_to_index = {c: i for i, c in enumerate(s.colors)}
    b = Board(board.map)
    s.board = b
    s.buildings_by_color = {c: defaultdict(list) for c in s.colors}
    owner, city = state.vertex_owner, state.vertex_city
    placed = [v for v in range(len(owner)) if owner[v] >= 0 and v in board.node]
    if state.setup_vertex in placed:  # the settlement just placed in the set-up comes last
        placed.remove(state.setup_vertex)
        placed.append(state.setup_vertex)
    for v in placed:
        color, node = s.colors[owner[v]], board.node[v]
        b.build_settlement(color, node, initial_build_phase=True)
        s.buildings_by_color[color]["SETTLEMENT"].append(node)
    roads = [e for e in range(len(state.edge_owner)) if state.edge_owner[e] >= 0 and e in board.edge]
    while roads:  # each road once it touches its owner's network
        left = []
        for e in roads:
            color = s.colors[state.edge_owner[e]]
            try:
                b.build_road(color, board.edge[e])
            except ValueError:
                left.append(e)
                continue
            s.buildings_by_color[color]["ROAD"].append(board.edge[e])
        if len(left) == len(roads):
            # Roads cut off from their owner's network by another's settlement: laid as they are, then each
            # colour's networks recomputed as catanatron walks them (its own roads, never through another's
            # building), since catanatron only lays a road next to a network it knows.
            for e in left:
                color = s.colors[state.edge_owner[e]]
                x, y = board.edge[e]
                b.roads[(x, y)] = b.roads[(y, x)] = color
                s.buildings_by_color[color]["ROAD"].append(board.edge[e])
            for color in s.colors:
                b.connected_components[color] = _networks(b, color)
            break
        roads = left
    for v in placed:
        if city[v]:
            color, node = s.colors[owner[v]], board.node[v]
            b.build_city(color, node)
            s.buildings_by_color[color]["SETTLEMENT"].remove(node)
            s.buildings_by_color[color]["CITY"].append(node)
    b.robber_coordinate = board.coord[state.robber]
    for i in range(state.players):
        b.road_lengths[s.colors[i]] = state.road_length[i]
    if state.longest_road >= 0:
        b.road_color = s.colors[state.longest_road]
        b.road_length = state.road_length[state.longest_road]
    else:
        b.road_color, b.road_length = None, 0

    phase = state.phase
    acting_turn = phase not in ("setup_settlement", "setup_road") and seat == state.current
    ps: dict[str, Any] = {}
    for i in range(state.players):
        p = f"P{i}_"
        for key, value in PLAYER_INITIAL_STATE.items():
            ps[p + key] = value
        ps[p + "VICTORY_POINTS"] = public_victory_points(state, i)
        ps[p + "ACTUAL_VICTORY_POINTS"] = victory_points(state, i)
        supply = state.supply[i]
        ps[p + "ROADS_AVAILABLE"] = supply["roads"]
        ps[p + "SETTLEMENTS_AVAILABLE"] = supply["settlements"]
        ps[p + "CITIES_AVAILABLE"] = supply["cities"]
        ps[p + "HAS_ROAD"] = state.longest_road == i
        ps[p + "HAS_ARMY"] = state.largest_army == i
        ps[p + "LONGEST_ROAD_LENGTH"] = state.road_length[i]
        for r, name in enumerate(RES):
            ps[f"{p}{name}_IN_HAND"] = state.hands[i][r]
        for d, name in enumerate(DEV):
            held = state.development[i][d] + state.development_new[i][d]
            if i == seat and acting_turn and d != 4:
                held = state.development[i][d]  # a card bought this turn cannot be played yet
            ps[f"{p}{name}_IN_HAND"] = held
            ps[f"{p}PLAYED_{name}"] = state.development_used[i][d]
    if acting_turn:
        k = f"P{seat}_"
        rolled = phase not in ("roll",) and not (phase == "robber" and state.return_phase == "roll")
        ps[k + "HAS_ROLLED"] = rolled
        ps[k + "HAS_PLAYED_DEVELOPMENT_CARD_IN_TURN"] = bool(state.development_played)
    s.player_state = ps
    s.resource_freqdeck = list(state.bank)
    s.development_listdeck = [DEV[c] for c in state.deck]
    s.actions = []
    s.num_turns = state.turn
    s.current_player_index = seat
    s.current_turn_index = state.current if acting_turn else seat
    s.is_initial_build_phase = phase in ("setup_settlement", "setup_road")
    s.is_discarding = False
    s.is_moving_knight = phase == "robber" and bool(state.development_played)
    s.is_road_building = phase == "road_building"
    s.free_roads_available = state.free_roads if phase == "road_building" else 0
    s.current_prompt = {
        "setup_settlement": ActionPrompt.BUILD_INITIAL_SETTLEMENT,
        "setup_road": ActionPrompt.BUILD_INITIAL_ROAD,
        "robber": ActionPrompt.MOVE_ROBBER,
    }.get(phase, ActionPrompt.PLAY_TURN)
    s.playable_actions = generate_playable_actions(s)
    game = Game([], initialize=False)
    game.seed, game.id, game.vps_to_win, game.state = 1, "bench", state.vp_target, s
    return game


def _networks(b: Board, color: Any) -> list[set[int]]:
    """A colour's road networks (with its buildings), as catanatron keeps them: no other player's building."""
    nodes = {n for n, (c, _) in b.buildings.items() if c == color}
    nodes.update(x for (x, _), c in b.roads.items() if c == color)
    networks: list[set[int]] = []
    seen: set[int] = set()
    for n in sorted(nodes):
        if n in seen or b.is_enemy_node(n, color):
            continue
        network = {v for v in b.bfs_walk(n, color) if not b.is_enemy_node(v, color)}
        seen |= network
        networks.append(network)
    return networks


def to_ours(action: Any, board: Board2, legal: list[dict[str, Any]]) -> dict[str, Any] | None:
    """catanatron's action as ours, when it is legal here."""
    kind, value = action.action_type, action.value
    found: dict[str, Any] | None = None
    if kind == ActionType.ROLL:
        found = {"type": "roll"}
    elif kind == ActionType.END_TURN:
        found = {"type": "end_turn"}
    elif kind == ActionType.BUILD_SETTLEMENT:
        found = {"type": "build_settlement", "vertex": board.vertex[value]}
    elif kind == ActionType.BUILD_CITY:
        found = {"type": "build_city", "vertex": board.vertex[value]}
    elif kind == ActionType.BUILD_ROAD:
        found = {"type": "build_road", "edge": board.edge_of[tuple(value)]}
    elif kind == ActionType.BUY_DEVELOPMENT_CARD:
        found = {"type": "buy_development"}
    elif kind == ActionType.PLAY_KNIGHT_CARD:
        found = {"type": "play_knight"}
    elif kind == ActionType.PLAY_ROAD_BUILDING:
        found = {"type": "play_road_building"}
    elif kind == ActionType.PLAY_MONOPOLY:
        found = {"type": "play_monopoly", "resource": OUR_RES[RES.index(value)]}
    elif kind == ActionType.PLAY_YEAR_OF_PLENTY:
        found = {"type": "play_year_of_plenty", "resources": [OUR_RES[RES.index(x)] for x in value]}
    elif kind == ActionType.MARITIME_TRADE:
        found = {"type": "trade_bank", "give": OUR_RES[RES.index(value[0])], "get": OUR_RES[RES.index(value[-1])]}
    elif kind == ActionType.MOVE_ROBBER:
        coordinate, victim, _ = value
        h = board.hex_of[coordinate]
        found = {"type": "move_robber", "hex": h}
        if victim is not None:
            found["victim"] = COLORS.index(victim)
        if found not in legal:  # the same hex with whatever steal our rules ask for
            same = [a for a in legal if a["type"] == "move_robber" and a["hex"] == h]
            found = same[0] if same else None
    if found is not None and found in legal:
        return found
    return None


class CatanatronSeat:
    """One catanatron bot in a seat of ours; `fallbacks` counts decisions the medium policy made for it."""

    def __init__(self, kind: str, seat: int, seed: int) -> None:
        self.kind = kind
        self.seat = seat
        self.name = kind
        self.player = player_kinds()[kind](COLORS[seat])
        self.medium = BOTS["medium"](seed=seed)
        self.rng = random.Random(seed)
        self.board: Board2 | None = None
        self.decisions = 0
        self.fallbacks = 0
        self.errors = 0  # decisions where catanatron raised (counted among the fallbacks too)

    def act(self, state: rules.State, players: list[Any]) -> dict[str, Any]:
        seat = self.seat
        legal = rules.legal_actions(state, seat)
        if state.trade is not None and seat != state.current:
            return {"type": "reject_trade"} if {"type": "reject_trade"} in legal else legal[0]
        if state.trade is not None:  # never happens (it never offers), but close it
            return {"type": "cancel_trade"} if {"type": "cancel_trade"} in legal else legal[0]
        if state.phase in ("discard",) or len(legal) == 1:
            return legal[0] if len(legal) == 1 else choose_for(state, seat, self.medium)
        if self.board is None:
            self.board = Board2(state)
        self.decisions += 1
        game = to_game(state, seat, self.board, players)
        playable = game.state.playable_actions
        action = None
        if playable:
            try:
                chosen = self.player.decide(game, playable)
            except (ValueError, TypeError, KeyError, IndexError):  # catanatron's own board bookkeeping failed
                self.errors += 1
                chosen = None
            if chosen is not None:
                action = to_ours(chosen, self.board, legal)
        if action is None:
            self.fallbacks += 1
            action = choose_for(state, seat, self.medium)
        return action


def seats_for(kind: str, players: int, seed: int) -> tuple[dict[int, CatanatronSeat], list[Any]]:
    """A catanatron bot of `kind` in every seat (the benchmark uses those the hero does not sit in), and the
    player list catanatron's state keeps."""
    seats = {s: CatanatronSeat(kind, s, seed * 10 + s) for s in range(players)}
    return seats, [seats[s].player for s in range(players)]
