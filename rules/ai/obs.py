"""What a bot knows, as flat lists: read from a seat's `view` (the only input of a real decision), or from a
sampled `State` inside the hard bot's simulations, so that every level's heuristics run on one shape.

`Obs.from_view` touches nothing but the view dict. The board-derived tables (topology, land and sea edges,
harbours per vertex, islands) follow from the public board alone, so they are the engine's own cached
`Derived` for that board.
"""

from __future__ import annotations

from typing import Any

from ..constants import DEVELOPMENT_CARDS, HARBOUR_NAMES, RESOURCES, TERRAIN_INDEX
from ..state import Derived, State, derived_for

_HARBOUR_INDEX = {name: i for i, name in enumerate(HARBOUR_NAMES)}
DEFAULT_ROAD_GOAL = 1.2  # what a road toward a settlement spot is worth as a goal, before the spot's value
DEFAULT_CARD_GOAL = 1.2  # what a development card is worth as a goal (heuristics.goal); the hard bot sets its own


def _counts(cards: dict[str, int] | None, names: tuple[str, ...] = RESOURCES) -> list[int]:
    if not cards:
        return [0] * len(names)
    return [cards.get(name, 0) for name in names]


def trade_from_view(trade: dict[str, Any] | None) -> dict[str, Any] | None:
    """The open offer as the engine holds it (counts per resource, integer seats), from its view."""
    if trade is None:
        return None
    replies: dict[int, Any] = {}
    for s, r in trade["replies"].items():
        if r["reply"] == "counter":
            replies[int(s)] = {"give": _counts(r["give"]), "get": _counts(r["get"])}
        else:
            replies[int(s)] = r["reply"]
    return {
        "from": trade["from"],
        "give": _counts(trade["give"]),
        "get": _counts(trade["get"]),
        "to": list(trade["to"]),
        "replies": replies,
    }


def board_key(view: dict[str, Any]) -> tuple:
    """The public board facts that the derived tables depend on, in the engine's own form."""
    board = view["board"]
    hexes = tuple((h["q"], h["r"]) for h in board["hexes"])
    terrain = tuple(TERRAIN_INDEX[h["terrain"]] for h in board["hexes"])
    tokens = tuple(h["token"] or 0 for h in board["hexes"])
    harbours = tuple((h["edge"], _HARBOUR_INDEX[h["kind"]]) for h in board["harbours"])
    return view["scenario"], hexes, terrain, tokens, harbours


def derived_from_view(view: dict[str, Any]) -> Derived:
    return derived_for(*board_key(view))


