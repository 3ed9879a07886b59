"""Who must act, and every legal action of a seat, as JSON-able dicts (cached per state version)."""

from __future__ import annotations

from typing import Any

from . import placement, seafarers
from .constants import (
    CITY_COST,
    DESERT,
    DEVELOPMENT_COST,
    KNIGHT,
    LAND,
    MONOPOLY,
    RESOURCES,
    ROAD_BUILDING,
    ROAD_COST,
    SETTLEMENT_COST,
    SHIP_COST,
    YEAR_OF_PLENTY,
)
from .scoring import public_victory_points
from .state import (
    DISCARD,
    GAME_OVER,
    GOLD,
    MAIN,
    PLACE_TOKEN,
    ROBBER,
    ROLL,
    SETUP_ROAD,
    SETUP_SETTLEMENT,
    State,
)
from .state import ROAD_BUILDING as ROAD_BUILDING_PHASE

Action = dict[str, Any]

# Listed actions are shared, read-only dicts, built once: generating the legal list only picks them out, and
# `apply` finds the one it is handed by identity. Callers must never modify an action they were given.
MAX_IDS = 1024  # above any map's vertex or edge count
ROLL_ACTION: Action = {"type": "roll"}
END_TURN: Action = {"type": "end_turn"}
BUY_DEVELOPMENT: Action = {"type": "buy_development"}
PLAY_KNIGHT: Action = {"type": "play_knight"}
PLAY_ROAD_BUILDING: Action = {"type": "play_road_building"}
CANCEL_TRADE: Action = {"type": "cancel_trade"}
ACCEPT_TRADE: Action = {"type": "accept_trade"}
REJECT_TRADE: Action = {"type": "reject_trade"}
BUILD_ROAD = tuple({"type": "build_road", "edge": e} for e in range(MAX_IDS))
BUILD_SHIP = tuple({"type": "build_ship", "edge": e} for e in range(MAX_IDS))
BUILD_SETTLEMENT = tuple({"type": "build_settlement", "vertex": v} for v in range(MAX_IDS))
BUILD_CITY = tuple({"type": "build_city", "vertex": v} for v in range(MAX_IDS))
DISCARD_ONE = tuple({"type": "discard", "cards": {name: 1}} for name in RESOURCES)
CHOOSE_GOLD_ONE = tuple({"type": "choose_gold", "cards": {name: 1}} for name in RESOURCES)
MONOPOLIES = tuple({"type": "play_monopoly", "resource": name} for name in RESOURCES)
TRADE_BANK = tuple(
    tuple({"type": "trade_bank", "give": RESOURCES[give], "get": RESOURCES[get]} for get in range(5))
    for give in range(5)
)
TRADE_BANK_ALL = tuple(tuple(row[get] for get in range(5) if get != give) for give, row in enumerate(TRADE_BANK))
YEAR_OF_PLENTY_PAIRS = {
    (a, b): {"type": "play_year_of_plenty", "resources": [RESOURCES[a], RESOURCES[b]]}
    for a in range(5)
    for b in range(a, 5)
}
YEAR_OF_PLENTY_ONE = tuple({"type": "play_year_of_plenty", "resources": [name]} for name in RESOURCES)
MAX_HEXES = 256  # above any map's hex count
MAX_SEATS = 6
MOVE_ROBBER = tuple({"type": "move_robber", "hex": h} for h in range(MAX_HEXES))
MOVE_PIRATE = tuple({"type": "move_pirate", "hex": h} for h in range(MAX_HEXES))
ROB = tuple(tuple({"type": "move_robber", "hex": h, "victim": s} for s in range(MAX_SEATS)) for h in range(MAX_HEXES))
PLUNDER = tuple(
    tuple({"type": "move_pirate", "hex": h, "victim": s} for s in range(MAX_SEATS)) for h in range(MAX_HEXES)
)


