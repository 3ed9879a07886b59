"""`apply`: check an action against the rules and carry it out, returning what happened as events.

An illegal or malformed action raises `IllegalAction` before anything changes. Events meant for some seats
only (a stolen card, a drawn development card) carry an `audience` list; `events_for` filters them.
"""

from __future__ import annotations

from typing import Any

from . import chance, choices, development, placement, seafarers, trading
from .constants import (
    CITY_COST,
    DISCARD_LIMIT,
    GOLD,
    RESOURCE_INDEX,
    RESOURCES,
    ROAD_COST,
    SETTLEMENT_COST,
    SHIP_COST,
)
from .errors import IllegalAction
from .hands import named, pay, take
from .legal import cached_legal_actions, free_edge_actions, to_move
from .longest_road import award_after_break, award_after_growth
from .scoring import check_winner
from .state import (
    DISCARD,
    GAME_OVER,
    MAIN,
    ROBBER,
    ROLL,
    SETUP_ROAD,
    SETUP_SETTLEMENT,
    State,
)
from .state import ROAD_BUILDING as ROAD_BUILDING_PHASE

Event = dict[str, Any]
FREE_FORM = frozenset({"offer_trade", "counter_trade", "discard", "choose_gold"})
# Only these can change the active player's points (end_turn hands the turn to someone who may have won
# during another's turn); the win check runs after them alone.
SCORING = frozenset(
    {
        "build_settlement",
        "build_city",
        "build_road",
        "build_ship",
        "move_ship",
        "buy_development",
        "play_knight",
        "end_turn",
    }
)


def apply(state: State, seat: int, action: Any) -> list[Event]:
    """Carry out `action` for `seat`. Raises IllegalAction, leaving the state untouched, if it is not legal."""
    if type(action) is not dict and not isinstance(action, dict):
        raise IllegalAction("malformed", "An action is an object with a string 'type'.")
    try:
        kind = action["type"]
    except KeyError:
        kind = None
    if type(kind) is not str and not isinstance(kind, str):
        raise IllegalAction("malformed", "An action is an object with a string 'type'.")
    if type(seat) is not int:
        raise IllegalAction("bad_action", "A seat is a whole number.")
    if not 0 <= seat < state.players:
        raise IllegalAction("bad_seat", "No such seat.")
    if state.phase == GAME_OVER:
        raise IllegalAction("game_over", "The game is over.")
    if kind in FREE_FORM:
        events = _apply_free_form(state, seat, kind, action)
    else:
        cache = state._legal_cache
        if cache is not None and cache[1] == seat and cache[0] == state.version:
            legal = cache[2]
        else:
            legal = cached_legal_actions(state, seat)
        # Bots hand back the very dict they were given: list.index finds it by identity first, in C.
        try:
            canonical = legal[legal.index(action)]
        except ValueError:
            canonical = None
        if canonical is not action:
            canonical = _match(state, seat, legal, action)
        events = HANDLERS[kind](state, seat, canonical)
    state.version += 1
    state._legal_cache = None
    if kind in SCORING and check_winner(state):
        events.append({"type": "game_won", "seat": state.winner, "victory_points": _final_points(state)})
    return events


def events_for(events: list[Event], seat: int | None) -> list[Event]:
    """The events a seat (or a spectator, None) may see, without their audience markers."""
    out = []
    for event in events:
        audience = event.get("audience")
        if audience is None:
            out.append(event)
        elif seat in audience:
            out.append({k: v for k, v in event.items() if k != "audience"})
    return out


# Fields that hold a seat or a board id: whole numbers, never booleans (True == 1 in Python).
ID_FIELDS = ("vertex", "edge", "hex", "victim", "seat", "from", "to")


def _match(state: State, seat: int, legal: list[Event], action: dict[str, Any]) -> Event:
    """The listed action equal to `action`, whose ids must be true integers (17.0 and True compare equal)."""
    for name in ID_FIELDS:
        if name in action and type(action[name]) is not int:
            raise IllegalAction("bad_action", f"'{name}' is a whole number.")
    resources = action.get("resources")
    if action["type"] == "play_year_of_plenty" and isinstance(resources, list):
        if all(type(name) is str and name in RESOURCE_INDEX for name in resources):
            # Either order names the same two cards; the listed action has them in resource order.
            action = {**action, "resources": sorted(resources, key=RESOURCE_INDEX.__getitem__)}
    try:
        return legal[legal.index(action)]
    except ValueError:
        raise _refusal(state, seat, action) from None


