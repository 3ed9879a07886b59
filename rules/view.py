"""`view`: the only way a state leaves the server. Each seat sees its own cards; others only as counts.

Never in a view: the seed or the generator's state, the deck order, hidden stacks, an opponent's resource or
development card identities. A spectator (seat None) sees only public facts. Once the game is over, the hidden
victory-point cards are revealed, as at the table.
"""

from __future__ import annotations

import zlib
from functools import lru_cache
from typing import Any

from .constants import DEVELOPMENT_CARDS, HARBOUR_NAMES, KNIGHT, PIPS, RESOURCES, TERRAINS, VICTORY_POINT
from .legal import to_move
from .scoring import public_victory_points, victory_points
from .state import GAME_OVER, State


def layout_key(state: State) -> str:
    """A fingerprint of the board's layout (terrains, tokens, harbours): it changes when fog is revealed or a
    token placed, and lets a client that holds the layout know whether it is still current."""
    harbours = state.harbours
    # The containers' types too: the fingerprint is of their text, where a list and a tuple differ.
    kinds = (type(state.terrain), type(state.tokens), type(harbours), type(harbours[0]) if harbours else tuple)
    return _fingerprint(tuple(state.terrain), tuple(state.tokens), tuple(map(tuple, harbours)), kinds)


@lru_cache(maxsize=4096)
def _fingerprint(terrain: tuple, tokens: tuple, harbours: tuple, kinds: tuple) -> str:
    """The CRC of the layout's text, as the state holds it: made once per layout (a game's seldom changes), as
    the text was most of the cost of a move's update frames."""
    terrain_kind, tokens_kind, harbours_kind, pair_kind = kinds
    text = repr((terrain_kind(terrain), tokens_kind(tokens), harbours_kind(pair_kind(p) for p in harbours)))
    return format(zlib.crc32(text.encode()), "08x")


def board_view(state: State, layout: bool = True) -> dict[str, Any]:
    """The board's geometry and contents, with the ids that actions use. Without `layout`, only what moves
    during play (robber, pirate) and the layout's fingerprint."""
    if not layout:
        return {
            "layout": layout_key(state),
            "robber": state.robber if state.robber >= 0 else None,
            "pirate": state.pirate if state.pirate >= 0 else None,
        }
    topo = state.derived.topo
    return {
        "layout": layout_key(state),
        "hexes": [
            {
                "id": h,
                "q": q,
                "r": r,
                "terrain": TERRAINS[state.terrain[h]],
                "token": state.tokens[h] or None,
                "pips": PIPS.get(state.tokens[h], 0),
            }
            for h, (q, r) in enumerate(state.hexes)
        ],
        # Vertex positions are on the lattice where a hex centre is (2q + r, 3r); x scales by √3/2 to draw.
        "vertices": [{"id": v, "x": x, "y": y} for v, (x, y) in enumerate(topo.vertex_points)],
        "edges": [{"id": e, "vertices": [a, b]} for e, (a, b) in enumerate(topo.edge_vertices)],
        "harbours": [
            {"edge": e, "kind": HARBOUR_NAMES[k], "vertices": list(topo.edge_vertices[e])} for e, k in state.harbours
        ],
        "robber": state.robber if state.robber >= 0 else None,
        "pirate": state.pirate if state.pirate >= 0 else None,
        "frame": [h for h, edge in enumerate(state.frame) if edge],
        "islands": list(state.derived.island_of_hex),
    }


def pieces_view(state: State) -> dict[str, Any]:
    settlements, cities, roads, ships = [], [], [], []
    city = state.vertex_city
    for v, o in enumerate(state.vertex_owner):
        if o >= 0:
            (cities if city[v] else settlements).append({"vertex": v, "seat": o})
    ship = state.edge_ship
    for e, o in enumerate(state.edge_owner):
        if o >= 0:
            (ships if ship[e] else roads).append({"edge": e, "seat": o})
    return {"settlements": settlements, "cities": cities, "roads": roads, "ships": ships}


def _cards(counts: list[int], names: tuple[str, ...]) -> dict[str, int]:
    return {names[i]: n for i, n in enumerate(counts)}


def player_view(state: State, seat: int, viewer: int | None) -> dict[str, Any]:
    return _with_private(state, seat, _public_facts(state, seat), viewer)


def _public_facts(state: State, seat: int) -> dict[str, Any]:
    """What everyone sees of a seat while the game runs."""
    return {
        "seat": seat,
        "resource_count": sum(state.hands[seat]),
        "development_count": sum(state.development[seat]) + sum(state.development_new[seat]),
        "knights": state.development_used[seat][KNIGHT],
        "development_used": _cards(state.development_used[seat], DEVELOPMENT_CARDS),
        "road_length": state.road_length[seat],
        "longest_road": state.longest_road == seat,
        "largest_army": state.largest_army == seat,
        "public_victory_points": public_victory_points(state, seat),
        "supply": dict(state.supply[seat]),
        "harbour_rates": _cards(state.harbour_rates(seat), RESOURCES),
        "discards_owed": state.discards_owed[seat],
        "gold_owed": state.gold_owed[seat],
        "victory_point_tokens": state.vp_tokens[seat],
        "trade_lines": sum(1 for line in state.trade_lines if line[2] == seat),
    }