# Per-seat entries of `state.spots` (see State and placement): lists of listed actions.
ROADS, SHIPS, SETTLEMENTS, CITIES, SHIP_MOVES = (
    placement.ROADS,
    placement.SHIPS,
    placement.SETTLEMENTS,
    placement.CITIES,
    placement.SHIP_MOVES,
)
HARBOUR_RATES = placement.HARBOUR_RATES
# state.spots[BUILDINGS_BY_HEX]: hex -> seats with a building on it, in seat order (kept while only roads,
# ships or the pirate move)
BUILDINGS_BY_HEX = placement.BUILDINGS_BY_HEX
# state.spots[ROBBER_MOVES]: per seat whether it may be robbed -> the robber's moves to every land hex
ROBBER_MOVES = placement.ROBBER_MOVES


def seat_spots(state: State, seat: int) -> list[Any]:
    """This seat's cached spots, filled as they are asked for; dropped whenever a piece, robber or pirate moves."""
    spots = state.spots
    if spots is None:
        spots = state.spots = {}
    mine = spots.get(seat)
    if mine is None:
        mine = spots[seat] = [None, None, None, None, None]
    return mine


def road_actions(state: State, seat: int) -> list[Action]:
    mine = seat_spots(state, seat)
    if mine[ROADS] is None:
        mine[ROADS] = [BUILD_ROAD[e] for e in placement.road_edges(state, seat)]
    return mine[ROADS]


def ship_actions(state: State, seat: int) -> list[Action]:
    mine = seat_spots(state, seat)
    if mine[SHIPS] is None:
        mine[SHIPS] = [BUILD_SHIP[e] for e in placement.ship_edges(state, seat)]
    return mine[SHIPS]


def harbour_rates(state: State, seat: int) -> list[int]:
    """The seat's best maritime rates (cached until a settlement is built; callers must not modify the list)."""
    spots = state.spots
    if spots is None:
        spots = state.spots = {}
    every = spots.get(HARBOUR_RATES)
    if every is None:
        every = spots[HARBOUR_RATES] = [None] * state.players
    rates = every[seat]
    if rates is None:
        rates = every[seat] = state.harbour_rates(seat)
    return rates


def _buildings_by_hex(state: State) -> dict[int, list[int]]:
    spots = state.spots
    if spots is None:
        spots = state.spots = {}
    by_hex = spots.get(BUILDINGS_BY_HEX)
    if by_hex is None:
        vertex_hexes = state.derived.topo.vertex_hexes
        by_hex = {}
        for seat in range(state.players):
            for v in state.seat_buildings[seat]:
                for h in vertex_hexes[v]:
                    seats = by_hex.setdefault(h, [])
                    if not seats or seats[-1] != seat:
                        seats.append(seat)
        spots[BUILDINGS_BY_HEX] = by_hex
    return by_hex


def to_move(state: State) -> list[int]:
    """The seats that must act now: several while discarding, choosing gold or answering a trade; none once
    the game is over."""
    phase = state.phase
    if state.trade is None and (phase == ROLL or phase == MAIN):  # nearly every call
        return [state.current]
    if phase == GAME_OVER:
        return []
    if phase == DISCARD:
        return [s for s, owed in enumerate(state.discards_owed) if owed]
    if phase == GOLD:
        return [s for s, owed in enumerate(state.gold_owed) if owed]
    if phase in (SETUP_SETTLEMENT, SETUP_ROAD):
        return [state.setup_order[state.setup_index]]
    trade = state.trade
    if trade is not None:
        pending = [s for s in trade["to"] if s not in trade["replies"]]
        if pending:
            return pending
    return [state.current]


def can_afford(hand: list[int], cost: tuple[int, ...] | list[int]) -> bool:
    return (
        hand[0] >= cost[0] and hand[1] >= cost[1] and hand[2] >= cost[2] and hand[3] >= cost[3] and hand[4] >= cost[4]
    )


def legal_actions(state: State, seat: int) -> list[Action]:
    """Every legal action for `seat` now. Free-form trade offers and counters are checked by `apply` instead.
    The list is the caller's; the action dicts in it are shared and must not be modified."""
    cache = state._legal_cache
    if cache is not None and cache[0] == state.version and cache[1] == seat:
        return list(cache[2])
    actions = _generate(state, seat)
    state._legal_cache = (state.version, seat, actions)
    return list(actions)