def _refusal(state: State, seat: int, action: dict[str, Any]) -> IllegalAction:
    if seat not in to_move(state) and not (state.trade is not None and seat == state.current):
        return IllegalAction("not_your_turn", "It is not your turn to act.")
    if action["type"] not in HANDLERS:
        return IllegalAction("unknown_action", f"Unknown action type {action['type']!r}.")
    return IllegalAction("illegal_action", f"{action['type']} is not allowed now with these arguments.")


def _final_points(state: State) -> dict[int, int]:
    from .scoring import victory_points

    return {str(s): victory_points(state, s) for s in range(state.players)}


# --- set-up -------------------------------------------------------------------------------------------


def _build_settlement(state: State, seat: int, action: dict[str, Any]) -> list[Event]:
    vertex = action["vertex"]
    events: list[Event] = []
    if state.phase == SETUP_SETTLEMENT:
        placement.put_settlement(state, seat, vertex)
        state.setup_vertex = vertex
        state.phase = SETUP_ROAD
        events.append({"type": "built_settlement", "seat": seat, "vertex": vertex})
        seafarers.settle_island(state, seat, vertex, True, events)
        if state.setup_index >= state.players:
            events.append(_starting_resources(state, seat, vertex, events))
        return events
    pay(state, seat, SETTLEMENT_COST)
    placement.put_settlement(state, seat, vertex)
    events.append({"type": "built_settlement", "seat": seat, "vertex": vertex})
    seafarers.settle_island(state, seat, vertex, False, events)
    holder = state.longest_road
    owners = [state.edge_owner[e] for e in state.derived.topo.vertex_edges[vertex]]
    cut = set(owners) - {seat, -1}
    if cut:
        award_after_break(state, sorted(cut))
    if state.seafarers and _joins_road_and_ship(state, seat, vertex):
        # Your own building joins your road line to your ship line (RULES.md §8/§9): the trail may grow.
        award_after_growth(state, seat)
    _longest_road_event(state, holder, events)
    seafarers.update_trade_lines(state, events)
    return events


def _joins_road_and_ship(state: State, seat: int, vertex: int) -> bool:
    kinds = {state.edge_ship[e] for e in state.derived.topo.vertex_edges[vertex] if state.edge_owner[e] == seat}
    return len(kinds) == 2


def _longest_road_event(state: State, holder: int, events: list[Event]) -> None:
    """Announce a change of the Longest Road card's holder (seat -1: the card is set aside)."""
    now = state.longest_road
    if now != holder:
        events.append({"type": "longest_road", "seat": now, "length": state.road_length[now] if now >= 0 else 0})


def _starting_resources(state: State, seat: int, vertex: int, events: list[Event]) -> Event:
    """The second set-up settlement yields one card per adjacent producing hex (gold: a choice, Seafarers)."""
    gained = [0] * 5
    gold = 0
    for h in state.derived.topo.vertex_hexes[vertex]:
        terrain = state.terrain[h]
        if terrain < 5:
            gained[terrain] += take(state, seat, terrain, 1)
        elif terrain == GOLD:
            gold += 1
    seafarers.owe_gold(state, {seat: gold}, events)
    return {"type": "starting_resources", "seat": seat, "resources": named(gained)}


def _build_road(state: State, seat: int, action: dict[str, Any]) -> list[Event]:
    if state.phase == MAIN:
        pay(state, seat, ROAD_COST)
    return _place_edge_piece(state, seat, action["edge"], ship=False)


def _build_ship(state: State, seat: int, action: dict[str, Any]) -> list[Event]:
    if state.phase == MAIN:
        pay(state, seat, SHIP_COST)
    state.ships_new.append(action["edge"])
    return _place_edge_piece(state, seat, action["edge"], ship=True)


def _place_edge_piece(state: State, seat: int, edge: int, ship: bool) -> list[Event]:
    phase = state.phase
    placement.put_edge_piece(state, seat, edge, ship=ship)
    state.placements += 1
    state.edge_serial[edge] = state.placements
    events: list[Event] = [{"type": "built_ship" if ship else "built_road", "seat": seat, "edge": edge}]
    holder = state.longest_road
    award_after_growth(state, seat, edge)
    _longest_road_event(state, holder, events)
    if phase == SETUP_ROAD:
        _advance_setup(state)
    elif phase == ROAD_BUILDING_PHASE:
        state.free_roads -= 1
        if not state.free_roads or not free_edge_actions(state, seat):
            state.free_roads = 0
            state.phase = state.return_phase
    _after_reaching(state, seat, edge, events)
    return events


def _after_reaching(state: State, seat: int, edge: int, events: list[Event]) -> None:
    if state.seafarers:
        seafarers.reach(state, seat, edge, events)
        seafarers.update_trade_lines(state, events)


