"""A full `State` rebuilt from one seat's view, with the hidden parts sampled: a determinisation.

Public facts are copied from the view; the viewer's own hand and cards are known. What is hidden is drawn
at random, consistently with every count the view shows:

- opponents' resources: 19 of each resource exist, in the bank or in hands, so the unknown cards are, per
  resource, 19 - bank - my hand; they are dealt to the opponents in the numbers each one holds;
- development cards: the 25-card deck minus every played card and my own cards, dealt to the opponents'
  counts, the rest shuffled into the deck;
- Oceania's fog stacks: the scenario's hidden terrain and tokens minus what has been revealed;
- Greater Catan's token bag: the scenario's bag minus the tokens already drawn;
- the dice: a fresh random stream.

Fields the view does not show but that follow from it (the first player, the set-up index, the phase to go
back to after a robber, gold or token move) are inferred. `determinize(view(state, s), rng)` gives a state
whose `view(..., s)` equals the original view; tests check it on many positions.
"""

from __future__ import annotations

import random
from typing import Any

from ..constants import DEVELOPMENT_CARDS, DEVELOPMENT_DECK, TERRAIN_INDEX
from ..scoring import public_victory_points
from ..state import SETUP_ROAD, SETUP_SETTLEMENT, State, build, map_spec
from .obs import _counts, board_key, trade_from_view

BANK_PER_RESOURCE = 19

def _deal(rng: random.Random, pool: list[int], counts: dict[int, int]) -> tuple[dict[int, list[int]], list[int]]:
    """Shuffle `pool` and deal `counts[s]` items to each s; returns the hands and what is left."""
    rng.shuffle(pool)
    dealt: dict[int, list[int]] = {}
    at = 0
    for s, n in counts.items():
        dealt[s] = pool[at : at + n]
        at += n
    return dealt, pool[at:]


def _tally(items: list[int], size: int = 5) -> list[int]:
    out = [0] * size
    for x in items:
        out[x] += 1
    return out


def _first_player(view: dict[str, Any], setup_index: int) -> int:
    players, current = view["players"], view["current"]
    if view["turn"] >= 1:
        return (current - (view["turn"] - 1)) % players
    if setup_index < players:
        return (current - setup_index) % players
    return (current - (2 * players - 1 - setup_index)) % players


def _resume_phase(view: dict[str, Any]) -> str:
    """Where play resumes after a gold choice or a token move."""
    if view["turn"] == 0:
        return SETUP_ROAD if view["setup_vertex"] is not None else SETUP_SETTLEMENT
    if view["free_roads"]:
        return "road_building"
    return "roll" if view["dice"] is None else "main"


def _hidden_stacks(view: dict[str, Any], spec: dict[str, Any], rng: random.Random) -> tuple[list[int], list[int]]:
    """Oceania: the face-down hexes and tokens not revealed yet, in a random order."""
    left = view["seafarers"]["hidden_hexes_left"]
    hidden = spec.get("hidden")
    if not hidden or not left:
        return [], []
    remaining = {TERRAIN_INDEX[n]: c for n, c in hidden["terrain"].items()}
    tokens = list(hidden["tokens"])
    hexes = view["board"]["hexes"]
    for i, h in enumerate(spec["hexes"]):
        if h.get("terrain") != "fog" or hexes[i]["terrain"] == "fog":
            continue
        t = TERRAIN_INDEX[hexes[i]["terrain"]]
        if remaining.get(t, 0) > 0:
            remaining[t] -= 1
        token = hexes[i]["token"]
        if token and token in tokens:
            tokens.remove(token)
    stack = [t for t, c in sorted(remaining.items()) for _ in range(c)]
    rng.shuffle(stack)
    while len(stack) < left:
        stack.append(TERRAIN_INDEX["sea"])
    stack = stack[:left]
    rng.shuffle(tokens)
    return stack, tokens


def _token_bag(view: dict[str, Any], spec: dict[str, Any], rng: random.Random) -> list[int]:
    """Greater Catan: the bag minus the tokens already drawn onto outer hexes, in a random order."""
    count = view["seafarers"]["token_bag_count"]
    bag = list(spec.get("rules", {}).get("token_bag") or [])
    if not count or not bag:
        return []
    main = {tuple(h) for h in spec.get("setup", {}).get("hexes", [])}
    remaining = list(bag)
    for i, h in enumerate(spec["hexes"]):
        if tuple(h["at"]) in main or h.get("token"):
            continue
        token = view["board"]["hexes"][i]["token"]
        if token and token in remaining:
            remaining.remove(token)
    rng.shuffle(remaining)
    while len(remaining) < count:
        remaining.append(rng.choice(bag))
    return remaining[:count]


