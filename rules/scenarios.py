"""Scenario maps as data (rules/maps/*.json) and laying them out for a new game (RULES.md §9–§10).

A map file gives hex coordinates with fixed terrain and tokens, or pools to draw from, harbour slots,
hidden stacks (Oceania), set-up limits and the scenario's rule keys. The format is described in
docs/SCENARIOS.md; `build_board` turns a map into a `Board` using the game's chance stream.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

from . import chance
from .board import Board, deal_tokens_without_clash, harbour_edge, spiral_order
from .constants import DESERT, HARBOUR_NAMES, LAND, SEA, SPIRAL_TOKENS, TERRAIN_INDEX
from .geometry import Coordinate, topology_for

MAP_DIR = Path(__file__).parent / "maps"


@cache
def map_keys() -> tuple[str, ...]:
    return tuple(sorted(p.stem for p in MAP_DIR.glob("*.json")))


@cache
def load_map(key: str) -> dict[str, Any]:
    if key not in map_keys():
        raise KeyError(key)
    return json.loads((MAP_DIR / f"{key}.json").read_text(encoding="utf-8"))


def family_maps() -> dict[str, dict[int, str]]:
    """Scenario family → {players: map key}, so `new_game("four_islands", players=3)` finds its map."""
    families: dict[str, dict[int, str]] = {}
    for key in map_keys():
        spec = load_map(key)
        for players in spec["players"]:
            families.setdefault(spec.get("family", key), {})[players] = key
    return families


def _terrain_list(counts: dict[str, int]) -> list[int]:
    return [TERRAIN_INDEX[name] for name, n in sorted(counts.items()) for _ in range(n)]


def _random_harbour_slots(stream: int, hexes: list[Coordinate], terrain: list[int], count: int):
    """Legal random harbours: coast edges (sea on one side, land on the other), never two on one vertex."""
    topo = topology_for(tuple(hexes))
    coast = [
        e
        for e, hs in enumerate(topo.edge_hexes)
        if len(hs) == 2
        and sorted(terrain[h] == SEA for h in hs) == [False, True]
        and all(terrain[h] in LAND or terrain[h] == SEA for h in hs)
    ]
    stream = chance.shuffle(stream, coast)
    chosen: list[int] = []
    used: set[int] = set()
    for e in coast:
        a, b = topo.edge_vertices[e]
        if a in used or b in used:
            continue
        chosen.append(e)
        used.update((a, b))
        if len(chosen) == count:
            return stream, chosen
    raise ValueError("not enough coast for the harbours")


def build_board(spec: dict[str, Any], stream: int) -> tuple[int, Board]:
    """Lay out a map: draw pool terrain and tokens, shuffle harbours and hidden stacks."""
    hexes: list[Coordinate] = [tuple(h["at"]) for h in spec["hexes"]]
    index = {h: i for i, h in enumerate(hexes)}
    terrain = [SEA] * len(hexes)
    tokens = [0] * len(hexes)
    frame = [bool(h.get("frame")) for h in spec["hexes"]]
    pools: dict[str, list[int]] = {}
    for i, h in enumerate(spec["hexes"]):
        if "pool" in h:
            pools.setdefault(h["pool"], []).append(i)
        else:
            terrain[i] = TERRAIN_INDEX[h["terrain"]]
            tokens[i] = h.get("token") or 0
    layout = spec.get("token_layout", "shuffle")
    for name, members in pools.items():
        drawn = _terrain_list(spec["terrain_pools"][name])
        stream = chance.shuffle(stream, drawn)
        for i, t in zip(members, drawn, strict=True):
            terrain[i] = t
        pool_tokens = list(spec.get("token_pools", {}).get(name, []))
        producing = [i for i in members if terrain[i] in LAND and terrain[i] != DESERT]
        if not pool_tokens:
            continue
        if layout == "spiral" and len(members) == 19:
            stream, corner = chance.below(stream, 6)
            centre = hexes[members[0]]
            laid = iter(SPIRAL_TOKENS)
            for q, r in spiral_order(corner):
                h = index[(q + centre[0], r + centre[1])]
                if terrain[h] != DESERT:
                    tokens[h] = next(laid)
        else:
            stream, tokens = deal_tokens_without_clash(stream, hexes, producing, pool_tokens, tokens)
    slots_spec = spec["harbour_slots"]
    kinds = [HARBOUR_NAMES.index(name) for name, n in sorted(spec["harbours"].items()) for _ in range(n)]
    if slots_spec == "random":
        stream, slots = _random_harbour_slots(stream, hexes, terrain, len(kinds))
    else:
        slots = [harbour_edge(hexes, tuple(s["sea"]), tuple(s["land"])) for s in slots_spec]
    stream = chance.shuffle(stream, kinds)
    hidden_terrain: list[int] = []
    hidden_tokens: list[int] = []
    if "hidden" in spec:
        hidden_terrain = _terrain_list(spec["hidden"]["terrain"])
        stream = chance.shuffle(stream, hidden_terrain)
        hidden_tokens = list(spec["hidden"]["tokens"])
        stream = chance.shuffle(stream, hidden_tokens)
    robber = terrain.index(DESERT) if DESERT in terrain else -1
    pirate = index[tuple(spec["pirate"])] if spec.get("pirate") else -1
    board = Board(hexes, terrain, tokens, list(zip(slots, kinds, strict=True)), robber=robber, pirate=pirate)
    board.extra = {
        "frame": frame,
        "hidden_terrain": hidden_terrain,
        "hidden_tokens": hidden_tokens,
        "token_bag": list(spec.get("rules", {}).get("token_bag", [])),
    }
    return stream, board
