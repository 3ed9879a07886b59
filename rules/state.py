"""The full game state, its board-derived tables, and its JSON snapshot (`dump` / `load`).

Everything in `State.FIELDS` is serialised; everything else is a cache rebuilt from those fields. The state
never leaves the server as is: `view()` is the only way out.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from .constants import DESERT, GENERIC_HARBOUR, LAND, PRODUCING, SEA
from .geometry import Topology, topology_for
from .scenarios import load_map, map_keys

SCHEMA_VERSION = 1

# Phases.
SETUP_SETTLEMENT = "setup_settlement"
SETUP_ROAD = "setup_road"
ROLL = "roll"
MAIN = "main"
DISCARD = "discard"
ROBBER = "robber"
ROAD_BUILDING = "road_building"
GOLD = "gold"  # Seafarers: players owed gold-field cards choose them
PLACE_TOKEN = "place_token"  # Greater Catan: the token bag is empty, a main-island token must move
GAME_OVER = "game_over"


class Derived:
    """Tables that follow from the board's terrain and harbours; rebuilt when a fog hex is revealed."""

    __slots__ = (
        "topo",
        "land_vertex",
        "road_edge",
        "ship_edge",
        "land_hex",
        "robber_hexes",
        "sea_hexes",
        "vertex_harbour",
        "hexes_by_number",
        "island_of_hex",
        "vertex_islands",
        "setup_hexes",
        "rules",
    )

    def __init__(self, state: BoardKey) -> None:
        topo = topology_for(state.hexes)
        self.topo: Topology = topo
        terrain = state.terrain
        spec = map_spec(state.scenario)
        frame = tuple(bool(h.get("frame")) for h in spec["hexes"]) if spec else (False,) * len(terrain)
        land_hex = self.land_hex = tuple(t in LAND for t in terrain)
        sea_hex = tuple(t == SEA for t in terrain)
        # Every base board (and a map's boards) has the same land, sea and frame: those tables are shared.
        self.land_vertex, self.road_edge, self.ship_edge = _shape_tables(state.hexes, land_hex, sea_hex, frame)
        self.robber_hexes = tuple(h for h, land in enumerate(land_hex) if land)
        self.sea_hexes = tuple(h for h, sea in enumerate(sea_hex) if sea)
        vertex_harbour = [-1] * topo.vertex_count
        for edge, kind in state.harbours:
            for v in topo.edge_vertices[edge]:
                vertex_harbour[v] = kind
        self.vertex_harbour = tuple(vertex_harbour)
        by_number: dict[int, list[int]] = {n: [] for n in range(2, 13)}
        for h, token in enumerate(state.tokens):
            if token and terrain[h] in PRODUCING:
                by_number[token].append(h)
        self.hexes_by_number = {n: tuple(hs) for n, hs in by_number.items()}
        island = self.island_of_hex = _islands(topo, terrain)
        self.vertex_islands = _vertex_islands(state.hexes, island, land_hex)
        self.rules: dict[str, Any] = spec.get("rules", {}) if spec else {}
        setup = (spec or {}).get("setup", {}).get("hexes")
        self.setup_hexes = frozenset(topo.hex_index[tuple(h)] for h in setup) if setup else None


@lru_cache(maxsize=256)
def _shape_tables(
    hexes: tuple, land_hex: tuple[bool, ...], sea_hex: tuple[bool, ...], frame: tuple[bool, ...]
) -> tuple[tuple[bool, ...], tuple[bool, ...], tuple[bool, ...]]:
    """Land vertices, road edges and ship edges, which follow from where land, sea and frame lie."""
    topo = topology_for(hexes)
    land = land_hex.__getitem__
    land_vertex = tuple(any(map(land, hs)) for hs in topo.vertex_hexes)
    # A road needs land on at least one side. A ship needs sea on one side and never land on both, a hex
    # on each side (never the outer rim), and one of them inside the frame (RULES.md §9).
    road_edge = tuple(any(map(land, hs)) for hs in topo.edge_hexes)
    ship_edge = []
    for hs in topo.edge_hexes:
        if len(hs) != 2:
            ship_edge.append(False)
            continue
        a, b = hs
        ship_edge.append(
            (sea_hex[a] or sea_hex[b]) and not (land_hex[a] and land_hex[b]) and not (frame[a] and frame[b])
        )
    return land_vertex, road_edge, tuple(ship_edge)