def determinize(view: dict[str, Any], rng: random.Random, tries: int = 8) -> State:
    """A complete state consistent with `view` (a seat's view), hidden parts sampled with `rng`."""
    me = view["viewer"]
    if me is None:
        raise ValueError("determinize needs a seat's view")
    players = view["players"]
    scenario, hexes, terrain, tokens, harbours = board_key(view)
    spec = map_spec(scenario)
    seats = view["seats"]
    fields: dict[str, Any] = {}
    fields["schema"] = view["schema"]
    fields["scenario"] = scenario
    fields["options"] = dict(view["options"])
    fields["players"] = players
    fields["vp_target"] = view["vp_target"]
    fields["seed"] = 0
    fields["stream"] = rng.getrandbits(64)
    fields["hexes"] = hexes
    fields["terrain"] = list(terrain)
    fields["tokens"] = list(tokens)
    fields["harbours"] = list(harbours)
    board = view["board"]
    fields["robber"] = -1 if board["robber"] is None else board["robber"]
    fields["pirate"] = -1 if board["pirate"] is None else board["pirate"]
    fields["phase"] = view["phase"]
    fields["current"] = view["current"]
    pieces = view["pieces"]
    edge_pieces = len(pieces["roads"]) + len(pieces["ships"])
    setup_index = edge_pieces if view["turn"] == 0 else 2 * players
    first = _first_player(view, setup_index)
    order = [(first + i) % players for i in range(players)]
    fields["first"] = first
    fields["setup_order"] = order + order[::-1]
    fields["setup_index"] = setup_index
    fields["setup_vertex"] = -1 if view["setup_vertex"] is None else view["setup_vertex"]
    fields["turn"] = view["turn"]
    fields["dice"] = list(view["dice"]) if view["dice"] else None
    fields["dice_history"] = [0, 0] + [view["dice_history"][str(n)] for n in range(2, 13)]

    vertex_count = len(board["vertices"])
    edge_count = len(board["edges"])
    fields["vertex_owner"] = [-1] * vertex_count
    fields["vertex_city"] = [False] * vertex_count
    fields["edge_owner"] = [-1] * edge_count
    fields["edge_ship"] = [False] * edge_count
    for kind in ("settlements", "cities"):
        for p in pieces[kind]:
            fields["vertex_owner"][p["vertex"]] = p["seat"]
            fields["vertex_city"][p["vertex"]] = kind == "cities"
    for kind in ("roads", "ships"):
        for p in pieces[kind]:
            fields["edge_owner"][p["edge"]] = p["seat"]
            fields["edge_ship"][p["edge"]] = kind == "ships"

    # Resources: my hand is known; the rest of each resource's 19 not in the bank is in opponents' hands.
    mine = seats[me]
    my_hand = _counts(mine["resources"])
    bank = _counts(view["bank"])
    unknown = [max(0, BANK_PER_RESOURCE - bank[r] - my_hand[r]) for r in range(5)]
    pool = [r for r in range(5) for _ in range(unknown[r])]
    wanted = {s: seats[s]["resource_count"] for s in range(players) if s != me}
    # Counts always agree in a real game; pad or trim defensively so a sample always exists.
    need = sum(wanted.values())
    while len(pool) < need:
        pool.append(rng.randrange(5))
    # Development cards: the deck minus what is face up or mine.
    used = [_counts(s["development_used"], DEVELOPMENT_CARDS) for s in seats]
    my_dev = _counts(mine["development"], DEVELOPMENT_CARDS)
    my_new = _counts(mine["development_new"], DEVELOPMENT_CARDS)
    dev_left = [max(0, DEVELOPMENT_DECK[c] - sum(u[c] for u in used) - my_dev[c] - my_new[c]) for c in range(5)]
    dev_pool = [c for c in range(5) for _ in range(dev_left[c])]
    dev_wanted = {s: seats[s]["development_count"] for s in range(players) if s != me}
    while len(dev_pool) < sum(dev_wanted.values()) + view["deck_count"]:
        dev_pool.append(0)

    fields["hands"] = [[0] * 5 for _ in range(players)]
    fields["development"] = [[0] * 5 for _ in range(players)]
    fields["development_new"] = [[0] * 5 for _ in range(players)]
    fields["hands"][me] = my_hand
    fields["development"][me] = my_dev
    fields["development_new"][me] = my_new
    fields["development_used"] = used
    fields["development_played"] = view["development_played"]
    fields["bank"] = bank
    fields["supply"] = [dict(s["supply"]) for s in seats]
    fields["road_length"] = [s["road_length"] for s in seats]
    fields["longest_road"] = next((s["seat"] for s in seats if s["longest_road"]), -1)
    fields["largest_army"] = next((s["seat"] for s in seats if s["largest_army"]), -1)
    fields["discards_owed"] = [s["discards_owed"] for s in seats]
    fields["free_roads"] = view["free_roads"]
    dice_phase = "roll" if view["dice"] is None else "main"
    fields["return_phase"] = dice_phase
    fields["trade"] = trade_from_view(view["trade"])
    fields["offers_this_turn"] = [
        [_counts(offer["give"]), _counts(offer["get"])] for offer in view.get("offers_this_turn") or []
    ]
    fields["winner"] = view["winner"]
    fields["version"] = view["version"]

    sea = view["seafarers"]
    fields["seafarers"] = sea is not None
    frame = [False] * len(hexes)
    for h in board["frame"]:
        frame[h] = True
    fields["frame"] = frame
    if sea is not None and spec is not None:
        fields["hidden_terrain"], fields["hidden_tokens"] = _hidden_stacks(view, spec, rng)
        fields["token_bag"] = _token_bag(view, spec, rng)
        fields["pending_tokens"] = list(sea["pending_tokens"])
        fields["token_sites"] = [[t["vertex"], t["seat"], t["points"], 0] for t in sea["token_sites"]]
        fields["ships_new"] = list(sea["ships_built_this_turn"])
        fields["ship_moved"] = sea["ship_moved"]
        fields["trade_lines"] = [[t["vertices"][0], t["vertices"][1], t["seat"]] for t in sea["trade_lines"]]
    else:
        fields["hidden_terrain"], fields["hidden_tokens"], fields["token_bag"] = [], [], []
        fields["pending_tokens"], fields["token_sites"], fields["ships_new"], fields["trade_lines"] = [], [], [], []
        fields["ship_moved"] = False
    fields["vp_tokens"] = [s["victory_point_tokens"] for s in seats]
    fields["gold_owed"] = [s["gold_owed"] for s in seats]
    fields["resume_phase"] = _resume_phase(view)
    # Placement order is not public (it only breaks Great Crossing ties of new lines): edge order will do.
    fields["edge_serial"] = [0] * edge_count
    placed = 0
    for e, owner in enumerate(fields["edge_owner"]):
        if owner >= 0:
            placed += 1
            fields["edge_serial"][e] = placed
    fields["placements"] = placed
    fields["home_islands"] = [[] for _ in range(players)]
    fields["islands_settled"] = [[] for _ in range(players)]
    fields["deck"] = []  # dealt below, with the hands, once the board is known
    state = build(fields)
    islands = state.derived.vertex_islands
    for s in range(players):
        settled = sorted({i for v in state.seat_buildings[s] for i in islands[v]})
        bonus = {i for site in state.token_sites if site[1] == s for i in islands[site[0]]}
        state.islands_settled[s] = settled
        state.home_islands[s] = [i for i in settled if i not in bonus]

    # Deal hidden cards; resample a few times if an opponent would already hold a winning hand.
    for _ in range(max(1, tries)):
        hands, _ = _deal(rng, list(pool), wanted)
        devs, deck = _deal(rng, list(dev_pool), dev_wanted)
        for s, cards in hands.items():
            state.hands[s] = _tally(cards)
        for s, cards in devs.items():
            state.development[s] = _tally(cards)
        if all(
            public_victory_points(state, s) + state.development[s][4] < state.vp_target
            for s in range(players)
            if s != me
        ):
            break
    state.deck = deck[: view["deck_count"]]
    state.forget_worked_out()
    return state
