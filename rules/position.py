"""Positions from a description (`position`), and loading a snapshot with its derived facts checked (`load`).

A description names what a person sees at the table: the scenario and seed (which lay out the board), each
seat's pieces by id and cards, the bank, the turn and phase, the robber and pirate, the fog revealed so far.
Everything that follows from those (trail lengths, the Longest Road and Largest Army holders, supplies, the
deck, islands settled, trade lines, caches) is computed here, and an impossible position raises
`IllegalAction("bad_position", ...)`. docs/ENGINE.md describes the format.
"""

from __future__ import annotations

from typing import Any

from . import seafarers
from .constants import (
    DESERT,
    DEVELOPMENT_CARDS,
    DEVELOPMENT_DECK,
    FOG,
    LAND,
    RESOURCES,
    SUPPLY,
    TERRAIN_INDEX,
    TERRAINS,
    VICTORY_POINT,
)
from .errors import IllegalAction
from .game import new_game
from .longest_road import recount
from .placement import distance_rule_ok
from .scoring import settle_largest_army, victory_points
from .state import DISCARD, GOLD, MAIN, ROAD_BUILDING, ROBBER, ROLL, State, map_spec, restore

TOP_LEVEL = frozenset(
    {
        "scenario",
        "players",
        "seed",
        "options",
        "seats",
        "bank",
        "deck",
        "phase",
        "current",
        "turn",
        "dice",
        "robber",
        "pirate",
        "revealed",
        "development_played",
        "free_roads",
        "discards_owed",
        "gold_owed",
        "ships_built_this_turn",
        "ship_moved",
        "longest_road",
        "largest_army",
    }
)
SEAT_KEYS = frozenset(
    {
        "settlements",
        "cities",
        "roads",
        "ships",
        "hand",
        "development",
        "development_new",
        "development_used",
        "vp_tokens",
    }
)
PHASES = (ROLL, MAIN, ROBBER, DISCARD, ROAD_BUILDING, GOLD)


def load(data: dict[str, Any], owned: bool = False) -> State:
    """Rebuild a state from `dump` output. Trail lengths, the card holders and the supplies are computed again
    from the pieces, never taken from the snapshot: a stale stored value cannot move a card. With `owned`, the
    state takes `data`'s lists and dicts as they are (for data nobody else holds, such as fresh JSON)."""
    state = restore(data, owned)
    _recount_supply(state)
    recount(state)
    settle_largest_army(state)
    return state


def position(description: dict[str, Any] | None = None, **fields: Any) -> State:
    """A legal state from a description (a dict, keyword arguments, or both: keywords win). Raises
    IllegalAction("bad_position", ...) when the description is malformed or the position impossible."""
    spec = {**(description or {}), **fields}
    unknown = set(spec) - TOP_LEVEL
    if unknown:
        raise _bad(f"unknown fields: {', '.join(sorted(unknown))}")
    options = spec.get("options") or {}
    if not isinstance(options, dict):
        raise _bad("'options' is an object")
    state = new_game(
        scenario=spec.get("scenario", "base"),
        players=spec.get("players", 4),
        seed=spec.get("seed", 1),
        options={"seat_order": "fixed", **options},
    )
    _reveal(state, spec.get("revealed", []))
    seats = spec.get("seats", [])
    if not isinstance(seats, list) or len(seats) > state.players:
        raise _bad(f"'seats' lists at most {state.players} seats")
    seats = [*seats, *({} for _ in range(state.players - len(seats)))]
    for seat, facts in enumerate(seats):
        if not isinstance(facts, dict) or set(facts) - SEAT_KEYS:
            raise _bad(f"seat {seat} is an object with keys among {', '.join(sorted(SEAT_KEYS))}")
    _place_buildings(state, seats)
    _place_edges(state, seats)
    _deal_cards(state, seats, spec)
    _set_turn(state, spec)
    _set_robbers(state, spec)
    state.refresh_derived()
    _check_connected(state)
    _settle_islands(state)
    recount(state)
    _choose_holder(state, spec.get("longest_road"), "longest_road")
    settle_largest_army(state)
    _choose_holder(state, spec.get("largest_army"), "largest_army")
    seafarers.update_trade_lines(state, [])
    if victory_points(state, state.current) >= state.vp_target:
        raise _bad("the current player would already have won")
    return state