def cached_legal_actions(state: State, seat: int) -> list[Action]:
    """The cached list itself (callers must not modify it)."""
    cache = state._legal_cache
    if cache is not None and cache[0] == state.version and cache[1] == seat:
        return cache[2]
    actions = _generate(state, seat)
    state._legal_cache = (state.version, seat, actions)
    return actions


def _generate(state: State, seat: int) -> list[Action]:
    phase = state.phase
    # The two phases of nearly every call first (no offer is ever open before the roll).
    if phase == MAIN and state.trade is None:
        return _main_actions(state, seat) if seat == state.current else []
    if phase == ROLL:
        if seat != state.current:
            return []
        cards = state.development[seat]
        if state.development_played or not (cards[0] or cards[1] or cards[2] or cards[3]):
            return [ROLL_ACTION]  # no card to play (a victory point card is never played)
        return [ROLL_ACTION, *_development_plays(state, seat)]
    if phase == GAME_OVER:
        return []
    if phase == DISCARD:
        if not state.discards_owed[seat]:
            return []
        hand = state.hands[seat]
        return [DISCARD_ONE[r] for r in range(5) if hand[r]]
    if phase == GOLD:
        if not state.gold_owed[seat]:
            return []
        return [CHOOSE_GOLD_ONE[r] for r in range(5) if state.bank[r]]
    if phase in (SETUP_SETTLEMENT, SETUP_ROAD):
        if seat != state.setup_order[state.setup_index]:
            return []
        if phase == SETUP_SETTLEMENT:
            return [BUILD_SETTLEMENT[v] for v in setup_settlement_vertices(state, seat)]
        return _setup_edge_actions(state)
    trade = state.trade
    if trade is not None:
        return _trade_answers(state, seat, trade)
    if seat != state.current:
        return []
    if phase == ROBBER:
        return _robber_moves(state, seat)
    if phase == ROAD_BUILDING_PHASE:
        return free_edge_actions(state, seat)
    if phase == PLACE_TOKEN:
        return [{"type": "move_token", "hex": h} for h in seafarers.token_sources(state, seat)]
    if phase == MAIN:
        return _main_actions(state, seat)
    return []


def setup_settlement_vertices(state: State, seat: int) -> list[int]:
    """Set-up spots: the distance rule, plus the scenario's set-up area and same-island rule."""
    vertices = placement.setup_settlement_vertices(state)
    derived = state.derived
    allowed = derived.setup_hexes
    if allowed is not None:
        terrain, vertex_hexes = state.terrain, derived.topo.vertex_hexes

        def inside(v: int) -> bool:
            land = [h for h in vertex_hexes[v] if terrain[h] in LAND and terrain[h] != DESERT]
            return bool(land) and all(h in allowed for h in land)

        vertices = [v for v in vertices if inside(v)]
    homes = state.home_islands[seat]
    if derived.rules.get("same_island_setup") and homes:
        vertices = [v for v in vertices if derived.vertex_islands[v] & set(homes)]
    return vertices


def _setup_edge_actions(state: State) -> list[Action]:
    vertex = state.setup_vertex
    roads = [BUILD_ROAD[e] for e in placement.setup_road_edges(state, vertex)]
    if not state.seafarers:
        return roads
    ships = [BUILD_SHIP[e] for e in seafarers.setup_ship_edges(state, vertex)]
    if ships and seafarers.ship_required_at_setup(state, vertex):
        return ships
    return roads + ships


def free_edge_actions(state: State, seat: int) -> list[Action]:
    actions: list[Action] = []
    if state.supply[seat]["roads"]:
        actions.extend(road_actions(state, seat))
    if state.seafarers and state.supply[seat]["ships"]:
        actions.extend(ship_actions(state, seat))
    return actions