class Obs:
    """One seat's knowledge at one decision. Lists may alias a simulated state's: never mutate them."""

    __slots__ = (
        "me",
        "players",
        "scenario",
        "phase",
        "current",
        "turn",
        "version",
        "vp_target",
        "derived",
        "terrain",
        "tokens",
        "robber",
        "pirate",
        "frame",
        "vertex_owner",
        "vertex_city",
        "edge_owner",
        "edge_ship",
        "seat_buildings",
        "seat_edges",
        "hand",
        "dev",
        "dev_new",
        "counts",
        "dev_counts",
        "vp",
        "my_vp",
        "supply",
        "rates",
        "bank",
        "deck_count",
        "knights",
        "largest_army",
        "longest_road",
        "road_length",
        "development_played",
        "free_roads",
        "dice",
        "trade",
        "offers_this_turn",
        "seafarers",
        "ships_new",
        "ship_moved",
        "trade_lines",
        "token_sites",
        "pending_tokens",
        "hidden_left",
        "discards_owed",
        "gold_owed",
        "options",
        "tracker",
        "cache",
        "card_goal",
        "road_goal",
    )

    @classmethod
    def from_view(cls, view: dict[str, Any]) -> Obs:
        me = view["viewer"]
        if me is None:
            raise ValueError("a bot needs a seat's view, not a spectator's")
        o = cls()
        derived = derived_from_view(view)
        o.me = me
        o.players = view["players"]
        o.scenario = view["scenario"]
        o.phase = view["phase"]
        o.current = view["current"]
        o.turn = view["turn"]
        o.version = view["version"]
        o.vp_target = view["vp_target"]
        o.options = view["options"]
        o.derived = derived
        board = view["board"]
        o.terrain = [TERRAIN_INDEX[h["terrain"]] for h in board["hexes"]]
        o.tokens = [h["token"] or 0 for h in board["hexes"]]
        o.robber = -1 if board["robber"] is None else board["robber"]
        o.pirate = -1 if board["pirate"] is None else board["pirate"]
        frame = [False] * len(o.terrain)
        for h in board["frame"]:
            frame[h] = True
        o.frame = frame
        topo = derived.topo
        n = o.players
        o.vertex_owner = [-1] * topo.vertex_count
        o.vertex_city = [False] * topo.vertex_count
        o.edge_owner = [-1] * topo.edge_count
        o.edge_ship = [False] * topo.edge_count
        o.seat_buildings = [[] for _ in range(n)]
        o.seat_edges = [[] for _ in range(n)]
        pieces = view["pieces"]
        for kind in ("settlements", "cities"):
            for p in pieces[kind]:
                o.vertex_owner[p["vertex"]] = p["seat"]
                o.vertex_city[p["vertex"]] = kind == "cities"
                o.seat_buildings[p["seat"]].append(p["vertex"])
        for kind in ("roads", "ships"):
            for p in pieces[kind]:
                o.edge_owner[p["edge"]] = p["seat"]
                o.edge_ship[p["edge"]] = kind == "ships"
                o.seat_edges[p["seat"]].append(p["edge"])
        seats = view["seats"]
        mine = seats[me]
        o.hand = _counts(mine.get("resources"))
        o.dev = _counts(mine.get("development"), DEVELOPMENT_CARDS)
        o.dev_new = _counts(mine.get("development_new"), DEVELOPMENT_CARDS)
        o.counts = [s["resource_count"] for s in seats]
        o.dev_counts = [s["development_count"] for s in seats]
        o.vp = [s["public_victory_points"] for s in seats]
        o.my_vp = mine.get("victory_points", o.vp[me])
        o.supply = [s["supply"] for s in seats]
        o.rates = _counts(mine["harbour_rates"])
        o.bank = _counts(view["bank"])
        o.deck_count = view["deck_count"]
        o.knights = [s["knights"] for s in seats]
        o.largest_army = next((s["seat"] for s in seats if s["largest_army"]), -1)
        o.longest_road = next((s["seat"] for s in seats if s["longest_road"]), -1)
        o.road_length = [s["road_length"] for s in seats]
        o.development_played = view["development_played"]
        o.free_roads = view["free_roads"]
        o.dice = view["dice"]
        o.discards_owed = mine["discards_owed"]
        o.gold_owed = mine["gold_owed"]
        o.trade = trade_from_view(view["trade"])
        # The domestic offers the current player has made this turn (refused or not), when the view lists them.
        o.offers_this_turn = [
            (_counts(offer["give"]), _counts(offer["get"])) for offer in view.get("offers_this_turn") or []
        ]
        sea = view["seafarers"]
        o.seafarers = sea is not None
        if sea is not None:
            o.ships_new = list(sea["ships_built_this_turn"])
            o.ship_moved = sea["ship_moved"]
            o.trade_lines = [(t["vertices"][0], t["vertices"][1], t["seat"]) for t in sea["trade_lines"]]
            o.token_sites = [(t["vertex"], t["seat"], t["points"]) for t in sea["token_sites"]]
            o.pending_tokens = list(sea["pending_tokens"])
            o.hidden_left = sea["hidden_hexes_left"]
        else:
            o.ships_new, o.ship_moved, o.trade_lines, o.token_sites = [], False, [], []
            o.pending_tokens, o.hidden_left = [], 0
        o.tracker = None  # a bot that follows the game's events attaches its CardTracker (tracker.py)
        o.cache = {}
        o.card_goal = DEFAULT_CARD_GOAL
        o.road_goal = DEFAULT_ROAD_GOAL
        return o

    @classmethod
    def from_state(cls, state: State, seat: int) -> Obs:
        """The same knowledge read straight from a (simulated) state: only for the hard bot's rollouts."""
        from ..scoring import public_victory_points, victory_points

        o = cls()
        o.me = seat
        o.players = state.players
        o.scenario = state.scenario
        o.phase = state.phase
        o.current = state.current
        o.turn = state.turn
        o.version = state.version
        o.vp_target = state.vp_target
        o.options = state.options
        o.derived = state.derived
        o.terrain = state.terrain
        o.tokens = state.tokens
        o.robber = state.robber
        o.pirate = state.pirate
        o.frame = state.frame
        o.vertex_owner = state.vertex_owner
        o.vertex_city = state.vertex_city
        o.edge_owner = state.edge_owner
        o.edge_ship = state.edge_ship
        o.seat_buildings = state.seat_buildings
        o.seat_edges = state.seat_edges
        o.hand = state.hands[seat]
        o.dev = state.development[seat]
        o.dev_new = state.development_new[seat]
        o.counts = [sum(h) for h in state.hands]
        o.dev_counts = [sum(a) + sum(b) for a, b in zip(state.development, state.development_new, strict=True)]
        o.vp = [public_victory_points(state, s) for s in range(state.players)]
        o.my_vp = victory_points(state, seat)
        o.supply = state.supply
        o.rates = state.harbour_rates(seat)
        o.bank = state.bank
        o.deck_count = len(state.deck)
        o.knights = [d[0] for d in state.development_used]
        o.largest_army = state.largest_army
        o.longest_road = state.longest_road
        o.road_length = state.road_length
        o.development_played = state.development_played
        o.free_roads = state.free_roads
        o.dice = state.dice
        o.discards_owed = state.discards_owed[seat]
        o.gold_owed = state.gold_owed[seat]
        o.trade = state.trade
        o.offers_this_turn = [(list(give), list(get)) for give, get in state.offers_this_turn]
        o.seafarers = state.seafarers
        o.ships_new = state.ships_new
        o.ship_moved = state.ship_moved
        o.trade_lines = state.trade_lines
        o.token_sites = state.token_sites
        o.pending_tokens = state.pending_tokens
        o.hidden_left = len(state.hidden_terrain)
        o.tracker = None
        o.cache = {}
        o.card_goal = DEFAULT_CARD_GOAL
        o.road_goal = DEFAULT_ROAD_GOAL
        return o

    # --- small helpers -------------------------------------------------------------------------------

    def opponents(self) -> list[int]:
        return [s for s in range(self.players) if s != self.me]

    def leader(self) -> int:
        """The opponent with the most public points (ties: the one with more cards)."""
        return max(self.opponents(), key=lambda s: (self.vp[s], self.counts[s]))

    def opponent_cards(self) -> list[int]:
        """Cards of each resource in opponents' hands, exactly: 19 of each exist, in the bank or in hands."""
        return [max(0, 19 - self.bank[r] - self.hand[r]) for r in range(5)]