@lru_cache(maxsize=1024)
def _vertex_islands(hexes: tuple, island: tuple[int, ...], land_hex: tuple[bool, ...]) -> tuple[frozenset[int], ...]:
    """Per vertex, the islands of the land hexes around it (empty where no land touches it)."""
    topo = topology_for(hexes)
    no_island = frozenset()
    return tuple(
        frozenset(island[h] for h in hs if island[h] >= 0) if any(land_hex[h] for h in hs) else no_island
        for hs in topo.vertex_hexes
    )


class BoardKey:
    """The board facts the derived tables depend on (hashable, for sharing them between states)."""

    __slots__ = ("scenario", "hexes", "terrain", "tokens", "harbours")

    def __init__(self, scenario: str, hexes: tuple, terrain: tuple, tokens: tuple, harbours: tuple) -> None:
        self.scenario, self.hexes, self.terrain, self.tokens, self.harbours = scenario, hexes, terrain, tokens, harbours


@lru_cache(maxsize=4096)
def derived_for(scenario: str, hexes: tuple, terrain: tuple, tokens: tuple, harbours: tuple) -> Derived:
    """Derived tables are immutable, so states on the same board share one copy."""
    return Derived(BoardKey(scenario, hexes, terrain, tokens, harbours))


def _islands(topo: Topology, terrain: list[int]) -> tuple[int, ...]:
    """Island id per hex: connected areas of land, where deserts do not connect (-1 for sea, desert, fog)."""
    island = [-1] * len(terrain)
    joins = [t in LAND and t != DESERT for t in terrain]
    count = 0
    for start in range(len(terrain)):
        if not joins[start] or island[start] >= 0:
            continue
        island[start] = count
        stack = [start]
        while stack:
            h = stack.pop()
            for n in topo.hex_neighbors[h]:
                if joins[n] and island[n] < 0:
                    island[n] = count
                    stack.append(n)
        count += 1
    return tuple(island)


def map_spec(scenario: str) -> dict[str, Any] | None:
    """The static map data of a Seafarers scenario (None for the base game)."""
    return load_map(scenario) if scenario in map_keys() else None