def _with_private(state: State, seat: int, facts: dict[str, Any], viewer: int | None) -> dict[str, Any]:
    """A seat's facts for `viewer`: its public `facts` (changed in place), with the seat's own cards for the seat
    itself, and its victory points for the seat itself or once the game is over."""
    if viewer == seat:
        facts["resources"] = _cards(state.hands[seat], RESOURCES)
        facts["development"] = _cards(state.development[seat], DEVELOPMENT_CARDS)
        facts["development_new"] = _cards(state.development_new[seat], DEVELOPMENT_CARDS)
    if viewer == seat or state.phase == GAME_OVER:
        facts["victory_points"] = victory_points(state, seat)
        facts["victory_point_cards"] = (
            state.development[seat][VICTORY_POINT] + state.development_new[seat][VICTORY_POINT]
        )
    return facts


def trade_view(state: State) -> dict[str, Any] | None:
    trade = state.trade
    if trade is None:
        return None
    replies = {}
    for s, reply in trade["replies"].items():
        if isinstance(reply, dict):
            replies[str(s)] = {
                "reply": "counter",
                "give": _cards(reply["give"], RESOURCES),
                "get": _cards(reply["get"], RESOURCES),
            }
        else:
            replies[str(s)] = {"reply": reply}
    return {
        "from": trade["from"],
        "give": _cards(trade["give"], RESOURCES),
        "get": _cards(trade["get"], RESOURCES),
        "to": list(trade["to"]),
        "replies": replies,
    }


def view(
    state: State, seat: int | None, layout: bool = True, seat_facts: list[dict[str, Any]] | None = None
) -> dict[str, Any]:
    """What `seat` may know of the game (None: a spectator). Without `layout`, the board holds only what moves
    during play (see `board_view`): live updates carry that, the first frame everything. `seat_facts`: each
    seat's `player_view` for this viewer, when the caller has them (`views`)."""
    if seat is not None and not (isinstance(seat, int) and 0 <= seat < state.players):
        raise ValueError("no such seat")
    return {
        "schema": state.schema,
        "scenario": state.scenario,
        "options": dict(state.options),
        "players": state.players,
        "vp_target": state.vp_target,
        "viewer": seat,
        "phase": state.phase,
        "turn": state.turn,
        "current": state.current,
        "to_move": to_move(state),
        "dice": list(state.dice) if state.dice else None,
        "dice_history": {str(n): state.dice_history[n] for n in range(2, 13)},
        "setup_vertex": state.setup_vertex if state.setup_vertex >= 0 else None,
        "free_roads": state.free_roads,
        "development_played": state.development_played,
        "board": board_view(state, layout),
        "pieces": pieces_view(state),
        "bank": _cards(state.bank, RESOURCES),
        "deck_count": len(state.deck),
        "seats": seat_facts if seat_facts is not None else [player_view(state, s, seat) for s in range(state.players)],
        "trade": trade_view(state),
        # Every offer the current player made this turn, taken up or not: public, as each offer was.
        "offers_this_turn": [
            {"from": state.current, "give": _cards(give, RESOURCES), "get": _cards(get, RESOURCES)}
            for give, get in state.offers_this_turn
        ],
        "seafarers": {
            "ships_built_this_turn": list(state.ships_new),
            "ship_moved": state.ship_moved,
            "hidden_hexes_left": len(state.hidden_terrain),
            "token_bag_count": len(state.token_bag),
            "pending_tokens": list(state.pending_tokens),
            "token_sites": [{"vertex": v, "seat": s, "points": p} for v, s, p, _ in state.token_sites],
            "trade_lines": [{"vertices": [a, b], "seat": s} for a, b, s in state.trade_lines],
        }
        if state.seafarers
        else None,
        "winner": state.winner,
        "version": state.version,
    }


def views(state: State, layout: bool = True) -> list[dict[str, Any]]:
    """Every seat's `view` (index: seat) and, last, the spectators': the same dicts `view` returns, with the public
    facts built once and shared between them (read them, never change them). Only "viewer" and a seat's own entry
    in "seats" (`player_view` with its private cards) differ from seat to seat."""
    facts = [_public_facts(state, s) for s in range(state.players)]
    public = view(state, None, layout, seat_facts=[_with_private(state, s, dict(f), None) for s, f in enumerate(facts)])
    every: list[dict[str, Any]] = []
    for seat in range(state.players):
        seats = list(public["seats"])
        seats[seat] = _with_private(state, seat, facts[seat], seat)
        every.append({**public, "viewer": seat, "seats": seats})
    every.append(public)
    return every