def _move_ship(state: State, seat: int, action: dict[str, Any]) -> list[Event]:
    seafarers.lift_ship(state, seat, action["from"])
    placement.put_edge_piece(state, seat, action["to"], ship=True)
    state.placements += 1
    state.edge_serial[action["to"]] = state.placements
    state.edge_serial[action["from"]] = 0
    state.ship_moved = True
    events: list[Event] = [{"type": "moved_ship", "seat": seat, "from": action["from"], "to": action["to"]}]
    holder = state.longest_road
    award_after_break(state, [seat])
    _longest_road_event(state, holder, events)
    _after_reaching(state, seat, action["to"], events)
    return events


def _advance_setup(state: State) -> None:
    state.setup_index += 1
    state.setup_vertex = -1
    if state.setup_index < len(state.setup_order):
        state.phase = SETUP_SETTLEMENT
        state.current = state.setup_order[state.setup_index]
        return
    state.phase = ROLL
    state.current = state.first
    state.turn = 1


# --- the turn -----------------------------------------------------------------------------------------


def _roll(state: State, seat: int, action: dict[str, Any]) -> list[Event]:
    if state.forced_dice is None:
        state.stream, a, b = chance.two_dice(state.stream)
    else:
        (a, b), state.forced_dice = state.forced_dice, None
    total = a + b
    state.dice = [a, b]
    state.dice_history[total] += 1
    events: list[Event] = [{"type": "rolled", "seat": seat, "dice": [a, b]}]
    if total == 7:
        owed = [0] * state.players
        for s, hand in enumerate(state.hands):
            held = hand[0] + hand[1] + hand[2] + hand[3] + hand[4]
            if held > DISCARD_LIMIT:
                owed[s] = held // 2
        state.discards_owed = owed
        state.return_phase = MAIN
        state.phase = DISCARD if any(owed) else ROBBER
        if any(owed):
            events.append({"type": "must_discard", "counts": {str(s): n for s, n in enumerate(owed) if n}})
        return events
    state.phase = MAIN
    produced: Event = {"type": "produced", "gains": {}}
    events.append(produced)
    produced["gains"] = _produce(state, total, events)
    return events


def _produce(state: State, number: int, events: list[Event]) -> dict[str, dict[str, int]]:
    """Pay every building next to a hex with this number, under the bank-shortage rule of §4."""
    hexes = state.derived.hexes_by_number[number]
    robber = state.robber
    plan = _production_plan(state, number, robber if robber in hexes else -1)
    gains: dict[str, dict[str, int]] = {}
    owed, gold = plan
    if owed:
        bank, hands = state.bank, state.hands
        for r, name, claims, total in owed:
            have = bank[r]
            if total > have and len(claims) > 1:
                continue  # not enough for everyone: nobody gets any
            for s, key, count in claims:
                got = count if count <= have else have
                if got:
                    have -= got
                    hands[s][r] += got
                    mine = gains.get(key)
                    if mine is None:
                        gains[key] = {name: got}
                    else:
                        mine[name] = got
            bank[r] = have
    if gold:
        seafarers.owe_gold(state, dict(gold), events)
    return gains


Plan = tuple[list[tuple[int, str, list[tuple[int, str, int]], int]], dict[int, int]]


def _production_plan(state: State, number: int, robber: int) -> Plan:
    """What a roll of `number` earns with the robber on `robber` (-1: on none of its hexes), before the bank's
    limits: per resource in order, the (seat, gains key, count) claims in seat order and their total; and the
    gold cards owed per seat. Cached in state.spots[HEX_INCOME] (number -> robber -> plan); placement drops a
    number's plans when a building next to one of its hexes changes."""
    spots = state.spots
    if spots is None:
        spots = state.spots = {}
    plans = spots.get(placement.HEX_INCOME)
    if plans is None:
        plans = spots[placement.HEX_INCOME] = {}
    by_robber = plans.get(number)
    if by_robber is None:
        by_robber = plans[number] = {}
    plan = by_robber.get(robber)
    if plan is not None:
        return plan
    owed: dict[int, dict[int, int]] = {}  # resource -> seat -> count
    gold: dict[int, int] = {}
    terrain, owner, city = state.terrain, state.vertex_owner, state.vertex_city
    hex_vertices = state.derived.topo.hex_vertices
    for h in state.derived.hexes_by_number[number]:
        if h == robber:
            continue
        resource = terrain[h]
        claims = gold if resource == GOLD else owed.setdefault(resource, {})
        # In seat order, so that the gold owed (an event's counts) lists seats as they come.
        for seat, count in sorted((owner[v], 2 if city[v] else 1) for v in hex_vertices[h] if owner[v] >= 0):
            claims[seat] = claims.get(seat, 0) + count
    plan = by_robber[robber] = (
        [
            (r, RESOURCES[r], [(s, str(s), owed[r][s]) for s in sorted(owed[r])], sum(owed[r].values()))
            for r in sorted(owed)
            if owed[r]
        ],
        gold,
    )
    return plan


