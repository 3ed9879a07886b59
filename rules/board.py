"""Laying out a board: which terrain, token and harbour goes where, for the base game.

A board is plain data over a topology: hex coordinates with a terrain and a token each, and harbours on
edges. Seafarers maps are the same data read from files (rules/maps/), so the engine never special-cases them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

from . import chance
from .constants import (
    DESERT,
    FIELDS,
    FOREST,
    GENERIC_HARBOUR,
    HILLS,
    LAND,
    MOUNTAINS,
    PASTURE,
    SEA,
    SPIRAL_TOKENS,
)
from .geometry import Coordinate, ring, topology_for

BASE_TERRAINS = [FOREST] * 4 + [PASTURE] * 4 + [FIELDS] * 4 + [HILLS] * 3 + [MOUNTAINS] * 3 + [DESERT]
BASE_HARBOURS = [GENERIC_HARBOUR] * 4 + [0, 1, 2, 3, 4]


@dataclass
class Board:
    hexes: list[Coordinate]
    terrain: list[int]
    tokens: list[int]
    harbours: list[tuple[int, int]]  # (edge id, harbour kind)
    robber: int  # hex id, or -1 when the robber starts off the board
    pirate: int = -1
    extra: dict = field(default_factory=dict)


BASE_COORDINATES = (*ring(0), *ring(1), *ring(2), *ring(3))


def base_coordinates() -> list[Coordinate]:
    """The 19 land hexes (centre, inner ring, outer ring) followed by the 18 hexes of the sea frame."""
    return list(BASE_COORDINATES)


def _spiral(corner: int) -> tuple[Coordinate, ...]:
    outer, inner = ring(2), ring(1)
    outer = outer[2 * corner :] + outer[: 2 * corner]
    inner = inner[corner:] + inner[:corner]
    return (*outer, *inner, (0, 0))


SPIRALS = tuple(_spiral(corner) for corner in range(6))
BASE_INDEX = {h: i for i, h in enumerate(BASE_COORDINATES)}
# The base board's spirals as hex ids.
BASE_SPIRALS = tuple(tuple(BASE_INDEX[c] for c in spiral) for spiral in SPIRALS)


def spiral_order(corner: int) -> list[Coordinate]:
    """The A→R spiral: the outer ring from one of its six corners, then the inner ring, then the centre."""
    return list(SPIRALS[corner])


def harbour_edge(hexes: list[Coordinate], sea: Coordinate, land: Coordinate) -> int:
    """The edge shared by a sea hex and a land hex."""
    topo = topology_for(tuple(hexes))
    a, b = topo.hex_index[sea], topo.hex_index[land]
    shared = set(topo.hex_edges[a]) & set(topo.hex_edges[b])
    if len(shared) != 1:
        raise ValueError(f"hexes {sea} and {land} are not neighbours")
    return shared.pop()


def base_harbour_slots(hexes: list[Coordinate], terrain_is_land: list[bool]) -> list[int]:
    """Nine coast edges on every other hex of the sea frame, each facing the first land hex it touches."""
    return list(_base_harbour_slots(tuple(hexes), tuple(terrain_is_land)))


@lru_cache(maxsize=16)
def _base_harbour_slots(hexes: tuple[Coordinate, ...], terrain_is_land: tuple[bool, ...]) -> tuple[int, ...]:
    topo = topology_for(hexes)
    slots = []
    for position, sea in enumerate(ring(3)):
        if position % 2:
            continue
        s = topo.hex_index[sea]
        for e in topo.hex_edges[s]:
            if any(terrain_is_land[h] for h in topo.edge_hexes[e] if h != s):
                slots.append(e)
                break
    return tuple(slots)


def tokens_clash(hexes: list[Coordinate], tokens: list[int]) -> bool:
    """True when two red numbers (6 or 8) sit on neighbouring hexes."""
    topo = topology_for(tuple(hexes))
    for h, token in enumerate(tokens):
        if token in (6, 8) and any(tokens[n] in (6, 8) for n in topo.hex_neighbors[h]):
            return True
    return False


def deal_tokens_without_clash(
    stream: int, hexes: list[Coordinate], land: list[int], pool: list[int], laid: list[int] | None = None
) -> tuple[int, list[int]]:
    """Shuffle `pool` onto the hexes listed in `land` (beside tokens already `laid`) until no red number
    (6 or 8) touches another."""
    for _ in range(10_000):
        order = list(pool)
        stream = chance.shuffle(stream, order)
        tokens = list(laid) if laid else [0] * len(hexes)
        for h, token in zip(land, order, strict=True):
            tokens[h] = token
        if not tokens_clash(hexes, tokens):
            return stream, tokens
    raise ValueError("no token layout without adjacent 6/8 found")


def variable_base_board(stream: int, random_tokens: bool = False) -> tuple[int, Board]:
    """The default board: shuffled terrain, tokens along the spiral (or shuffled), shuffled harbours."""
    hexes = base_coordinates()
    terrains = list(BASE_TERRAINS)
    stream = chance.shuffle(stream, terrains)
    terrain = terrains + [SEA] * 18
    producing = [i for i in range(19) if terrain[i] != DESERT]
    if random_tokens:
        stream, tokens = deal_tokens_without_clash(stream, hexes, producing, list(SPIRAL_TOKENS))
    else:
        stream, corner = chance.below(stream, 6)
        tokens = [0] * len(hexes)
        laid = iter(SPIRAL_TOKENS)
        for h in BASE_SPIRALS[corner]:
            if terrain[h] != DESERT:
                tokens[h] = next(laid)
    kinds = list(BASE_HARBOURS)
    stream = chance.shuffle(stream, kinds)
    slots = base_harbour_slots(hexes, [t in LAND for t in terrain])
    desert = terrain.index(DESERT)
    return stream, Board(hexes, terrain, tokens, list(zip(slots, kinds, strict=True)), robber=desert)


# The beginner board of the base game, row by row from the top, as (terrain, token).
BEGINNER_ROWS = (
    ((MOUNTAINS, 10), (PASTURE, 2), (FOREST, 9)),
    ((FIELDS, 12), (HILLS, 6), (PASTURE, 4), (HILLS, 10)),
    ((FIELDS, 9), (FOREST, 11), (DESERT, 0), (FOREST, 3), (MOUNTAINS, 8)),
    ((FOREST, 8), (MOUNTAINS, 3), (FIELDS, 4), (PASTURE, 5)),
    ((HILLS, 5), (FIELDS, 6), (PASTURE, 11)),
)
BEGINNER_HARBOURS = (GENERIC_HARBOUR, 3, 4, GENERIC_HARBOUR, 2, GENERIC_HARBOUR, GENERIC_HARBOUR, 1, 0)


def beginner_base_board() -> Board:
    hexes = base_coordinates()
    index = {h: i for i, h in enumerate(hexes)}
    terrain = [SEA] * len(hexes)
    tokens = [0] * len(hexes)
    for row_number, row in enumerate(BEGINNER_ROWS):
        r = row_number - 2
        q_start = max(-2, -2 - r)
        for offset, (kind, token) in enumerate(row):
            h = index[(q_start + offset, r)]
            terrain[h] = kind
            tokens[h] = token
    slots = base_harbour_slots(hexes, [t in LAND for t in terrain])
    harbours = list(zip(slots, BEGINNER_HARBOURS, strict=True))
    return Board(hexes, terrain, tokens, harbours, robber=terrain.index(DESERT))