def _trade_answers(state: State, seat: int, trade: dict[str, Any]) -> list[Action]:
    if seat == state.current:
        # Ending the turn lets an open offer lapse (RULES.md §5).
        actions: list[Action] = [CANCEL_TRADE, END_TURN]
        for other, reply in sorted(trade["replies"].items()):
            if reply == "accept" or (isinstance(reply, dict) and trade_terms_feasible(state, other, reply)):
                actions.append({"type": "confirm_trade", "seat": other})
            if isinstance(reply, dict):
                # A counter-offer gets an answer: confirmed above, or turned down here (RULES.md §5).
                actions.append({"type": "reject_counter", "seat": other})
        return actions
    if seat in trade["to"] and seat not in trade["replies"]:
        actions = [REJECT_TRADE]
        if trade_terms_feasible(state, seat, trade):
            actions.insert(0, ACCEPT_TRADE)
        return actions
    return []


def trade_terms_feasible(state: State, partner: int, terms: dict[str, Any]) -> bool:
    """The active player holds what they give, and the partner holds what they give back."""
    return can_afford(state.hands[state.current], terms["give"]) and can_afford(state.hands[partner], terms["get"])


def _development_plays(state: State, seat: int) -> list[Action]:
    if state.development_played:
        return []
    cards = state.development[seat]
    actions: list[Action] = []
    if cards[KNIGHT]:
        actions.append(PLAY_KNIGHT)
    if cards[ROAD_BUILDING] and free_edge_actions(state, seat):
        actions.append(PLAY_ROAD_BUILDING)
    if cards[YEAR_OF_PLENTY]:
        actions.extend(_year_of_plenty_choices(state))
    if cards[MONOPOLY]:
        actions.extend(MONOPOLIES)
    return actions


def _year_of_plenty_choices(state: State) -> list[Action]:
    bank = state.bank
    pairs = [
        action for (a, b), action in YEAR_OF_PLENTY_PAIRS.items() if (bank[a] >= 2 if a == b else bank[a] and bank[b])
    ]
    if pairs:
        return pairs
    # With a single card left in the bank, the card takes what there is.
    return [YEAR_OF_PLENTY_ONE[r] for r in range(5) if bank[r]]


def _victims_by_hex(state: State, seat: int) -> dict[int, list[int]]:
    """Hex -> the opponents the robber may rob there, in seat order (hexes without any left out)."""
    eligible = _steal_eligible(state, seat)
    victims: dict[int, list[int]] = {}
    for h, seats in _buildings_by_hex(state).items():
        robbable = [s for s in seats if eligible[s]]
        if robbable:
            victims[h] = robbable
    return victims


def _steal_eligible(state: State, seat: int) -> list[bool]:
    friendly = state.options.get("friendly_robber")
    return [
        s != seat and any(state.hands[s]) and (not friendly or public_victory_points(state, s) > 2)
        for s in range(state.players)
    ]


def _robber_moves(state: State, seat: int) -> list[Action]:
    eligible = _steal_eligible(state, seat)
    if state.options.get("friendly_robber"):
        every, where = _land_robber_moves(state, eligible)  # points change with any piece: not cached
    else:
        spots = state.spots
        if spots is None:
            spots = state.spots = {}
        cache = spots.get(ROBBER_MOVES)
        if cache is None:
            cache = spots[ROBBER_MOVES] = {}
        key = tuple(eligible)
        found = cache.get(key)
        if found is None:
            found = cache[key] = _land_robber_moves(state, eligible)
        every, where = found
    # Every land hex but the robber's own.
    span = where.get(state.robber)
    actions = every[: span[0]] + every[span[1] :] if span else list(every)
    if state.pirate >= 0:
        steal_one = state.options.get("pirate_steal") == "one"
        for h in seafarers.pirate_hexes(state):
            victims = seafarers.pirate_victims(state, seat, h)
            if steal_one and victims:
                actions.extend([PLUNDER[h][s] for s in victims])
            else:
                actions.append(MOVE_PIRATE[h])
    return actions


