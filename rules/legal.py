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


def to_move(state: State) -> list[int]:
    """The seats that must act now: several while discarding, choosing gold or answering a trade; none once
    the game is over."""
    phase = state.phase
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
    """Every legal action for `seat` now. Free-form trade offers and counters are checked by `apply` instead."""
    return list(cached_legal_actions(state, seat))


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
    if phase == GAME_OVER:
        return []
    if phase == DISCARD:
        if not state.discards_owed[seat]:
            return []
        hand = state.hands[seat]
        return [{"type": "discard", "cards": {RESOURCES[r]: 1}} for r in range(5) if hand[r]]
    if phase == GOLD:
        if not state.gold_owed[seat]:
            return []
        return [{"type": "choose_gold", "cards": {RESOURCES[r]: 1}} for r in range(5) if state.bank[r]]
    if phase in (SETUP_SETTLEMENT, SETUP_ROAD):
        if seat != state.setup_order[state.setup_index]:
            return []
        if phase == SETUP_SETTLEMENT:
            return [{"type": "build_settlement", "vertex": v} for v in setup_settlement_vertices(state, seat)]
        return _setup_edge_actions(state)
    trade = state.trade
    if trade is not None:
        return _trade_answers(state, seat, trade)
    if seat != state.current:
        return []
    if phase == ROLL:
        return [{"type": "roll"}, *_development_plays(state, seat)]
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
    roads = [{"type": "build_road", "edge": e} for e in placement.setup_road_edges(state, vertex)]
    if not state.seafarers:
        return roads
    ships = [{"type": "build_ship", "edge": e} for e in seafarers.setup_ship_edges(state, vertex)]
    if ships and seafarers.ship_required_at_setup(state, vertex):
        return ships
    return roads + ships


def free_edge_actions(state: State, seat: int) -> list[Action]:
    actions: list[Action] = []
    if state.supply[seat]["roads"]:
        actions.extend({"type": "build_road", "edge": e} for e in placement.road_edges(state, seat))
    if state.seafarers and state.supply[seat]["ships"]:
        actions.extend({"type": "build_ship", "edge": e} for e in placement.ship_edges(state, seat))
    return actions


def _trade_answers(state: State, seat: int, trade: dict[str, Any]) -> list[Action]:
    if seat == state.current:
        # Ending the turn lets an open offer lapse (RULES.md §5).
        actions: list[Action] = [{"type": "cancel_trade"}, {"type": "end_turn"}]
        for other, reply in sorted(trade["replies"].items()):
            if reply == "accept" or (isinstance(reply, dict) and trade_terms_feasible(state, other, reply)):
                actions.append({"type": "confirm_trade", "seat": other})
        return actions
    if seat in trade["to"] and seat not in trade["replies"]:
        actions = [{"type": "reject_trade"}]
        if trade_terms_feasible(state, seat, trade):
            actions.insert(0, {"type": "accept_trade"})
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
        actions.append({"type": "play_knight"})
    if cards[ROAD_BUILDING] and free_edge_actions(state, seat):
        actions.append({"type": "play_road_building"})
    if cards[YEAR_OF_PLENTY]:
        actions.extend(_year_of_plenty_choices(state))
    if cards[MONOPOLY]:
        actions.extend({"type": "play_monopoly", "resource": name} for name in RESOURCES)
    return actions


def _year_of_plenty_choices(state: State) -> list[Action]:
    bank = state.bank
    pairs = [
        [RESOURCES[a], RESOURCES[b]]
        for a in range(5)
        for b in range(a, 5)
        if (bank[a] >= 2 if a == b else bank[a] and bank[b])
    ]
    if pairs:
        return [{"type": "play_year_of_plenty", "resources": pair} for pair in pairs]
    # With a single card left in the bank, the card takes what there is.
    return [{"type": "play_year_of_plenty", "resources": [RESOURCES[r]]} for r in range(5) if bank[r]]


def robber_targets(state: State, seat: int, hex_id: int) -> list[int]:
    """Opponents with a building on this hex and at least one card (and, with the friendly robber, > 2 VP)."""
    return sorted(_victims_by_hex(state, seat).get(hex_id, ()))


def _victims_by_hex(state: State, seat: int) -> dict[int, set[int]]:
    eligible = _steal_eligible(state, seat)
    vertex_hexes = state.derived.topo.vertex_hexes
    victims: dict[int, set[int]] = {}
    for other in range(state.players):
        if not eligible[other]:
            continue
        for v in state.seat_buildings[other]:
            for h in vertex_hexes[v]:
                victims.setdefault(h, set()).add(other)
    return victims


def _steal_eligible(state: State, seat: int) -> list[bool]:
    friendly = state.options.get("friendly_robber")
    return [
        s != seat and any(state.hands[s]) and (not friendly or public_victory_points(state, s) > 2)
        for s in range(state.players)
    ]


def _robber_moves(state: State, seat: int) -> list[Action]:
    actions: list[Action] = []
    victims_by_hex = _victims_by_hex(state, seat)
    for h in state.derived.robber_hexes:
        if h == state.robber:
            continue
        victims = victims_by_hex.get(h)
        if victims:
            actions.extend({"type": "move_robber", "hex": h, "victim": s} for s in sorted(victims))
        else:
            actions.append({"type": "move_robber", "hex": h})
    if state.pirate >= 0:
        steal_one = state.options.get("pirate_steal") == "one"
        for h in seafarers.pirate_hexes(state):
            victims = seafarers.pirate_victims(state, seat, h)
            if steal_one and victims:
                actions.extend({"type": "move_pirate", "hex": h, "victim": s} for s in victims)
            else:
                actions.append({"type": "move_pirate", "hex": h})
    return actions


def _main_actions(state: State, seat: int) -> list[Action]:
    hand = state.hands[seat]
    supply = state.supply[seat]
    actions: list[Action] = [{"type": "end_turn"}]
    if supply["roads"] and hand[0] >= ROAD_COST[0] and hand[1] >= ROAD_COST[1]:
        actions.extend({"type": "build_road", "edge": e} for e in placement.road_edges(state, seat))
    if state.seafarers:
        if supply["ships"] and hand[0] >= SHIP_COST[0] and hand[2] >= SHIP_COST[2]:
            actions.extend({"type": "build_ship", "edge": e} for e in placement.ship_edges(state, seat))
        if not state.ship_moved:
            for ship in seafarers.movable_ships(state, seat):
                actions.extend(
                    {"type": "move_ship", "from": ship, "to": e} for e in seafarers.ship_destinations(state, seat, ship)
                )
    if supply["settlements"] and can_afford(hand, SETTLEMENT_COST):
        actions.extend({"type": "build_settlement", "vertex": v} for v in placement.settlement_vertices(state, seat))
    if supply["cities"] and can_afford(hand, CITY_COST):
        actions.extend({"type": "build_city", "vertex": v} for v in placement.city_vertices(state, seat))
    if state.deck and can_afford(hand, DEVELOPMENT_COST):
        actions.append({"type": "buy_development"})
    actions.extend(_development_plays(state, seat))
    rates = None
    bank = state.bank
    for give in range(5):
        if hand[give] < 2:
            continue
        if rates is None:
            rates = state.harbour_rates(seat)
        if hand[give] < rates[give]:
            continue
        actions.extend(
            {"type": "trade_bank", "give": RESOURCES[give], "get": RESOURCES[get]}
            for get in range(5)
            if get != give and bank[get]
        )
    return actions
