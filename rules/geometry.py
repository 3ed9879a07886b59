"""Hex topology computed once per set of coordinates: vertices, edges and their adjacency as integer ids.

Hexes are pointy-top in axial coordinates (q, r). Corners are named on an integer lattice where a hex's
centre is (2q + r, 3r); that makes shared corners and edges exact dictionary keys, with no floating point.
Terrain is not part of the topology: the same frame serves every board laid on it.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

AXIAL_DIRECTIONS = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))
# Corner offsets on the lattice, clockwise from the top corner.
CORNER_OFFSETS = ((0, -2), (1, -1), (1, 1), (0, 2), (-1, 1), (-1, -1))

Coordinate = tuple[int, int]


@dataclass(frozen=True, slots=True)
class Topology:
    hexes: tuple[Coordinate, ...]
    hex_index: dict[Coordinate, int]
    hex_vertices: tuple[tuple[int, ...], ...]  # six corners, clockwise from the top
    hex_edges: tuple[tuple[int, ...], ...]  # edge k joins corner k and k + 1
    hex_neighbors: tuple[tuple[int, ...], ...]
    vertex_points: tuple[Coordinate, ...]  # lattice position, for drawing
    vertex_hexes: tuple[tuple[int, ...], ...]
    vertex_edges: tuple[tuple[int, ...], ...]
    vertex_neighbors: tuple[tuple[int, ...], ...]
    edge_vertices: tuple[tuple[int, int], ...]
    edge_hexes: tuple[tuple[int, ...], ...]

    @property
    def vertex_count(self) -> int:
        return len(self.vertex_points)

    @property
    def edge_count(self) -> int:
        return len(self.edge_vertices)


def ring(radius: int, centre: Coordinate = (0, 0)) -> list[Coordinate]:
    """The hexes at a distance `radius` from `centre`, walking clockwise from the corner at direction 4."""
    if radius == 0:
        return [centre]
    q = centre[0] + AXIAL_DIRECTIONS[4][0] * radius
    r = centre[1] + AXIAL_DIRECTIONS[4][1] * radius
    out = []
    for direction in range(6):
        dq, dr = AXIAL_DIRECTIONS[direction]
        for _ in range(radius):
            out.append((q, r))
            q, r = q + dq, r + dr
    return out


def hex_distance(a: Coordinate, b: Coordinate) -> int:
    dq, dr = a[0] - b[0], a[1] - b[1]
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


@lru_cache(maxsize=64)
def topology_for(hexes: tuple[Coordinate, ...]) -> Topology:
    """Build (once per coordinate set) the integer-id topology of these hexes, in the order given."""
    hex_index = {h: i for i, h in enumerate(hexes)}
    if len(hex_index) != len(hexes):
        raise ValueError("duplicate hex coordinates")
    corner_keys: list[list[Coordinate]] = []
    all_points: set[Coordinate] = set()
    for q, r in hexes:
        cx, cy = 2 * q + r, 3 * r
        keys = [(cx + dx, cy + dy) for dx, dy in CORNER_OFFSETS]
        corner_keys.append(keys)
        all_points.update(keys)
    # Number vertices top to bottom, left to right, so ids read naturally on the board.
    points = sorted(all_points, key=lambda p: (p[1], p[0]))
    vertex_id = {p: i for i, p in enumerate(points)}
    hex_vertices = tuple(tuple(vertex_id[k] for k in keys) for keys in corner_keys)

    edge_pairs: set[tuple[int, int]] = set()
    for corners in hex_vertices:
        for k in range(6):
            a, b = corners[k], corners[(k + 1) % 6]
            edge_pairs.add((min(a, b), max(a, b)))
    edge_list = sorted(edge_pairs)
    edge_id = {pair: i for i, pair in enumerate(edge_list)}
    hex_edges = tuple(
        tuple(edge_id[(min(c[k], c[(k + 1) % 6]), max(c[k], c[(k + 1) % 6]))] for k in range(6)) for c in hex_vertices
    )

    vertex_hexes: list[list[int]] = [[] for _ in points]
    for h, corners in enumerate(hex_vertices):
        for v in corners:
            vertex_hexes[v].append(h)
    edge_hexes: list[list[int]] = [[] for _ in edge_list]
    for h, edges in enumerate(hex_edges):
        for e in edges:
            edge_hexes[e].append(h)
    vertex_edges: list[list[int]] = [[] for _ in points]
    vertex_neighbors: list[list[int]] = [[] for _ in points]
    for e, (a, b) in enumerate(edge_list):
        vertex_edges[a].append(e)
        vertex_edges[b].append(e)
        vertex_neighbors[a].append(b)
        vertex_neighbors[b].append(a)
    hex_neighbors = tuple(
        tuple(hex_index[(q + dq, r + dr)] for dq, dr in AXIAL_DIRECTIONS if (q + dq, r + dr) in hex_index)
        for q, r in hexes
    )
    return Topology(
        hexes=tuple(hexes),
        hex_index=hex_index,
        hex_vertices=hex_vertices,
        hex_edges=hex_edges,
        hex_neighbors=hex_neighbors,
        vertex_points=tuple(points),
        vertex_hexes=tuple(tuple(x) for x in vertex_hexes),
        vertex_edges=tuple(tuple(x) for x in vertex_edges),
        vertex_neighbors=tuple(tuple(x) for x in vertex_neighbors),
        edge_vertices=tuple(edge_list),
        edge_hexes=tuple(tuple(x) for x in edge_hexes),
    )