def _bad(message: str) -> IllegalAction:
    return IllegalAction("bad_position", f"Impossible position: {message}.")


def _int(value: Any, name: str, low: int, high: int) -> int:
    """A whole number in [low, high); booleans are not numbers here."""
    if type(value) is not int or not low <= value < high:
        raise _bad(f"{name} is a whole number from {low} to {high - 1}, not {value!r}")
    return value


def _ids(facts: dict[str, Any], key: str, count: int, seat: int) -> list[int]:
    values = facts.get(key, [])
    if not isinstance(values, list):
        raise _bad(f"seat {seat}'s {key} are a list of ids")
    return [_int(v, f"seat {seat}'s {key[:-1]}", 0, count) for v in values]


def _counts(value: Any, names: tuple[str, ...], what: str) -> list[int]:
    if value is None:
        return [0] * len(names)
    if not isinstance(value, dict) or set(value) - set(names):
        raise _bad(f"{what} maps names among {', '.join(names)} to counts")
    return [_int(value.get(name, 0), f"{what}[{name!r}]", 0, 100) for name in names]


def _reveal(state: State, revealed: Any) -> None:
    """Turn fog hexes over as exploring would have, taking their terrain and token from the hidden stacks."""
    if not isinstance(revealed, list):
        raise _bad("'revealed' is a list of {hex, terrain, token}")
    for item in revealed:
        if not isinstance(item, dict) or set(item) - {"hex", "terrain", "token"}:
            raise _bad("each revealed hex is {hex, terrain, token}")
        h = _int(item.get("hex"), "a revealed hex", 0, len(state.terrain))
        terrain = TERRAIN_INDEX.get(item.get("terrain"), -1)
        if state.terrain[h] != FOG or terrain not in state.hidden_terrain:
            raise _bad(f"hex {h} is not fog, or no {item.get('terrain')!r} hex is left face down")
        state.hidden_terrain.remove(terrain)
        state.terrain[h] = terrain
        token = item.get("token")
        if terrain in LAND and terrain != DESERT and state.hidden_tokens:
            if token not in state.hidden_tokens:
                raise _bad(f"hex {h} needs a token among those left face down")
            state.hidden_tokens.remove(token)
            state.tokens[h] = token
        elif token is not None:
            raise _bad(f"hex {h} takes no token")
    state.refresh_derived()


def _place_buildings(state: State, seats: list[dict[str, Any]]) -> None:
    derived = state.derived
    count = derived.topo.vertex_count
    for seat, facts in enumerate(seats):
        for key in ("settlements", "cities"):
            for v in _ids(facts, key, count, seat):
                if not derived.land_vertex[v]:
                    raise _bad(f"vertex {v} is not on land")
                if not distance_rule_ok(state, v):
                    raise _bad(f"vertex {v} breaks the distance rule")
                state.vertex_owner[v] = seat
                state.vertex_city[v] = key == "cities"
                state.supply[seat][key] -= 1


def _place_edges(state: State, seats: list[dict[str, Any]]) -> None:
    derived = state.derived
    count = derived.topo.edge_count
    for seat, facts in enumerate(seats):
        if facts.get("ships") and not state.seafarers:
            raise _bad("ships sail only in Seafarers scenarios")
        for key, allowed in (("roads", derived.road_edge), ("ships", derived.ship_edge)):
            for e in _ids(facts, key, count, seat):
                if not allowed[e]:
                    raise _bad(f"edge {e} does not take a {key[:-1]}")
                if state.edge_owner[e] != -1:
                    raise _bad(f"edge {e} holds two pieces")
                state.edge_owner[e] = seat
                state.edge_ship[e] = key == "ships"
                state.supply[seat][key] -= 1
                state.placements += 1
                state.edge_serial[e] = state.placements
    for seat, supply in enumerate(state.supply):
        short = [kind for kind, left in supply.items() if left < 0]
        if short:
            raise _bad(f"seat {seat} has more {short[0]} than its supply")
    for seat, facts in enumerate(seats):
        vp_tokens = facts.get("vp_tokens", 0)
        state.vp_tokens[seat] = _int(vp_tokens, f"seat {seat}'s vp_tokens", 0, 31)