def _land_robber_moves(state: State, eligible: list[bool]) -> tuple[list[Action], dict[int, tuple[int, int]]]:
    """The robber's moves to every land hex, and where each hex's moves lie in that list."""
    actions: list[Action] = []
    where: dict[int, tuple[int, int]] = {}
    by_hex = _buildings_by_hex(state)
    for h in state.derived.robber_hexes:
        start = len(actions)
        seats = by_hex.get(h)
        if seats:
            rob = ROB[h]
            actions.extend([rob[s] for s in seats if eligible[s]])
        if len(actions) == start:
            actions.append(MOVE_ROBBER[h])
        where[h] = (start, len(actions))
    return actions, where


assert (ROAD_COST, SHIP_COST, SETTLEMENT_COST, CITY_COST, DEVELOPMENT_COST) == (
    (1, 1, 0, 0, 0),
    (1, 0, 1, 0, 0),
    (1, 1, 1, 1, 0),
    (0, 0, 0, 2, 3),
    (0, 0, 1, 1, 1),
), "_main_actions spells these costs out"
assert (KNIGHT, ROAD_BUILDING, YEAR_OF_PLENTY, MONOPOLY) == (0, 1, 2, 3), "the playable cards come first"


def _main_actions(state: State, seat: int) -> list[Action]:
    hand = state.hands[seat]
    supply = state.supply[seat]
    spots = state.spots
    mine = spots.get(seat) if spots is not None else None
    if mine is None:
        mine = seat_spots(state, seat)
    actions: list[Action] = [END_TURN]
    lumber, brick, wool, grain, ore = hand
    # The costs as literals (checked against constants.py at import): this runs on most calls.
    if lumber and brick and supply["roads"]:
        actions.extend(mine[ROADS] if mine[ROADS] is not None else road_actions(state, seat))
    if state.seafarers:
        if lumber and wool and supply["ships"]:
            actions.extend(mine[SHIPS] if mine[SHIPS] is not None else ship_actions(state, seat))
        if not state.ship_moved:
            actions.extend(_ship_moves(state, seat, mine))
    if lumber and brick and wool and grain and supply["settlements"]:
        if mine[SETTLEMENTS] is None:
            mine[SETTLEMENTS] = [BUILD_SETTLEMENT[v] for v in placement.settlement_vertices(state, seat)]
        actions.extend(mine[SETTLEMENTS])
    if grain >= 2 and ore >= 3 and supply["cities"]:
        if mine[CITIES] is None:
            mine[CITIES] = [BUILD_CITY[v] for v in placement.city_vertices(state, seat)]
        actions.extend(mine[CITIES])
    if wool and grain and ore and state.deck:
        actions.append(BUY_DEVELOPMENT)
    if not state.development_played:
        cards = state.development[seat]
        if cards[0] or cards[1] or cards[2] or cards[3]:  # knight, road building, year of plenty, monopoly
            actions.extend(_development_plays(state, seat))
    if lumber < 2 and brick < 2 and wool < 2 and grain < 2 and ore < 2:
        return actions  # no maritime trade: the best rate is 2:1
    rates = harbour_rates(state, seat)
    bank = state.bank
    stocked = all(bank)
    for give, count in enumerate(hand):
        if count < rates[give]:
            continue
        if stocked:
            actions.extend(TRADE_BANK_ALL[give])
        else:
            row = TRADE_BANK[give]
            actions.extend([row[get] for get in range(5) if get != give and bank[get]])
    return actions


def _ship_moves(state: State, seat: int, mine: list[Any]) -> list[Action]:
    """move_ship actions, cached with the spots and the ships built this turn (which may not move)."""
    cached = mine[SHIP_MOVES]
    if cached is not None and cached[0] == state.ships_new:
        return cached[1]
    moves = [
        {"type": "move_ship", "from": ship, "to": e}
        for ship in seafarers.movable_ships(state, seat)
        for e in seafarers.ship_destinations(state, seat, ship)
    ]
    mine[SHIP_MOVES] = (list(state.ships_new), moves)
    return moves