def _move_robber(state: State, seat: int, action: dict[str, Any]) -> list[Event]:
    state.robber = action["hex"]
    events: list[Event] = [{"type": "moved_robber", "seat": seat, "hex": action["hex"]}]
    victim = action.get("victim")
    if victim is not None:
        events.extend(_steal(state, seat, victim))
    state.phase = state.return_phase
    return events


def _move_pirate(state: State, seat: int, action: dict[str, Any]) -> list[Event]:
    state.pirate = action["hex"]
    placement.forget_spots(state, keep=placement.BUILDING_ENTRIES)
    events: list[Event] = [{"type": "moved_pirate", "seat": seat, "hex": action["hex"]}]
    if "victim" in action:
        events.extend(_steal(state, seat, action["victim"]))
    elif state.options.get("pirate_steal") != "one":
        for victim in seafarers.pirate_victims(state, seat, action["hex"]):
            events.extend(_steal(state, seat, victim))
    state.phase = state.return_phase
    return events


def _move_token(state: State, seat: int, action: dict[str, Any]) -> list[Event]:
    source = action["hex"]
    destination = state.pending_tokens.pop(0)
    state.tokens[destination] = state.tokens[source]
    state.tokens[source] = 0
    state.refresh_derived()
    if not state.pending_tokens:
        state.phase = state.resume_phase
    return [
        {"type": "moved_token", "seat": seat, "from": source, "to": destination, "token": state.tokens[destination]}
    ]


def _steal(state: State, thief: int, victim: int) -> list[Event]:
    hand = state.hands[victim]
    state.stream, pick = chance.below(state.stream, sum(hand))
    for r in range(5):
        if pick < hand[r]:
            break
        pick -= hand[r]
    hand[r] -= 1
    state.hands[thief][r] += 1
    return [
        {"type": "stole", "seat": thief, "victim": victim},
        {"type": "stolen_card", "seat": thief, "victim": victim, "resource": RESOURCES[r], "audience": [thief, victim]},
    ]


def _end_turn(state: State, seat: int, action: dict[str, Any]) -> list[Event]:
    new = state.development_new[seat]
    cards = state.development[seat]
    if new[0] or new[1] or new[2] or new[3] or new[4]:  # cards bought this turn become playable
        for c in range(5):
            cards[c] += new[c]
            new[c] = 0
    state.development_played = False
    if state.ships_new:
        state.ships_new = []
    state.ship_moved = False
    state.trade = None
    if state.offers_this_turn:
        state.offers_this_turn = []
    state.current = (seat + 1) % state.players
    state.turn += 1
    state.dice = None
    state.phase = ROLL
    return [{"type": "turn_ended", "seat": seat, "next": state.current}]


# --- building -----------------------------------------------------------------------------------------


def _build_city(state: State, seat: int, action: dict[str, Any]) -> list[Event]:
    pay(state, seat, CITY_COST)
    placement.put_city(state, seat, action["vertex"])
    return [{"type": "built_city", "seat": seat, "vertex": action["vertex"]}]


# --- trading ------------------------------------------------------------------------------------------


def _apply_free_form(state: State, seat: int, kind: str, action: dict[str, Any]) -> list[Event]:
    if kind == "discard":
        return choices.discard(state, seat, action)
    if kind == "choose_gold":
        return choices.choose_gold(state, seat, action)
    return trading.offer_or_counter(state, seat, kind, action)


HANDLERS = {
    "build_settlement": _build_settlement,
    "build_road": _build_road,
    "build_ship": _build_ship,
    "move_ship": _move_ship,
    "move_pirate": _move_pirate,
    "move_token": _move_token,
    "build_city": _build_city,
    "buy_development": development.buy_development,
    "roll": _roll,
    "move_robber": _move_robber,
    "end_turn": _end_turn,
    "play_knight": development.play_knight,
    "play_road_building": development.play_road_building,
    "play_year_of_plenty": development.play_year_of_plenty,
    "play_monopoly": development.play_monopoly,
    "trade_bank": trading.trade_bank,
    "accept_trade": trading.accept_trade,
    "reject_trade": trading.reject_trade,
    "cancel_trade": trading.cancel_trade,
    "confirm_trade": trading.confirm_trade,
    "reject_counter": trading.reject_counter,
}