def _deal_cards(state: State, seats: list[dict[str, Any]], spec: dict[str, Any]) -> None:
    for seat, facts in enumerate(seats):
        state.hands[seat] = _counts(facts.get("hand"), RESOURCES, f"seat {seat}'s hand")
        state.development[seat] = _counts(facts.get("development"), DEVELOPMENT_CARDS, f"seat {seat}'s development")
        state.development_new[seat] = _counts(
            facts.get("development_new"), DEVELOPMENT_CARDS, f"seat {seat}'s development_new"
        )
        state.development_used[seat] = _counts(
            facts.get("development_used"), DEVELOPMENT_CARDS, f"seat {seat}'s development_used"
        )
        if state.development_used[seat][VICTORY_POINT]:
            raise _bad("victory point cards are never played")
    held = [sum(h[r] for h in state.hands) for r in range(5)]
    if "bank" in spec:
        state.bank = _counts(spec["bank"], RESOURCES, "the bank")
    else:
        state.bank = [19 - n for n in held]
    if any(b < 0 or b + n > 19 for b, n in zip(state.bank, held, strict=True)):
        raise _bad("there are 19 cards of each resource, hands and bank together")
    out = [
        sum(cards[c] for group in (state.development, state.development_new, state.development_used) for cards in group)
        for c in range(5)
    ]
    if any(n > DEVELOPMENT_DECK[c] for c, n in enumerate(out)):
        raise _bad("more development cards of a kind than the deck holds")
    if "deck" in spec:
        deck = spec["deck"]
        if not isinstance(deck, list) or any(name not in DEVELOPMENT_CARDS for name in deck):
            raise _bad("'deck' lists development card names, top card last")
        state.deck = [DEVELOPMENT_CARDS.index(name) for name in deck]
        if any(state.deck.count(c) + out[c] > DEVELOPMENT_DECK[c] for c in range(5)):
            raise _bad("more development cards of a kind than the deck holds")
    else:
        # The seed's shuffled deck with the cards already out taken from the top down.
        deck = list(state.deck)
        for c in range(5):
            for _ in range(out[c]):
                deck.pop(len(deck) - 1 - deck[::-1].index(c))
        state.deck = deck