class State:
    """One game. Mutated in place by `apply`; copy it with `load(dump(state))`."""

    FIELDS = (
        "schema",
        "scenario",
        "options",
        "players",
        "vp_target",
        "seed",
        "stream",
        "hexes",
        "terrain",
        "tokens",
        "harbours",
        "robber",
        "pirate",
        "phase",
        "current",
        "first",
        "setup_order",
        "setup_index",
        "setup_vertex",
        "turn",
        "dice",
        "dice_history",
        "vertex_owner",
        "vertex_city",
        "edge_owner",
        "edge_ship",
        "hands",
        "development",
        "development_new",
        "development_played",
        "development_used",
        "bank",
        "deck",
        "supply",
        "road_length",
        "longest_road",
        "largest_army",
        "discards_owed",
        "free_roads",
        "return_phase",
        "trade",
        "offers_this_turn",
        "winner",
        "version",
        # Seafarers
        "seafarers",
        "frame",
        "hidden_terrain",
        "hidden_tokens",
        "token_bag",
        "pending_tokens",
        "vp_tokens",
        "token_sites",
        "home_islands",
        "islands_settled",
        "ships_new",
        "ship_moved",
        "gold_owed",
        "resume_phase",
        "trade_lines",
        "edge_serial",
        "placements",
    )
    # forced_dice: the testing hook's next roll (rules.testing.fix_dice); never serialised, None in play.
    # spots: legal.py's per-seat building spots and its buildings by hex, valid until a piece or the pirate
    # moves (placement.forget_spots).
    __slots__ = (*FIELDS, "derived", "seat_edges", "seat_buildings", "_legal_cache", "forced_dice", "spots")

    # Filled in by new_game / load; declared for readers and type checkers.
    schema: int
    scenario: str
    options: dict[str, Any]
    players: int
    vp_target: int
    seed: int
    stream: int
    hexes: tuple[tuple[int, int], ...]
    terrain: list[int]
    tokens: list[int]
    harbours: list[tuple[int, int]]
    robber: int
    pirate: int
    phase: str
    current: int
    first: int
    setup_order: list[int]
    setup_index: int
    setup_vertex: int
    turn: int
    dice: list[int] | None
    dice_history: list[int]
    vertex_owner: list[int]
    vertex_city: list[bool]
    edge_owner: list[int]
    edge_ship: list[bool]
    hands: list[list[int]]
    development: list[list[int]]
    development_new: list[list[int]]
    development_played: bool
    development_used: list[list[int]]  # played cards, face up: knights count toward Largest Army
    bank: list[int]
    deck: list[int]
    supply: list[dict[str, int]]
    road_length: list[int]
    longest_road: int
    largest_army: int
    discards_owed: list[int]
    free_roads: int
    return_phase: str
    trade: dict[str, Any] | None
    offers_this_turn: list[list[list[int]]]  # [give, get] of each offer the current player made this turn
    winner: int | None
    version: int
    seafarers: bool
    frame: list[bool]
    hidden_terrain: list[int]  # Oceania's face-down hex stack, top last
    hidden_tokens: list[int]
    token_bag: list[int]  # Greater Catan
    pending_tokens: list[int]  # hexes reached that wait for a token moved from the main island
    vp_tokens: list[int]  # special victory-point tokens per seat
    token_sites: list[list[int]]  # [vertex, seat, points, kind]: where each island token lies (kind 0)
    home_islands: list[list[int]]  # islands of the seat's set-up settlements
    islands_settled: list[list[int]]  # islands where the seat has built, home ones included
    ships_new: list[int]  # edges of ships built this turn, which may not move
    ship_moved: bool
    gold_owed: list[int]
    resume_phase: str  # the phase to go back to after a gold choice or a token move
    trade_lines: list[list[int]]  # Great Crossing: [vertex, vertex, owner]
    edge_serial: list[int]  # order in which edge pieces were placed (Great Crossing's joining piece)
    placements: int

    def __init__(self) -> None:
        self.forced_dice: tuple[int, int] | None = None
        self.spots: dict[int, Any] | None = None

    def refresh_derived(self) -> None:
        self.derived = derived_for(
            self.scenario, self.hexes, tuple(self.terrain), tuple(self.tokens), tuple(map(tuple, self.harbours))
        )
        # Each seat's pieces, kept in step by the placing functions so hot paths never scan the board.
        self.seat_edges = [[e for e, o in enumerate(self.edge_owner) if o == s] for s in range(self.players)]
        self.seat_buildings = [[v for v, o in enumerate(self.vertex_owner) if o == s] for s in range(self.players)]
        self.forget_worked_out()

    def forget_worked_out(self) -> None:
        """Forget what was worked out from the fields (the legal actions, the lit spots): for a caller that changed
        fields outside `apply`, such as a bot's sampled hands."""
        self._legal_cache = None
        self.spots = None

    def harbour_rates(self, seat: int) -> list[int]:
        """The best maritime rate this seat has for each resource, from its buildings on harbours."""
        rates = [4, 4, 4, 4, 4]
        vertex_harbour = self.derived.vertex_harbour
        for v in self.seat_buildings[seat]:
            kind = vertex_harbour[v]
            if kind < 0:
                continue
            if kind == GENERIC_HARBOUR:
                rates = [min(r, 3) for r in rates]
            else:
                rates[kind] = 2
        return rates


def _copy(value: Any) -> Any:
    """A copy of JSON-like data (lists, dicts, scalars); much faster than copy.deepcopy."""
    kind = type(value)
    if kind is list or kind is tuple:
        return [_copy(x) if type(x) in (list, dict, tuple) else x for x in value]
    if kind is dict:
        return {k: _copy(x) if type(x) in (list, dict, tuple) else x for k, x in value.items()}
    return value