def _set_turn(state: State, spec: dict[str, Any]) -> None:
    phase = spec.get("phase", MAIN)
    if phase not in PHASES:
        raise _bad(f"'phase' is one of {', '.join(PHASES)}")
    state.phase = phase
    state.current = _int(spec.get("current", 0), "'current'", 0, state.players)
    state.turn = _int(spec.get("turn", 1), "'turn'", 1, 10**6)
    state.setup_index = len(state.setup_order)
    dice = spec.get("dice", None if phase == ROLL else [3, 4])
    if dice is not None:
        if not isinstance(dice, list) or len(dice) != 2:
            raise _bad("'dice' is a pair of numbers from 1 to 6, or null before the roll")
        dice = [_int(d, "a die", 1, 7) for d in dice]
    if (dice is None) != (phase == ROLL) and phase not in (ROBBER, ROAD_BUILDING):
        raise _bad("the dice are rolled in every phase but 'roll'")
    state.dice = dice
    state.return_phase = MAIN if dice else ROLL
    played = spec.get("development_played", phase == ROAD_BUILDING)
    if type(played) is not bool:
        raise _bad("'development_played' is true or false")
    state.development_played = played
    if phase == ROAD_BUILDING:
        state.free_roads = _int(spec.get("free_roads", 2), "'free_roads'", 1, 3)
    owed = {DISCARD: "discards_owed", GOLD: "gold_owed"}
    for name in owed.values():
        if name in spec and owed.get(phase) != name:
            raise _bad(f"'{name}' belongs to the {name.split('_')[0]} phase")
    if phase in owed:
        name = owed[phase]
        values = spec.get(name)
        if not isinstance(values, list) or len(values) != state.players:
            raise _bad(f"'{name}' lists a count per seat")
        counts = [_int(n, f"'{name}'", 0, 100) for n in values]
        if not any(counts):
            raise _bad(f"someone must owe something in the {phase} phase")
        if phase == DISCARD and any(n > sum(h) for n, h in zip(counts, state.hands, strict=True)):
            raise _bad("a seat owes more cards than it holds")
        setattr(state, name, counts)
        state.resume_phase = MAIN
    ships = spec.get("ships_built_this_turn", [])
    if not isinstance(ships, list):
        raise _bad("'ships_built_this_turn' lists edges")
    for e in ships:
        if type(e) is not int or not 0 <= e < len(state.edge_owner) or not state.edge_ship[e]:
            raise _bad(f"edge {e!r} holds no ship")
    state.ships_new = list(ships)
    moved = spec.get("ship_moved", False)
    if type(moved) is not bool:
        raise _bad("'ship_moved' is true or false")
    state.ship_moved = moved


def _set_robbers(state: State, spec: dict[str, Any]) -> None:
    if "robber" in spec:
        robber = spec["robber"]
        if type(robber) is not int or robber not in state.derived.robber_hexes:
            raise _bad(f"the robber stands on a land hex, not {robber!r}")
        state.robber = robber
    if "pirate" in spec:
        pirate = spec["pirate"]
        if state.pirate < 0:
            raise _bad("this game has no pirate")
        if type(pirate) is not int or (pirate != state.pirate and pirate not in seafarers.pirate_hexes(state)):
            raise _bad(f"the pirate sails on a sea hex inside the frame, not {pirate!r}")
        state.pirate = pirate


def _check_connected(state: State) -> None:
    """Each road and ship joins its owner's buildings through its owner's pieces, road and ship meeting only
    at the owner's own building (RULES.md §3, §9). An opponent's building does not break the chain: it may have
    been built across the line after the pieces beyond it."""
    topo = state.derived.topo
    owner, ship = state.edge_owner, state.edge_ship
    for seat in range(state.players):
        reached: set[int] = set()
        stack = [(v, None) for v in state.seat_buildings[seat]]
        while stack:
            v, kind = stack.pop()
            building = state.vertex_owner[v]
            for e in topo.vertex_edges[v]:
                if owner[e] != seat or e in reached or (building != seat and ship[e] != kind):
                    continue
                reached.add(e)
                a, b = topo.edge_vertices[e]
                stack.append((b if a == v else a, ship[e]))
        loose = sorted(set(state.seat_edges[seat]) - reached)
        if loose:
            raise _bad(f"seat {seat}'s piece on edge {loose[0]} joins none of its buildings")


def _settle_islands(state: State) -> None:
    """Every island a seat has built on counts as settled and home: island bonuses are for later building."""
    islands = state.derived.vertex_islands
    for seat in range(state.players):
        settled = sorted({i for v in state.seat_buildings[seat] for i in islands[v]})
        state.islands_settled[seat] = settled
        state.home_islands[seat] = list(settled)


def _choose_holder(state: State, wanted: Any, card: str) -> None:
    """A description may name the holder where the facts leave it open (a tie for the lead)."""
    if wanted is None:
        return
    lengths = state.road_length if card == "longest_road" else [u[0] for u in state.development_used]
    minimum = 5 if card == "longest_road" else 3
    best = max(lengths)
    if type(wanted) is not int or not 0 <= wanted < state.players or lengths[wanted] != best or best < minimum:
        raise _bad(f"seat {wanted!r} cannot hold the {card.replace('_', ' ')} card")
    setattr(state, card, wanted)


def _tied_holder(holder: int, counts: list[int]) -> int | None:
    """The holder, where a description needs to name it: only when someone else ties it."""
    if holder >= 0 and counts.count(counts[holder]) > 1:
        return holder
    return None


def _recount_supply(state: State) -> None:
    """Pieces left in each supply: the scenario's supply less the pieces on the board."""
    spec = map_spec(state.scenario)
    start = {**SUPPLY, **(spec or {}).get("rules", {}).get("supply", {})}
    for seat in range(state.players):
        supply = dict(start)
        for v in state.seat_buildings[seat]:
            supply["cities" if state.vertex_city[v] else "settlements"] -= 1
        for e in state.seat_edges[seat]:
            supply["ships" if state.edge_ship[e] else "roads"] -= 1
        state.supply[seat] = supply


def describe(state: State) -> dict[str, Any]:
    """The description `position` takes for this state's position (a bug report can carry it as JSON).

    `position(describe(state))` gives the same board, pieces, cards, turn and phase; the chance stream starts
    again from the seed. Set-up phases and open trade offers have no description.
    """
    if state.phase not in PHASES or state.trade is not None:
        raise IllegalAction("bad_position", f"A position in the {state.phase} phase has no description.")
    seats = []
    for seat in range(state.players):
        buildings = state.seat_buildings[seat]
        pieces = sorted(state.seat_edges[seat], key=state.edge_serial.__getitem__)
        seats.append(
            {
                "settlements": sorted(v for v in buildings if not state.vertex_city[v]),
                "cities": sorted(v for v in buildings if state.vertex_city[v]),
                "roads": [e for e in pieces if not state.edge_ship[e]],
                "ships": [e for e in pieces if state.edge_ship[e]],
                "hand": dict(zip(RESOURCES, state.hands[seat], strict=True)),
                "development": dict(zip(DEVELOPMENT_CARDS, state.development[seat], strict=True)),
                "development_new": dict(zip(DEVELOPMENT_CARDS, state.development_new[seat], strict=True)),
                "development_used": dict(zip(DEVELOPMENT_CARDS, state.development_used[seat], strict=True)),
                "vp_tokens": state.vp_tokens[seat],
            }
        )
    board = new_game(state.scenario, state.players, state.seed, state.options)
    description: dict[str, Any] = {
        "scenario": state.scenario,
        "players": state.players,
        "seed": state.seed,
        "options": dict(state.options),
        "seats": seats,
        "bank": dict(zip(RESOURCES, state.bank, strict=True)),
        "deck": [DEVELOPMENT_CARDS[c] for c in state.deck],
        "phase": state.phase,
        "current": state.current,
        "turn": max(state.turn, 1),
        "dice": list(state.dice) if state.dice else None,
        "robber": state.robber,
        "revealed": [
            {"hex": h, "terrain": TERRAINS[t], "token": state.tokens[h] or None}
            for h, t in enumerate(state.terrain)
            if board.terrain[h] == FOG and t != FOG
        ],
        "development_played": state.development_played,
        "ships_built_this_turn": list(state.ships_new),
        "ship_moved": state.ship_moved,
        "longest_road": _tied_holder(state.longest_road, state.road_length),
        "largest_army": _tied_holder(state.largest_army, [used[0] for used in state.development_used]),
    }
    if state.robber < 0:
        del description["robber"]
    if state.pirate >= 0:
        description["pirate"] = state.pirate
    if state.phase == ROAD_BUILDING:
        description["free_roads"] = state.free_roads
    if state.phase == DISCARD:
        description["discards_owed"] = list(state.discards_owed)
    if state.phase == GOLD:
        description["gold_owed"] = list(state.gold_owed)
    return description