# Fields that are flat lists of numbers or booleans: a shallow copy is a full copy.
FLAT_FIELDS = frozenset(
    {
        "terrain",
        "tokens",
        "vertex_owner",
        "vertex_city",
        "edge_owner",
        "edge_ship",
        "edge_serial",
        "frame",
        "dice_history",
        "bank",
        "deck",
        "road_length",
        "discards_owed",
        "setup_order",
        "hidden_terrain",
        "hidden_tokens",
        "token_bag",
        "pending_tokens",
        "vp_tokens",
        "ships_new",
        "gold_owed",
    }
)


def dump(state: State, copy: bool = True) -> dict[str, Any]:
    """The complete server-side state as JSON-able data, with its schema version. Without `copy`, the data shares
    the state's lists, dicts and tuples (JSON encoders write tuples as arrays): for encoding at once, before the
    state changes again (a move encodes the snapshot it stores)."""
    if not copy:
        data = {name: getattr(state, name) for name in State.FIELDS}
        data["hexes"] = state.hexes
        data["harbours"] = state.harbours
        return data
    data = {
        name: list(getattr(state, name)) if name in FLAT_FIELDS else _copy(getattr(state, name))
        for name in State.FIELDS
    }
    data["hexes"] = [list(h) for h in state.hexes]
    data["harbours"] = [list(h) for h in state.harbours]
    return data


def build(fields: dict[str, Any]) -> State:
    """The one place a State is put together from its fields (a new game, a bot's sample of the hidden cards):
    every field of `State.FIELDS`, no other, then the derived tables. `restore` is the same from stored data."""
    missing = [name for name in State.FIELDS if name not in fields]
    unknown = [name for name in fields if name not in State.FIELDS]
    if missing or unknown:
        raise ValueError(f"a State needs exactly its fields: missing {missing}, unknown {unknown}")
    state = State()
    for name in State.FIELDS:
        setattr(state, name, fields[name])
    state.refresh_derived()
    return state


def restore(data: dict[str, Any], owned: bool = False) -> State:
    """Rebuild a state from `dump` output, trusting every stored field (`rules.load` checks the derived ones).
    With `owned`, the state takes `data`'s lists and dicts as they are instead of copying them: for data nobody
    else holds, such as what was just decoded from JSON."""
    if data.get("schema") != SCHEMA_VERSION:
        raise ValueError(f"unsupported state schema {data.get('schema')!r}")
    state = State()
    if "offers_this_turn" not in data:  # stored before the field existed: no offer made this turn yet
        data = {**data, "offers_this_turn": []}
    for name in State.FIELDS:
        value = data[name]
        if owned:
            setattr(state, name, value)
        else:
            setattr(state, name, list(value) if name in FLAT_FIELDS else _copy(value))
    state.hexes = tuple(tuple(h) for h in data["hexes"])
    state.harbours = [tuple(h) for h in data["harbours"]]
    if state.trade is not None:
        # JSON turns integer keys into strings.
        state.trade["replies"] = {int(k): v for k, v in state.trade["replies"].items()}
    state.refresh_derived()
    return state


NESTED_LISTS = frozenset({"hands", "development", "development_new", "development_used", "token_sites", "trade_lines"})
NESTED_LISTS |= {"home_islands", "islands_settled", "offers_this_turn"}


def clone(state: State) -> State:
    """A full copy of a state, much cheaper than `load(dump(state))` (the derived tables are shared)."""
    new = State.__new__(State)
    for name in State.FIELDS:
        value = getattr(state, name)
        if name in FLAT_FIELDS:
            value = value[:]
        elif name in NESTED_LISTS:
            value = [x[:] for x in value]
        elif name == "supply":
            value = [dict(x) for x in value]
        elif name == "trade" and value is not None:
            value = _copy(value)
            value["replies"] = {int(k): v for k, v in value["replies"].items()}
        setattr(new, name, value)
    new.derived = state.derived
    new.seat_edges = [x[:] for x in state.seat_edges]
    new.seat_buildings = [x[:] for x in state.seat_buildings]
    new._legal_cache = None
    new.forced_dice = None
    new.spots = None
    return new
